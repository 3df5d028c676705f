// Worker entry: scans a share of the NDJSON files and posts the plain
// result back (typed arrays transferred, not copied).

import { type FrameName, scanFiles, transferables } from "./_event_scan.ts";

interface Job {
  files: string[];
  frames: FrameName[];
  strict: boolean;
}

self.onmessage = (message: MessageEvent<Job>) => {
  const { files, frames, strict } = message.data;
  try {
    const result = scanFiles(files, frames, strict, () => self.postMessage({ progress: 1 }));
    self.postMessage({ result }, { transfer: transferables(result) });
  } catch (error) {
    const { name, message: text } = error as Error;
    self.postMessage({ error: { name, message: text } });
  }
};

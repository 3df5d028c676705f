// Worker entry of the site writer: writes the pages of the log files it is
// sent, one at a time, and posts each file's index entries back.

/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />

import { type PageContext, writeFilePages } from "./_site_pages.ts";

/** A message to the worker: the context once, then one file at a time. */
export type SiteJob = { context: PageContext } | { file: string; index: number };

let context: PageContext | undefined;

self.onmessage = async (message: MessageEvent<SiteJob>) => {
  const job = message.data;
  if ("context" in job) {
    context = job.context;
    return;
  }
  try {
    const result = await writeFilePages(job.file, context!, { shard: job.index });
    self.postMessage({ index: job.index, ...result });
  } catch (error) {
    const { name, message: text } = error as Error;
    self.postMessage({ index: job.index, error: { name, message: `${job.file}: ${text}` } });
  }
};

/**
 * Web Worker entry of the grid's worker pool: imports the runner modules it
 * is told to (so runners registered outside this folder are seen here too),
 * then plays the episodes it is sent and appends their logs to its own
 * segment of each run folder (`segment-<tag>.ndjson`, opened at the first
 * episode).
 *
 * Messages in: `{ type: "init", modules, tag }`, then `{ type: "run", job, episode, dir }`.
 * Messages out: `{ type: "ready" }`, `{ type: "init_error", message }` and
 * `{ type: "done", job, summary }`.
 *
 * @module
 */
/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
import { executeEpisode, failedSummary } from "./execute.ts";
import { type LogText, SegmentWriter } from "./segments.ts";
import type { WorkerRequest, WorkerResponse } from "./worker_pool.ts";

const post = (m: WorkerResponse) => self.postMessage(m);
let tag = "";
const segments = new Map<string, SegmentWriter>();

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const m = event.data;
  if (m.type === "init") {
    tag = m.tag;
    try {
      for (const url of m.modules) await import(url);
      post({ type: "ready" });
    } catch (err) {
      post({ type: "init_error", message: err instanceof Error ? err.message : String(err) });
    }
    return;
  }
  const writer = () => {
    let w = segments.get(m.dir);
    if (!w) segments.set(m.dir, w = SegmentWriter.create(m.dir, tag));
    return w;
  };
  const log = {
    append: (events: Parameters<SegmentWriter["append"]>[0]) => writer().append(events),
    appendText: (text: LogText) => writer().appendText(text),
  };
  const summary = await executeEpisode(m.episode, { log }).catch((err) =>
    failedSummary(
      m.episode.id,
      `Writing the log failed: ${err instanceof Error ? err.message : String(err)}`,
    )
  );
  post({ type: "done", job: m.job, summary });
};

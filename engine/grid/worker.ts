/**
 * Web Worker entry of the grid's worker pool: imports the runner modules it
 * is told to (so runners registered outside this folder are seen here too),
 * then plays the episodes it is sent and writes their logs.
 *
 * Messages in: `{ type: "init", modules }`, then `{ type: "run", job, episode, dir }`.
 * Messages out: `{ type: "ready" }`, `{ type: "init_error", message }` and
 * `{ type: "done", job, summary }`.
 *
 * @module
 */
/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
import { executeEpisode, failedSummary } from "./execute.ts";
import type { WorkerRequest, WorkerResponse } from "./worker_pool.ts";

const post = (m: WorkerResponse) => self.postMessage(m);

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const m = event.data;
  if (m.type === "init") {
    try {
      for (const url of m.modules) await import(url);
      post({ type: "ready" });
    } catch (err) {
      post({ type: "init_error", message: err instanceof Error ? err.message : String(err) });
    }
    return;
  }
  const summary = await executeEpisode(m.episode, { dir: m.dir }).catch((err) =>
    failedSummary(
      m.episode.id,
      `Writing the log failed: ${err instanceof Error ? err.message : String(err)}`,
    )
  );
  post({ type: "done", job: m.job, summary });
};

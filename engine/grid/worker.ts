/**
 * Web Worker entry of the grid's worker pool: imports the game modules it is
 * told to (so games registered outside the repository are played here too),
 * then plays the episodes it is sent, in order, and appends their logs to its
 * own segment of each run folder (`segment-<tag>.ndjson`, opened at the first
 * episode). The logs of episodes without model calls are held and written
 * together just before their results are sent (`SegmentWriter`'s
 * `holdBytes`), so an episode is reported done only once its log is written;
 * a worker killed in between loses only unreported episodes, which resume
 * plays again. An episode with model calls is written at once.
 *
 * Messages in: `{ type: "init", modules, tag, report, stop }`, then
 * `{ type: "run", jobs }` (a batch) and `{ type: "stop" }`. Messages out:
 * `{ type: "ready" }`, `{ type: "init_error", message }`,
 * `{ type: "done", results }` (finished episodes, sent every `report`
 * episodes and whenever the worker has nothing left to play) and
 * `{ type: "stopped" }`, once it has seen the pool's stop flag (read between
 * episodes, see `worker_pool.ts`): after it, the worker writes nothing.
 *
 * @module
 */
/// <reference no-default-lib="true" />
/// <reference lib="deno.worker" />
import { failedWrite, HeldResults } from "./_held_results.ts";
import { executeEpisode } from "./execute.ts";
import { type LogText, SegmentWriter } from "./segments.ts";
import type { WorkerJob, WorkerRequest, WorkerResponse, WorkerResult } from "./worker_pool.ts";

const post = (m: WorkerResponse) => self.postMessage(m);
let tag = "";
let report = 1;
let segmentBytes: number | undefined;
const segments = new Map<string, SegmentWriter>();
/**
 * Held mock episodes' logs, per segment, up to this many bytes (about 30
 * blocks of a bank-run episode): written with one write, each segment's before
 * its episodes are reported.
 */
const HOLD_BYTES = 1 << 20;
// The finished episodes whose logs a run folder's writer may still hold.
const unwritten = new HeldResults();
const writeHeld = () => unwritten.write((dir) => segments.get(dir));
const queue: WorkerJob[] = [];
let playing = false;
// The pool's stop flag (shared memory, read between episodes: see worker_pool.ts).
let stop: Int32Array | undefined;
const stopping = () => stop !== undefined && Atomics.load(stop, 0) !== 0;
let saidStopped = false;
/** Plays nothing more, writes nothing more (held logs are dropped, never reported), and says so. */
function sayStopped(): void {
  queue.length = 0;
  if (saidStopped) return;
  saidStopped = true;
  post({ type: "stopped" });
}

self.onmessage = async (event: MessageEvent<WorkerRequest>) => {
  const m = event.data;
  if (m.type === "stop") {
    // While it plays, the loop says so after its episode.
    if (!playing) sayStopped();
    return;
  }
  if (m.type === "init") {
    tag = m.tag;
    report = m.report;
    segmentBytes = m.segmentBytes;
    stop = m.stop;
    try {
      for (const url of m.modules) await import(url);
      post({ type: "ready" });
    } catch (err) {
      post({ type: "init_error", message: err instanceof Error ? err.message : String(err) });
    }
    return;
  }
  if (stopping()) {
    sayStopped();
    return;
  }
  queue.push(...m.jobs);
  if (!playing) await play();
};

/** Plays the queued jobs in order, reporting results in batches. */
async function play(): Promise<void> {
  playing = true;
  let results: WorkerResult[] = [];
  try {
    while (queue.length > 0 && !stopping()) {
      const job = queue.shift()!;
      const result = { job: job.job, summary: await playJob(job) };
      results.push(result);
      unwritten.note(job.dir, segments.get(job.dir), result);
      if (results.length >= report && !stopping()) {
        writeHeld();
        post({ type: "done", results });
        results = [];
      }
    }
  } finally {
    playing = false;
    if (stopping()) sayStopped();
    else {
      writeHeld();
      if (results.length > 0) post({ type: "done", results });
    }
  }
}

function playJob(m: WorkerJob) {
  const writer = () => {
    let w = segments.get(m.dir);
    if (!w) {
      w = SegmentWriter.create(m.dir, tag, { maxBytes: segmentBytes, holdBytes: HOLD_BYTES });
      segments.set(m.dir, w);
    }
    return w;
  };
  const log = {
    append: (events: Parameters<SegmentWriter["append"]>[0]) => writer().append(events),
    appendText: (text: LogText) => writer().appendText(text),
  };
  return executeEpisode(m.episode, { log }).catch((err) =>
    failedWrite(m.episode.id, err, segments.get(m.dir)?.path ?? m.dir)
  );
}

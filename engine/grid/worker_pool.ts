/**
 * A pool of Web Workers that play mock-agent episodes in parallel, each
 * worker holding up to `depth` episodes at once (so it never waits for the
 * main thread between two) and appending their logs to its own segment.
 *
 * Messages go in batches: the episodes asked for in one turn of the main
 * thread's event loop travel to a worker in one message, and a worker
 * reports finished episodes in batches of {@linkcode REPORT_EVERY} (half its
 * depth when that is fewer; and whenever it runs out of work). A message
 * between threads cost a mock episode's worth of time on a busy machine
 * (serialising, waking the other thread), so one per episode each way capped
 * a worker well below its rate in-process.
 *
 * The depth (default {@linkcode DEFAULT_DEPTH}) is how long the main thread
 * may take to answer a report before the worker runs dry: with 16 (8 left
 * after a report, 1.6 ms of Stag Hunt episodes) a worker of a one-worker
 * grid on this 2-core machine ran out of work every 14 episodes or so and
 * sat idle 4-10% of the time, waiting for the main thread to be scheduled;
 * with 64 and reports of 8 it is idle about 1% (docs/benchmarks.md). A
 * deeper queue with reports of half of it (32) idled more again: the main
 * thread answers a batch later.
 *
 * @module
 */
import type { GridEpisode } from "./cells.ts";
import type { EpisodeSummary } from "./execute.ts";
import { sessionTag } from "./segments.ts";

/** One episode for a worker to play. */
export interface WorkerJob {
  /** Job number, echoed in its result. */
  job: number;
  /** The episode. */
  episode: GridEpisode;
  /** The run folder its log goes to. */
  dir: string;
}

/** One finished episode. */
export interface WorkerResult {
  /** Job number. */
  job: number;
  /** What the episode reports. */
  summary: EpisodeSummary;
}

/**
 * A message to a worker. `stop` is the pool's stop flag (one `Int32Array`
 * element over shared memory), which a worker reads before each episode and
 * before each write of held logs: a message would wait until the worker's
 * queue is played, as mock episodes never yield to its event loop.
 */
export type WorkerRequest =
  | {
    type: "init";
    modules: string[];
    tag: string;
    report: number;
    segmentBytes?: number;
    stop: Int32Array;
  }
  | { type: "run"; jobs: WorkerJob[] }
  | { type: "stop" };

/**
 * A message from a worker. `stopped`: it has seen the stop flag, writes
 * nothing more and plays no other episode (what it held unwritten is
 * dropped: those episodes were never reported, and a resume plays them).
 */
export type WorkerResponse =
  | { type: "ready" }
  | { type: "init_error"; message: string }
  | { type: "done"; results: WorkerResult[] }
  | { type: "stopped" };

/** Options of {@linkcode WorkerPool}. */
export interface WorkerPoolOptions {
  /** Workers. Default `navigator.hardwareConcurrency`. */
  size?: number;
  /** Episodes in flight per worker. Default {@linkcode DEFAULT_DEPTH}. */
  depth?: number;
  /** Module URLs each worker imports before its first episode (e.g. to register runners). Default none. */
  modules?: readonly string[];
  /**
   * Start of the segment names: worker k (counting replacements of crashed
   * workers) appends to `segment-<segmentTag>-w<k>.ndjson`. Default: a new
   * `sessionTag()`.
   */
  segmentTag?: string;
  /** A worker starts a new segment file past this size (`SegmentWriter`'s `maxBytes`). Default `SEGMENT_MAX_BYTES`. */
  segmentBytes?: number;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  jobs: Map<number, { resolve: (s: EpisodeSummary) => void; reject: (e: Error) => void }>;
  /** Jobs asked for in this turn of the event loop, sent together. */
  outbox: WorkerJob[];
  /** Settles once the worker has stopped (said so, or crashed). */
  stopped: Promise<void>;
}

/**
 * How long {@linkcode WorkerPool.close} waits for a worker to say it has
 * stopped (it finishes the episode it is playing first) before it
 * terminates it regardless.
 */
const STOP_WAIT_MS = 10_000;

const WORKER_URL = new URL("./worker.ts", import.meta.url).href;

/**
 * Episodes in flight per worker unless a pool is told otherwise.
 *
 * @example
 * ```ts
 * import { DEFAULT_DEPTH } from "./worker_pool.ts";
 * if (DEFAULT_DEPTH !== 64) throw new Error();
 * ```
 */
export const DEFAULT_DEPTH = 64;

/**
 * How many finished episodes a worker reports in one message, at most.
 *
 * @example
 * ```ts
 * import { REPORT_EVERY } from "./worker_pool.ts";
 * if (REPORT_EVERY !== 8) throw new Error();
 * ```
 */
export const REPORT_EVERY = 8;

/**
 * The report batch of a worker holding `depth` episodes:
 * {@linkcode REPORT_EVERY}, or half its depth when that is fewer (at least 1),
 * so that a worker always has episodes left to play when it reports.
 *
 * @example
 * ```ts
 * import { reportEvery } from "./worker_pool.ts";
 * if (reportEvery(64) !== 8 || reportEvery(6) !== 3 || reportEvery(1) !== 1) throw new Error();
 * ```
 */
export function reportEvery(depth: number): number {
  return Math.max(1, Math.min(REPORT_EVERY, Math.floor(depth / 2)));
}

/**
 * Web Workers playing episodes.
 *
 * @example
 * ```ts
 * import { WorkerPool } from "./worker_pool.ts";
 * const dir = await Deno.makeTempDir();
 * const pool = new WorkerPool({ size: 1 });
 * try {
 *   const s = await pool.run({
 *     id: "ep", index: 0, run: "demo", cell: "c", replicate: 0, seed: 1,
 *     condition: { game: "frail", env: "bank_run", mechanism: "M0", regime: "stable", params: {} },
 *     agents: { kind: "mock", mock: {} },
 *   }, dir);
 *   if (s.status !== "ok") throw new Error(s.error ?? "");
 * } finally {
 *   await pool.close();
 * }
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class WorkerPool {
  /** Workers in the pool. */
  readonly size: number;
  /** Episodes in flight per worker. */
  readonly depth: number;
  readonly #modules: string[];
  readonly #tag: string;
  readonly #segmentBytes: number | undefined;
  readonly #slots: Slot[] = [];
  #next = 0;
  #started = 0;
  #closed = false;
  // The stop flag every worker reads (shared memory: see WorkerRequest).
  readonly #stop = new Int32Array(new SharedArrayBuffer(4));

  /** Starts the workers. */
  constructor(options: WorkerPoolOptions = {}) {
    const size = options.size ?? navigator.hardwareConcurrency;
    const depth = options.depth ?? DEFAULT_DEPTH;
    if (!Number.isInteger(size) || size < 1) {
      throw new RangeError(`Worker pool option "size" must be an integer >= 1, got ${size}`);
    }
    if (!Number.isInteger(depth) || depth < 1) {
      throw new RangeError(`Worker pool option "depth" must be an integer >= 1, got ${depth}`);
    }
    this.size = size;
    this.depth = depth;
    this.#modules = [...(options.modules ?? [])];
    this.#tag = options.segmentTag ?? sessionTag();
    this.#segmentBytes = options.segmentBytes;
    for (let i = 0; i < size; i++) this.#slots.push(this.#start());
  }

  #start(): Slot {
    const worker = new Worker(WORKER_URL, { type: "module" });
    const jobs: Slot["jobs"] = new Map();
    let ready!: () => void;
    let failed!: (e: Error) => void;
    let stopped!: () => void;
    const slot: Slot = {
      worker,
      jobs,
      outbox: [],
      ready: new Promise<void>((res, rej) => {
        ready = res;
        failed = rej;
      }),
      stopped: new Promise<void>((res) => stopped = res),
    };
    slot.ready.catch(() => {});
    worker.onmessage = (event: MessageEvent<WorkerResponse>) => {
      const m = event.data;
      if (m.type === "ready") ready();
      else if (m.type === "stopped") stopped();
      else if (m.type === "init_error") {
        failed(new Error(`A grid worker failed to start: ${m.message}`));
      } else {
        for (const r of m.results) {
          jobs.get(r.job)?.resolve(r.summary);
          jobs.delete(r.job);
        }
      }
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      const err = new Error(`A grid worker crashed: ${event.message}`);
      failed(err);
      stopped();
      for (const j of jobs.values()) j.reject(err);
      jobs.clear();
      slot.outbox.length = 0;
      // Replace the crashed worker so later episodes still have somewhere to run.
      worker.terminate();
      if (!this.#closed) {
        const i = this.#slots.indexOf(slot);
        if (i >= 0) this.#slots[i] = this.#start();
      }
    };
    // A new worker gets a new segment: a crashed one's may end in a torn block.
    const tag = `${this.#tag}-w${this.#started++}`;
    const report = reportEvery(this.depth);
    worker.postMessage(
      {
        type: "init",
        modules: this.#modules,
        tag,
        report,
        segmentBytes: this.#segmentBytes,
        stop: this.#stop,
      } satisfies WorkerRequest,
    );
    return slot;
  }

  /** Plays one episode on the least busy worker; resolves with its summary. */
  async run(episode: GridEpisode, dir: string): Promise<EpisodeSummary> {
    if (this.#closed) throw new Error("The worker pool is closed");
    let slot = this.#slots[0];
    for (const s of this.#slots) if (s.jobs.size < slot.jobs.size) slot = s;
    const job = this.#next++;
    const done = new Promise<EpisodeSummary>((resolve, reject) => {
      slot.jobs.set(job, { resolve, reject });
    });
    await slot.ready;
    // The first job of a turn sends, after the turn, every job asked for in it.
    if (slot.outbox.push({ job, episode, dir }) === 1) {
      queueMicrotask(() => {
        const jobs = slot.outbox.splice(0);
        if (jobs.length > 0 && !this.#closed) {
          slot.worker.postMessage({ type: "run", jobs } satisfies WorkerRequest);
        }
      });
    }
    return done;
  }

  /**
   * Stops every worker and terminates it; episodes in flight are abandoned
   * (rejected). Resolves once each worker has said it stopped, after the
   * episode it was playing, so that none writes to its run folder after
   * this (`Worker.terminate()` alone does not stop a worker whose episodes
   * settle in microtasks); a worker that has not said so within 10 s is
   * terminated regardless.
   */
  async close(): Promise<void> {
    this.#closed = true;
    Atomics.store(this.#stop, 0, 1);
    const err = new Error("The worker pool was closed");
    for (const s of this.#slots) {
      for (const j of s.jobs.values()) j.reject(err);
      s.jobs.clear();
      s.worker.postMessage({ type: "stop" } satisfies WorkerRequest);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => timer = setTimeout(resolve, STOP_WAIT_MS));
    await Promise.race([Promise.all(this.#slots.map((s) => s.stopped)), late]);
    clearTimeout(timer);
    for (const s of this.#slots) s.worker.terminate();
  }
}

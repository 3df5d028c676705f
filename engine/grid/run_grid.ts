/**
 * `runGrid`: runs a spec's episodes into a run folder, resumably, with
 * progress, in Web Workers (rule-based agents) or concurrently in-process
 * (LLM agents, or a custom agents factory). It is the one grid runner, for
 * rule-based and LLM agents alike.
 *
 * The run folder holds `manifest.json` and the episode logs in append-only
 * segments, one per worker and session (`segment-<session>-<writer>.ndjson`
 * with its `.idx`; see `segments.ts`): each finished episode is one block
 * appended with one synchronous write. Starting the same spec (and shard) on
 * the same folder resumes it: finished episodes are skipped (their logs are
 * kept, so nothing is paid twice); a block torn by a kill is cut away and its
 * episode played again, so nothing is duplicated; with a response cache, a
 * replayed episode's calls are answered from the cache. A different spec or
 * shard on the same folder is refused.
 *
 * One writer per folder: the folder is locked (`lockFolder`) from before
 * resume looks at it until the run returns; a second process (or a second
 * `runGrid` of this one) on the same folder is refused with a
 * `FolderLockedError` naming the holder, and a lock left by a killed run is
 * taken over. Resume removes only files of its own naming schemes.
 *
 * LLM agents: given an `LlmRuntime` (`runtime`), `runGrid` builds the agents
 * of every episode whose entry names models (see `gridLlmAgents`); all
 * episodes share the runtime, so provider limits, cache and ledger hold
 * across them. Before any episode starts (and before any file is written)
 * every model must be configured, every game must have a template for each
 * call, and (unless `preflight: false`) every model must pass `preflight`,
 * so a missing key, an unreachable base URL or an unknown model is one
 * `LlmPreflightError`. Progress then also shows tokens, estimated cost,
 * calls, and what calls are waiting on (a provider slot, a rate-limit
 * window, a retry).
 *
 * Spend and budget: with LLM episodes, every request the runtime sends is
 * written to the folder's spend ledger (`spend.jsonl`, see
 * `spend_ledger.ts`) as it is reserved and as it settles, and read back by
 * every resume, so `budget` bounds the run as a whole, across sessions (a
 * shard's folder has its own ledger, so its budget is its own). `runGrid`
 * attaches the ledger and the budget to the runtime for the run
 * (`LlmRuntime.useBudget`, detached when it returns; preflight's requests
 * count too): each request reserves its worst case before it is sent, and
 * one that does not fit in what is left is not sent: the runtime halts and
 * the episode that needed it is abandoned (not logged, played again on a
 * resume with a larger budget). Billed spend therefore never exceeds the
 * budget, however many requests are in flight. A cost budget needs a price
 * for every model. A resume whose budget is already spent starts nothing
 * (and sends no preflight request). The result's `spend`, the summary and
 * the manifest (`spend`, and each session's `spent`) say what was spent, what
 * is left and the limit.
 *
 * Stops: once the budget is reached, or once a provider is found failing
 * (the runtime's circuit breaker opened: too many failed calls in a row, a
 * refused key, a 404; or every model call of a finished episode failed), or
 * the runtime halted (a budget, a cache or a spend ledger that cannot be
 * written), no new episode starts, those in flight finish (calls to a
 * broken provider fail at once; a halted runtime sends nothing more), and
 * the result (`stopped`, `stoppedBy`), the progress line and the manifest say
 * why, naming the provider and its last error. Running the same spec again
 * resumes. A provider found failing after the last episode started (every
 * episode already in flight) is recorded the same way once the run ends.
 *
 * Signals and write errors: `signal` stops starting episodes (its reason,
 * when a string such as `"Received SIGTERM"`, is recorded as why, with
 * `stoppedBy: "signal"`) and `abandon` stops waiting for those in flight;
 * either way the manifest ends `"interrupted"`, its session counting the
 * episodes saved. A log that cannot be written (`ENOSPC`, `EIO`, a folder
 * planted where a segment goes, ...) stops the run the same way
 * (`stoppedBy: "disk"`, `stopped` naming the file and the error); its
 * episode is not logged and plays again on resume. A manifest that cannot
 * be written at the start throws a `FolderWriteError` (nothing was played);
 * at the end it is a `"disk"` stop (the manifest then still says
 * `"running"`, which resumes alike). Any other error once the manifest says
 * `"running"` marks it `"interrupted"` where it can still be written before
 * it propagates.
 *
 * Degraded episodes: an episode in which some decision took its neutral
 * default because its agent failed ends `"degraded"` (with the counts); it is
 * reported apart from ok and failed episodes (`degraded`), and the analysis
 * tables leave it out.
 *
 * Choices: an episode that crashed keeps its log (ending in `episode_end`
 * with status `"error"`), and a degraded one its log; both count as
 * finished on resume unless `redoFailed`, which retires the old block and
 * plays them again; an episode that could not start leaves no log and is
 * played again on resume; an episode abandoned in flight (`abandon`) is not
 * logged and is played again on resume. Workers are used when there is neither an `agents`
 * factory nor an LLM episode to play with `runtime` (a function cannot cross
 * into a worker); their number defaults to the cores. Usage comes from the
 * runtime's ledger when there is one (live, calls in flight included), else
 * from the logs of the episodes played.
 *
 * @module
 */
import { awaitHint, withJupyterDisplay } from "../core/jupyter.ts";
import type { GridEpisode } from "./cells.ts";
import { type EpisodeSummary, executeEpisode, writeFailedSummary } from "./execute.ts";
import {
  type GridResult,
  type RunGridOptions,
  RunSession,
  type SessionOptions,
} from "./grid_session.ts";
import { gridLlmAgents } from "./llm_agents.ts";
import { gridSummary } from "./grid_summary.ts";
import { type GridPlan, planGrid } from "./plan.ts";
import { lockFolder, type LockHolder } from "./lock.ts";
import { noLlmAgentsError } from "./runners.ts";
import { poolSize } from "./scheduler.ts";
import { type Shard, shardFolderName } from "./shard.ts";
import { modelsOf } from "./spec.ts";
import { WorkerPool } from "./worker_pool.ts";
import { holdsFunction } from "../games/staghunt/rule_spec.ts";

export type { GridResult, GridSpend, RunGridOptions } from "./grid_session.ts";

/** The default number of workers and where it comes from (see {@linkcode defaultWorkers}). */
export interface DefaultWorkers {
  /** Workers. */
  workers: number;
  /** Where the number comes from, in words, e.g. `"SLURM_CPUS_PER_TASK=4"` or `"2 cores available"`. */
  from: string;
}

/**
 * How many workers a grid uses when none are asked for: a Slurm task's
 * `SLURM_CPUS_PER_TASK` (its `--cpus-per-task`) when the variable is set and
 * may be read, else the cores available to the process
 * (`navigator.hardwareConcurrency`, which on Linux counts the CPUs of the
 * process's affinity mask). `from` says which, and when the variable may not
 * be read (no `--allow-env`), says so.
 *
 * @example
 * ```ts
 * import { defaultWorkers } from "./run_grid.ts";
 * const d = defaultWorkers();
 * if (!(d.workers >= 1) || d.from === "") throw new Error();
 * ```
 * @throws {RangeError} When `SLURM_CPUS_PER_TASK` is set but not an integer >= 1.
 */
export function defaultWorkers(): DefaultWorkers {
  const variable = "SLURM_CPUS_PER_TASK";
  const cores = navigator.hardwareConcurrency;
  const readable = Deno.permissions.querySync({ name: "env", variable }).state === "granted";
  if (!readable) {
    return {
      workers: cores,
      from: `${cores} cores available (${variable} not read: no --allow-env=${variable})`,
    };
  }
  const text = Deno.env.get(variable);
  if (text === undefined) return { workers: cores, from: `${cores} cores available` };
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new RangeError(`${variable} must be an integer >= 1, got "${text}"`);
  }
  return { workers: n, from: `${variable}=${n}` };
}

/**
 * The default run folder of a spec name and shard.
 *
 * @example
 * ```ts
 * import { defaultRunFolder } from "./run_grid.ts";
 * if (defaultRunFolder("paper", { index: 3, count: 8 }) !== "runs/paper/shard-3-of-8") throw new Error();
 * ```
 */
export function defaultRunFolder(name: string, shard: Shard | null): string {
  return shard ? `runs/${name}/${shardFolderName(shard)}` : `runs/${name}`;
}

function intAtLeast(name: string, v: number, min: number): number {
  if (!Number.isSafeInteger(v) || v < min) {
    throw new RangeError(`Grid option "${name}" must be an integer >= ${min}, got ${v}`);
  }
  return v;
}

/**
 * Runs (or resumes) a grid.
 *
 * @example
 * ```ts
 * import { runGrid } from "./run_grid.ts";
 * const out = await Deno.makeTempDir();
 * const spec = { name: "demo", episodes: 2, blocks: [
 *   { game: "frail", envs: ["bank_run"], mechanisms: ["M0", "M3"] },
 *   { game: "staghunt", N: [3], M: [2], T: [2], F: [1] },
 * ] };
 * const first = await runGrid(spec, { out, workers: 0, progress: false });
 * if (first.played !== 6 || first.failed.length !== 0) throw new Error(JSON.stringify(first));
 * const again = await runGrid(spec, { out, workers: 0, progress: false });
 * if (again.skipped !== 6 || again.played !== 0) throw new Error();
 * await Deno.remove(out, { recursive: true });
 * ```
 *
 * @example LLM agents through the local OpenAI-compatible server
 * ```ts
 * import { LlmRuntime } from "../agents/llm/runtime.ts";
 * import { serveLocalModel } from "../agents/llm/server/local_server.ts";
 * import { runGrid } from "./run_grid.ts";
 * const server = serveLocalModel();
 * const out = await Deno.makeTempDir();
 * try {
 *   const runtime = new LlmRuntime({ models: [{ id: "local", baseURL: server.url, model: "coordlab-stay", testDouble: true }] });
 *   const r = await runGrid({ episodes: 1, blocks: [
 *     { game: "frail", envs: ["bank_run"], mechanisms: ["M0"], agents: [{ model: "local" }] },
 *   ] }, { out, runtime, progress: false });
 *   // M0: 15 withdrawal calls a round for 12 rounds; preflight sent one more request.
 *   if (r.played !== 1 || r.usage.calls !== 180 || server.stats().chat !== 181) throw new Error();
 * } finally {
 *   await server.close();
 *   await Deno.remove(out, { recursive: true });
 * }
 * ```
 * @throws {RangeError} For a bad spec or option, a grid above `maxEpisodes`, a folder holding another run, a model id the runtime lacks, or a cost budget with a model that has no price.
 * @throws {TypeError} When the spec names models and there is neither `runtime` nor `agents`, or a game lacks a template.
 * @throws {LlmPreflightError} When a model cannot be used (before any episode starts).
 * @throws {FolderLockedError} When another process (or run) is writing the folder, or (without `takeOverLock`) its lock names another host.
 * @throws {LockPathError} When a symbolic link or anything but a file of its own is at the lock's path.
 * @throws {FolderWriteError} When the manifest cannot be written at the start (nothing is played).
 */
export function runGrid(spec: unknown, options: RunGridOptions = {}): Promise<GridResult> {
  // A notebook that forgets `await` is told so (awaitHint).
  return awaitHint(playGrid(spec, options), "runGrid(...)", GRID_RESULT_FIELDS);
}

/** Fields of a {@linkcode GridResult}: read on runGrid's promise, they say to await it. */
const GRID_RESULT_FIELDS = [
  "dir",
  "run",
  "total",
  "skipped",
  "played",
  "failed",
  "degraded",
  "remaining",
  "interrupted",
  "stopped",
  "stoppedBy",
  "usage",
] as const;

async function playGrid(spec: unknown, options: RunGridOptions): Promise<GridResult> {
  const t0 = performance.now();
  const plan = planGrid(spec, { shard: options.shard, maxEpisodes: options.maxEpisodes });
  const workers = intAtLeast("workers", options.workers ?? defaultWorkers().workers, 0);
  const concurrency = intAtLeast("concurrency", options.concurrency ?? 8, 1);
  if (options.segmentBytes !== undefined) intAtLeast("segmentBytes", options.segmentBytes, 1);
  if (plan.llm && !options.agents && !options.runtime) {
    throw noLlmAgentsError(plan.episodes.find((e) => modelsOf(e.agents).length > 0)!.id);
  }
  const dir = options.out ?? defaultRunFolder(plan.spec.name, plan.shard);
  const existed = await Deno.stat(dir).then(() => true, () => false);
  const lock = lockFolder(dir, `grid "${plan.spec.name}"`, { takeOver: options.takeOverLock });
  try {
    return await runLocked(plan, dir, lock.stale, { ...options, workers, concurrency }, t0);
  } finally {
    lock.release();
    // A run refused before writing anything leaves no folder it made (only an empty one goes).
    if (!existed) await Deno.remove(dir).catch(() => {});
  }
}

/** The rest of {@linkcode runGrid}, while holding the folder's lock. */
async function runLocked(
  plan: GridPlan,
  dir: string,
  staleLock: LockHolder | null,
  options: SessionOptions,
  t0: number,
): Promise<GridResult> {
  using session = await RunSession.open(plan, dir, staleLock, options, t0);
  try {
    session.begin();
    const mode = await playEpisodes(session, options);
    const result = await session.close(mode);
    // A notebook cell ending with the result shows its summary table, not the object.
    return withJupyterDisplay(result, () => gridSummary(result));
  } catch (err) {
    // Whatever went wrong, the manifest says the session ended early, where it can.
    await session.abort();
    throw err;
  }
}

/**
 * Plays the session's episodes: in a worker pool or in-process lanes (see
 * `poolSize`), each lane starting the next episode until none is left, a
 * signal came or the session must stop; `abandon` stops waiting for those in
 * flight. Says where they were played.
 */
async function playEpisodes(
  session: RunSession,
  options: SessionOptions,
): Promise<GridResult["mode"]> {
  const { todo, dir } = session;
  const runtime = options.runtime;
  const size = poolSize({
    // A rule object's function cannot be sent to a worker (structured clone).
    agents: Boolean(options.agents) || session.plan.cells.some((c) => holdsFunction(c.agents)),
    llmInProcess: runtime !== undefined && session.plan.llm,
    workers: options.workers,
    todo: todo.length,
  });
  const pool = size > 0
    ? new WorkerPool({
      size,
      modules: options.gameModules,
      segmentTag: session.tag,
      segmentBytes: options.segmentBytes,
    })
    : null;
  const parallel = pool ? pool.size * pool.depth : options.concurrency;
  const execute = async (ep: GridEpisode): Promise<EpisodeSummary> => {
    if (pool) return await pool.run(ep, dir);
    const agents = options.agents?.(ep) ?? (runtime ? gridLlmAgents(ep, runtime) : undefined);
    try {
      return await executeEpisode(ep, { log: session.log, agents });
    } catch (err) {
      const failed = writeFailedSummary(ep.id, err, session.segmentPath);
      if (failed === null) throw err;
      return failed;
    }
  };
  session.watch();
  let next = 0;
  const interruptedBySignal = () => options.signal?.aborted || options.abandon?.aborted;
  // In-process mock episodes settle in microtasks only: without a turn of the
  // event loop now and then, no timer (progress) or signal listener would run
  // until the grid ends. Every lane waits for the same turn, so the loop turns.
  let turned = performance.now();
  let turn: Promise<void> | null = null;
  const yieldTurn = () => {
    if (turn === null && performance.now() - turned > YIELD_MS) {
      turn = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => {
        turn = null;
        turned = performance.now();
      });
    }
    return turn;
  };
  const lane = async () => {
    while (next < todo.length && !interruptedBySignal() && !session.mustStop()) {
      const pending = yieldTurn();
      if (pending !== null) {
        await pending;
        continue;
      }
      const s = await session.play(todo[next++], execute);
      if (!options.abandon?.aborted) session.record(s);
    }
  };
  let abandoned: Promise<void> | undefined;
  let onAbandon: (() => void) | undefined;
  if (options.abandon) {
    const signal = options.abandon;
    abandoned = new Promise<void>((resolve) => {
      onAbandon = () => resolve();
      if (signal.aborted) resolve();
      else signal.addEventListener("abort", onAbandon, { once: true });
    });
  }
  try {
    const lanes = Promise.all(Array.from({ length: Math.min(parallel, todo.length) }, lane));
    await (abandoned ? Promise.race([lanes, abandoned]) : lanes);
  } finally {
    session.unwatch();
    if (onAbandon) options.abandon?.removeEventListener("abort", onAbandon);
    // Every worker has stopped writing before the segment closes and the lock is released.
    await pool?.close();
    session.closeSegment();
  }
  return pool ? "workers" : "in-process";
}

/** Longest run of in-process episodes between two turns of the event loop, in ms. */
const YIELD_MS = 50;

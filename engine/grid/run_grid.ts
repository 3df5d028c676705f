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
import {
  addTotals,
  type Budget,
  budgetExhausted,
  checkBudget,
  emptyTotals,
  type Spend,
  spendExhausted,
  spendLeft,
  totalsSince,
  type UsageTotals,
} from "../agents/llm/accounting.ts";
import type { LlmRuntime } from "../agents/llm/runtime.ts";
import { SPEND_LEDGER_FILE, SpendLedger } from "../agents/llm/spend_ledger.ts";
import { isEpisodeAbandoned } from "../core/abandon.ts";
import type { Degradation } from "../core/events.ts";
import { awaitHint, withJupyterDisplay } from "../core/jupyter.ts";
import { join } from "node:path";
import type { GridEpisode } from "./cells.ts";
import {
  type EpisodeSummary,
  executeEpisode,
  failedSummary,
  writeFailedSummary,
} from "./execute.ts";
import { checkLlmEpisodes, gridLlmAgents } from "./llm_agents.ts";
import {
  assertSameRun,
  type GridManifest,
  type GridSession,
  MANIFEST_FILE,
  MANIFEST_VERSION,
  readManifest,
  runtimeInfo,
  writeManifest,
} from "./manifest.ts";
import { gridSummary } from "./grid_summary.ts";
import { type GridPlan, planGrid } from "./plan.ts";
import { type GridProgress, type ProgressOption, progressSink } from "./progress.ts";
import { lockFolder, type LockHolder } from "./lock.ts";
import { retireLogs, scanRunFolder } from "./resume.ts";
import { type GridAgentFactory, noLlmAgentsError } from "./runners.ts";
import { type LogText, SegmentWriter, sessionTag } from "./segments.ts";
import { episodesHash, type Shard, shardFolderName } from "./shard.ts";
import { modelsOf } from "./spec.ts";
import { WorkerPool } from "./worker_pool.ts";
import { FolderWriteError, isOsError } from "./write_error.ts";

/** Options of {@linkcode runGrid}. */
export interface RunGridOptions {
  /** Run folder. Default `runs/<spec name>`, or `runs/<spec name>/shard-<i>-of-<n>` for a shard. */
  out?: string;
  /** Shard to run, as `{ index, count }` or `"i/n"`. Default: the whole grid. */
  shard?: Shard | string;
  /** Refuse a grid of more episodes than this (the whole grid). Default 1,000,000 (`MAX_EPISODES`). */
  maxEpisodes?: number;
  /**
   * Web Workers for episodes without an `agents` factory; 0 plays them
   * in-process. Default: the allocation's CPUs ({@linkcode defaultWorkers}:
   * `SLURM_CPUS_PER_TASK`, else the cores available to the process).
   */
  workers?: number;
  /** Episodes in flight at once when playing in-process. Default 8. */
  concurrency?: number;
  /**
   * The LLM runtime that the episodes naming models share: `runGrid` builds
   * their agents and checks them before any episode starts. Such episodes run
   * in-process. Default none.
   */
  runtime?: LlmRuntime;
  /** Check keys, base URLs and models over the network before any episode starts. Default `true`. */
  preflight?: boolean;
  /**
   * Limit of the whole run's billed spend (every session, read back from the
   * folder's spend ledger): a request that may not fit is not sent. Default:
   * no limit (spend is still recorded).
   */
  budget?: Budget;
  /**
   * Builds the agents of an episode (custom agents); return `undefined` for
   * the episode's LLM agents (with `runtime`) or rule-based agents. Episodes
   * then run in-process. Default none.
   */
  agents?: (episode: GridEpisode) => GridAgentFactory | undefined;
  /** Progress display. Default `true` (notebook, terminal bar, or log lines, whichever fits). */
  progress?: ProgressOption;
  /**
   * Stops starting episodes; those in flight finish. A string reason (e.g.
   * `"Received SIGTERM"`) is recorded as why (`stopped`, `stoppedBy:
   * "signal"`). Default none.
   */
  signal?: AbortSignal;
  /** Stops waiting for episodes in flight (workers are terminated). Default none. */
  abandon?: AbortSignal;
  /** Play again the episodes whose log ends with status `"error"` or `"degraded"`. Default `false`. */
  redoFailed?: boolean;
  /**
   * Module URLs every worker imports first: those that register a game of
   * your own (`registerGame`), so that the workers play it too (this process
   * plays the games registered in it). Default none.
   */
  gameModules?: readonly string[];
  /** Called after each episode. Default none. */
  onEpisode?: (summary: EpisodeSummary) => void;
  /**
   * Take over the folder's lock file when it names another host (whose
   * process this host cannot check; see `lockFolder`), instead of refusing.
   * Only once that process is known to have ended. Default `false`.
   */
  takeOverLock?: boolean;
  /**
   * Each writer starts a new segment file before a block would take its
   * current one past this many bytes (see `SegmentWriter`). Default
   * `SEGMENT_MAX_BYTES` (256 MiB).
   */
  segmentBytes?: number;
}

/**
 * What {@linkcode runGrid} returns: plain data, with a non-enumerable
 * `Symbol.for("Jupyter.display")` method, so a notebook cell that ends with
 * it shows its summary table (see `gridSummary`).
 */
export interface GridResult {
  /** Run folder. */
  dir: string;
  /** Run id. */
  run: string;
  /** Spec hash. */
  hash: string;
  /** Shard, or `null`. */
  shard: Shard | null;
  /** Episodes of the folder (its shard). */
  total: number;
  /** Episodes already finished at start. */
  skipped: number;
  /** Episodes played now (failures included). */
  played: number;
  /** Episodes played now that failed, with why. */
  failed: { id: string; error: string }[];
  /** Episodes played now that finished degraded (some decisions are neutral defaults), with the counts. */
  degraded: { id: string; counts: Degradation }[];
  /** Episodes without a finished log at the end. */
  remaining: number;
  /** Whether the run stopped early (signal, abandon, budget, or a failing provider). */
  interrupted: boolean;
  /**
   * Why new episodes stopped starting (a budget, a failing provider, a
   * signal's string reason, a folder that cannot be written), or `null`.
   */
  stopped: string | null;
  /**
   * What stopped them: `"budget"`, `"provider"` (a failing or refusing
   * provider, also when found after the last episode started), `"cache"` (a
   * response cache that cannot be written), `"ledger"` (a spend ledger that
   * cannot be written), `"signal"` (`signal` or
   * `abandon`), `"disk"` (a log or the manifest that cannot be written), or
   * `null`.
   */
  stoppedBy: "budget" | "provider" | "cache" | "ledger" | "signal" | "disk" | null;
  /** Temporary files of an earlier, killed run that were removed. */
  removedTemporary: number;
  /** Unfinished logs that were removed (torn segment blocks, partial per-episode logs) and played again. */
  removedPartial: number;
  /** The holder of a stale lock (a killed run) that was taken over, or `null`. */
  staleLock: LockHolder | null;
  /** `"workers"` or `"in-process"`. */
  mode: "workers" | "in-process";
  /** Wall time in ms. */
  elapsedMs: number;
  /** Model calls of this invocation: calls, cache hits, tokens, estimated cost. */
  usage: UsageTotals;
  /** The run's spend against its budget, or `null` without LLM episodes and a runtime. */
  spend: GridSpend | null;
}

/** What a run spent (see {@linkcode GridResult.spend}). */
export interface GridSpend {
  /** The spend ledger's path. */
  ledger: string;
  /** The budget of this invocation (which bounds the whole run), or `null`. */
  limit: Budget | null;
  /** Billed spend of the whole run, every session (an upper bound: unknown billing counts at its reservation). */
  spent: Spend;
  /** Billed spend of this invocation. */
  session: Spend;
  /** What is left of the limit: tokens and cost, each `null` without that limit. */
  remaining: { tokens: number | null; cost: number | null };
  /** Requests of earlier sessions that never settled (killed in flight), counted at their reservation. */
  unsettled: number;
  /** The torn last line cut from the ledger when the run started (a kill mid-write), or `null`. */
  cut: { bytes: number; sample: string } | null;
}

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

async function holdsLogs(dir: string): Promise<boolean> {
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && e.name.endsWith(".ndjson")) return true;
    }
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return false;
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
 * ```
 *
 * @example LLM agents through the local OpenAI-compatible server
 * ```ts
 * import { LlmRuntime } from "../agents/llm/runtime.ts";
 * import { serveLocalModel } from "../agents/llm/server/local_server.ts";
 * import { runGrid } from "./run_grid.ts";
 * const server = serveLocalModel();
 * try {
 *   const runtime = new LlmRuntime({ models: [{ id: "local", baseURL: server.url, model: "coordlab-stay" }] });
 *   const r = await runGrid({ episodes: 1, blocks: [
 *     { game: "frail", envs: ["bank_run"], mechanisms: ["M0"], agents: [{ model: "local" }] },
 *   ] }, { out: await Deno.makeTempDir(), runtime, progress: false });
 *   // M0: 15 withdrawal calls a round for 12 rounds; preflight sent one more request.
 *   if (r.played !== 1 || r.usage.calls !== 180 || server.stats().chat !== 181) throw new Error();
 * } finally {
 *   await server.close();
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
  options: RunGridOptions & { workers: number; concurrency: number },
  t0: number,
): Promise<GridResult> {
  const runtime = options.runtime;
  const existing = await readManifest(dir);
  const episodesHashOf = episodesHash(plan.episodes.map((e) => e.id));
  if (existing) {
    assertSameRun(existing, { ...plan, episodesHash: episodesHashOf }, dir);
  } else if (await holdsLogs(dir)) {
    throw new RangeError(
      `Run folder "${dir}" holds episode logs but no manifest.json: ` +
        `choose an empty or new output folder`,
    );
  }
  const scan = await scanRunFolder(dir, new Set(plan.episodes.map((e) => e.id)), plan.spec.name);
  const todo = plan.episodes.filter((e) => {
    const s = scan.finished.get(e.id);
    return s === undefined || (s.status !== "ok" && options.redoFailed);
  });
  if (options.budget) checkBudget(options.budget);
  if (runtime) {
    if (options.budget?.maxCost !== undefined) assertPriced(todo, runtime);
  }
  using spending = runtime && plan.llm ? attachSpend(dir, runtime, options.budget) : null;
  if (runtime) {
    // A run whose budget is spent sends nothing, not even preflight's requests.
    const spentOut = spending !== null && options.budget !== undefined &&
      spendExhausted(spending.ledger.reading.spend.total, options.budget) !== null;
    await checkLlmEpisodes(todo, runtime, {
      preflight: spentOut ? false : options.preflight,
    }).catch((err) => {
      // Preflight's request was refused (the budget, the ledger): the stop check says why.
      if (!isEpisodeAbandoned(err) || runtime.status().halt === null) throw err;
    });
  }
  await retireLogs(scan, todo.map((e) => e.id));
  const info = await runtimeInfo();
  const session: GridSession = {
    ...info,
    started: new Date().toISOString(),
    ended: null,
    skipped: plan.episodes.length - todo.length,
    played: 0,
    failed: 0,
    degraded: 0,
    interrupted: false,
    stopped: null,
    ...(spending ? { limit: options.budget ?? null, spent: spending.session().total } : {}),
  };
  const manifest: GridManifest = existing
    ? {
      ...existing,
      episodes_hash: existing.episodes_hash ?? episodesHashOf,
      status: "running",
      sessions: [...existing.sessions, session],
    }
    : {
      manifest: MANIFEST_VERSION,
      run: plan.spec.name,
      spec_hash: plan.hash,
      spec: plan.spec,
      shard: plan.shard,
      episodes: plan.episodes.length,
      episodes_hash: episodesHashOf,
      total: plan.total,
      ...info,
      started: session.started,
      ended: null,
      status: "running",
      sessions: [session],
    };
  if (spending) manifest.spend = spending.manifest(options.budget);
  try {
    await writeManifest(dir, manifest);
  } catch (err) {
    throw isOsError(err)
      ? new FolderWriteError(dir, err, { path: join(dir, MANIFEST_FILE), what: "the manifest" })
      : err;
  }
  try {
    return await playAll(plan, dir, staleLock, options, t0, {
      scan,
      todo,
      session,
      manifest,
      spending,
    });
  } catch (err) {
    // Whatever went wrong, the manifest says the session ended early, where it can.
    if (manifest.status === "running") {
      session.ended = new Date().toISOString();
      session.interrupted = true;
      manifest.status = "interrupted";
      await writeManifest(dir, manifest).catch(() => {});
    }
    throw err;
  }
}

/** The state {@linkcode playAll} starts from. */
interface Prepared {
  scan: Awaited<ReturnType<typeof scanRunFolder>>;
  todo: GridEpisode[];
  session: GridSession;
  manifest: GridManifest;
  /** The spend ledger attached to the runtime, or `null`. */
  spending: Spending | null;
}

/** Plays the episodes to do and writes the closing manifest (the lock is held, the manifest says running). */
async function playAll(
  plan: GridPlan,
  dir: string,
  staleLock: LockHolder | null,
  options: RunGridOptions & { workers: number; concurrency: number },
  t0: number,
  prepared: Prepared,
): Promise<GridResult> {
  const { workers, concurrency } = options;
  const runtime = options.runtime;
  const { scan, todo, session, manifest, spending } = prepared;
  const sink = progressSink(options.progress ?? true);
  const state = {
    done: 0,
    running: 0,
    failed: [] as { id: string; error: string }[],
    degraded: [] as { id: string; counts: Degradation }[],
    usage: emptyTotals(),
    logged: 0,
    stopped: null as string | null,
    stoppedBy: null as GridResult["stoppedBy"],
    /** Episodes stopped mid-way because the run is stopping (not logged). */
    abandoned: 0,
    /** Set when every model call of a finished episode failed. */
    allCallsFailed: null as string | null,
  };
  const ledgerStart = runtime?.ledger.run();
  const usage = (): UsageTotals =>
    runtime ? totalsSince(runtime.ledger.run(), ledgerStart!) : { ...state.usage };
  const progress = (): GridProgress => ({
    run: plan.spec.name,
    total: plan.episodes.length,
    skipped: session.skipped,
    done: state.done,
    failed: state.failed.length,
    degraded: state.degraded.length,
    running: state.running,
    elapsedMs: performance.now() - t0,
    usage: plan.llm ? usage() : null,
    runtime: runtime && plan.llm ? runtime.status() : null,
    stopped: state.stopped,
  });
  const redact = (text: string) => runtime?.redact(text) ?? text;
  const record = (s: EpisodeSummary) => {
    if (s.writeFailure) {
      // The folder cannot be written: not logged (played again on resume), and the run stops.
      const f = s.writeFailure;
      if (state.stoppedBy !== "disk") {
        state.stopped =
          new FolderWriteError(dir, Object.assign(new Error(f.message), { code: f.code }), {
            path: f.path,
            what: "an episode log",
          }).message;
        state.stoppedBy = "disk";
      }
      sink?.update(progress());
      return;
    }
    if (s.status === "abandoned") {
      // The run is stopping (EpisodeAbandoned): not logged, played again on resume.
      state.abandoned++;
      if (state.stopped === null) {
        state.stopped = redact(s.error ?? "the run stopped");
        state.stoppedBy = runtime?.status().halt?.by ?? "provider";
      }
      sink?.update(progress());
      return;
    }
    state.done++;
    if (s.logged) state.logged++;
    if (s.status === "error") {
      state.failed.push({ id: s.id, error: redact(s.error ?? "failed") });
    }
    if (s.status === "degraded") state.degraded.push({ id: s.id, counts: s.degraded! });
    if (s.usage.calls > 0 && s.usage.failedCalls === s.usage.calls && s.lastFailure) {
      const f = s.lastFailure;
      state.allCallsFailed ??= redact(
        `Every model call of episode "${s.id}" failed (${s.usage.calls} calls); the last, to ` +
          `provider "${f.provider}" (model "${f.model}"): ${f.error}`,
      );
    }
    addTotals(state.usage, s.usage);
    options.onEpisode?.(s);
    sink?.update(progress());
  };
  /**
   * Whether new episodes must not start: the budget is reached or a provider
   * is failing. `atEnd` (once no episode is left to start) leaves the budget
   * out: spending it with the last episode stops nothing.
   */
  const mustStop = (atEnd = false): boolean => {
    if (state.stopped === null) {
      const halt = runtime?.status().halt ?? null;
      const whole = runtime?.budgetStatus()?.spent.total;
      const spent = halt === null && options.budget && !atEnd
        ? (whole ? spendExhausted(whole, options.budget) : null) ??
          budgetExhausted(usage(), options.budget)
        : null;
      const provider = runtime?.status().fatal ?? state.allCallsFailed;
      state.stopped = halt?.reason ?? spent ?? provider;
      state.stoppedBy = halt?.by ?? (spent ? "budget" : provider ? "provider" : null);
      if (state.stopped !== null) sink?.update(progress());
    }
    return state.stopped !== null;
  };

  const llmInProcess = runtime !== undefined && plan.llm;
  const useWorkers = !options.agents && !llmInProcess && workers > 0 && todo.length > 0;
  const tag = sessionTag();
  const pool = useWorkers
    ? new WorkerPool({
      size: Math.min(workers, todo.length),
      modules: options.gameModules,
      segmentTag: tag,
      segmentBytes: options.segmentBytes,
    })
    : null;
  const parallel = pool ? pool.size * pool.depth : concurrency;
  // In-process episodes share one segment, opened at the first log and closed
  // before the lock is released (a late, abandoned episode is then not logged).
  const main = { segment: null as SegmentWriter | null, closed: false };
  const segment = () => {
    if (main.closed) throw new Error("The run has returned: an abandoned episode is not logged");
    return main.segment ??= SegmentWriter.create(dir, `${tag}-main`, {
      maxBytes: options.segmentBytes,
    });
  };
  const log = {
    append: (events: Parameters<SegmentWriter["append"]>[0]) => segment().append(events),
    appendText: (text: LogText) => segment().appendText(text),
  };
  const execute = async (ep: GridEpisode): Promise<EpisodeSummary> => {
    if (pool) return await pool.run(ep, dir);
    const agents = options.agents?.(ep) ?? (runtime ? gridLlmAgents(ep, runtime) : undefined);
    try {
      return await executeEpisode(ep, { log, agents });
    } catch (err) {
      const failed = writeFailedSummary(ep.id, err, main.segment?.path ?? dir);
      if (failed === null) throw err;
      return failed;
    }
  };
  const tick = sink ? setInterval(() => sink.update(progress()), 1000) : undefined;
  const unwatch = runtime && sink && plan.llm
    ? runtime.watch(() => sink.update(progress()))
    : undefined;
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
    while (next < todo.length && !interruptedBySignal() && !mustStop()) {
      const pending = yieldTurn();
      if (pending !== null) {
        await pending;
        continue;
      }
      const ep = todo[next++];
      state.running++;
      let s: EpisodeSummary;
      try {
        s = await execute(ep);
      } catch (err) {
        s = failedSummary(ep.id, err);
      }
      state.running--;
      if (!options.abandon?.aborted) record(s);
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
    if (tick !== undefined) clearInterval(tick);
    unwatch?.();
    if (onAbandon) options.abandon?.removeEventListener("abort", onAbandon);
    pool?.close();
    main.closed = true;
    main.segment?.close();
  }

  const interrupted = state.done < todo.length || state.abandoned > 0;
  // A provider found failing once every episode had started is a stop too.
  mustStop(true);
  if (state.stopped === null && interrupted && interruptedBySignal()) {
    const reason = options.signal?.aborted ? options.signal.reason : options.abandon?.reason;
    state.stopped = typeof reason === "string" ? reason : null;
    state.stoppedBy = "signal";
  }
  const finishedNow = state.logged;
  const remaining = todo.length - finishedNow;
  const ended = new Date().toISOString();
  session.ended = ended;
  session.played = state.logged;
  session.failed = state.failed.length;
  session.degraded = state.degraded.length;
  session.interrupted = interrupted;
  session.stopped = state.stopped;
  if (spending) {
    session.spent = spending.session().total;
    manifest.spend = spending.manifest(options.budget);
  }
  manifest.status = interrupted ? "interrupted" : remaining === 0 ? "complete" : "incomplete";
  if (manifest.status === "complete") manifest.ended = ended;
  try {
    await writeManifest(dir, manifest);
  } catch (err) {
    if (!isOsError(err)) throw err;
    // The folder cannot take the closing manifest: it still says "running", which resumes alike.
    manifest.status = "running";
    const why = new FolderWriteError(dir, err, {
      path: join(dir, MANIFEST_FILE),
      what: "the manifest",
    }).message;
    state.stopped = state.stopped === null ? why : `${state.stopped}; then ${why}`;
    state.stoppedBy = "disk";
  }

  const finished = plan.episodes.length - remaining;
  const resume = `${finished} of ${plan.episodes.length} episodes finished in ${dir}; ` +
    `run the same spec on the same folder to resume.`;
  const message = state.stopped !== null && (interrupted || state.stoppedBy === "disk")
    ? `Stopped: ${state.stopped}. ${resume}`
    : state.stopped !== null && remaining === 0
    ? `Done: ${plan.episodes.length} episodes in ${dir}` + doneNote(state) +
      ` Stopped: ${state.stopped}.`
    : interrupted
    ? `Interrupted: ${resume}`
    : remaining > 0
    ? `${remaining} episodes could not start (see the failures); run again to retry them.`
    : `Done: ${plan.episodes.length} episodes in ${dir}` + doneNote(state);
  sink?.finish(progress(), message);
  await sink?.flush?.();
  const result: GridResult = {
    dir,
    run: plan.spec.name,
    hash: plan.hash,
    shard: plan.shard,
    total: plan.episodes.length,
    skipped: session.skipped,
    played: state.done,
    failed: state.failed,
    degraded: state.degraded,
    remaining,
    interrupted,
    stopped: state.stopped,
    stoppedBy: state.stoppedBy,
    removedTemporary: scan.removedTemporary.length,
    removedPartial: scan.removedPartial.length,
    staleLock,
    mode: pool ? "workers" : "in-process",
    elapsedMs: performance.now() - t0,
    usage: usage(),
    spend: spending?.result(options.budget) ?? null,
  };
  // A notebook cell ending with the result shows its summary table, not the object.
  return withJupyterDisplay(result, () => gridSummary(result));
}

/** Longest run of in-process episodes between two turns of the event loop, in ms. */
const YIELD_MS = 50;

/** What the closing line adds about failed and degraded episodes. */
function doneNote(state: { failed: unknown[]; degraded: unknown[] }): string {
  const parts = [
    state.degraded.length
      ? `${state.degraded.length} degraded: some decisions are neutral defaults after failed calls`
      : "",
    state.failed.length ? `${state.failed.length} ended with an error` : "",
  ].filter(Boolean);
  return parts.length
    ? ` (${parts.join("; ")}); run again with redoFailed (--redo-failed) to play them again.`
    : ".";
}

/**
 * Opens the run folder's spend ledger and attaches it, with the budget, to
 * the runtime; disposing detaches it and closes the ledger.
 */
function attachSpend(dir: string, runtime: LlmRuntime, budget: Budget | undefined) {
  const ledger = SpendLedger.open(dir);
  const fresh = ledger.reading.lines === 0 && ledger.reading.torn === null;
  const detach = runtime.useBudget({
    limit: budget,
    spent: ledger.reading.spend,
    record: (line) => ledger.append(line),
  });
  const status = () => runtime.budgetStatus()!;
  return {
    ledger,
    session: () => status().session,
    manifest: (limit: Budget | undefined): NonNullable<GridManifest["spend"]> => {
      const spent = status().spent;
      return {
        ledger: SPEND_LEDGER_FILE,
        limit: limit ?? null,
        spent: spent.total,
        remaining: spendLeft(spent.total, limit ?? {}),
        by_model: spent.byModel,
      };
    },
    result: (limit: Budget | undefined): GridSpend => {
      const s = status();
      return {
        ledger: ledger.path,
        limit: limit ?? null,
        spent: s.spent,
        session: s.session,
        remaining: spendLeft(s.spent.total, limit ?? {}),
        unsettled: ledger.reading.unsettled,
        cut: ledger.reading.torn,
      };
    },
    [Symbol.dispose]: () => {
      const s = status();
      // A run refused before it started (preflight failed) whose requests billed
      // nothing leaves no ledger it made, so no folder; one that billed keeps it.
      const nothing = fresh && s.reserved.requests === 0 && s.session.total.tokens === 0 &&
        s.session.total.unknown === 0 && s.session.total.cost === 0;
      detach();
      ledger.close();
      if (nothing && !existsSync(`${dir}/${MANIFEST_FILE}`)) {
        try {
          Deno.removeSync(ledger.path);
        } catch (err) {
          if (!(err instanceof Deno.errors.NotFound)) throw err;
        }
      }
    },
  };
}

/** The spend ledger of a run, attached to its runtime (see {@linkcode attachSpend}). */
type Spending = ReturnType<typeof attachSpend>;

function existsSync(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A cost budget can only be checked when every model has a price. */
function assertPriced(episodes: readonly GridEpisode[], runtime: LlmRuntime): void {
  const models = new Set(episodes.flatMap((e) => modelsOf(e.agents)));
  for (const id of models) {
    if (runtime.model(id).price === null) {
      throw new RangeError(
        `A cost budget needs a price for every model, and model "${id}" has none: ` +
          `add "price" to its config, or use a token budget`,
      );
    }
  }
}

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
 * Budget and stops: before starting each episode the model calls of this
 * invocation (billed tokens and estimated cost; cache hits are free) are
 * checked against `budget` (a cost budget needs a price for every model);
 * once it is reached, or once a provider is found failing (the runtime's
 * circuit breaker opened: too many failed calls in a row, a refused key, a
 * 404; or every model call of a finished episode failed), no new episode
 * starts, those in flight finish (calls to a broken provider fail at once),
 * and the result (`stopped`, `stoppedBy`), the progress line and the manifest
 * say why, naming the provider and its last error. Running the same spec
 * again resumes, with a fresh budget.
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
  emptyTotals,
  totalsSince,
  type UsageTotals,
} from "../agents/llm/accounting.ts";
import type { LlmRuntime } from "../agents/llm/runtime.ts";
import type { Degradation } from "../core/events.ts";
import { awaitHint, withJupyterDisplay } from "../core/jupyter.ts";
import type { GridEpisode } from "./cells.ts";
import { type EpisodeSummary, executeEpisode, failedSummary } from "./execute.ts";
import { checkLlmEpisodes, gridLlmAgents } from "./llm_agents.ts";
import {
  assertSameRun,
  type GridManifest,
  type GridSession,
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
import { type Shard, shardFolderName } from "./shard.ts";
import { modelsOf } from "./spec.ts";
import { WorkerPool } from "./worker_pool.ts";

/** Options of {@linkcode runGrid}. */
export interface RunGridOptions {
  /** Run folder. Default `runs/<spec name>`, or `runs/<spec name>/shard-<i>-of-<n>` for a shard. */
  out?: string;
  /** Shard to run, as `{ index, count }` or `"i/n"`. Default: the whole grid. */
  shard?: Shard | string;
  /** Refuse a grid of more episodes than this (the whole grid). Default 1,000,000 (`MAX_EPISODES`). */
  maxEpisodes?: number;
  /** Web Workers for episodes without an `agents` factory; 0 plays them in-process. Default: the number of cores. */
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
  /** Stop starting episodes once this invocation's model calls reach it. Default: no limit. */
  budget?: Budget;
  /**
   * Builds the agents of an episode (custom agents); return `undefined` for
   * the episode's LLM agents (with `runtime`) or rule-based agents. Episodes
   * then run in-process. Default none.
   */
  agents?: (episode: GridEpisode) => GridAgentFactory | undefined;
  /** Progress display. Default `true` (notebook, terminal bar, or log lines, whichever fits). */
  progress?: ProgressOption;
  /** Stops starting episodes; those in flight finish. Default none. */
  signal?: AbortSignal;
  /** Stops waiting for episodes in flight (workers are terminated). Default none. */
  abandon?: AbortSignal;
  /** Play again the episodes whose log ends with status `"error"` or `"degraded"`. Default `false`. */
  redoFailed?: boolean;
  /** Module URLs every worker imports first (e.g. one that registers another game's runner). Default none. */
  runnerModules?: readonly string[];
  /** Called after each episode. Default none. */
  onEpisode?: (summary: EpisodeSummary) => void;
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
  /** Why new episodes stopped starting (a budget, a failing provider), or `null`. */
  stopped: string | null;
  /**
   * What stopped them: `"budget"`, `"provider"` (a failing or refusing
   * provider), `"cache"` (a response cache that cannot be written), or `null`.
   */
  stoppedBy: "budget" | "provider" | "cache" | null;
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
 * @throws {FolderLockedError} When another process (or run) is writing the folder.
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
  const workers = intAtLeast("workers", options.workers ?? navigator.hardwareConcurrency, 0);
  const concurrency = intAtLeast("concurrency", options.concurrency ?? 8, 1);
  if (plan.llm && !options.agents && !options.runtime) {
    throw noLlmAgentsError(plan.episodes.find((e) => modelsOf(e.agents).length > 0)!.id);
  }
  const dir = options.out ?? defaultRunFolder(plan.spec.name, plan.shard);
  const existed = await Deno.stat(dir).then(() => true, () => false);
  const lock = lockFolder(dir, `grid "${plan.spec.name}"`);
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
  const { workers, concurrency } = options;
  const runtime = options.runtime;
  const existing = await readManifest(dir);
  if (existing) {
    assertSameRun(existing, plan, dir);
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
  if (runtime) {
    if (options.budget?.maxCost !== undefined) assertPriced(todo, runtime);
    await checkLlmEpisodes(todo, runtime, { preflight: options.preflight });
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
  };
  const manifest: GridManifest = existing
    ? { ...existing, status: "running", sessions: [...existing.sessions, session] }
    : {
      manifest: MANIFEST_VERSION,
      run: plan.spec.name,
      spec_hash: plan.hash,
      spec: plan.spec,
      shard: plan.shard,
      episodes: plan.episodes.length,
      total: plan.total,
      ...info,
      started: session.started,
      ended: null,
      status: "running",
      sessions: [session],
    };
  await writeManifest(dir, manifest);

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
  /** Whether new episodes must not start: the budget is reached or a provider is failing. */
  const mustStop = (): boolean => {
    if (state.stopped === null) {
      const halt = runtime?.status().halt ?? null;
      const spent = halt === null && options.budget
        ? budgetExhausted(usage(), options.budget)
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
      modules: options.runnerModules,
      segmentTag: tag,
    })
    : null;
  const parallel = pool ? pool.size * pool.depth : concurrency;
  // In-process episodes share one segment, opened at the first log and closed
  // before the lock is released (a late, abandoned episode is then not logged).
  const main = { segment: null as SegmentWriter | null, closed: false };
  const segment = () => {
    if (main.closed) throw new Error("The run has returned: an abandoned episode is not logged");
    return main.segment ??= SegmentWriter.create(dir, `${tag}-main`);
  };
  const log = {
    append: (events: Parameters<SegmentWriter["append"]>[0]) => segment().append(events),
    appendText: (text: LogText) => segment().appendText(text),
  };
  const execute = async (ep: GridEpisode): Promise<EpisodeSummary> => {
    if (pool) return await pool.run(ep, dir);
    const agents = options.agents?.(ep) ?? (runtime ? gridLlmAgents(ep, runtime) : undefined);
    return await executeEpisode(ep, { log, agents });
  };
  const tick = sink ? setInterval(() => sink.update(progress()), 1000) : undefined;
  const unwatch = runtime && sink && plan.llm
    ? runtime.watch(() => sink.update(progress()))
    : undefined;
  let next = 0;
  const interruptedBySignal = () => options.signal?.aborted || options.abandon?.aborted;
  const lane = async () => {
    while (next < todo.length && !interruptedBySignal() && !mustStop()) {
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
  const finishedNow = state.logged;
  const remaining = todo.length - finishedNow;
  const ended = new Date().toISOString();
  session.ended = ended;
  session.played = state.done;
  session.failed = state.failed.length;
  session.degraded = state.degraded.length;
  session.interrupted = interrupted;
  session.stopped = state.stopped;
  manifest.status = interrupted ? "interrupted" : remaining === 0 ? "complete" : "incomplete";
  if (manifest.status === "complete") manifest.ended = ended;
  await writeManifest(dir, manifest);

  const finished = plan.episodes.length - remaining;
  const resume = `${finished} of ${plan.episodes.length} episodes finished in ${dir}; ` +
    `run the same spec on the same folder to resume.`;
  const message = state.stopped !== null && interrupted
    ? `Stopped: ${state.stopped}. ${resume}`
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
  };
  // A notebook cell ending with the result shows its summary table, not the object.
  return withJupyterDisplay(result, () => gridSummary(result));
}

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

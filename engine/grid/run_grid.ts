/**
 * `runGrid`: runs a spec's episodes into a run folder, resumably, with
 * progress, in Web Workers (mock agents) or concurrently in-process (LLM
 * agents, or a custom agents factory).
 *
 * The run folder holds `manifest.json` and one `<episode id>.ndjson` per
 * finished episode, written atomically. Starting the same spec (and shard) on
 * the same folder resumes it: finished episodes are skipped, temporary files
 * of a killed run are removed and their episodes played again, so nothing is
 * duplicated. A different spec or shard on the same folder is refused.
 *
 * Choices: an episode that crashed keeps its log (ending in `episode_end`
 * with status `"error"`) and counts as finished on resume unless
 * `redoFailed`; an episode that could not start leaves no log and is played
 * again on resume. Workers are used when there is no `agents` factory (a
 * function cannot cross into a worker); their number defaults to the cores.
 * One process per run folder: two processes on one folder at once are not
 * detected.
 *
 * @module
 */
import type { GridEpisode } from "./cells.ts";
import { modelsOf } from "./estimate.ts";
import { type EpisodeSummary, executeEpisode } from "./execute.ts";
import {
  assertSameRun,
  type GridManifest,
  type GridSession,
  MANIFEST_VERSION,
  readManifest,
  runtimeInfo,
  writeManifest,
} from "./manifest.ts";
import { planGrid } from "./plan.ts";
import { type GridProgress, type ProgressOption, progressSink } from "./progress.ts";
import { scanRunFolder } from "./resume.ts";
import type { GridAgentFactory } from "./runners.ts";
import { type Shard, shardFolderName } from "./shard.ts";
import { WorkerPool } from "./worker_pool.ts";

/** Options of {@linkcode runGrid}. */
export interface RunGridOptions {
  /** Run folder. Default `runs/<spec name>`, or `runs/<spec name>/shard-<i>-of-<n>` for a shard. */
  out?: string;
  /** Shard to run, as `{ index, count }` or `"i/n"`. Default: the whole grid. */
  shard?: Shard | string;
  /** Web Workers for episodes without an `agents` factory; 0 plays them in-process. Default: the number of cores. */
  workers?: number;
  /** Episodes in flight at once when playing in-process. Default 8. */
  concurrency?: number;
  /**
   * Builds the agents of an episode (e.g. LLM agents sharing one provider
   * limiter); return `undefined` for the episode's mock agents. Episodes then
   * run in-process. Required when the spec names models. Default none.
   */
  agents?: (episode: GridEpisode) => GridAgentFactory | undefined;
  /** Progress display. Default `true` (notebook, terminal bar, or log lines, whichever fits). */
  progress?: ProgressOption;
  /** Stops starting episodes; those in flight finish. Default none. */
  signal?: AbortSignal;
  /** Stops waiting for episodes in flight (workers are terminated). Default none. */
  abandon?: AbortSignal;
  /** Play again the episodes whose log ends with status `"error"`. Default `false`. */
  redoFailed?: boolean;
  /** Module URLs every worker imports first (e.g. one that registers another game's runner). Default none. */
  runnerModules?: readonly string[];
  /** Called after each episode. Default none. */
  onEpisode?: (summary: EpisodeSummary) => void;
}

/** What {@linkcode runGrid} returns. */
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
  /** Episodes without a finished log at the end. */
  remaining: number;
  /** Whether the run stopped early (signal or abandon). */
  interrupted: boolean;
  /** Temporary files of an earlier, killed run that were removed. */
  removedTemporary: number;
  /** Unfinished logs that were removed and played again. */
  removedPartial: number;
  /** `"workers"` or `"in-process"`. */
  mode: "workers" | "in-process";
  /** Wall time in ms. */
  elapsedMs: number;
  /** Prompt tokens of model calls. */
  tokensIn: number;
  /** Completion tokens of model calls. */
  tokensOut: number;
  /** Estimated cost of model calls. */
  cost: number;
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
 * @throws {RangeError} For a bad spec or option, or a folder holding another run.
 * @throws {TypeError} When the spec names models and no `agents` factory is given.
 */
export async function runGrid(spec: unknown, options: RunGridOptions = {}): Promise<GridResult> {
  const t0 = performance.now();
  const plan = planGrid(spec, { shard: options.shard });
  const workers = intAtLeast("workers", options.workers ?? navigator.hardwareConcurrency, 0);
  const concurrency = intAtLeast("concurrency", options.concurrency ?? 8, 1);
  if (plan.llm && !options.agents) {
    const ep = plan.episodes.find((e) => modelsOf(e.agents).length > 0)!;
    throw new TypeError(
      `Episode "${ep.id}" names LLM agents: pass an agents factory (RunGridOptions.agents) ` +
        `to build them`,
    );
  }
  const dir = options.out ?? defaultRunFolder(plan.spec.name, plan.shard);
  const existing = await readManifest(dir);
  if (existing) {
    assertSameRun(existing, plan, dir);
  } else if (await holdsLogs(dir)) {
    throw new RangeError(
      `Run folder "${dir}" holds episode logs but no manifest.json: ` +
        `choose an empty or new output folder`,
    );
  }
  const scan = await scanRunFolder(dir, new Set(plan.episodes.map((e) => e.id)));
  const todo = plan.episodes.filter((e) => {
    const s = scan.finished.get(e.id);
    return s === undefined || (s === "error" && options.redoFailed);
  });
  const info = await runtimeInfo();
  const session: GridSession = {
    ...info,
    started: new Date().toISOString(),
    ended: null,
    skipped: plan.episodes.length - todo.length,
    played: 0,
    failed: 0,
    interrupted: false,
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
    tokensIn: 0,
    tokensOut: 0,
    cost: 0,
    logged: 0,
  };
  const progress = (): GridProgress => ({
    run: plan.spec.name,
    total: plan.episodes.length,
    skipped: session.skipped,
    done: state.done,
    failed: state.failed.length,
    running: state.running,
    elapsedMs: performance.now() - t0,
    tokens: plan.llm ? state.tokensIn + state.tokensOut : null,
    cost: plan.llm ? state.cost : null,
  });
  const record = (s: EpisodeSummary) => {
    state.done++;
    if (s.logged) state.logged++;
    if (s.status === "error") state.failed.push({ id: s.id, error: s.error ?? "failed" });
    state.tokensIn += s.tokensIn;
    state.tokensOut += s.tokensOut;
    state.cost += s.cost;
    options.onEpisode?.(s);
    sink?.update(progress());
  };

  const useWorkers = !options.agents && workers > 0 && todo.length > 0;
  const pool = useWorkers
    ? new WorkerPool({ size: Math.min(workers, todo.length), modules: options.runnerModules })
    : null;
  const parallel = pool ? pool.size * pool.depth : concurrency;
  const execute = async (ep: GridEpisode): Promise<EpisodeSummary> => {
    if (pool) return await pool.run(ep, dir);
    return await executeEpisode(ep, { dir, agents: options.agents?.(ep) });
  };
  const tick = sink ? setInterval(() => sink.update(progress()), 1000) : undefined;
  let next = 0;
  const stopped = () => options.signal?.aborted || options.abandon?.aborted;
  const lane = async () => {
    while (next < todo.length && !stopped()) {
      const ep = todo[next++];
      state.running++;
      let s: EpisodeSummary;
      try {
        s = await execute(ep);
      } catch (err) {
        const error = err instanceof Error ? err.message : String(err);
        s = {
          id: ep.id,
          status: "error",
          error,
          logged: false,
          calls: 0,
          tokensIn: 0,
          tokensOut: 0,
          cost: 0,
          ms: 0,
        };
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
    if (onAbandon) options.abandon?.removeEventListener("abort", onAbandon);
    pool?.close();
  }

  const interrupted = state.done < todo.length;
  const finishedNow = state.logged;
  const remaining = todo.length - finishedNow;
  const ended = new Date().toISOString();
  session.ended = ended;
  session.played = state.done;
  session.failed = state.failed.length;
  session.interrupted = interrupted;
  manifest.status = interrupted ? "interrupted" : remaining === 0 ? "complete" : "incomplete";
  if (manifest.status === "complete") manifest.ended = ended;
  await writeManifest(dir, manifest);

  const finished = plan.episodes.length - remaining;
  const message = interrupted
    ? `Interrupted: ${finished} of ${plan.episodes.length} episodes finished in ${dir}; ` +
      `run the same spec on the same folder to resume.`
    : remaining > 0
    ? `${remaining} episodes could not start (see the failures); run again to retry them.`
    : `Done: ${plan.episodes.length} episodes in ${dir}` +
      (state.failed.length ? ` (${state.failed.length} ended with an error).` : ".");
  sink?.finish(progress(), message);
  return {
    dir,
    run: plan.spec.name,
    hash: plan.hash,
    shard: plan.shard,
    total: plan.episodes.length,
    skipped: session.skipped,
    played: state.done,
    failed: state.failed,
    remaining,
    interrupted,
    removedTemporary: scan.removedTemporary.length,
    removedPartial: scan.removedPartial.length,
    mode: pool ? "workers" : "in-process",
    elapsedMs: performance.now() - t0,
    tokensIn: state.tokensIn,
    tokensOut: state.tokensOut,
    cost: state.cost,
  };
}

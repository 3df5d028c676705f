/**
 * Runs a grid of episodes with LLM agents: several episodes in flight at once
 * over one shared runtime (so provider limits hold across them), logs written
 * atomically per episode, progress reported as it changes.
 *
 * - Before anything runs: every environment must have a template for every
 *   call its contracts name, and (by default) the models pass
 *   {@linkcode preflight}, so a missing key, an unreachable base URL or an
 *   unknown model is one clear error before any episode starts.
 * - Budget: before starting each episode the run's billed tokens and
 *   estimated cost are checked; once a budget is reached no new episode starts,
 *   episodes in flight finish, and the result (and progress) says why.
 * - A bad key or unknown model discovered mid-run stops new episodes the same way.
 * - Resume: an episode whose log already ends with status ok is read back, not
 *   re-run; a re-run episode replays cached responses, so nothing is paid twice.
 * - Sample index: each episode samples with its seed (see `llm_agent.ts`).
 * - A crashed episode keeps its log (ending with status error); the grid goes on.
 *
 * @module
 */
import { EpisodeError } from "../../core/episode.ts";
import type { EngineEvent, EpisodeOutcome } from "../../core/events.ts";
import { readEpisodeLog } from "../../core/log_file.ts";
import type { RegimeId } from "../../frail/params.ts";
import { environment } from "../../frail/registry.ts";
import type { EnvId, MechanismId } from "../../frail/types.ts";
import { runEpisode } from "../../run_episode.ts";
import { type Budget, budgetExhausted, usageFromEvents, type UsageTotals } from "./accounting.ts";
import { llmPopulation } from "./llm_agent.ts";
import { assignedModels, type ModelAssignment } from "./model_assignment.ts";
import { preflight } from "./preflight.ts";
import type { GridProgress } from "./progress.ts";
import { missingTemplates, promptSet } from "./prompts/registry.ts";
import type { LlmRuntime } from "./runtime.ts";

/** One episode of a grid. */
export interface GridEpisodeSpec {
  /** Environment id. */
  env: EnvId;
  /** Mechanism. Default `"M0"`. */
  mechanism?: MechanismId;
  /** Regime. Default `"stable"`. */
  regime?: RegimeId;
  /** Episode seed (also the sample index of its calls). */
  seed: number;
  /** Parameter overrides. Default none. */
  params?: Record<string, unknown>;
  /** Model assignment for this episode. Default the grid's. */
  models?: ModelAssignment;
  /** Episode id. Default `<env>_<mechanism>_<regime>_<model>_s<seed>`. */
  episode?: string;
}

/** Options of {@linkcode runLlmGrid}. */
export interface LlmGridOptions {
  /** The runtime all episodes share. */
  runtime: LlmRuntime;
  /** Model assignment for episodes that name none. */
  models: ModelAssignment;
  /** Run id (a folder under `outDir`). Default `"llm"`. */
  run?: string;
  /** Folder under which `<run>/<episode>.ndjson` logs go. Default: no files. */
  outDir?: string;
  /** Episodes in flight at once. Default 4. */
  episodeConcurrency?: number;
  /** Spending limit. Default none. */
  budget?: Budget;
  /** Read back episodes whose log already ends with status ok. Default `true`. */
  resume?: boolean;
  /** Check keys, base URLs and models first. Default `true`. */
  preflight?: boolean;
  /** Called with the progress whenever it changes. Default none. */
  onProgress?: (progress: GridProgress) => void;
  /** Clock for event times. Default the wall clock. */
  clock?: () => string;
}

/** What became of one episode. */
export interface GridEpisodeResult {
  /** Episode id. */
  episode: string;
  /** `ok`, `error` (log ends with an error), `resumed` (read from its log) or `not_started`. */
  status: "ok" | "error" | "resumed" | "not_started";
  /** Outcome when finished. */
  outcome?: EpisodeOutcome;
  /** Log path when written. */
  logPath?: string;
  /** Error message for `error`. */
  error?: string;
  /** The episode's calls, recomputed from its events. */
  usage?: UsageTotals;
  /** The event log (absent for `not_started`). */
  events?: EngineEvent[];
}

/** What {@linkcode runLlmGrid} returns. */
export interface LlmGridResult {
  /** Per episode, in grid order. */
  episodes: GridEpisodeResult[];
  /** Why new episodes stopped starting, or `null` when every episode ran. */
  stopped: string | null;
  /** The run's calls (this invocation only). */
  usage: UsageTotals;
}

/**
 * The default episode id of a grid entry.
 *
 * @example
 * ```ts
 * import { gridEpisodeId } from "./run_grid.ts";
 * if (gridEpisodeId({ env: "bank_run", mechanism: "M3", seed: 2 }, "qwen:flash") !== "bank_run_M3_stable_qwen-flash_s2") {
 *   throw new Error();
 * }
 * ```
 */
export function gridEpisodeId(spec: GridEpisodeSpec, models: ModelAssignment): string {
  if (spec.episode) return spec.episode;
  const m = spec.models ?? models;
  const tag = typeof m === "string" ? m : `mixed-${m.default}`;
  return `${spec.env}_${spec.mechanism ?? "M0"}_${spec.regime ?? "stable"}_${tag}_s${spec.seed}`
    .replace(/[^\w.-]/g, "-");
}

/**
 * Runs a grid.
 *
 * @example
 * ```ts
 * import { runLlmGrid } from "./run_grid.ts";
 * import { LlmRuntime } from "./runtime.ts";
 * import { serveLocalModel } from "./server/local_server.ts";
 * const server = serveLocalModel();
 * try {
 *   const runtime = new LlmRuntime({ models: [{ id: "local", baseURL: server.url, model: "coordlab-stay" }] });
 *   const r = await runLlmGrid([{ env: "bank_run", mechanism: "M0", seed: 1 }], { runtime, models: "local" });
 *   if (r.episodes[0].outcome?.success !== true || r.usage.calls !== 180) throw new Error();
 * } finally {
 *   await server.close();
 * }
 * ```
 * @throws {TypeError} When an environment lacks a template; {RangeError} for repeated episode ids;
 * `LlmPreflightError` when a model cannot be used.
 */
export async function runLlmGrid(
  grid: readonly GridEpisodeSpec[],
  options: LlmGridOptions,
): Promise<LlmGridResult> {
  const { runtime } = options;
  const run = options.run ?? "llm";
  const concurrency = options.episodeConcurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`episodeConcurrency must be a positive integer, got ${concurrency}`);
  }
  const ids = grid.map((s) => gridEpisodeId(s, options.models));
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new RangeError(`Episode id "${dup}" appears more than once in the grid`);
  for (const env of new Set(grid.map((s) => s.env))) {
    const missing = missingTemplates(environment(env), promptSet(env));
    if (missing.length) {
      throw new TypeError(
        `No prompt template for ${env} call(s) ${missing.map((c) => `"${c}"`).join(", ")}`,
      );
    }
  }
  const models = [
    ...new Set(
      [options.models, ...grid.map((s) => s.models)].filter((m) => m !== undefined)
        .flatMap((m) => assignedModels(m!)),
    ),
  ];
  models.forEach((id) => runtime.model(id));
  if (options.preflight ?? true) await preflight(runtime, { models });

  const startUsage = runtime.ledger.run();
  const results: GridEpisodeResult[] = ids.map((episode) => ({ episode, status: "not_started" }));
  let stopped: string | null = null;
  let running = 0;
  const progress = (): GridProgress => ({
    total: grid.length,
    done: results.filter((r) => r.status === "ok" || r.status === "resumed").length,
    failed: results.filter((r) => r.status === "error").length,
    running,
    resumed: results.filter((r) => r.status === "resumed").length,
    usage: since(startUsage, runtime.ledger.run()),
    runtime: runtime.status(),
    stopped,
  });
  const report = () => options.onProgress?.(progress());
  const unwatch = options.onProgress ? runtime.watch(report) : () => {};
  let next = 0;
  const worker = async () => {
    while (next < grid.length) {
      const budget = options.budget ? budgetExhausted(runtime.ledger.run(), options.budget) : null;
      const fatal = runtime.status().fatal;
      if (stopped === null && (budget || fatal)) {
        stopped = budget ?? `A model cannot be used: ${fatal}`;
      }
      if (stopped !== null) break;
      const i = next++;
      const spec = grid[i];
      const logPath = options.outDir ? `${options.outDir}/${run}/${ids[i]}.ndjson` : undefined;
      if (logPath && (options.resume ?? true)) {
        const done = await completeLog(logPath);
        if (done) {
          results[i] = {
            episode: ids[i],
            status: "resumed",
            outcome: done.outcome,
            logPath,
            usage: usageFromEvents(done.events),
            events: done.events,
          };
          report();
          continue;
        }
      }
      running++;
      report();
      try {
        const r = await runEpisode({
          env: spec.env,
          mechanism: spec.mechanism,
          regime: spec.regime,
          params: spec.params,
          seed: spec.seed,
          agents: llmPopulation({
            runtime,
            env: spec.env,
            models: spec.models ?? options.models,
            sample: spec.seed,
            episode: ids[i],
          }),
          run,
          episode: ids[i],
          outDir: options.outDir,
          clock: options.clock,
        });
        results[i] = {
          episode: ids[i],
          status: "ok",
          outcome: r.outcome,
          logPath: r.logPath,
          usage: usageFromEvents(r.events),
          events: r.events,
        };
      } catch (err) {
        const events = err instanceof EpisodeError ? err.events : [];
        results[i] = {
          episode: ids[i],
          status: "error",
          logPath,
          error: runtime.redact(err instanceof Error ? err.message : String(err)),
          usage: usageFromEvents(events),
          events,
        };
      } finally {
        running--;
        report();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, grid.length) }, worker));
  } finally {
    unwatch();
  }
  report();
  return { episodes: results, stopped, usage: since(startUsage, runtime.ledger.run()) };
}

async function completeLog(
  path: string,
): Promise<{ outcome: EpisodeOutcome; events: EngineEvent[] } | undefined> {
  let events: EngineEvent[];
  try {
    events = await readEpisodeLog(path);
  } catch {
    return undefined;
  }
  const end = events.at(-1);
  return end?.type === "episode_end" && end.status === "ok" && end.outcome
    ? { outcome: end.outcome, events }
    : undefined;
}

function since(before: UsageTotals, now: UsageTotals): UsageTotals {
  const out = { ...now };
  for (const k of Object.keys(out) as (keyof UsageTotals)[]) out[k] = now[k] - before[k];
  return out;
}

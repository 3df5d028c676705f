/**
 * Playing one episode of a grid and writing its log: the same function runs
 * in a worker and in-process.
 *
 * @module
 */
import { usageFromEvents } from "../agents/llm/accounting.ts";
import type { EngineEvent } from "../core/events.ts";
import { writeEpisodeLog } from "../core/log_file.ts";
import type { GridEpisode } from "./cells.ts";
import { episodeRunner, type GridAgentFactory } from "./runners.ts";

/** What one played episode reports back to the grid. */
export interface EpisodeSummary {
  /** Episode id. */
  id: string;
  /** `"ok"`, or `"error"` when it crashed or could not start. */
  status: "ok" | "error";
  /** Why it failed, or `null`. */
  error: string | null;
  /** Whether its log was written (a crash is logged too; a config it could not start is not). */
  logged: boolean;
  /** Agent calls (reports). */
  calls: number;
  /** Prompt tokens of its model calls. */
  tokensIn: number;
  /** Completion tokens of its model calls. */
  tokensOut: number;
  /** Estimated cost of its model calls with a known price. */
  cost: number;
  /** Wall time in ms. */
  ms: number;
}

/**
 * The summary of an episode's log.
 *
 * @example
 * ```ts
 * import { summarizeEpisode } from "./execute.ts";
 * const s = summarizeEpisode([{ type: "report" }, { type: "episode_end", status: "ok" }] as never);
 * if (s.status !== "ok" || s.calls !== 1 || s.tokensIn !== 0) throw new Error();
 * ```
 */
export function summarizeEpisode(
  events: readonly EngineEvent[],
): Omit<EpisodeSummary, "id" | "logged" | "ms"> {
  const end = events.at(-1);
  const failed = end?.type !== "episode_end" || end.status !== "ok";
  const usage = usageFromEvents(events);
  return {
    status: failed ? "error" : "ok",
    error: failed
      ? (end?.type === "episode_end"
        ? end.error ?? "episode ended with an error"
        : "no episode_end")
      : null,
    calls: events.reduce((n, e) => n + (e.type === "report" ? 1 : 0), 0),
    tokensIn: usage.tokensIn,
    tokensOut: usage.tokensOut,
    cost: usage.cost,
  };
}

/** Options of {@linkcode executeEpisode}. */
export interface ExecuteEpisodeOptions {
  /** Run folder: the log is written to `<dir>/<episode id>.ndjson`. */
  dir: string;
  /** Agents. Default: the rule-based agents of the episode's `mock` entry. */
  agents?: GridAgentFactory;
}

/**
 * Plays an episode with its game's runner and writes its log atomically.
 * Never throws: a failure is reported in the summary.
 *
 * @example
 * ```ts
 * import { executeEpisode } from "./execute.ts";
 * const dir = await Deno.makeTempDir();
 * const s = await executeEpisode({
 *   id: "ep", index: 0, run: "demo", cell: "c", replicate: 0, seed: 1,
 *   condition: { game: "frail", env: "bank_run", mechanism: "M0", regime: "stable", params: {} },
 *   agents: { kind: "mock", mock: { depositors: "always_stay" } },
 * }, { dir });
 * // M0: 15 withdrawal calls a round for 12 rounds.
 * if (s.status !== "ok" || !s.logged || s.calls !== 12 * 15) throw new Error(JSON.stringify(s));
 * await Deno.stat(`${dir}/ep.ndjson`);
 * ```
 */
export async function executeEpisode(
  episode: GridEpisode,
  options: ExecuteEpisodeOptions,
): Promise<EpisodeSummary> {
  const t0 = performance.now();
  let events: EngineEvent[];
  try {
    events = await episodeRunner(episode.condition.game).play(episode, { agents: options.agents });
  } catch (err) {
    return {
      id: episode.id,
      status: "error",
      error: err instanceof Error ? err.message : String(err),
      logged: false,
      calls: 0,
      tokensIn: 0,
      tokensOut: 0,
      cost: 0,
      ms: performance.now() - t0,
    };
  }
  await writeEpisodeLog(`${options.dir}/${episode.id}.ndjson`, events);
  return {
    id: episode.id,
    ...summarizeEpisode(events),
    logged: true,
    ms: performance.now() - t0,
  };
}

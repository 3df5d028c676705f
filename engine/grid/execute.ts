/**
 * Playing one episode of a grid and appending its log to a segment (see
 * `segments.ts`): the same function runs in a worker and in-process.
 *
 * @module
 */
import { isEpisodeAbandoned } from "../core/abandon.ts";
import { addCall, emptyTotals, type UsageTotals } from "../agents/llm/accounting.ts";
import { type EpisodeTally, recycleLogBytes, tallyEvents } from "../core/event_recorder.ts";
import type { Degradation, EngineEvent } from "../core/events.ts";
import type { GridEpisode } from "./cells.ts";
import { type GridAgentFactory, type GridLog, playGridLog } from "./runners.ts";
import type { LogText } from "./segments.ts";
import { isOsError } from "./write_error.ts";

/** What one played episode reports back to the grid. */
export interface EpisodeSummary {
  /** Episode id. */
  id: string;
  /**
   * `"ok"`; `"degraded"` when it finished but some decisions took neutral
   * defaults because their agent failed; `"error"` when it crashed or could
   * not start; `"abandoned"` when the run stopped it mid-way (`EpisodeAbandoned`:
   * a budget, an unwritable cache): not logged, played again on resume.
   */
  status: "ok" | "degraded" | "error" | "abandoned";
  /** Why it failed, or `null`. */
  error: string | null;
  /** What a degraded episode filled in, else `null`. */
  degraded: Degradation | null;
  /** Its last model call that failed after its last retry (provider, model, why), or `null`. */
  lastFailure: CallFailure | null;
  /** Whether its log was written (a crash is logged too; a config it could not start is not). */
  logged: boolean;
  /** Agent calls (reports). */
  calls: number;
  /** Its model calls, recomputed from its `llm_call` events (zeros for rule-based agents). */
  usage: UsageTotals;
  /** Wall time in ms. */
  ms: number;
  /**
   * Set when its log could not be written (a full or failing disk, ...):
   * it is not logged, not counted as failed, and the run stops. Absent otherwise.
   */
  writeFailure?: WriteFailure;
}

/** A log that could not be written: where, and the operating system's error. */
export interface WriteFailure {
  /** The file (a segment), or the run folder when it is not known. */
  path: string;
  /** The error code, e.g. `"ENOSPC"`. */
  code: string;
  /** The error's message. */
  message: string;
}

/**
 * The summary of an episode that was played but whose log could not be
 * written because of an operating-system error (`ENOSPC`, `EIO`, ...), or
 * `null` for any other error (a failure of the episode itself).
 *
 * @example
 * ```ts
 * import { writeFailedSummary } from "./execute.ts";
 * const full = Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
 * const s = writeFailedSummary("ep", full, "runs/x/segment-a.ndjson");
 * if (s?.writeFailure?.code !== "ENOSPC" || s.logged || s.status !== "error") throw new Error();
 * if (writeFailedSummary("ep", new Error("bug"), "runs/x") !== null) throw new Error();
 * ```
 */
export function writeFailedSummary(id: string, err: unknown, path: string): EpisodeSummary | null {
  if (!isOsError(err)) return null;
  return {
    ...failedSummary(id, `Writing the log failed: ${err.message}`),
    writeFailure: { path, code: err.code, message: err.message },
  };
}

/** A model call that failed after its last retry. */
export interface CallFailure {
  /** Provider id. */
  provider: string;
  /** Model id. */
  model: string;
  /** Why it failed (secrets redacted by the runtime). */
  error: string;
}

/**
 * The summary of an episode that could not start (or whose log could not be written).
 *
 * @example
 * ```ts
 * import { failedSummary } from "./execute.ts";
 * const s = failedSummary("ep", new Error("no agents"));
 * if (s.status !== "error" || s.error !== "no agents" || s.logged || s.usage.calls !== 0) throw new Error();
 * ```
 */
export function failedSummary(id: string, err: unknown, ms = 0): EpisodeSummary {
  return {
    id,
    status: "error",
    error: err instanceof Error ? err.message : String(err),
    degraded: null,
    lastFailure: null,
    logged: false,
    calls: 0,
    usage: emptyTotals(),
    ms,
  };
}

/**
 * The summary of an episode's log: its status is the status of its final
 * `episode_end` (`"error"` without one).
 *
 * @example
 * ```ts
 * import { summarizeEpisode } from "./execute.ts";
 * const s = summarizeEpisode([{ type: "report" }, { type: "episode_end", status: "ok" }] as never);
 * if (s.status !== "ok" || s.calls !== 1 || s.usage.tokensIn !== 0) throw new Error();
 * const counts = { defaults: 1, agent_errors: 1, failed_calls: 1 };
 * const d = summarizeEpisode([{ type: "episode_end", status: "degraded", degraded: counts }] as never);
 * if (d.status !== "degraded" || d.degraded?.defaults !== 1 || d.error !== null) throw new Error();
 * ```
 */
export function summarizeEpisode(
  events: readonly EngineEvent[],
): Omit<EpisodeSummary, "id" | "logged" | "ms"> {
  return summarizeTally(tallyEvents(events));
}

/**
 * The summary of an episode from its tally (see `EpisodeTally`), as
 * {@linkcode summarizeEpisode} gives it from its events.
 *
 * @example
 * ```ts
 * import { summarizeTally } from "./execute.ts";
 * const s = summarizeTally({ reports: 3, llmCalls: [], last: { type: "episode_end", status: "error", error: "boom" } });
 * if (s.status !== "error" || s.error !== "boom" || s.calls !== 3) throw new Error();
 * ```
 */
export function summarizeTally(tally: EpisodeTally): Omit<EpisodeSummary, "id" | "logged" | "ms"> {
  const end = tally.last;
  const status = end?.type !== "episode_end"
    ? "error"
    : end.status === "ok" || end.status === "degraded"
    ? end.status
    : "error";
  let lastFailure: CallFailure | null = null;
  const usage = emptyTotals();
  for (const c of tally.llmCalls) {
    addCall(usage, c);
    if (c.status === "error") {
      lastFailure = { provider: c.provider, model: c.model, error: c.error ?? "failed" };
    }
  }
  return {
    status,
    error: status !== "error"
      ? null
      : end?.type === "episode_end"
      ? end.error ?? "episode ended with an error"
      : "no episode_end",
    degraded: status === "degraded" && end?.type === "episode_end"
      ? end.degraded ?? { defaults: 0, agent_errors: 0, failed_calls: 0 }
      : null,
    lastFailure,
    calls: tally.reports,
    usage,
  };
}

/** Where an episode's complete log goes: a `SegmentWriter`, or anything with its `append`. */
export interface EpisodeLog {
  /** Appends one episode's complete log (from `episode_start` to `episode_end`). */
  append(events: readonly EngineEvent[]): unknown;
  /**
   * Appends one episode's complete log as the engine built its text (see
   * `SegmentWriter.appendText`). When the log has it, runners that build the
   * text hand it over, and no event object is built.
   */
  appendText?(log: LogText): unknown;
}

/** Options of {@linkcode executeEpisode}. */
export interface ExecuteEpisodeOptions {
  /** Where the log is appended. */
  log: EpisodeLog;
  /** Agents. Default: the rule-based agents of the episode's `mock` entry. */
  agents?: GridAgentFactory;
}

/**
 * Plays an episode with its game's runner and appends its log as one block.
 * Never throws for the episode itself: a failure is reported in the summary.
 *
 * @example
 * ```ts
 * import { executeEpisode } from "./execute.ts";
 * import { readLogEpisodes, SegmentWriter } from "./segments.ts";
 * const dir = await Deno.makeTempDir();
 * const log = SegmentWriter.create(dir, "doc");
 * const s = await executeEpisode({
 *   id: "ep", index: 0, run: "demo", cell: "c", replicate: 0, seed: 1,
 *   condition: { game: "frail", env: "bank_run", mechanism: "M0", regime: "stable", params: {} },
 *   agents: { kind: "mock", mock: { depositors: "always_stay" } },
 * }, { log });
 * log.close();
 * // M0: 15 withdrawal calls a round for 12 rounds.
 * if (s.status !== "ok" || !s.logged || s.calls !== 12 * 15) throw new Error(JSON.stringify(s));
 * if ((await readLogEpisodes(log.path))[0].episode !== "ep") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 * @throws Only when the log cannot be written.
 */
export async function executeEpisode(
  episode: GridEpisode,
  options: ExecuteEpisodeOptions,
): Promise<EpisodeSummary> {
  const t0 = performance.now();
  const { log } = options;
  let played: GridLog;
  try {
    played = await playGridLog(episode, {
      agents: options.agents,
      text: log.appendText !== undefined,
    });
  } catch (err) {
    if (isEpisodeAbandoned(err)) {
      return { ...failedSummary(episode.id, err, performance.now() - t0), status: "abandoned" };
    }
    return failedSummary(episode.id, err, performance.now() - t0);
  }
  if (played.bytes !== undefined || played.text !== undefined) {
    const end = played.tally.last;
    log.appendText!({
      run: episode.run,
      episode: episode.id,
      ...(played.bytes !== undefined ? { bytes: played.bytes } : { text: played.text }),
      ...(end?.type === "episode_end" ? { status: end.status } : {}),
      // Held until the writer's flush only without model calls: a paid reply is written at once.
      mayWait: played.tally.llmCalls.length === 0,
    });
    // Written: the buffer serves the next episode's lines.
    if (played.bytes !== undefined) recycleLogBytes(played.bytes);
  } else log.append(played.events!);
  return {
    id: episode.id,
    ...summarizeTally(played.tally),
    logged: true,
    ms: performance.now() - t0,
  };
}

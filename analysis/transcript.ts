/**
 * `episodeTranscript`: read what every model call of an episode was sent and
 * what it answered. Each `llm_call` event logs the call's messages (each
 * distinct system prompt once per episode, later calls naming it by its
 * SHA-256); this joins them back and checks them against the call's
 * `prompt_hash`, so what you read is exactly what was sent, or the call says
 * why it is not (`verified: false` and a `problem`).
 *
 * @module
 */

import type pl from "npm:nodejs-polars@0.25.2";
import { type CallTranscript, callTranscripts } from "./_transcript.ts";
import { episodeEvents, type EpisodeSource } from "./viewer/show_episode.ts";

export type { CallTranscript, TranscriptMessage } from "./_transcript.ts";

/** Options of {@linkcode episodeTranscript}. */
export interface EpisodeTranscriptOptions {
  /**
   * The episode to read when the source holds several (a segment file or
   * the events of several episodes).
   *
   * @default {the only episode of the source}
   */
  episode?: string;
  /**
   * Folder searched recursively for the log of a row.
   *
   * @default {the row's `file`, else `runs/<run>`}
   */
  dir?: string;
  /**
   * Only the calls of this round.
   *
   * @default {a row's `round`, else every round}
   */
  round?: number;
  /**
   * Only the calls of this agent.
   *
   * @default {a row's `agent`, else every agent}
   */
  agent?: string;
  /**
   * Only the calls of this name (e.g. `"withdrawal"`).
   *
   * @default {a row's `call`, else every call}
   */
  call?: string;
}

/**
 * The model calls of one episode, in log order: for each, its round, step,
 * agent, role and call, the messages sent (`[{ role, content }]`, joined
 * from the log and checked against the call's `prompt_hash`), the reply and
 * the reasoning. A call whose log holds no messages (a log written before
 * they were kept) has `messages: null`; one whose messages cannot all be read
 * or do not hash to its `prompt_hash` (an edited log) keeps what was read,
 * with `verified: false` and the reason in `problem`.
 *
 * A record of a frame with `round`, `agent` and `call` columns (a row of the
 * `decisions`, `calls` or `corrections` frame, `frame.toRecords()[i]` or a
 * one-row frame) names one call: only its model calls are returned unless
 * the options say otherwise. An episodes row, an episode result, its events
 * or a log path give every call of the episode.
 *
 * @param source An episode result, its events, a log path or a frame row (as for `showEpisode`).
 * @param options Which episode, where a row's log is, which calls.
 * @returns One transcript per `llm_call` event that passes the filters.
 * @throws {TypeError} If the source is none of the accepted kinds.
 * @throws {RangeError} If the source holds no episode, or several and `options.episode` picks none.
 * @throws {SyntaxError} If the episode's log has a malformed line (naming file and line).
 *
 * @example What a depositor was sent in round 2, from a decisions row
 * ```ts
 * import assert from "node:assert/strict";
 * import { serveLocalModel } from "../engine/agents/llm/server/local_server.ts";
 * import { LlmRuntime } from "../engine/agents/llm/runtime.ts";
 * import { llmPopulation } from "../engine/agents/llm/llm_agent.ts";
 * import { runEpisode } from "../engine/run_episode.ts";
 * import { loadRuns } from "./load/load_runs.ts";
 * import { episodeTranscript } from "./transcript.ts";
 *
 * const server = serveLocalModel();
 * const dir = await Deno.makeTempDir();
 * try {
 *   const runtime = new LlmRuntime({
 *     models: [{ id: "local", baseURL: server.url, model: "coordlab-defensive", testDouble: true }],
 *   });
 *   const agents = llmPopulation({ runtime, env: "bank_run", models: "local" });
 *   await runEpisode({ env: "bank_run", mechanism: "M0", seed: 1, agents, outDir: dir });
 *   const { decisions } = await loadRuns(dir, { frames: ["decisions"] });
 *   const row = decisions.toRecords().find((r) => r.round === 2)!;
 *   const [call] = await episodeTranscript(row, { dir });
 *   assert.equal(call.round, 2);
 *   assert.equal(call.agent, row.agent);
 *   assert.equal(call.role, "depositor");
 *   assert.deepEqual(call.messages?.map((m) => m.role), ["system", "user"]);
 *   assert.ok(call.messages?.[1].content?.includes(`Depositor ID: ${row.agent}`));
 *   assert.ok(call.reply?.includes("withdraw_probability"));
 *   assert.equal(call.verified, true);
 * } finally {
 *   await server.close();
 *   await Deno.remove(dir, { recursive: true });
 * }
 * ```
 */
export async function episodeTranscript(
  source: EpisodeSource,
  options: EpisodeTranscriptOptions = {},
): Promise<CallTranscript[]> {
  const events = await episodeEvents(source, options);
  const named = namedCall(source);
  const round = options.round ?? named?.round;
  const agent = options.agent ?? named?.agent;
  const call = options.call ?? named?.call;
  return callTranscripts(events).filter((t) =>
    (round === undefined || t.round === round) &&
    (agent === undefined || t.agent === agent) &&
    (call === undefined || t.call === call)
  );
}

/** The call a frame row names (its `round`, `agent` and `call` columns), if it has them. */
function namedCall(source: EpisodeSource): { round: number; agent: string; call: string } | null {
  if (typeof source !== "object" || source === null || Array.isArray(source)) return null;
  let row: Record<string, unknown> = source as Record<string, unknown>;
  if (isDataFrame(source)) {
    if (source.height !== 1) return null;
    row = source.toRecords()[0] as Record<string, unknown>;
  }
  if ("events" in row) return null;
  const { round, agent, call } = row;
  return typeof round === "number" && typeof agent === "string" && typeof call === "string"
    ? { round, agent, call }
    : null;
}

function isDataFrame(value: unknown): value is pl.DataFrame {
  return typeof value === "object" && value !== null &&
    typeof (value as { toRecords?: unknown }).toRecords === "function" &&
    typeof (value as { height?: unknown }).height === "number";
}

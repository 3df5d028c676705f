// Test helper: a bank-run episode whose agents answer like model-backed ones
// (each reply with the record of the model call behind it), with no network:
// dep_01 answers in prose with a percentage string (a correction every call),
// and, when asked, dep_02's call of round 2 fails after its last retry (the
// episode is then "degraded").
import { AgentReply, playEpisode } from "../../../engine/core/episode.ts";
import type { LlmCallRecord } from "../../../engine/core/events.ts";
import type { HashingVersion } from "../../../engine/core/events_hash.ts";
import { bankRunGame } from "../../../engine/games/bank_run/descriptor.ts";
import { frailSetup } from "../../../engine/frail/descriptor.ts";
import type { Environment } from "../../../engine/core/environment.ts";

/** The record of one model call that answered `content` (or failed, without it). */
export function callRecord(content: string | null, round: number): LlmCallRecord {
  return {
    model: "scripted",
    provider: "local",
    provider_model: "scripted-1",
    status: content === null ? "error" : "ok",
    cache: "miss",
    attempts: content === null ? 3 : 1,
    failures: [],
    latency_ms: 10 + round,
    wall_ms: 12 + round,
    tokens_in: 100,
    tokens_out: 20,
    tokens_reasoning: 0,
    cost: content === null ? null : 0.0004,
    finish_reason: content === null ? null : "stop",
    content,
    reasoning: null,
    prompt_hash: "p".repeat(64),
    cache_key: "k".repeat(64),
    error: content === null ? "HTTP 500 after 3 attempts" : null,
    usage_warning: null,
  } as LlmCallRecord;
}

/** Options of {@linkcode scriptedEpisode}. */
export interface ScriptedOptions {
  /** dep_02's call of round 2 fails. Default false. */
  fail?: boolean;
  /** The events-hash definition. Default the current one. */
  hashing?: HashingVersion;
  /** Played in memory without hashes (no log text). Default false. */
  unhashed?: boolean;
  /** The environment (a wrapped bank run). Default the bank run. */
  env?: Environment<unknown, unknown>;
}

/** Plays the scripted M0 bank-run episode (seed 4) with a fixed clock, its log text built unless `unhashed`. */
export async function scriptedEpisode(options: ScriptedOptions = {}) {
  const env = options.env ?? bankRunGame.environment as Environment<unknown, unknown>;
  return await playEpisode(env, {
    ...frailSetup(bankRunGame, { mechanism: "M0", regime: "stable" }),
    seed: 4,
    clock: () => "2026-01-01T00:00:00.000Z",
    ndjson: !options.unhashed,
    ...(options.hashing ? { hashing: options.hashing } : {}),
    agents: (p) => ({
      policy: "llm:scripted",
      decide: (req) => {
        if (options.fail && p.id === "dep_02" && req.round === 2) {
          return Promise.resolve(
            new AgentReply(undefined, {
              calls: [callRecord(null, req.round)],
              error: "HTTP 500 after 3 attempts",
            }),
          );
        }
        const text = p.id === "dep_01"
          ? 'Sure. {"withdraw_probability": "30%"}'
          : '{"withdraw_probability": 5}';
        return Promise.resolve(new AgentReply(text, { calls: [callRecord(text, req.round)] }));
      },
    }),
  });
}

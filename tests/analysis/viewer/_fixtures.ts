// Episodes for the viewer tests: mock agents wrapped so that every reply
// carries hostile text (a <script>, an <img onerror> and a </details>) in its
// reasoning and in the model-call record behind it, one agent reports a
// positive exit probability every round (an override once it is committed)
// and another answers a probability with text in round 1 (a correction).

import type { Agent, AgentFactory } from "../../../engine/core/agent.ts";
import type { UsageTotals } from "../../../engine/agents/llm/accounting.ts";
import { LlmRuntime } from "../../../engine/agents/llm/runtime.ts";
import { serveLocalModel } from "../../../engine/agents/llm/server/local_server.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { parseEpisodeLog } from "../../../engine/core/log_file.ts";
import { mockPopulation } from "../../../engine/agents/mock/population.ts";
import { mockStagHuntPlayers } from "../../../engine/games/staghunt/mock.ts";
import { AgentReply } from "../../../engine/core/episode.ts";
import type { EngineEvent, LlmCallRecord } from "../../../engine/core/events.ts";
import type { CallRequest } from "../../../engine/core/environment.ts";
import { type EpisodeResult, runEpisode } from "../../../engine/run_episode.ts";
import type { EnvId, MechanismId } from "../../../engine/frail/types.ts";
import {
  runStagHuntEpisode,
  type StagHuntRunResult,
} from "../../../engine/run_staghunt_episode.ts";
import type { StagHuntAgentFactory } from "../../../engine/games/staghunt/players.ts";
import { carryoverRule } from "../../../engine/games/staghunt/beliefs/carryover.ts";

/** Text that would run script or break the page if it were not escaped. */
export const HOSTILE =
  `EVIL <script>alert("xss-script")</script> <img src=x onerror="alert('xss-img')"> </details></td></tr></table></main><b>bold</b> & "quoted"`;

/** The model-call record attached to every hostile reply. */
export function llmRecord(reply: unknown): LlmCallRecord {
  return {
    model: "test-model",
    provider: "local",
    provider_model: "tiny-1",
    status: "ok",
    cache: "miss",
    attempts: 2,
    failures: [{
      attempt: 1,
      kind: "rate_limit",
      status: 429,
      message: `slow down ${HOSTILE}`,
      wait_ms: 250,
      requested_wait_ms: 250,
    }],
    latency_ms: 812,
    wall_ms: 1093,
    tokens_in: 420,
    tokens_out: 57,
    tokens_reasoning: 12,
    cost: 0.0015,
    finish_reason: "stop",
    content: JSON.stringify(reply),
    reasoning: `I weighed the disclosure. ${HOSTILE}`,
    prompt_hash: "ab".repeat(32),
    cache_key: "cd".repeat(32),
    error: null,
    usage_warning: null,
  };
}

/** Which agents misbehave. */
export interface HostileOptions {
  /** Reports 80 for every `*_probability` field, every round. */
  insists?: string;
  /** Answers every `*_probability` field with text in round 1. */
  garbles?: string;
}

function hostileAgent(inner: Agent, id: string, options: HostileOptions): Agent {
  return {
    policy: inner.policy,
    async decide(request: CallRequest) {
      const raw = await inner.decide(request);
      if (typeof raw !== "object" || raw === null) return raw;
      const reply: Record<string, unknown> = { ...raw as Record<string, unknown> };
      for (const field of ["reasoning", "justification"]) {
        if (typeof reply[field] === "string") reply[field] = `${reply[field]} ${HOSTILE}`;
      }
      for (const field of Object.keys(reply).filter((k) => k.endsWith("_probability"))) {
        if (id === options.insists) reply[field] = 80;
        if (id === options.garbles && request.round === 1) reply[field] = "lots";
      }
      return new AgentReply(reply, { calls: [llmRecord(reply)] });
    },
  };
}

/** Wraps a FRAIL agent factory so that its agents misbehave as described above. */
export function hostileFrail(make: AgentFactory, options: HostileOptions): AgentFactory {
  return (player) => hostileAgent(make(player), player.id, options);
}

/** Wraps a Stag Hunt agent factory so that its replies carry hostile text. */
export function hostileStagHunt(make: StagHuntAgentFactory): StagHuntAgentFactory {
  return (player) => hostileAgent(make(player), player.id, {});
}

/** Per environment: a participant committed in round 1 under M3 with seed 0, and another. */
export const PARTICIPANTS: Record<EnvId, [string, string]> = {
  bank_run: ["dep_01", "dep_02"],
  debt_rollover: ["crd_01", "crd_02"],
  crowdfunding: ["bkr_03", "bkr_02"],
};

/** A FRAIL episode with hostile mock agents. */
export function hostileFrailEpisode(
  env: EnvId,
  mechanism: MechanismId,
  seed: number,
  extra: { run?: string; outDir?: string } = {},
): Promise<EpisodeResult> {
  const [insists, garbles] = PARTICIPANTS[env];
  return runEpisode({
    env,
    mechanism,
    seed,
    agents: hostileFrail(mockPopulation({ seed }), { insists, garbles }),
    clock: () => "2026-01-01T00:00:00.000Z",
    ...extra,
  });
}

/** A Stag Hunt episode (N 5, M 3, T 4, F 2) with hostile noisy threshold players. */
export function hostileStagHuntEpisode(
  corruption: "base" | "b3",
  seed: number,
  extra: { run?: string; outDir?: string } = {},
): Promise<StagHuntRunResult> {
  return runStagHuntEpisode({
    F: 2,
    corruption,
    seed,
    agents: hostileStagHunt(
      mockStagHuntPlayers({
        seed,
        players: "threshold",
        threshold: { rule: carryoverRule(), noise: 0.2 },
      }),
    ),
    clock: () => "2026-01-01T00:00:00.000Z",
    ...extra,
  });
}

/** Events of one type. */
export function ofType(events: readonly EngineEvent[], type: string): EngineEvent[] {
  return events.filter((e) => e.type === type);
}

/** What {@linkcode llmGridRun} played. */
export interface LlmGridRun {
  /** The run folder. */
  out: string;
  /** Every event of the run's logs, in file order. */
  events: Record<string, unknown>[];
  /** The runtime's totals per model id (the ledger the budget reads). */
  models: Map<string, UsageTotals>;
  /** The runtime's totals for the run. */
  total: UsageTotals;
}

/**
 * A small LLM grid against the local model server: two bank-run episodes
 * (M0, M3; horizon 2) of a priced model ("priced", $2 and $8 per million
 * tokens) and of a model without a price ("free"), and a Stag Hunt episode
 * of the priced model.
 */
export async function llmGridRun(out: string, currency?: string): Promise<LlmGridRun> {
  const server = serveLocalModel({ seed: 3 });
  try {
    const runtime = new LlmRuntime({
      currency,
      models: [
        {
          id: "priced",
          baseURL: server.url,
          model: "coordlab-defensive",
          testDouble: true,
          price: { inputPerMillion: 2, outputPerMillion: 8 },
        },
        { id: "free", baseURL: server.url, model: "coordlab-stay", testDouble: true },
      ],
    });
    await runGrid({
      name: "llm",
      seed: 3,
      episodes: 1,
      blocks: [
        {
          game: "frail",
          envs: ["bank_run"],
          mechanisms: ["M0", "M3"],
          params: [{ horizon: 2 }],
          agents: [{ model: "priced" }, { model: "free" }],
        },
        { game: "staghunt", N: [5], M: [3], T: [2], F: [2], agents: [{ model: "priced" }] },
      ],
    }, { out, runtime, preflight: false, progress: false });
    const events: Record<string, unknown>[] = [];
    for await (const entry of Deno.readDir(out)) {
      if (!entry.name.endsWith(".ndjson")) continue;
      const text = await Deno.readTextFile(`${out}/${entry.name}`);
      events.push(...parseEpisodeLog(text, entry.name) as unknown as Record<string, unknown>[]);
    }
    return { out, events, models: runtime.ledger.models(), total: runtime.ledger.run() };
  } finally {
    await server.close();
  }
}

/** A reply that would run script if it were put in HTML unescaped. */
export const XSS_REPLY = "Fine. <img src=x onerror=alert(1)>";

/**
 * A debt-rollover episode (M0, seed 2) of mock agents whose every model-call
 * record replies with {@linkcode XSS_REPLY} before the JSON.
 */
export function xssReplyEpisode(extra: { run?: string; outDir?: string } = {}) {
  const make = mockPopulation({ seed: 2 });
  return runEpisode({
    env: "debt_rollover",
    mechanism: "M0",
    seed: 2,
    agents: (player) => {
      const inner = make(player);
      return {
        policy: inner.policy,
        async decide(request: CallRequest) {
          const raw = await inner.decide(request);
          const record = { ...llmRecord(raw), content: `${XSS_REPLY} ${JSON.stringify(raw)}` };
          return new AgentReply(raw, { calls: [{ ...record, reasoning: null }] });
        },
      };
    },
    clock: () => "2026-01-01T00:00:00.000Z",
    ...extra,
  });
}

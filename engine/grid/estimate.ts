/**
 * Dry-run estimates of agent calls and, for LLM cells, tokens and cost.
 *
 * Choices (estimates, not promises):
 * - FRAIL: the calls of one episode of a cell are counted by playing it once
 *   with neutral agents (every reply is the contract's neutral default:
 *   nobody withdraws, redeems or proposes), so every round is played; real
 *   agents can end an episode early or trigger more mechanism calls.
 * - Stag Hunt: exactly `T (N + F)` calls under `base` (a corrupted turn is
 *   always inverted, so it always needs a re-justification) and
 *   `T (N + F / 2)` in expectation under `b3` (the drawn action differs from
 *   the original half of the time).
 * - Tokens: calls times assumed averages per call (default 2,000 prompt and
 *   500 completion tokens; set them from a pilot run's `llm_call` events).
 * - Cost: with a price per model, a cell's calls are priced at the mean price
 *   of the models its agents entry names (exact for one model; an
 *   approximation for mixed assignments, h2 pools and h3 pairs).
 *
 * @module
 */
import { assignedModels } from "../agents/llm/model_assignment.ts";
import type { ModelPrice } from "../agents/llm/model_config.ts";
import { playEpisode } from "../core/episode.ts";
import { environment, resolveParams } from "../frail/registry.ts";
import type { CellCondition, GridCell } from "./cells.ts";
import type { AgentsSpec } from "./spec.ts";

/**
 * Estimated agent calls of one episode of a condition.
 *
 * @example
 * ```ts
 * import { estimateCalls } from "./estimate.ts";
 * const n = await estimateCalls({ game: "staghunt", N: 5, M: 3, T: 4, F: 2, corruption: "base",
 *   heterogeneity: "h1", payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 } });
 * if (n !== 28) throw new Error(String(n));
 * ```
 */
export async function estimateCalls(condition: CellCondition): Promise<number> {
  if (condition.game === "staghunt") {
    const { N, F, T, corruption } = condition;
    return T * (N + (corruption === "base" ? F : F / 2));
  }
  const env = environment(condition.env);
  const played = await playEpisode(env, {
    params: resolveParams(condition.env, condition.regime, condition.params),
    mechanism: condition.mechanism,
    regime: condition.regime,
    seed: 0,
    agents: () => ({ policy: "estimate:neutral", decide: () => Promise.resolve(undefined) }),
    clock: () => "",
  });
  return played.events.filter((e) => e.type === "report").length;
}

/**
 * The model ids an agents entry names (none for mock agents).
 *
 * @example
 * ```ts
 * import { modelsOf } from "./estimate.ts";
 * if (modelsOf({ kind: "models", models: { kind: "h3", strong: "a", weak: "b" } }).join() !== "a,b") throw new Error();
 * if (modelsOf({ kind: "mock", mock: {} }).length !== 0) throw new Error();
 * ```
 */
export function modelsOf(agents: AgentsSpec): string[] {
  switch (agents.kind) {
    case "mock":
      return [];
    case "model":
      return assignedModels(agents.model);
    case "models": {
      if (agents.mock) return [];
      const m = agents.models;
      return m.kind === "h1"
        ? [m.model]
        : m.kind === "h2"
        ? [...new Set(m.pool)]
        : [m.strong, m.weak];
    }
  }
}

/** Options of {@linkcode estimateUsage}. */
export interface EstimateUsageOptions {
  /** Average prompt tokens per call. Default 2000. */
  tokensInPerCall?: number;
  /** Average completion tokens per call. Default 500. */
  tokensOutPerCall?: number;
  /** Price per model id. Default none (no cost estimate). */
  prices?: Readonly<Record<string, ModelPrice>>;
}

/** Estimated usage of a set of cells. */
export interface UsageEstimate {
  /** Calls per episode, by cell id. */
  callsPerEpisode: Record<string, number>;
  /** Calls of all episodes. */
  calls: number;
  /** Episodes played by LLM agents. */
  llmEpisodes: number;
  /** Calls made by LLM agents. */
  llmCalls: number;
  /** Prompt tokens of LLM calls. */
  tokensIn: number;
  /** Completion tokens of LLM calls. */
  tokensOut: number;
  /** Estimated cost of LLM calls whose models have a price, or `null` without prices. */
  cost: number | null;
  /** Model ids without a price. */
  unpriced: string[];
}

/**
 * Estimated calls, tokens and cost of cells, each played `cell.episodes` times
 * (pass a shard's counts to estimate a shard).
 *
 * @example
 * ```ts
 * import { estimateUsage } from "./estimate.ts";
 * const cell = { id: "c", block: 0, episodes: 5, agents: { kind: "model", model: "m" } as const,
 *   condition: { game: "staghunt", N: 2, M: 1, T: 1, F: 1, corruption: "base", heterogeneity: "h1",
 *     payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 } } as const };
 * const u = await estimateUsage([cell], { prices: { m: { inputPerMillion: 1, outputPerMillion: 4 } } });
 * // 3 calls per episode, 15 calls: 30,000 tokens in at 1/M, 7,500 out at 4/M.
 * if (u.llmCalls !== 15 || u.tokensIn !== 30000 || Math.abs(u.cost! - 0.06) > 1e-12) throw new Error();
 * ```
 */
export async function estimateUsage(
  cells: readonly GridCell[],
  options: EstimateUsageOptions = {},
): Promise<UsageEstimate> {
  const tokensIn = options.tokensInPerCall ?? 2000;
  const tokensOut = options.tokensOutPerCall ?? 500;
  for (
    const [name, v] of [["tokensInPerCall", tokensIn], ["tokensOutPerCall", tokensOut]] as const
  ) {
    if (!(v >= 0) || !Number.isFinite(v)) {
      throw new RangeError(`Estimate option "${name}" must be a number >= 0, got ${v}`);
    }
  }
  const prices = options.prices;
  const cache = new Map<string, number>();
  const out: UsageEstimate = {
    callsPerEpisode: {},
    calls: 0,
    llmEpisodes: 0,
    llmCalls: 0,
    tokensIn: 0,
    tokensOut: 0,
    cost: prices ? 0 : null,
    unpriced: [],
  };
  const unpriced = new Set<string>();
  for (const cell of cells) {
    const key = JSON.stringify(cell.condition);
    let perEpisode = cache.get(key);
    if (perEpisode === undefined) {
      perEpisode = await estimateCalls(cell.condition);
      cache.set(key, perEpisode);
    }
    out.callsPerEpisode[cell.id] = perEpisode;
    const calls = perEpisode * cell.episodes;
    out.calls += calls;
    const models = modelsOf(cell.agents);
    if (models.length === 0) continue;
    out.llmEpisodes += cell.episodes;
    out.llmCalls += calls;
    out.tokensIn += calls * tokensIn;
    out.tokensOut += calls * tokensOut;
    if (!prices) continue;
    const known = models.filter((m) => prices[m]);
    models.filter((m) => !prices[m]).forEach((m) => unpriced.add(m));
    if (known.length === 0) continue;
    const perCall = known.reduce(
      (s, m) => s + (tokensIn * prices[m].inputPerMillion + tokensOut * prices[m].outputPerMillion),
      0,
    ) / known.length / 1e6;
    out.cost! += calls * perCall;
  }
  out.unpriced = [...unpriced].sort();
  return out;
}

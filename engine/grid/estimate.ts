/**
 * Dry run: the agent calls, prompt tokens and cost a grid would spend,
 * counted before any money is. Every episode is played with stand-in agents
 * (its rule-based agents: those of its `mock` entry, or the game's defaults
 * for an entry that names models), seeded with its own seed; every call an
 * LLM would get has its prompt rendered from its view with the real
 * templates and counted. No request leaves the process.
 *
 * Choices (estimates, not promises):
 * - Calls and prompt tokens are exact for models that behave like the
 *   stand-ins (the local server's `coordlab-defensive` does); real models may
 *   end or stretch episodes differently (a bank that fails ends a run early).
 * - Tokens are counted as characters / 4, rounded up, per call (the texts of
 *   its messages joined), as the local server bills them; pass
 *   `countTokens` for a provider's tokenizer.
 * - Completion tokens cannot be counted: `tokensOut` assumes an average per
 *   call (default 500), and with model configurations `maxTokensOut` is every
 *   call at its model's completion cap. Cost is given three ways: prompt
 *   tokens alone (`minCost`), with the assumed completions (`cost`), and
 *   with every completion at its cap (`maxCost`).
 * - Each player's calls are priced at the model that plays it (the
 *   assignment by role and agent id; the heterogeneity policy's model in the
 *   Stag Hunt).
 * - Episodes that differ only in their FRAIL model assignment (the paired
 *   seeds of a model comparison) are played once and their calls attributed
 *   to each assignment's models (the last 1,024 plays are kept for this:
 *   such episodes are neighbours in the grid's order).
 * - The episodes are read one at a time from any iterable (a streamed
 *   plan's), so memory does not grow with the grid; a spec is streamed the
 *   same way (`streamPlan`), so `estimateUsage(spec)` counts what
 *   `runGrid(spec)` would play.
 *
 * @module
 */
import { callCost } from "../agents/llm/accounting.ts";
import { renderCall } from "../agents/llm/llm_agent.ts";
import { type ModelAssignment, modelFor } from "../agents/llm/model_assignment.ts";
import {
  type ModelConfig,
  type ModelConfigInput,
  parseModelConfigs,
} from "../agents/llm/model_config.ts";
import { promptSet } from "../agents/llm/prompts/registry.ts";
import { canonicalJson } from "../core/canonical_json.ts";
import type { GridEpisode } from "./cells.ts";
import type { GridSpecInput } from "./spec.ts";
import { modelAssignmentOf, promptSetId } from "./llm_agents.ts";
import { streamPlan } from "./plan.ts";
import {
  episodeRunner,
  type GridAgentFactory,
  type GridPlayer,
  playGridEpisode,
} from "./runners.ts";

/** Options of {@linkcode estimateUsage}. */
export interface EstimateUsageOptions {
  /** Model configurations, for completion caps and prices; every model the episodes name must be here. Default none (no caps, no cost). */
  models?: readonly (ModelConfigInput | ModelConfig)[];
  /** Assumed completion tokens per LLM call. Default 500. */
  tokensOutPerCall?: number;
  /** Token count of a call's prompt (its messages' texts joined). Default: characters / 4, rounded up. */
  countTokens?: (text: string) => number;
  /** Stand-in agents of an episode. Default: the runner's rule-based agents, seeded with the episode seed. */
  standIn?: (episode: GridEpisode) => GridAgentFactory;
}

/** Estimated usage of one model. */
export interface ModelUsageEstimate {
  /** Calls. */
  calls: number;
  /** Prompt tokens (counted). */
  tokensIn: number;
  /** Completion tokens (assumed average per call). */
  tokensOut: number;
  /** Calls times the model's completion cap, or `null` without its configuration. */
  maxTokensOut: number | null;
  /** Cost of the prompt tokens, or `null` without a price. */
  minCost: number | null;
  /** Cost of the prompt and assumed completion tokens, or `null` without a price. */
  cost: number | null;
  /** Cost with every completion at its cap, or `null` without a price. */
  maxCost: number | null;
}

/**
 * Estimated usage of a set of episodes: the tokens and costs are those of
 * all LLM calls (`null` costs when no model has a price, `null` caps without
 * model configurations).
 */
export interface UsageEstimate extends Omit<ModelUsageEstimate, "calls"> {
  /** Episodes played. */
  episodes: number;
  /** Mean agent calls per episode, by cell id. */
  callsPerEpisode: Record<string, number>;
  /** Agent calls of all episodes (rule-based ones included). */
  calls: number;
  /** Episodes played by LLM agents. */
  llmEpisodes: number;
  /** Calls made by LLM agents. */
  llmCalls: number;
  /** Estimates by model id. */
  byModel: Record<string, ModelUsageEstimate>;
  /** Model ids without a price (their calls are left out of the costs). */
  unpriced: string[];
}

/** One call of a played episode: who answered it, and its prompt tokens (0 for rule-based agents). */
interface PlayedCall {
  player: GridPlayer;
  tokens: number;
}

/** Plays an episode with counting stand-ins; returns its calls. */
async function playedCalls(
  ep: GridEpisode,
  standIn: GridAgentFactory,
  count: ((text: string) => number) | null,
): Promise<PlayedCall[]> {
  const env = promptSetId(ep.condition);
  const prompts = count ? promptSet(env) : undefined;
  const calls: PlayedCall[] = [];
  await playGridEpisode(ep, {
    agents: (player) => {
      const inner = standIn(player);
      return {
        policy: inner.policy,
        decide(request) {
          const text = prompts
            ? renderCall(request, { env, prompts }).map((m) => m.content).join("")
            : "";
          calls.push({ player, tokens: count ? count(text) : 0 });
          return inner.decide(request);
        },
      };
    },
  });
  return calls;
}

/** What a played episode's calls depend on, or `null` when they cannot be shared. */
function playKey(ep: GridEpisode, custom: boolean): string | null {
  if (custom) return null;
  const { label: _label, ...agents } = ep.agents;
  // A FRAIL assignment only attributes calls to models; the Stag Hunt's
  // policy also tells the runner each player's model, so it stays in the key.
  const who = agents.kind === "model" && ep.condition.game === "frail" ? { kind: "llm" } : agents;
  return canonicalJson({ condition: ep.condition, seed: ep.seed, who });
}

/** Plays kept for episodes that share them (see the module doc). */
const PLAYS_KEPT = 1024;

function isIterable(value: unknown): value is Iterable<GridEpisode> {
  return typeof (value as { [Symbol.iterator]?: unknown })?.[Symbol.iterator] === "function";
}

const nonNegative = (name: string, v: number) => {
  if (!(v >= 0) || !Number.isFinite(v)) {
    throw new RangeError(`Estimate option "${name}" must be a number >= 0, got ${v}`);
  }
  return v;
};

/**
 * Plays the episodes with stand-ins and counts what an LLM run would send.
 *
 * @param grid A grid spec, as `runGrid` takes it (every episode of the
 * grid is counted), or the episodes to count (a plan's `episodes`, e.g. of
 * one shard).
 * @param options Model configurations (caps and prices), the assumed
 * completion tokens per call, the token counter and the stand-in agents.
 * @returns Calls, prompt and completion tokens and costs, in all and by model.
 *
 * @example A spec, as runGrid takes it
 * ```ts
 * import { estimateUsage } from "./estimate.ts";
 * const u = await estimateUsage({ episodes: 2, blocks: [
 *   { game: "staghunt", N: [5], M: [3], T: [4], F: [3], agents: [{ model: "m" }] },
 * ] });
 * // Every turn, and a re-justification per corrupted turn: 4 x (5 + 3) calls an episode.
 * if (u.episodes !== 2 || u.llmCalls !== 64 || u.cost !== null) throw new Error();
 * ```
 *
 * @example Episodes of a plan, with prices
 * ```ts
 * import { estimateUsage } from "./estimate.ts";
 * import { planGrid } from "./plan.ts";
 * const plan = planGrid({ episodes: 2, blocks: [
 *   { game: "frail", envs: ["bank_run"], mechanisms: ["M0"], agents: [{ model: "m" }] },
 * ] });
 * const u = await estimateUsage(plan.episodes, {
 *   models: [{ id: "m", baseURL: "http://127.0.0.1:9/v1", model: "x", maxTokens: 100,
 *     price: { inputPerMillion: 1, outputPerMillion: 2 } }],
 *   standIn: () => () => ({ policy: "stay", decide: () => Promise.resolve({ withdraw_probability: 0 }) }),
 * });
 * // Nobody withdraws under M0: 15 calls a round for 12 rounds, in each of 2 episodes.
 * if (u.llmCalls !== 360 || u.maxTokensOut !== 360 * 100) throw new Error();
 * if (Math.abs(u.maxCost! - (u.tokensIn + 2 * 36_000) / 1e6) > 1e-12) throw new Error();
 * ```
 * @throws {RangeError} For a bad spec (naming the field) or option, or a
 * model the configurations lack.
 * @throws {TypeError} For a call without a prompt template.
 */
export async function estimateUsage(
  grid: Iterable<GridEpisode> | GridSpecInput,
  options: EstimateUsageOptions = {},
): Promise<UsageEstimate> {
  const episodes = isIterable(grid) ? grid : streamPlan(grid).episodes;
  const tokensOutPerCall = nonNegative("tokensOutPerCall", options.tokensOutPerCall ?? 500);
  const count = options.countTokens ?? ((t: string) => Math.ceil(t.length / 4));
  const configs = options.models
    ? new Map(parseModelConfigs(options.models).map((m) => [m.id, m]))
    : null;
  const played = new Map<string, PlayedCall[]>();
  const byModel: Record<string, ModelUsageEstimate> = {};
  const perCell = new Map<string, { calls: number; episodes: number }>();
  const out: UsageEstimate = {
    episodes: 0,
    callsPerEpisode: {},
    calls: 0,
    llmEpisodes: 0,
    llmCalls: 0,
    tokensIn: 0,
    tokensOut: 0,
    maxTokensOut: configs ? 0 : null,
    minCost: null,
    cost: null,
    maxCost: null,
    byModel,
    unpriced: [],
  };
  for (const ep of episodes) {
    out.episodes++;
    const assignment: ModelAssignment | null = modelAssignmentOf(ep.agents);
    const key = playKey(ep, options.standIn !== undefined);
    let calls = key === null ? undefined : played.get(key);
    if (!calls) {
      const standIn = options.standIn?.(ep) ?? episodeRunner(ep.condition.game).mockAgents(ep);
      calls = await playedCalls(ep, standIn, assignment === null ? null : count);
      if (key !== null) {
        played.set(key, calls);
        if (played.size > PLAYS_KEPT) played.delete(played.keys().next().value!);
      }
    }
    const cell = perCell.get(ep.cell) ?? { calls: 0, episodes: 0 };
    perCell.set(ep.cell, { calls: cell.calls + calls.length, episodes: cell.episodes + 1 });
    out.calls += calls.length;
    if (assignment === null) continue;
    out.llmEpisodes++;
    for (const c of calls) {
      const id = modelFor(assignment, c.player);
      const config = configs?.get(id);
      if (configs && !config) {
        throw new RangeError(
          `Episode "${ep.id}" names model "${id}", which the model configurations lack`,
        );
      }
      const m = byModel[id] ??= {
        calls: 0,
        tokensIn: 0,
        tokensOut: 0,
        maxTokensOut: config ? 0 : null,
        minCost: null,
        cost: null,
        maxCost: null,
      };
      m.calls++;
      m.tokensIn += c.tokens;
      m.tokensOut += tokensOutPerCall;
      if (config) m.maxTokensOut! += config.maxTokens;
    }
  }
  for (const [cell, c] of perCell) out.callsPerEpisode[cell] = c.calls / c.episodes;
  const unpriced: string[] = [];
  for (const [id, m] of Object.entries(byModel)) {
    out.llmCalls += m.calls;
    out.tokensIn += m.tokensIn;
    out.tokensOut += m.tokensOut;
    if (out.maxTokensOut !== null) out.maxTokensOut += m.maxTokensOut ?? 0;
    const price = configs?.get(id)?.price;
    if (!price) {
      unpriced.push(id);
      continue;
    }
    m.minCost = callCost({ tokensIn: m.tokensIn, tokensOut: 0 }, price);
    m.cost = callCost({ tokensIn: m.tokensIn, tokensOut: m.tokensOut }, price);
    m.maxCost = callCost({ tokensIn: m.tokensIn, tokensOut: m.maxTokensOut! }, price);
    out.minCost = (out.minCost ?? 0) + m.minCost;
    out.cost = (out.cost ?? 0) + m.cost;
    out.maxCost = (out.maxCost ?? 0) + m.maxCost;
  }
  out.unpriced = unpriced.sort();
  return out;
}

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
 * - Completion tokens cannot be counted before the models answer: each
 *   model's mean per call comes from a pilot run's measured replies
 *   (`pilot`: the grid command's `--pilot N`), else from the replies the
 *   cache holds for this grid's calls (`cache`), else from the stated
 *   assumption (`tokensOutPerCall`, default 500); `tokensOutSource` says
 *   which. With model configurations `maxTokensOut` is every call at its
 *   model's completion cap. Cost is given three ways: prompt tokens alone
 *   (`minCost`, the low end), with the mean completions (`cost`), and with
 *   every completion at its cap (`maxCost`, the high end).
 * - With a cache folder (`cache`), each call's cache key is computed as the
 *   runtime computes it; calls the cache already holds are replayed at no
 *   cost, so they are counted (`cachedCalls`) and left out of the costs.
 *   Only calls whose prompt matches the stand-ins' are found: a model that
 *   plays differently reaches other prompts after its first round.
 * - Costs are in the models file's currency (`currency`, default USD).
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
import { cacheKeyOf, promptHash, ResponseCache } from "../agents/llm/cache.ts";
import { samplingParams } from "../agents/llm/sampling.ts";
import { formatTable, wrap } from "./format_table.ts";
import {
  type DisplayMethod,
  escapeHtml,
  type JUPYTER_DISPLAY,
  type TextHtmlBundle,
  withJupyterDisplay,
} from "../core/jupyter.ts";
import { formatCost, formatInt as int } from "../core/progress.ts";
import { renderCall } from "../agents/llm/llm_agent.ts";
import { type ModelAssignment, modelFor } from "../agents/llm/model_assignment.ts";
import {
  checkCurrency,
  type ModelConfig,
  type ModelConfigInput,
  parseModelConfigs,
} from "../agents/llm/model_config.ts";
import { gameDescriptor } from "../games/registry.ts";
import { canonicalJson } from "../core/canonical_json.ts";
import { cellGameId, type GridEpisode } from "./cells.ts";
import type { GridSpecInput } from "./spec.ts";
import { modelAssignmentOf, promptSetId } from "./llm_agents.ts";
import { streamPlan } from "./plan.ts";
import {
  episodeRunner,
  type GridAgentFactory,
  type GridPlayer,
  playGridUnlogged,
} from "./runners.ts";

/** Options of {@linkcode estimateUsage}. */
export interface EstimateUsageOptions {
  /** Model configurations, for completion caps and prices; every model the episodes name must be here. Default none (no caps, no cost). */
  models?: readonly (ModelConfigInput | ModelConfig)[];
  /** Assumed completion tokens per LLM call, for models with no measured replies. Default 500. */
  tokensOutPerCall?: number;
  /** Measured completions by model id (a pilot run's): calls and their completion tokens. */
  pilot?: Readonly<Record<string, { calls: number; tokensOut: number }>>;
  /** Response-cache folder: calls it holds are counted and cost nothing, and its replies measure completions. Needs `models`. */
  cache?: string;
  /** Currency of the prices (a models file's `currency`), for labels. Default `"USD"`. */
  currency?: string;
  /** Token count of a call's prompt (its messages' texts joined). Default: characters / 4, rounded up. */
  countTokens?: (text: string) => number;
  /** Stand-in agents of an episode. Default: the runner's rule-based agents, seeded with the episode seed. */
  standIn?: (episode: GridEpisode) => GridAgentFactory;
  /**
   * Ids of episodes a pilot has just played for real through the cache:
   * the run replays their every call from it, so they count as cached, at
   * no cost (the stand-ins' prompts differ from the real ones, so a lookup
   * would miss them). Default none.
   */
  replayed?: ReadonlySet<string>;
}

/** Estimated usage of one model. */
export interface ModelUsageEstimate {
  /** Calls. */
  calls: number;
  /** Prompt tokens (counted). */
  tokensIn: number;
  /** Completion tokens (calls times `tokensOutPerCall`). */
  tokensOut: number;
  /** Completion tokens per call (a mean) behind `tokensOut`. */
  tokensOutPerCall: number;
  /** Where `tokensOutPerCall` comes from: a pilot run, the cache's replies, or the assumption. */
  tokensOutSource: "pilot" | "cache" | "assumed";
  /** Replies `tokensOutPerCall` is the mean of (0 when assumed). */
  tokensOutSamples: number;
  /**
   * Whether `tokensOutPerCall` was cut to the model's completion cap
   * (`maxTokens`): no completion is longer, so an assumption above it would
   * put the estimate above its own high end.
   */
  tokensOutCapped: boolean;
  /** Calls the cache already holds (replayed at no cost; left out of the costs). */
  cachedCalls: number;
  /** Calls times the model's completion cap, or `null` without its configuration. */
  maxTokensOut: number | null;
  /** Cost of the prompt tokens of the calls not cached (the low end), or `null` without a price. */
  minCost: number | null;
  /** Cost of the prompt and mean completion tokens of the calls not cached, or `null` without a price. */
  cost: number | null;
  /** Cost with every completion at its cap (the high end), or `null` without a price. */
  maxCost: number | null;
  /** Where the price comes from, or why there is none (the config's `priceSource`), or `null`. */
  priceSource: string | null;
}

/**
 * Estimated usage of a set of episodes: the tokens and costs are those of
 * all LLM calls (`null` costs when no model has a price, `null` caps without
 * model configurations).
 */
export interface UsageEstimate extends
  Omit<
    ModelUsageEstimate,
    | "calls"
    | "tokensOutPerCall"
    | "tokensOutSource"
    | "tokensOutSamples"
    | "tokensOutCapped"
    | "priceSource"
  > {
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
  /** Currency of the costs. */
  currency: string;
  /** The cache folder looked in, or `null`. */
  cache: string | null;
  /** The assumed completion tokens per call (for models with no measured replies). */
  assumedTokensOut: number;
}

/**
 * One call of a played episode: who answered it, its prompt tokens (0 for
 * rule-based agents), and, when a cache is looked in, its prompt hash and
 * how many times that player sent the same messages before (the runtime's
 * sample suffix).
 */
interface PlayedCall {
  player: GridPlayer;
  tokens: number;
  hash: string | null;
  repeat: number;
}

/** Plays an episode with counting stand-ins; returns its calls. */
async function playedCalls(
  ep: GridEpisode,
  standIn: GridAgentFactory,
  count: ((text: string) => number) | null,
  hashes: boolean,
): Promise<PlayedCall[]> {
  const env = promptSetId(ep.condition);
  const prompts = count ? gameDescriptor(env).prompts : undefined;
  const calls: PlayedCall[] = [];
  await playGridUnlogged(ep, {
    agents: (player) => {
      const inner = standIn(player);
      const seen = new Map<string, number>();
      return {
        policy: inner.policy,
        decide(request) {
          const messages = prompts ? renderCall(request, { env, prompts }) : [];
          const text = messages.map((m) => m.content).join("");
          let hash: string | null = null, repeat = 0;
          if (hashes && prompts) {
            // As llm_agent.ts tells a repeat of the very same messages apart.
            const same = messages.map((m) => `${m.role}\u0000${m.content}`).join("\u0001");
            repeat = seen.get(same) ?? 0;
            seen.set(same, repeat + 1);
            hash = promptHash(messages);
          }
          calls.push({ player, tokens: count ? count(text) : 0, hash, repeat });
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
  // An assignment only attributes calls to models, unless the game's player
  // hook tells the agents each player's model (the Stag Hunt's policy): then
  // it stays in the key.
  const who = agents.kind === "model" && ep.condition.game !== "branch" &&
      !gameDescriptor(cellGameId(ep.condition)).players
    ? { kind: "llm" }
    : agents;
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
  grid: Iterable<GridEpisode> | GridSpecInput | Readonly<Record<string, unknown>>,
  options: EstimateUsageOptions = {},
): Promise<UsageEstimate & { readonly [JUPYTER_DISPLAY]: DisplayMethod }> {
  const episodes = isIterable(grid) ? grid : streamPlan(grid).episodes;
  const tokensOutPerCall = nonNegative("tokensOutPerCall", options.tokensOutPerCall ?? 500);
  const currency = checkCurrency(options.currency ?? "USD", "the estimate's");
  const count = options.countTokens ?? ((t: string) => Math.ceil(t.length / 4));
  const configs = options.models
    ? new Map(parseModelConfigs(options.models).map((m) => [m.id, m]))
    : null;
  if (options.cache !== undefined && configs === null) {
    throw new RangeError(
      `Estimate option "cache" needs "models": a cache key names the provider and model`,
    );
  }
  const cache = options.cache !== undefined
    ? new ResponseCache(options.cache, { readOnly: true })
    : null;
  for (const [id, p] of Object.entries(options.pilot ?? {})) {
    if (!Number.isSafeInteger(p.calls) || p.calls < 0 || !(p.tokensOut >= 0)) {
      throw new RangeError(
        `Estimate option "pilot" of model "${id}" must have calls and tokensOut >= 0, ` +
          `got ${JSON.stringify(p)}`,
      );
    }
  }
  const played = new Map<string, PlayedCall[]>();
  const byModel: Record<string, ModelUsageEstimate> = {};
  /** Per model: calls not cached, their prompt tokens, and the cached replies' completion tokens. */
  const open = new Map<string, { calls: number; tokensIn: number }>();
  const cachedOut = new Map<string, { calls: number; tokens: number }>();
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
    cachedCalls: 0,
    minCost: null,
    cost: null,
    maxCost: null,
    byModel,
    unpriced: [],
    currency,
    cache: cache?.dir ?? null,
    assumedTokensOut: tokensOutPerCall,
  };
  for (const ep of episodes) {
    out.episodes++;
    const assignment: ModelAssignment | null = modelAssignmentOf(ep.agents);
    const key = playKey(ep, options.standIn !== undefined);
    let calls = key === null ? undefined : played.get(key);
    if (!calls) {
      const standIn = options.standIn?.(ep) ?? episodeRunner(ep.condition).mockAgents(ep);
      calls = await playedCalls(
        ep,
        standIn,
        assignment === null ? null : count,
        cache !== null && assignment !== null,
      );
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
        tokensOutPerCall,
        tokensOutSource: "assumed",
        tokensOutSamples: 0,
        tokensOutCapped: false,
        cachedCalls: 0,
        maxTokensOut: config ? 0 : null,
        minCost: null,
        cost: null,
        maxCost: null,
        priceSource: config?.priceSource ?? null,
      };
      m.calls++;
      m.tokensIn += c.tokens;
      if (config) m.maxTokensOut! += config.maxTokens;
      const replayed = options.replayed?.has(ep.id) ?? false;
      const hit = !replayed && cache && config && c.hash !== null
        ? await cache.get(cacheKeyOf(c.hash, {
          provider: config.provider,
          model: config.model,
          sampling: samplingParams(config),
          sample: c.repeat === 0 ? ep.seed : `${ep.seed}#${c.repeat}`,
        }))
        : undefined;
      if (replayed) m.cachedCalls++;
      else if (hit) {
        m.cachedCalls++;
        const o = cachedOut.get(id) ?? { calls: 0, tokens: 0 };
        cachedOut.set(id, { calls: o.calls + 1, tokens: o.tokens + hit.tokens_out });
      } else {
        const o = open.get(id) ?? { calls: 0, tokensIn: 0 };
        open.set(id, { calls: o.calls + 1, tokensIn: o.tokensIn + c.tokens });
      }
    }
  }
  for (const [cell, c] of perCell) out.callsPerEpisode[cell] = c.calls / c.episodes;
  const unpriced: string[] = [];
  for (const [id, m] of Object.entries(byModel)) {
    const pilot = options.pilot?.[id];
    if (pilot && pilot.calls > 0) {
      m.tokensOutPerCall = pilot.tokensOut / pilot.calls;
      m.tokensOutSource = "pilot";
      m.tokensOutSamples = pilot.calls;
    } else if ((cachedOut.get(id)?.calls ?? 0) > 0) {
      const measured = cachedOut.get(id)!;
      m.tokensOutPerCall = measured.tokens / measured.calls;
      m.tokensOutSource = "cache";
      m.tokensOutSamples = measured.calls;
    }
    const cap = configs?.get(id)?.maxTokens;
    if (cap !== undefined && m.tokensOutPerCall > cap) {
      m.tokensOutPerCall = cap;
      m.tokensOutCapped = true;
    }
    m.tokensOut = m.calls * m.tokensOutPerCall;
    out.llmCalls += m.calls;
    out.cachedCalls += m.cachedCalls;
    out.tokensIn += m.tokensIn;
    out.tokensOut += m.tokensOut;
    if (out.maxTokensOut !== null) out.maxTokensOut += m.maxTokensOut ?? 0;
    const config = configs?.get(id);
    const price = config?.price;
    if (!price) {
      unpriced.push(id);
      continue;
    }
    const o = open.get(id) ?? { calls: 0, tokensIn: 0 };
    m.minCost = callCost({ tokensIn: o.tokensIn, tokensOut: 0 }, price);
    m.cost = callCost({ tokensIn: o.tokensIn, tokensOut: o.calls * m.tokensOutPerCall }, price);
    m.maxCost = callCost({ tokensIn: o.tokensIn, tokensOut: o.calls * config!.maxTokens }, price);
    out.minCost = (out.minCost ?? 0) + m.minCost;
    out.cost = (out.cost ?? 0) + m.cost;
    out.maxCost = (out.maxCost ?? 0) + m.maxCost;
  }
  out.unpriced = unpriced.sort();
  return withJupyterDisplay(out, () => estimateBundle(out));
}

const SOURCES = { pilot: "pilot", cache: "cache", assumed: "assumed" } as const;

/** A cost with its currency, rounded as the progress line rounds it; `-` for none. */
function money(cost: number | null, currency: string): string {
  return cost === null ? "-" : `${formatCost(cost)} ${currency}`;
}

/** The rows of the per-model table: one per model, then the total. */
function modelRows(u: UsageEstimate): string[][] {
  const cached = (n: number) => u.cache === null ? [] : [int(n)];
  const rows = Object.entries(u.byModel).sort(([a], [b]) => a < b ? -1 : 1).map(([id, m]) => [
    id,
    int(m.calls),
    ...cached(m.cachedCalls),
    int(m.tokensIn),
    int(m.tokensOut),
    `${int(m.tokensOutPerCall)} ${SOURCES[m.tokensOutSource]}${m.tokensOutCapped ? ", cap" : ""}` +
    (m.tokensOutSamples ? ` (${int(m.tokensOutSamples)})` : ""),
    money(m.cost, u.currency),
    m.minCost === null ? "no price" : `${formatCost(m.minCost)}-${formatCost(m.maxCost!)}`,
  ]);
  const priced = Object.keys(u.byModel).length - u.unpriced.length;
  rows.push([
    "total",
    int(u.llmCalls),
    ...cached(u.cachedCalls),
    int(u.tokensIn),
    int(u.tokensOut),
    "",
    u.cost === null
      ? "-"
      : money(u.cost, u.currency) + (u.unpriced.length ? ` (${priced} priced)` : ""),
    u.minCost === null ? "" : `${formatCost(u.minCost)}-${formatCost(u.maxCost!)}`,
  ]);
  return rows;
}

/** The header of the per-model table. */
function modelHeader(u: UsageEstimate): string[] {
  const currency = u.currency;
  return [
    "model",
    "calls",
    ...(u.cache === null ? [] : ["cached"]),
    "prompt tokens",
    "completion tokens",
    "per call (mean), from",
    "cost",
    `low-high ${currency}`,
  ];
}

/**
 * The estimate as lines for a terminal: a table of calls, tokens and costs
 * by model (and the total), then what its figures rest on: where each
 * model's completion tokens come from, what the low-high range means, the
 * models without a price and how to add one, and what the cache holds.
 *
 * @param usage An estimate of {@linkcode estimateUsage}.
 * @param options `modelsFile`: the path named in the hint on adding a price.
 * @returns The lines (no trailing newline).
 *
 * @example
 * ```ts
 * import { estimateUsage, formatEstimate } from "./estimate.ts";
 * const u = await estimateUsage({ episodes: 1, blocks: [
 *   { game: "staghunt", N: [3], M: [2], T: [1], F: [1], agents: [{ model: "m" }] },
 * ] }, { models: [{ id: "m", baseURL: "http://127.0.0.1:9/v1", model: "x", maxTokens: 100,
 *   price: { inputPerMillion: 1, outputPerMillion: 2 } }], tokensOutPerCall: 50 });
 * const text = formatEstimate(u).join("\n");
 * if (!text.includes("50 assumed") || !text.includes(" USD")) throw new Error(text);
 * ```
 */
export function formatEstimate(
  usage: UsageEstimate,
  options: { modelsFile?: string } = {},
): string[] {
  const lines = [formatTable(modelHeader(usage), modelRows(usage)), ""];
  const models = Object.values(usage.byModel);
  const from = (source: ModelUsageEstimate["tokensOutSource"]) =>
    Object.entries(usage.byModel).filter(([, m]) => m.tokensOutSource === source).map(([id]) => id);
  const measured = [
    ...(from("pilot").length ? [`measured by the pilot for ${from("pilot").join(", ")}`] : []),
    ...(from("cache").length
      ? [`the mean of the cache's replies for ${from("cache").join(", ")}`]
      : []),
  ];
  const assumed = from("assumed");
  lines.push(
    "Completion tokens per call (mean): " +
      [
        ...measured,
        ...(assumed.length
          ? [
            `assumed ${int(usage.assumedTokensOut)} (--tokens-out) for ${
              assumed.length === models.length ? "every model" : assumed.join(", ")
            }`,
          ]
          : []),
      ].join("; ") + (measured.length ? " (in brackets: the replies measured)." : "."),
  );
  const capped = Object.entries(usage.byModel).filter(([, m]) => m.tokensOutCapped);
  if (capped.length) {
    lines.push(
      `Cut to the completion cap (maxTokens, "cap" above): ` +
        capped.map(([id, m]) => `${id} at ${int(m.tokensOutPerCall)}`).join(", ") + ".",
    );
  }
  if (usage.cost !== null) {
    lines.push(
      `Cost: prompts plus mean completions; low-high: prompts alone to every completion at ` +
        `its cap (maxTokens)${usage.cache ? "; cached calls cost nothing" : ""}.`,
    );
  }
  if (usage.maxTokensOut === null) {
    lines.push(
      `No model configurations: pass --models MODELS.json (in a notebook, the "models" option), ` +
        `with a "price" for each model, for costs and completion caps.`,
    );
  } else if (usage.unpriced.length) {
    lines.push(
      `No price for ${usage.unpriced.join(", ")}: add "price": { "inputPerMillion": ..., ` +
        `"outputPerMillion": ... } (${usage.currency} per million tokens) to ${
          usage.unpriced.length === 1 ? "its entry" : "their entries"
        } in ${options.modelsFile ?? "the models file"}` +
        (usage.unpriced.some((id) => usage.byModel[id].priceSource !== null)
          ? ` (its "priceSource" says why there is none and where to look).`
          : "."),
    );
  }
  if (usage.cache !== null) {
    lines.push(
      `Cache ${usage.cache}: holds ${int(usage.cachedCalls)} of the ${int(usage.llmCalls)} calls ` +
        `(found by the stand-ins' prompts; a model that plays otherwise reaches other prompts).`,
    );
  }
  return [...lines.slice(0, 2), ...lines.slice(2).flatMap((l) => wrap(l))];
}

/** The notebook display of an estimate: the per-model table as text and as escaped HTML. */
function estimateBundle(u: UsageEstimate): TextHtmlBundle {
  const title = `Estimate: ${int(u.episodes)} episodes, ${int(u.calls)} agent calls, ${
    int(u.llmCalls)
  } LLM calls`;
  const notes = formatEstimate(u).slice(2).filter((l) => l !== "");
  const header = modelHeader(u);
  const rows = modelRows(u);
  const cells = (r: string[], tag: string) =>
    `<tr>${r.map((c) => `<${tag}>${escapeHtml(c)}</${tag}>`).join("")}</tr>`;
  const html = [
    `<table class="coordlab-estimate">`,
    `<caption>${escapeHtml(title)}</caption>`,
    `<thead>${cells(header, "th")}</thead>`,
    `<tbody>`,
    ...rows.map((r) => cells(r, "td")),
    `</tbody>`,
    `</table>`,
    ...notes.map((n) => `<p>${escapeHtml(n)}</p>`),
  ];
  return {
    "text/plain": [title, ...formatEstimate(u)].join("\n"),
    "text/html": html.join("\n"),
  };
}

/**
 * Cost accounting: tokens in, out and reasoning per call, summed per episode,
 * per model and per run, with an estimated cost from the models' price
 * entries, and budgets. Cache hits count their tokens but cost nothing: only
 * network calls are billed, and only billed tokens count against a budget.
 *
 * A provider cannot get around a budget: counts that are not non-negative
 * integers are never summed (the runtime records them as 0, with a
 * `usage_warning`, and the call as unpriced), and a budget that can no longer
 * be checked (a call with unknown tokens under a token budget, or with
 * unknown cost under a cost budget) counts as reached.
 *
 * @module
 */
import type { EngineEvent, LlmCallRecord } from "../../core/events.ts";
import type { ModelPrice } from "./model_config.ts";

/** Sums over a set of calls. */
export interface UsageTotals {
  /** Calls (cache hits included). */
  calls: number;
  /** Calls answered from the cache. */
  cacheHits: number;
  /** Calls that failed after their last retry. */
  failedCalls: number;
  /** Failed attempts that were retried or ended a call. */
  failedAttempts: number;
  /** Prompt tokens. */
  tokensIn: number;
  /** Completion tokens. */
  tokensOut: number;
  /** Reasoning tokens (part of `tokensOut`). */
  tokensReasoning: number;
  /** Prompt plus completion tokens of network calls (what a provider bills). */
  billedTokens: number;
  /** Estimated cost of network calls with a known price. */
  cost: number;
  /** Network calls whose cost is unknown (a model without a price, or invalid token counts). */
  unpricedCalls: number;
  /** Network calls whose provider reported no valid token counts (their tokens are unknown). */
  invalidUsageCalls: number;
}

/** A spending limit for a run. */
export interface Budget {
  /** Billed tokens. Default no limit. */
  maxTokens?: number;
  /** Estimated cost. Default no limit. */
  maxCost?: number;
}

/**
 * Totals of nothing.
 *
 * @example
 * ```ts
 * import { emptyTotals } from "./accounting.ts";
 * if (emptyTotals().calls !== 0) throw new Error();
 * ```
 */
export function emptyTotals(): UsageTotals {
  return {
    calls: 0,
    cacheHits: 0,
    failedCalls: 0,
    failedAttempts: 0,
    tokensIn: 0,
    tokensOut: 0,
    tokensReasoning: 0,
    billedTokens: 0,
    cost: 0,
    unpricedCalls: 0,
    invalidUsageCalls: 0,
  };
}

/**
 * The estimated cost of a call's tokens.
 *
 * @example
 * ```ts
 * import { callCost } from "./accounting.ts";
 * const c = callCost({ tokensIn: 1_000_000, tokensOut: 500_000 }, { inputPerMillion: 0.3, outputPerMillion: 1.2 });
 * if (Math.abs(c - 0.9) > 1e-12) throw new Error(String(c));
 * ```
 */
export function callCost(
  usage: { tokensIn: number; tokensOut: number },
  price: ModelPrice,
): number {
  return (usage.tokensIn * price.inputPerMillion + usage.tokensOut * price.outputPerMillion) / 1e6;
}

/**
 * Adds totals to totals (in place) and returns them.
 *
 * @example
 * ```ts
 * import { addTotals, emptyTotals } from "./accounting.ts";
 * const t = addTotals(emptyTotals(), { ...emptyTotals(), calls: 2, cost: 0.5 });
 * addTotals(t, { ...emptyTotals(), calls: 1, cost: 0.25 });
 * if (t.calls !== 3 || t.cost !== 0.75) throw new Error();
 * ```
 */
export function addTotals(totals: UsageTotals, more: UsageTotals): UsageTotals {
  for (const k of Object.keys(totals) as (keyof UsageTotals)[]) totals[k] += more[k];
  return totals;
}

/**
 * What was added to totals since an earlier reading of them.
 *
 * @example
 * ```ts
 * import { emptyTotals, totalsSince } from "./accounting.ts";
 * const d = totalsSince({ ...emptyTotals(), calls: 5 }, { ...emptyTotals(), calls: 2 });
 * if (d.calls !== 3) throw new Error();
 * ```
 */
export function totalsSince(now: UsageTotals, before: UsageTotals): UsageTotals {
  const out = { ...now };
  for (const k of Object.keys(out) as (keyof UsageTotals)[]) out[k] = now[k] - before[k];
  return out;
}

/**
 * Adds one call record to totals (in place) and returns them.
 *
 * @example
 * ```ts
 * import { addCall, emptyTotals } from "./accounting.ts";
 * const t = addCall(emptyTotals(), { status: "ok", cache: "miss", tokens_in: 100, tokens_out: 20,
 *   tokens_reasoning: 5, cost: 0.001, failures: [] } as never);
 * if (t.billedTokens !== 120 || t.cost !== 0.001) throw new Error();
 * ```
 */
export function addCall(totals: UsageTotals, record: LlmCallRecord): UsageTotals {
  totals.calls++;
  if (record.cache === "hit") totals.cacheHits++;
  if (record.status === "error") totals.failedCalls++;
  totals.failedAttempts += record.failures.length;
  totals.tokensIn += record.tokens_in;
  totals.tokensOut += record.tokens_out;
  totals.tokensReasoning += record.tokens_reasoning;
  if (record.cache !== "hit") {
    totals.billedTokens += record.tokens_in + record.tokens_out;
    if (record.usage_warning) totals.invalidUsageCalls++;
    if (record.cost === null) {
      if (record.status === "ok") totals.unpricedCalls++;
    } else totals.cost += record.cost;
  }
  return totals;
}

/**
 * A running ledger of calls: per run, per episode and per model.
 *
 * @example
 * ```ts
 * import { UsageLedger } from "./accounting.ts";
 * const ledger = new UsageLedger();
 * ledger.add({ model: "m", status: "ok", cache: "miss", tokens_in: 10, tokens_out: 5,
 *   tokens_reasoning: 0, cost: null, failures: [] } as never, "ep1");
 * if (ledger.run().billedTokens !== 15 || ledger.episode("ep1").calls !== 1) throw new Error();
 * ```
 */
export class UsageLedger {
  readonly #run: UsageTotals = emptyTotals();
  readonly #episodes = new Map<string, UsageTotals>();
  readonly #models = new Map<string, UsageTotals>();

  /** Records one call of an episode. */
  add(record: LlmCallRecord, episode: string): void {
    addCall(this.#run, record);
    addCall(this.#get(this.#episodes, episode), record);
    addCall(this.#get(this.#models, record.model), record);
  }

  /** Totals of the run so far. */
  run(): UsageTotals {
    return { ...this.#run };
  }

  /** Totals of one episode (zeros when it made no call). */
  episode(id: string): UsageTotals {
    return { ...(this.#episodes.get(id) ?? emptyTotals()) };
  }

  /** Totals by model id. */
  models(): Map<string, UsageTotals> {
    return new Map([...this.#models].map(([k, v]) => [k, { ...v }]));
  }

  #get(map: Map<string, UsageTotals>, key: string): UsageTotals {
    let t = map.get(key);
    if (!t) map.set(key, t = emptyTotals());
    return t;
  }
}

/**
 * Totals recomputed from an episode log's `llm_call` events (analysis reads
 * logs, never the runner's memory).
 *
 * @example
 * ```ts
 * import { usageFromEvents } from "./accounting.ts";
 * if (usageFromEvents([]).calls !== 0) throw new Error();
 * ```
 */
export function usageFromEvents(events: readonly EngineEvent[]): UsageTotals {
  const totals = emptyTotals();
  for (const e of events) if (e.type === "llm_call") addCall(totals, e);
  return totals;
}

/**
 * Why a budget is exhausted, in one sentence, or `null` while it is not. A
 * budget that cannot be checked any more (calls with unknown tokens under a
 * token budget, calls with unknown cost under a cost budget) is exhausted.
 *
 * @example
 * ```ts
 * import { budgetExhausted, emptyTotals } from "./accounting.ts";
 * const t = { ...emptyTotals(), billedTokens: 1200 };
 * if (budgetExhausted(t, { maxTokens: 1000 }) === null) throw new Error();
 * if (budgetExhausted(t, { maxTokens: 5000 }) !== null) throw new Error();
 * const unknown = { ...emptyTotals(), unpricedCalls: 1 };
 * if (!budgetExhausted(unknown, { maxCost: 5 })?.startsWith("Cost budget cannot be checked")) throw new Error();
 * ```
 */
export function budgetExhausted(totals: UsageTotals, budget: Budget): string | null {
  if (budget.maxTokens !== undefined) {
    if (totals.invalidUsageCalls > 0) {
      return `Token budget cannot be checked: ${totals.invalidUsageCalls} calls reported no ` +
        `valid token counts (see usage_warning in their llm_call events)`;
    }
    if (totals.billedTokens >= budget.maxTokens) {
      return `Token budget reached: ${totals.billedTokens} of ${budget.maxTokens} billed tokens used`;
    }
  }
  if (budget.maxCost !== undefined) {
    if (totals.unpricedCalls > 0) {
      return `Cost budget cannot be checked: ${totals.unpricedCalls} calls have no known cost ` +
        `(a model without a price, or no valid token counts; see usage_warning in their llm_call events)`;
    }
    if (totals.cost >= budget.maxCost) {
      return `Cost budget reached: an estimated ${
        totals.cost.toFixed(4)
      } of ${budget.maxCost} spent`;
    }
  }
  return null;
}

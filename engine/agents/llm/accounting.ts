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
 * Spend (`SpendTotals`, `Spend`) is what budgets hold against: the billed
 * tokens and cost of every request sent, attempt by attempt (a failed
 * attempt whose reply reported usage counts it). Each request reserves its
 * worst case before it is sent (`reservationOf`: its prompt's UTF-8 bytes
 * plus its completion cap, at the model's price) and is refused when that
 * does not fit (`reservationRefusal`), so billed spend never passes a limit
 * however many requests are in flight. Comparisons are written so that a
 * NaN counts as over the limit.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
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

/**
 * A spending limit for a run as a whole (with `runGrid`, every session of its
 * folder; see `LlmRuntime.useBudget`).
 */
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
    // `!(a < b)` and not `a >= b`: a NaN total counts as reached.
    if (!(totals.billedTokens < budget.maxTokens)) {
      return `Token budget reached: ${totals.billedTokens} of ${budget.maxTokens} billed tokens used`;
    }
  }
  if (budget.maxCost !== undefined) {
    if (totals.unpricedCalls > 0) {
      return `Cost budget cannot be checked: ${totals.unpricedCalls} calls have no known cost ` +
        `(a model without a price, or no valid token counts; see usage_warning in their llm_call events)`;
    }
    if (!(totals.cost < budget.maxCost)) {
      return `Cost budget reached: an estimated ${
        totals.cost.toFixed(4)
      } of ${budget.maxCost} spent`;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------
// Spend: what the provider billed, request by request, for budgets that hold
// across sessions (the run folder's spend ledger, see `spend_ledger.ts`).

/**
 * Sums of billed requests (one request is one attempt sent over the network;
 * cache hits send none). Requests whose billing is unknown are counted at
 * their reservation (`unknown`), so the sums are an upper bound on what the
 * provider billed, never a guess below it.
 */
export interface SpendTotals {
  /** Requests sent. */
  requests: number;
  /** Prompt tokens billed. */
  tokensIn: number;
  /** Completion tokens billed (reasoning included). */
  tokensOut: number;
  /** Reasoning tokens (part of `tokensOut`), where the provider reports them. */
  tokensReasoning: number;
  /** `tokensIn + tokensOut`: what a token budget counts. */
  tokens: number;
  /** Estimated cost of the requests with a known price. */
  cost: number;
  /** Requests whose cost is unknown (a model without a price). */
  unpriced: number;
  /**
   * Requests whose billing is unknown, counted at their reservation: a reply
   * without valid token counts, an attempt that timed out (the provider may
   * have finished and billed it), or a request in flight when its process
   * was killed (a reservation the ledger never settled).
   */
  unknown: number;
}

/** Spend in all and by model id. */
export interface Spend {
  /** Every model. */
  total: SpendTotals;
  /** By model id. */
  byModel: Record<string, SpendTotals>;
}

/**
 * The worst case of one request, held against a budget while it is in
 * flight: its prompt's UTF-8 byte count (an upper bound on its tokens, with
 * no tokenizer at hand) plus its completion cap, at the model's price.
 */
export interface Reservation {
  /** Prompt tokens at most. */
  tokensIn: number;
  /** Completion tokens at most (the cap sent). */
  tokensOut: number;
  /** Their cost, or `null` without a price. */
  cost: number | null;
}

/** How a settled request's tokens are known. */
export type SpendUsage =
  /** The provider's token counts. */
  | "reported"
  /** Unknown (no valid counts, a timeout, a request killed in flight): counted at its reservation. */
  | "unknown"
  /** No reply (an error status, a refused connection): nothing billed. */
  | "none";

/**
 * One line of a spend ledger: a request reserved before it is sent, or
 * settled after (see `spend_ledger.ts`).
 */
export type SpendLine =
  | {
    /** Written before the request is sent. */
    type: "reserve";
    /** Request id, unique in the ledger. */
    id: string;
    /** Model id. */
    model: string;
    /** Reserved prompt tokens. */
    tokens_in: number;
    /** Reserved completion tokens. */
    tokens_out: number;
    /** Reserved cost, or `null` without a price. */
    cost: number | null;
  }
  | {
    /** Written once the request has an answer (or an error). */
    type: "settle";
    /** The id of its `reserve` line. */
    id: string;
    /** Model id. */
    model: string;
    /** How the tokens are known. */
    usage: SpendUsage;
    /** Billed prompt tokens. */
    tokens_in: number;
    /** Billed completion tokens. */
    tokens_out: number;
    /** Billed reasoning tokens. */
    tokens_reasoning: number;
    /** Estimated cost, or `null` without a price. */
    cost: number | null;
  };

/**
 * Spend totals of nothing.
 *
 * @example
 * ```ts
 * import { emptySpendTotals } from "./accounting.ts";
 * if (emptySpendTotals().tokens !== 0) throw new Error();
 * ```
 */
export function emptySpendTotals(): SpendTotals {
  return {
    requests: 0,
    tokensIn: 0,
    tokensOut: 0,
    tokensReasoning: 0,
    tokens: 0,
    cost: 0,
    unpriced: 0,
    unknown: 0,
  };
}

/**
 * Adds one billed request to spend (in place) and returns it.
 *
 * @example
 * ```ts
 * import { addSpend } from "./accounting.ts";
 * const s = addSpend({ total: { requests: 0, tokensIn: 0, tokensOut: 0, tokensReasoning: 0,
 *   tokens: 0, cost: 0, unpriced: 0, unknown: 0 }, byModel: {} }, "m",
 *   { usage: "reported", tokens_in: 10, tokens_out: 5, tokens_reasoning: 1, cost: 0.5 });
 * if (s.total.tokens !== 15 || s.byModel.m.cost !== 0.5) throw new Error();
 * ```
 */
export function addSpend(
  spend: Spend,
  model: string,
  line: Pick<
    Extract<SpendLine, { type: "settle" }>,
    "usage" | "tokens_in" | "tokens_out" | "tokens_reasoning" | "cost"
  >,
): Spend {
  for (const t of [spend.total, spend.byModel[model] ??= emptySpendTotals()]) {
    t.requests++;
    t.tokensIn += line.tokens_in;
    t.tokensOut += line.tokens_out;
    t.tokensReasoning += line.tokens_reasoning;
    t.tokens += line.tokens_in + line.tokens_out;
    if (line.cost === null) t.unpriced++;
    else t.cost += line.cost;
    if (line.usage === "unknown") t.unknown++;
  }
  return spend;
}

/**
 * Adds one request whose billing is not known (in flight, or never settled
 * in the ledger) at its reservation, as `usage: "unknown"`, and returns the
 * spend: the stop's `Spent:` line and the resume's ledger count such a
 * request the same way.
 *
 * @example
 * ```ts
 * import { addReserved, emptySpend } from "./accounting.ts";
 * const s = addReserved(emptySpend(), "m", { tokensIn: 10, tokensOut: 90, cost: 0.2 });
 * if (s.total.tokens !== 100 || s.total.unknown !== 1 || s.byModel.m.cost !== 0.2) throw new Error();
 * ```
 */
export function addReserved(
  spend: Spend,
  model: string,
  reservation: { tokensIn: number; tokensOut: number; cost: number | null },
): Spend {
  return addSpend(spend, model, {
    usage: "unknown",
    tokens_in: reservation.tokensIn,
    tokens_out: reservation.tokensOut,
    tokens_reasoning: 0,
    cost: reservation.cost,
  });
}

/**
 * Spend of nothing.
 *
 * @example
 * ```ts
 * import { emptySpend } from "./accounting.ts";
 * if (emptySpend().total.requests !== 0) throw new Error();
 * ```
 */
export function emptySpend(): Spend {
  return { total: emptySpendTotals(), byModel: {} };
}

/**
 * A copy of spend (so a caller cannot change the original).
 *
 * @example
 * ```ts
 * import { copySpend, emptySpend } from "./accounting.ts";
 * const a = emptySpend();
 * copySpend(a).total.requests = 3;
 * if (a.total.requests !== 0) throw new Error();
 * ```
 */
export function copySpend(spend: Spend): Spend {
  return {
    total: { ...spend.total },
    byModel: Object.fromEntries(Object.entries(spend.byModel).map(([k, v]) => [k, { ...v }])),
  };
}

/**
 * Two spends added: a new one, by model and in total (neither argument changes).
 *
 * @example
 * ```ts
 * import { addSpend, emptySpend, sumSpend } from "./accounting.ts";
 * const line = { usage: "reported", tokens_in: 10, tokens_out: 5, tokens_reasoning: 0, cost: 1 } as const;
 * const a = addSpend(emptySpend(), "m", line);
 * const b = addSpend(addSpend(emptySpend(), "m", line), "n", { ...line, cost: null });
 * const both = sumSpend(a, b);
 * if (both.total.requests !== 3 || both.total.tokens !== 45 || both.total.cost !== 2) throw new Error();
 * if (both.byModel.m.requests !== 2 || both.byModel.n.unpriced !== 1 || a.total.requests !== 1) {
 *   throw new Error();
 * }
 * ```
 */
export function sumSpend(a: Spend, b: Spend): Spend {
  const sum = copySpend(a);
  for (const [model, t] of Object.entries(b.byModel)) {
    const into = sum.byModel[model] ??= emptySpendTotals();
    for (const k of Object.keys(t) as (keyof SpendTotals)[]) {
      into[k] += t[k];
      sum.total[k] += t[k];
    }
  }
  return sum;
}

/**
 * The reservation of one request: `promptBytes` (the UTF-8 bytes of its
 * messages as JSON, an upper bound on its prompt tokens) plus its completion
 * cap, at the price.
 *
 * @example
 * ```ts
 * import { reservationOf } from "./accounting.ts";
 * const r = reservationOf(2000, 500, { inputPerMillion: 1, outputPerMillion: 2 });
 * if (r.tokensIn !== 2000 || r.tokensOut !== 500 || r.cost !== (2000 + 1000) / 1e6) throw new Error();
 * if (reservationOf(10, 5, null).cost !== null) throw new Error();
 * ```
 */
export function reservationOf(
  promptBytes: number,
  cap: number,
  price: ModelPrice | null,
): Reservation {
  return {
    tokensIn: promptBytes,
    tokensOut: cap,
    cost: price ? callCost({ tokensIn: promptBytes, tokensOut: cap }, price) : null,
  };
}

/**
 * The UTF-8 byte count of messages as JSON: an upper bound on the tokens of
 * the prompt they make (every token of a byte-level tokenizer is at least one
 * byte, and the JSON's quotes, keys and braces outnumber a chat template's
 * few tokens per message).
 *
 * @example
 * ```ts
 * import { promptBytes } from "./accounting.ts";
 * if (promptBytes([{ role: "user", content: "é" }]) !== 32) throw new Error();
 * ```
 */
export function promptBytes(messages: readonly { role: string; content: string }[]): number {
  return new TextEncoder().encode(JSON.stringify(messages)).length;
}

/** A budget's spent, in flight and limit, for {@linkcode reservationRefusal}. */
export interface BudgetTally {
  /** Settled spend (earlier sessions included). */
  spent: SpendTotals;
  /** Reservations of the requests in flight. */
  reserved: SpendTotals;
}

/**
 * Why a request's reservation does not fit in what is left of a budget
 * (spent plus in flight plus it above a limit), in one sentence, or `null`
 * when it fits. A cost that cannot be known (a model without a price, earlier
 * requests without a known cost, a value that is not finite) does not fit a
 * cost budget.
 *
 * @example
 * ```ts
 * import { emptySpendTotals, reservationRefusal } from "./accounting.ts";
 * const tally = { spent: { ...emptySpendTotals(), tokens: 900 }, reserved: emptySpendTotals() };
 * const r = { tokensIn: 60, tokensOut: 40, cost: null };
 * if (reservationRefusal(tally, r, { maxTokens: 1000 }, "m") !== null) throw new Error();
 * const why = reservationRefusal(tally, r, { maxTokens: 999 }, "m")!;
 * if (!why.startsWith("Token budget reached: the next request to model \"m\" may bill up to 100 tokens")) throw new Error(why);
 * ```
 */
export function reservationRefusal(
  tally: BudgetTally,
  r: Reservation,
  limit: Budget,
  model: string,
): string | null {
  const { spent, reserved } = tally;
  if (limit.maxTokens !== undefined) {
    const need = r.tokensIn + r.tokensOut;
    const used = spent.tokens + reserved.tokens;
    // `!(a <= b)`: a NaN sum does not fit.
    if (!(used + need <= limit.maxTokens)) {
      return `Token budget reached: the next request to model "${model}" may bill up to ` +
        `${need} tokens (its prompt's ${r.tokensIn} bytes plus its cap of ${r.tokensOut}), and ` +
        `${Math.max(0, limit.maxTokens - used)} of the ${limit.maxTokens} are left ` +
        `(${spent.tokens} billed, ${reserved.tokens} reserved by requests in flight)`;
    }
  }
  if (limit.maxCost !== undefined) {
    if (spent.unpriced + reserved.unpriced > 0) {
      return `Cost budget cannot be checked: ${spent.unpriced + reserved.unpriced} requests ` +
        `have no known cost (a model without a price)`;
    }
    if (r.cost === null) {
      return `Cost budget cannot be checked: model "${model}" has no price`;
    }
    const used = spent.cost + reserved.cost;
    if (!(used + r.cost <= limit.maxCost)) {
      return `Cost budget reached: the next request to model "${model}" may cost up to ` +
        `${fixed(r.cost)} (its prompt's ${r.tokensIn} bytes plus its cap of ${r.tokensOut} ` +
        `tokens at its price), and ${fixed(Math.max(0, limit.maxCost - used))} of the ` +
        `${limit.maxCost} are left (${fixed(spent.cost)} spent, ${
          fixed(reserved.cost)
        } reserved by requests in flight)`;
    }
  }
  return null;
}

/**
 * Why spend has used up a budget (nothing is left), in one sentence, or
 * `null` while some is left.
 *
 * @example
 * ```ts
 * import { emptySpendTotals, spendExhausted } from "./accounting.ts";
 * const spent = { ...emptySpendTotals(), requests: 3, cost: 2 };
 * if (spendExhausted(spent, { maxCost: 2 }) !== "Cost budget reached: an estimated 2.0000 of 2 spent over 3 requests") throw new Error();
 * if (spendExhausted({ ...spent, cost: NaN }, { maxCost: 5 }) === null) throw new Error();
 * ```
 */
export function spendExhausted(spent: SpendTotals, limit: Budget): string | null {
  if (limit.maxTokens !== undefined && !(spent.tokens < limit.maxTokens)) {
    return `Token budget reached: ${spent.tokens} of ${limit.maxTokens} billed tokens used ` +
      `over ${spent.requests} requests`;
  }
  if (limit.maxCost !== undefined) {
    if (spent.unpriced > 0) {
      return `Cost budget cannot be checked: ${spent.unpriced} requests have no known cost ` +
        `(a model without a price)`;
    }
    if (!(spent.cost < limit.maxCost)) {
      return `Cost budget reached: an estimated ${fixed(spent.cost)} of ${limit.maxCost} spent ` +
        `over ${spent.requests} requests`;
    }
  }
  return null;
}

/**
 * What is left of a budget: tokens and cost, each `null` without that limit
 * (never below 0).
 *
 * @example
 * ```ts
 * import { emptySpendTotals, spendLeft } from "./accounting.ts";
 * const left = spendLeft({ ...emptySpendTotals(), tokens: 300, cost: 0.5 }, { maxTokens: 1000 });
 * if (left.tokens !== 700 || left.cost !== null) throw new Error();
 * ```
 */
export function spendLeft(
  spent: SpendTotals,
  limit: Budget,
): { tokens: number | null; cost: number | null } {
  return {
    tokens: limit.maxTokens === undefined ? null : Math.max(0, limit.maxTokens - spent.tokens),
    cost: limit.maxCost === undefined ? null : Math.max(0, limit.maxCost - spent.cost),
  };
}

/**
 * Checks a budget's limits: `maxTokens` a safe integer >= 1, `maxCost` a
 * finite number > 0; returns the budget.
 *
 * @example
 * ```ts
 * import { checkBudget } from "./accounting.ts";
 * checkBudget({ maxCost: 2 });
 * try {
 *   checkBudget({ maxCost: NaN });
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e instanceof RangeError) || !e.message.startsWith('Budget "maxCost"')) throw e;
 * }
 * ```
 * @throws {RangeError} Naming the bad limit.
 */
export function checkBudget(budget: Budget): Budget {
  const { maxTokens, maxCost } = budget;
  if (maxTokens !== undefined && (!Number.isSafeInteger(maxTokens) || maxTokens < 1)) {
    throw new RangeError(`Budget "maxTokens" must be an integer >= 1, got ${maxTokens}`);
  }
  if (maxCost !== undefined && !(Number.isFinite(maxCost) && maxCost > 0)) {
    throw new RangeError(`Budget "maxCost" must be a finite number > 0, got ${maxCost}`);
  }
  return budget;
}

const UsageCounts = z.object({
  prompt_tokens: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  completion_tokens: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  completion_tokens_details: z.object({
    reasoning_tokens: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).nullable()
      .optional(),
  }).nullable().optional(),
});

/**
 * The token counts a reply body reports in `usage` (non-negative safe
 * integers, as `parseCompletion` reads them), or `null` when there are none
 * or they are invalid. Read from every reply, accepted or not, so that a
 * reply the provider billed but the toolkit rejected is still counted.
 *
 * @example
 * ```ts
 * import { billedUsage } from "./accounting.ts";
 * const u = billedUsage({ object: "error", usage: { prompt_tokens: 7, completion_tokens: 2 } });
 * if (u?.tokensIn !== 7 || u.tokensOut !== 2 || u.tokensReasoning !== 0) throw new Error();
 * if (billedUsage("<html>") !== null || billedUsage({ usage: { prompt_tokens: -1, completion_tokens: 0 } }) !== null) throw new Error();
 * ```
 */
export function billedUsage(
  body: unknown,
): { tokensIn: number; tokensOut: number; tokensReasoning: number } | null {
  if (typeof body !== "object" || body === null) return null;
  const r = UsageCounts.safeParse((body as { usage?: unknown }).usage);
  if (!r.success) return null;
  return {
    tokensIn: r.data.prompt_tokens,
    tokensOut: r.data.completion_tokens,
    tokensReasoning: r.data.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

function fixed(x: number): string {
  return x.toFixed(4);
}

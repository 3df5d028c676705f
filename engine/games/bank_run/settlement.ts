/**
 * Bank-run settlement: sampling realized withdrawals, processing them against
 * capacity (cash first, then early asset sales), liquidity failure during
 * processing, the end-of-round insolvency test, and failure liquidation.
 *
 * Capacity follows Table 4 ("up to 3.750 in withdrawals per round; excess
 * requests expire"): a request that would take the round's paid total above
 * the capacity expires whole, the deposit stays and the depositor may ask
 * again next round (`capacityRule: "expire"`, `../capacity.ts`). The
 * non-default `capacityRule: "partial"` pays the crossing request in part.
 *
 * Choices where Table 4 leaves the detail open (also in docs/modelling-choices.md):
 * - Requests are processed in a seeded random order (stream `engine` /
 *   `processing_order`), so no depositor is always first.
 * - A withdrawal is always of the depositor's whole remaining balance.
 * - The insolvency test values assets at maturity: cash + R x assets must be at
 *   least yield x deposits remaining + outstanding compensation (1e-9 tolerance).
 * - On failure, cash plus assets sold at the early-sale price form the pool,
 *   shared pro rata to remaining balances; the bank gets nothing and promised
 *   compensation is void.
 *
 * @module
 */
import type { EventBody } from "../../core/events.ts";
import type { StepContext } from "../../core/environment.ts";
import { shuffled } from "../../core/rng.ts";
import { roundCapacity } from "../../frail/capacity.ts";
import { drawDecision } from "../../frail/financial_decision.ts";
import { promisedTotal } from "../../frail/mechanisms/profile.ts";
import { payFromCash } from "../../frail/early_sale.ts";
import { type BankRunState, type Depositor, EPS } from "./state.ts";
import type { BankRunParams } from "./params.ts";

/**
 * Samples realized actions and settles the round's withdrawals. Mutates and
 * returns the events.
 *
 * @example
 * ```ts
 * import { settleWithdrawals } from "./settlement.ts";
 * import { initialBankRunState } from "./state.ts";
 * import { parseBankRunParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * const s = initialBankRunState(parseBankRunParams({}), "M0",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * s.round = 1;
 * s.pending = [{ agent: "dep_01", reported: 100, original: 100, committed: false }];
 * settleWithdrawals(s, { round: 1, stream: (a, p) => openStream({ seed: 1, round: 1, agent: a, purpose: p }) });
 * if (s.cash !== 0.125) throw new Error();
 * ```
 */
export function settleWithdrawals(state: BankRunState, ctx: StepContext): EventBody[] {
  const events: EventBody[] = [];
  const p = state.params;
  // Pending decisions come in roster order, a subsequence of the depositors:
  // one pass finds each (no map built per round).
  const depositors = state.depositors;
  const requests: Depositor[] = [];
  let j = 0;
  for (const pd of state.pending) {
    while (j < depositors.length && depositors[j].id !== pd.agent) j++;
    const d = j < depositors.length ? depositors[j] : depositorOf(state, pd.agent);
    const decision = drawDecision(ctx, pd, {
      call: "withdrawal",
      action: "withdraw",
      alternative: "stay",
      amount: d.balance,
    });
    events.push(decision);
    const { realized } = decision;
    d.history.push({ round: state.round, reported: pd.original, realized, processed: 0 });
    if (realized) requests.push(d);
  }
  state.pending = [];
  let depositsAtStart = 0;
  for (const d of depositors) depositsAtStart += d.balance;
  const capacity = roundCapacity({ capacity: p.capacity, rule: p.capacityRule });
  let processed = 0;
  let expired = 0;
  let sold = 0;
  let requested = 0;
  // The same permutation as shuffling the ids: it depends only on the length and the stream.
  for (const d of shuffled(ctx.stream("engine", "processing_order"), requests)) {
    const id = d.id;
    requested += d.balance;
    if (state.done) {
      continue;
    }
    const amount = capacity.take(d.balance);
    const lost = d.balance - amount;
    if (amount > EPS) {
      const paid = pay(state, amount);
      if (paid === undefined) {
        state.failure = { kind: "liquidity", round: state.round };
        events.push({
          type: "failure",
          kind: "liquidity",
          detail: `${id} requested ${fmt(amount)} but cash plus assets at the sale price is ` +
            `${fmt(state.cash + p.earlySalePrice * state.assets)}`,
        });
        liquidate(state, events);
        continue;
      }
      sold += paid;
      processed += amount;
      d.balance -= amount;
      if (d.balance < EPS) d.balance = 0;
      d.withdrawn += amount;
      state.cumulativeWithdrawn += amount;
      d.history[d.history.length - 1].processed = amount;
      events.push({
        type: "transition",
        kind: "withdrawal_paid",
        agent: id,
        amount,
        units_sold: paid,
      });
    }
    if (lost > EPS) {
      expired += lost;
      events.push({ type: "transition", kind: "request_expired", agent: id, amount: lost });
    }
  }
  state.last = { requested, processed, expired, sold, depositsAtStart };
  if (!state.done && isInsolvent(state)) {
    state.failure = { kind: "insolvency", round: state.round };
    const owed = owedAtMaturity(state);
    events.push({
      type: "failure",
      kind: "insolvency",
      detail: `cash + maturity value ${fmt(state.cash + p.assetReturn * state.assets)} < ` +
        `deposits owed with yield and compensation ${fmt(owed)}`,
    });
    liquidate(state, events);
  }
  return events;
}

/** The depositor `id` (pending decisions out of roster order, which the engine never makes). */
function depositorOf(state: BankRunState, id: string): Depositor {
  const d = state.depositors.find((x) => x.id === id);
  if (!d) throw new RangeError(`Unknown depositor "${id}" in the pending decisions`);
  return d;
}

/** Pays `amount` from cash, then by selling assets; returns units sold, or undefined if impossible. */
function pay(state: BankRunState, amount: number): number | undefined {
  const h = state.params.earlySalePrice;
  if (payFromCash(state, amount)) return 0;
  const units = (amount - state.cash) / h;
  if (units > state.assets + EPS) return undefined;
  state.assets = Math.max(0, state.assets - units);
  state.assetsSold += units;
  state.cash = 0;
  return units;
}

/**
 * What the bank owes at maturity: yield on remaining deposits plus promised compensation.
 *
 * @example
 * ```ts
 * import { owedAtMaturity } from "./settlement.ts";
 * const s = { params: { depositYield: 1.114 }, depositors: [{ balance: 1 }], m1: null } as never;
 * if (owedAtMaturity(s) !== 1.114) throw new Error();
 * ```
 */
export function owedAtMaturity(state: BankRunState): number {
  const deposits = state.depositors.reduce((s, d) => s + d.balance, 0);
  return state.params.depositYield * deposits + promisedTotal(state);
}

/**
 * The insolvency test of Table 4: cash + R x assets < deposits owed with the
 * promised yield plus outstanding compensation.
 *
 * @example
 * ```ts
 * import { isInsolvent } from "./settlement.ts";
 * const s = { cash: 0, assets: 1, params: { assetReturn: 1.131, depositYield: 1.114 }, depositors: [{ balance: 2 }], m1: null } as never;
 * if (!isInsolvent(s)) throw new Error();
 * ```
 */
export function isInsolvent(state: BankRunState): boolean {
  return state.cash + state.params.assetReturn * state.assets + 1e-9 < owedAtMaturity(state);
}

/**
 * Cumulative withdrawals (paid at face, from the initial balance sheet, with
 * no compensation outstanding unless given) beyond which the end-of-round
 * insolvency test fails: 8.48 units in the stable regime (Appendix H.4).
 *
 * @example
 * ```ts
 * import { insolvencyBoundary } from "./settlement.ts";
 * import { parseBankRunParams } from "./params.ts";
 * if (insolvencyBoundary(parseBankRunParams({})).toFixed(2) !== "8.48") throw new Error();
 * ```
 */
export function insolvencyBoundary(p: BankRunParams, compensation = 0): number {
  const { initialCash: L, longTermAssets: A, assetReturn: R, earlySalePrice: h } = p;
  const Y = p.depositYield;
  const D = p.totalDeposits;
  // Valid where the boundary lies past the cash (assets are being sold there).
  // Assets sold: R (A - (w - L) / h) >= Y (D - w) + C.
  return (R * A + (R * L) / h - Y * D - compensation) / (R / h - Y);
}

function liquidate(state: BankRunState, events: EventBody[]): void {
  const h = state.params.earlySalePrice;
  const proceeds = h * state.assets;
  events.push({
    type: "transition",
    kind: "liquidation",
    units_sold: state.assets,
    proceeds,
    pool: state.cash + proceeds,
  });
  state.assetsSold += state.assets;
  state.cash += proceeds;
  state.assets = 0;
  state.done = true;
}

function fmt(x: number): string {
  return x.toFixed(3);
}

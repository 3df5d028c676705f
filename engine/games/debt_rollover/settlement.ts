/**
 * Debt-rollover settlement (Table 4): cash interest, claim accrual, tranche
 * maturity, sampling the due creditors' redeem-or-roll decisions, processing
 * redemptions against capacity (cash first, then early sales of the
 * nearest-maturity assets), liquidity default during processing, the
 * end-of-round insolvency test, and default liquidation.
 *
 * Order within the round: the one documented in `bounds.ts` (interest,
 * accrual, maturity, redemptions, insolvency test), under which the
 * enumeration reproduces the paper's bounds.
 *
 * Choices where Table 4 leaves a detail open (also in docs/modelling-choices.md):
 * - Redemption requests are processed in a seeded random order (stream
 *   `engine` / `processing_order`), so no creditor is always first.
 * - A claim is redeemed whole or not at all: a request is paid when it fits
 *   in what is left of the round's capacity, otherwise it rolls one round
 *   (it is due again next round and its creditor decides again). This is
 *   Table 4's "excess requests roll one round", the `"expire"` rule of
 *   `../capacity.ts` (claims are indivisible, so there is no partial rule).
 * - Liquidity default: a redemption within capacity cannot be paid from cash
 *   plus every remaining asset at the sale price; nothing of it is paid.
 * - Insolvency: cash + remaining face (maturity value) < outstanding claims x
 *   F (1 + r_d)^T + outstanding premiums (1e-9 tolerance), tested at the end of
 *   every round, the last included.
 * - On default every remaining asset is sold at h; the pool (cash included)
 *   is shared among the outstanding claims in proportion to them (they are
 *   equal) in `finish`; the borrower gets nothing and premiums are void.
 *
 * @module
 */
import type { StepContext } from "../../core/environment.ts";
import type { EventBody } from "../../core/events.ts";
import { shuffled } from "../../core/rng.ts";
import { roundCapacity } from "../../frail/capacity.ts";
import { drawDecision } from "../../frail/financial_decision.ts";
import { promisedTotal } from "../../frail/mechanisms/profile.ts";
import {
  earnInterest,
  isInsolvent,
  liquidateAll,
  matureTranches,
  payOut,
  remainingFace,
} from "./balance_sheet.ts";
import { claimAt } from "./params.ts";
import type { DebtRolloverState } from "./state.ts";

/**
 * Settles the round. Mutates the state and returns the events.
 *
 * @example
 * ```ts
 * import { settleRound } from "./settlement.ts";
 * import { initialDebtRolloverState } from "./state.ts";
 * import { parseDebtRolloverParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M0");
 * s.round = 1;
 * s.pending = [{ agent: "crd_01", reported: 100, original: 100, committed: false }];
 * settleRound(s, { round: 1, stream: (a, p) => openStream({ seed: 1, round: 1, agent: a, purpose: p }) });
 * // 0.201 in cash pays part of 1.02; the rest takes (1.02 - 0.201) / 0.7 = 1.17 of the round-4 tranche.
 * if (s.done || s.cash !== 0 || s.tranches[0].face.toFixed(3) !== "0.830") throw new Error();
 * ```
 */
export function settleRound(s: DebtRolloverState, ctx: StepContext): EventBody[] {
  const events: EventBody[] = [];
  const p = s.params;
  const t = s.round;
  // 1. Interest on the cash carried from last round.
  const interest = earnInterest(s, p.cashRate);
  s.totals.interest += interest;
  if (interest > 0) {
    events.push({ type: "transition", kind: "cash_interest", amount: interest, cash: s.cash });
  }
  // 2. Claims accrue (committee members' committed amounts follow their claims).
  const claim = claimAt(p, t);
  const outstanding = s.creditors.filter((c) => c.outstanding);
  for (const c of outstanding) c.claim = claim;
  for (const m of s.m3?.members ?? []) m.amount = claim;
  events.push({
    type: "transition",
    kind: "claims_accrued",
    claim,
    outstanding: outstanding.length,
  });
  // 3. Tranches maturing this round pay their face.
  const matured = matureTranches(s, t);
  if (matured > 0) {
    s.totals.matured += matured;
    events.push({ type: "transition", kind: "asset_matured", round: t, face: matured });
  }
  // 4. Realized decisions of the due creditors.
  const byId = new Map(s.creditors.map((c) => [c.id, c]));
  const requests: string[] = [];
  let rolled = 0;
  let suspended = 0;
  for (const pd of s.pending) {
    const c = byId.get(pd.agent)!;
    const decision = drawDecision(ctx, pd, {
      call: "redeem_or_roll",
      action: "redeem",
      alternative: "roll",
      amount: c.claim,
    });
    events.push(decision);
    const { realized } = decision;
    const outcome = pd.committed ? "suspended" : "rolled";
    c.history.push({ round: t, reported: pd.original, realized, outcome });
    if (realized) requests.push(pd.agent);
    else if (pd.committed) suspended++;
    else rolled++;
  }
  const due = s.pending.length;
  s.pending = [];
  // 5. Redemptions within capacity, in a seeded order.
  const capacity = roundCapacity({ capacity: p.capacity, rule: "expire" });
  let redeemed = 0;
  let paid = 0;
  let deferred = 0;
  let faceSold = 0;
  for (const id of shuffled(ctx.stream("engine", "processing_order"), requests)) {
    const c = byId.get(id)!;
    const entry = c.history[c.history.length - 1];
    if (s.done) {
      entry.outcome = "unpaid";
      continue;
    }
    if (capacity.take(c.claim) === 0) {
      deferred++;
      entry.outcome = "deferred";
      events.push({ type: "transition", kind: "request_deferred", agent: id, amount: c.claim });
      continue;
    }
    const sale = payOut(s, c.claim, p.earlySalePrice);
    if (sale === undefined) {
      entry.outcome = "unpaid";
      s.failure = { kind: "liquidity", round: t };
      events.push({
        type: "failure",
        kind: "liquidity",
        detail: `${id}'s claim of ${fmt(c.claim)} cannot be paid: cash plus every asset at the ` +
          `sale price is ${fmt(s.cash + p.earlySalePrice * remainingFace(s))}`,
      });
      liquidate(s, events);
      continue;
    }
    redeemed++;
    paid += c.claim;
    faceSold += sale.face;
    s.totals.faceSold += sale.face;
    s.totals.saleProceeds += sale.proceeds;
    s.totals.redemptionsPaid += c.claim;
    c.outstanding = false;
    c.redeemed = c.claim;
    c.redeemedRound = t;
    entry.outcome = "redeemed";
    events.push({
      type: "transition",
      kind: "redemption_paid",
      agent: id,
      amount: c.claim,
      face_sold: sale.face,
      proceeds: sale.proceeds,
    });
  }
  s.last = { due, rolled, redeemed, paid, deferred, suspended, faceSold };
  // 6. The insolvency test.
  if (!s.done) {
    const owed = liabilities(s);
    if (isInsolvent(s, owed)) {
      s.failure = { kind: "insolvency", round: t };
      events.push({
        type: "failure",
        kind: "insolvency",
        detail: `cash + maturity value of assets ${fmt(s.cash + remainingFace(s))} < claims ` +
          `compounded to round ${p.horizon} plus premiums ${fmt(owed)}`,
      });
      liquidate(s, events);
    }
  }
  return events;
}

/**
 * What the insolvency test compares with: outstanding claims compounded to the
 * horizon plus outstanding premiums.
 *
 * @example
 * ```ts
 * import { liabilities } from "./settlement.ts";
 * import { initialDebtRolloverState } from "./state.ts";
 * import { parseDebtRolloverParams } from "./params.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M0");
 * if (liabilities(s).toFixed(3) !== "9.189") throw new Error();
 * ```
 */
export function liabilities(s: DebtRolloverState): number {
  const n = s.creditors.filter((c) => c.outstanding).length;
  return n * claimAt(s.params, s.params.horizon) + promisedTotal(s);
}

function liquidate(s: DebtRolloverState, events: EventBody[]): void {
  const sale = liquidateAll(s, s.params.earlySalePrice);
  s.totals.faceSold += sale.face;
  s.totals.saleProceeds += sale.proceeds;
  events.push({
    type: "transition",
    kind: "liquidation",
    face_sold: sale.face,
    proceeds: sale.proceeds,
    pool: s.cash,
  });
  s.done = true;
}

function fmt(x: number): string {
  return x.toFixed(3);
}

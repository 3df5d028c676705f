/**
 * The debt-rollover environment (Section 3.1.2, Table 4) as a pure state
 * machine with the round order of Appendix F: mechanism proposals (borrower,
 * M1-M2), mechanism responses (targeted or committed creditors; under M3
 * everyone who may join), certified message delivery, redeem-or-roll
 * decisions (due creditors only, Table 7), settlement, disclosure.
 *
 * Payoffs: a creditor gets what it was paid on redemption, or on success its
 * claim at the horizon F (1 + r_d)^T plus any M1 premium, or on default its
 * pro-rata share of the liquidation pool; the borrower gets what is left on
 * success and nothing on default. Welfare is their sum, which always equals
 * initial cash + interest earned + face matured + proceeds of early sales.
 *
 * Disclosure metrics (for analysis, never shown to agents) measure volumes in
 * face value, so shares are of the creditors' total face (8 units, as in
 * Table 9): `redeemed_this_round` and `cumulative_redeemed` are the face of the
 * claims redeemed, `committed` the face of the committed outstanding claims;
 * `paid_this_round` and `cumulative_paid` are the amounts paid.
 *
 * @module
 */
import { frailRebase } from "../../frail/rebase.ts";
import type { Environment } from "../../core/environment.ts";
import type { EventBody } from "../../core/events.ts";
import {
  financialStep,
  type PendingDecision,
  withoutCall,
} from "../../frail/financial_decision.ts";
import { advanceCoalitionExit } from "../../frail/mechanisms/coalition_exit.ts";
import { mechanismResponseContract } from "../../frail/mechanisms/contracts.ts";
import { compensationByAgent } from "../../frail/mechanisms/paid_offers.ts";
import { promisedTotal } from "../../frail/mechanisms/profile.ts";
import {
  beginRound,
  endEpisode,
  engineStep,
  proposalStep,
  responseStep,
} from "../../frail/round_steps.ts";
import { assertMechanism } from "../../frail/types.ts";
import { debtRolloverBounds } from "./bounds.ts";
import { committedFace } from "./commitments.ts";
import { remainingFace } from "./balance_sheet.ts";
import {
  redeemOrRollContract,
  rolloverOfferContract,
  standstillSolicitationContract,
} from "./contracts.ts";
import {
  applyProposal,
  applyResponses,
  deliverMessages,
  mechanismCallees,
} from "./mechanism_steps.ts";
import { type DebtRolloverParams, parseDebtRolloverParams } from "./params.ts";
import { settleRound } from "./settlement.ts";
import { debtRolloverStateJson } from "./state_json.ts";
import { BORROWER_ID, type DebtRolloverState, initialDebtRolloverState, isDue } from "./state.ts";
import { borrowerView, creditorView } from "./views.ts";

/** End of round: the committee's exit ritual advances, then the public snapshot. */
function disclose(s: DebtRolloverState): EventBody[] {
  const events = s.m3 ? advanceCoalitionExit(s.m3, s.round) : [];
  s.disclosed = {
    cash: s.cash,
    assets: s.tranches.filter((t) => t.face > 0).map((t) => ({ ...t })),
    claimsOutstanding: s.creditors.filter((c) => c.outstanding).length,
    last: { ...s.last },
    outstandingPremiums: promisedTotal(s),
  };
  const p = s.params;
  s.cumulativeRedeemed += s.last.redeemed * p.faceValue;
  events.push({
    type: "disclosure",
    public: { ...structuredClone(s.disclosed) },
    metrics: {
      cash: s.cash,
      assets: remainingFace(s),
      claims_outstanding: s.disclosed.claimsOutstanding,
      redeemed_this_round: s.last.redeemed * p.faceValue,
      cumulative_redeemed: s.cumulativeRedeemed,
      paid_this_round: s.last.paid,
      cumulative_paid: s.totals.redemptionsPaid,
      committed: committedFace(s, s.round),
      outstanding_premiums: s.disclosed.outstandingPremiums,
    },
  });
  return events;
}

const STEPS = [
  proposalStep<DebtRolloverState>({
    central: BORROWER_ID,
    role: "borrower",
    calls: { M1: "rollover_offer", M2: "standstill_solicitation" },
    view: borrowerView,
    apply: applyProposal,
  }),
  responseStep<DebtRolloverState>({
    role: "creditor",
    callees: mechanismCallees,
    view: creditorView,
    apply: applyResponses,
  }),
  engineStep<DebtRolloverState>("delivery", (s) => (s.done ? [] : deliverMessages(s))),
  financialStep<DebtRolloverState, "redeem_or_roll", PendingDecision>({
    role: "creditor",
    callees: (s) => s.creditors.filter((c) => isDue(s, c)).map((c) => c.id),
    call: () => "redeem_or_roll",
    view: creditorView,
    overrideReason: "committed creditors roll while the commitment holds",
    pending: withoutCall,
  }),
  engineStep<DebtRolloverState>("settlement", (s, ctx) => (s.done ? [] : settleRound(s, ctx))),
  engineStep<DebtRolloverState>("disclosure", disclose),
];

/**
 * The debt-rollover environment.
 *
 * @example
 * ```ts
 * import { debtRollover } from "./environment.ts";
 * const b = debtRollover.bounds(debtRollover.parseParams({}));
 * if (b.worst.toFixed(3) !== "6.851" || b.best.toFixed(3) !== "9.899") throw new Error();
 * ```
 */
export const debtRollover: Environment<DebtRolloverParams, DebtRolloverState> = {
  id: "debt_rollover",
  parseParams: parseDebtRolloverParams,
  init(params, { mechanism }) {
    assertMechanism(mechanism);
    return initialDebtRolloverState(params, mechanism);
  },
  roster(s) {
    const central = s.mechanism === "M1" || s.mechanism === "M2"
      ? [{ id: BORROWER_ID, role: "borrower" }]
      : [];
    return [...central, ...s.creditors.map((c) => ({ id: c.id, role: "creditor" }))];
  },
  horizon: (s) => s.params.horizon,
  startRound(s, round) {
    return { state: s, events: beginRound(s, round) };
  },
  steps: () => STEPS,
  contracts: {
    redeem_or_roll: redeemOrRollContract,
    mechanism_response: mechanismResponseContract,
    rollover_offer: rolloverOfferContract,
    standstill_solicitation: standstillSolicitationContract,
  },
  isDone: (s) => s.done,
  finish(s) {
    const events: EventBody[] = [];
    const payoffs: Record<string, number> = {};
    const success = s.failure === null;
    const outstanding = s.creditors.filter((c) => c.outstanding);
    if (success) {
      const premiums = s.m1 ? compensationByAgent(s.m1) : new Map<string, number>();
      let paid = 0;
      for (const c of s.creditors) {
        const premium = premiums.get(c.id) ?? 0;
        const final = c.outstanding ? c.claim : 0;
        paid += final + premium;
        payoffs[c.id] = c.redeemed + final + premium;
        if (final + premium > 0) {
          events.push({
            type: "transition",
            kind: "final_payment",
            agent: c.id,
            amount: final + premium,
            claim: final,
            premium,
          });
        }
      }
      payoffs[BORROWER_ID] = s.cash - paid;
      events.push({ type: "transition", kind: "borrower_profit", amount: s.cash - paid });
    } else {
      const premiums = promisedTotal(s);
      if (premiums > 0) events.push({ type: "transition", kind: "premiums_void", total: premiums });
      const owed = outstanding.reduce((a, c) => a + c.claim, 0);
      for (const c of s.creditors) {
        const share = c.outstanding && owed > 0 ? (s.cash * c.claim) / owed : 0;
        payoffs[c.id] = c.redeemed + share;
        if (share > 0) {
          events.push({ type: "transition", kind: "pro_rata_share", agent: c.id, amount: share });
        }
      }
      payoffs[BORROWER_ID] = owed > 0 ? 0 : s.cash;
    }
    s.cash = 0;
    return endEpisode(s, { success, payoffs, events });
  },
  bounds: debtRolloverBounds,
  stateJson: debtRolloverStateJson,
  rebase: (s, params, options) => frailRebase(debtRollover)(s, params, options),
};

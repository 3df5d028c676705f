/**
 * The bank-run environment (Section 3.1.1, Table 4) as a pure state machine
 * with the round order of Appendix F: mechanism proposals, mechanism
 * responses, certified message delivery, financial decisions, settlement,
 * disclosure.
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
import { committedAmount } from "./commitments.ts";
import {
  protectionSolicitationContract,
  retentionOfferContract,
  withdrawalContract,
} from "./contracts.ts";
import {
  activeDepositors,
  applyProposal,
  applyResponses,
  deliverMessages,
} from "./mechanism_steps.ts";
import { bankRunBounds, type BankRunParams, parseBankRunParams } from "./params.ts";
import { settleWithdrawals } from "./settlement.ts";
import { BANK_ID, type BankRunState, initialBankRunState } from "./state.ts";
import { bankRunCheckpointJson, bankRunStateJson } from "./state_json.ts";
import { bankView, depositorView } from "./views.ts";

/** End of round: the coalition's exit ritual advances, then the public snapshot. */
function disclose(s: BankRunState): EventBody[] {
  const events = s.m3 ? advanceCoalitionExit(s.m3, s.round) : [];
  const remaining = s.depositors.reduce((a, d) => a + d.balance, 0);
  // The same promised total twice: nothing changes the offers in between.
  const promised = promisedTotal(s);
  s.disclosed = {
    cash: s.cash,
    assets: s.assets,
    depositsRemaining: remaining,
    fractionRedeemed: s.last.depositsAtStart > 0 ? s.last.processed / s.last.depositsAtStart : 0,
    outstandingCompensation: promised,
  };
  events.push({
    type: "disclosure",
    public: { ...s.disclosed },
    metrics: {
      cash: s.cash,
      assets: s.assets,
      deposits_remaining: remaining,
      withdrawn_this_round: s.last.processed,
      cumulative_withdrawn: s.cumulativeWithdrawn,
      committed: committedAmount(s, s.round),
      outstanding_compensation: promised,
    },
  });
  return events;
}

const STEPS = [
  proposalStep<BankRunState>({
    central: BANK_ID,
    role: "bank",
    calls: { M1: "retention_offer", M2: "protection_solicitation" },
    view: bankView,
    apply: applyProposal,
  }),
  responseStep<BankRunState>({
    role: "depositor",
    callees: activeDepositors,
    view: depositorView,
    apply: applyResponses,
  }),
  engineStep<BankRunState>("delivery", (s) => (s.done ? [] : deliverMessages(s))),
  financialStep<BankRunState, "withdrawal", PendingDecision>({
    role: "depositor",
    callees: activeDepositors,
    call: () => "withdrawal",
    view: depositorView,
    overrideReason: "committed depositors cannot withdraw while the commitment holds",
    pending: withoutCall,
  }),
  engineStep<BankRunState>("settlement", (s, ctx) => (s.done ? [] : settleWithdrawals(s, ctx))),
  engineStep<BankRunState>("disclosure", disclose),
];

/**
 * The bank-run environment.
 *
 * @example
 * ```ts
 * import { bankRun } from "./environment.ts";
 * const p = bankRun.parseParams({ capacity: 5 });
 * if (bankRun.bounds(p).best.toFixed(3) !== "18.175") throw new Error();
 * ```
 */
export const bankRun: Environment<BankRunParams, BankRunState> = {
  id: "bank_run",
  parseParams: parseBankRunParams,
  init(params, { mechanism, stream }) {
    assertMechanism(mechanism);
    return initialBankRunState(params, mechanism, stream("engine", "deposit_split"));
  },
  roster(s) {
    const central = s.mechanism === "M1" || s.mechanism === "M2"
      ? [{ id: BANK_ID, role: "bank" }]
      : [];
    return [...central, ...s.depositors.map((d) => ({ id: d.id, role: "depositor" }))];
  },
  horizon: (s) => s.params.horizon,
  startRound(s, round) {
    return { state: s, events: beginRound(s, round) };
  },
  steps: () => STEPS,
  contracts: {
    withdrawal: withdrawalContract,
    mechanism_response: mechanismResponseContract,
    retention_offer: retentionOfferContract,
    protection_solicitation: protectionSolicitationContract,
  },
  isDone: (s) => s.done,
  finish(s) {
    const events: EventBody[] = [];
    const p = s.params;
    const payoffs: Record<string, number> = {};
    const success = s.failure === null;
    if (success) {
      const comp = s.m1 ? compensationByAgent(s.m1) : new Map<string, number>();
      const maturity = p.assetReturn * s.assets;
      events.push({ type: "transition", kind: "maturity", units: s.assets, value: maturity });
      let paid = 0;
      for (const d of s.depositors) {
        const c = comp.get(d.id) ?? 0;
        const final = d.balance * p.depositYield + c;
        paid += final;
        payoffs[d.id] = d.withdrawn + final;
        events.push({
          type: "transition",
          kind: "payout",
          agent: d.id,
          amount: final,
          compensation: c,
        });
      }
      payoffs[BANK_ID] = s.cash + maturity - paid;
      s.cash = 0;
      s.assets = 0;
    } else {
      if (s.m1 && promisedTotal(s) > 0) {
        events.push({ type: "transition", kind: "compensation_void", total: promisedTotal(s) });
      }
      const owed = s.depositors.reduce((a, d) => a + d.balance, 0);
      for (const d of s.depositors) {
        const share = owed > 0 ? (s.cash * d.balance) / owed : 0;
        payoffs[d.id] = d.withdrawn + share;
        if (share > 0) {
          events.push({ type: "transition", kind: "pro_rata_share", agent: d.id, amount: share });
        }
      }
      payoffs[BANK_ID] = owed > 0 ? 0 : s.cash;
      s.cash = 0;
    }
    return endEpisode(s, { success, payoffs, events });
  },
  bounds: bankRunBounds,
  stateJson: bankRunStateJson,
  // The depositors without their decision histories, which the decision events hold.
  checkpointState: { since: "lines-v4", json: bankRunCheckpointJson },
  rebase: (s, params, options) => frailRebase(bankRun)(s, params, options),
};

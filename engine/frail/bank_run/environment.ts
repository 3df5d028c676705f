/**
 * The bank-run environment (Section 3.1.1, Table 4) as a pure state machine
 * with the round order of Appendix F: mechanism proposals, mechanism
 * responses, certified message delivery, financial decisions, settlement,
 * disclosure.
 *
 * @module
 */
import type { Environment, Step } from "../../core/environment.ts";
import type { EventBody } from "../../core/events.ts";
import { applyExits } from "../mechanisms/agreement.ts";
import { completeExit } from "../mechanisms/coalition.ts";
import { advanceRitual } from "../mechanisms/exit_ritual.ts";
import { compensationByAgent } from "../mechanisms/paid_offers.ts";
import { assertMechanism } from "../types.ts";
import { committedAmount, isCommitted, promisedCompensation } from "./commitments.ts";
import {
  mechanismResponseContract,
  protectionSolicitationContract,
  retentionOfferContract,
  withdrawalContract,
} from "./contracts.ts";
import { applyProposal, applyResponses, BANK_ID, deliverMessages } from "./mechanism_steps.ts";
import { bankRunBounds, type BankRunParams, parseBankRunParams } from "./params.ts";
import { settleWithdrawals } from "./settlement.ts";
import { type BankRunState, initialBankRunState, isActive } from "./state.ts";
import { bankView, depositorView } from "./views.ts";

const proposalStep: Step<BankRunState> = {
  id: "mechanism_proposal",
  requests(s) {
    if (s.done || !(s.m1 || s.m2)) return [];
    return [{
      agent: BANK_ID,
      role: "bank",
      call: s.m1 ? "retention_offer" : "protection_solicitation",
      round: s.round,
      step: "mechanism_proposal",
      view: bankView(s),
    }];
  },
  apply(s, reports) {
    const r = reports.get(BANK_ID);
    return { state: s, events: r ? applyProposal(s, r) : [] };
  },
};

const responseStep: Step<BankRunState> = {
  id: "mechanism_response",
  requests(s) {
    if (s.mechanism === "M0") return [];
    return s.depositors.filter((d) => isActive(s, d)).map((d) => ({
      agent: d.id,
      role: "depositor",
      call: "mechanism_response",
      round: s.round,
      step: "mechanism_response",
      view: depositorView(s, d.id),
    }));
  },
  apply(s, reports) {
    return { state: s, events: applyResponses(s, reports) };
  },
};

const deliveryStep: Step<BankRunState> = {
  id: "delivery",
  requests: () => [],
  apply(s) {
    return { state: s, events: s.done ? [] : deliverMessages(s) };
  },
};

const financialStep: Step<BankRunState> = {
  id: "financial",
  requests(s) {
    return s.depositors.filter((d) => isActive(s, d)).map((d) => ({
      agent: d.id,
      role: "depositor",
      call: "withdrawal",
      round: s.round,
      step: "financial",
      view: depositorView(s, d.id),
    }));
  },
  apply(s, reports) {
    const events: EventBody[] = [];
    s.pending = [];
    for (const d of s.depositors) {
      const r = reports.get(d.id);
      if (!r) continue;
      const original = r.withdraw_probability as number;
      const committed = isCommitted(s, d.id, s.round);
      let reported = original;
      if (committed && original > 0) {
        reported = 0;
        events.push({
          type: "override",
          agent: d.id,
          call: "withdrawal",
          field: "withdraw_probability",
          from: original,
          to: 0,
          reason: "committed depositors cannot withdraw while the commitment holds",
        });
      }
      s.pending.push({ agent: d.id, reported, original, committed });
    }
    return { state: s, events };
  },
};

const settlementStep: Step<BankRunState> = {
  id: "settlement",
  requests: () => [],
  apply(s, _reports, ctx) {
    return { state: s, events: s.done ? [] : settleWithdrawals(s, ctx) };
  },
};

const disclosureStep: Step<BankRunState> = {
  id: "disclosure",
  requests: () => [],
  apply(s) {
    const events: EventBody[] = [];
    if (s.m3?.ritual) {
      const r = s.m3.ritual;
      const confirmed = advanceRitual(r, s.round);
      events.push({
        type: "mechanism",
        action: "exit_wave",
        agent: "coalition",
        wave: r.wave,
        list: [...r.list],
      });
      if (confirmed.length) {
        completeExit(s.m3, confirmed);
        s.m3.ritual = null;
        events.push({
          type: "mechanism",
          action: "exit_confirmed",
          agent: "coalition",
          members: confirmed,
        });
      }
    }
    const remaining = s.depositors.reduce((a, d) => a + d.balance, 0);
    s.disclosed = {
      cash: s.cash,
      assets: s.assets,
      depositsRemaining: remaining,
      fractionRedeemed: s.last.depositsAtStart > 0 ? s.last.processed / s.last.depositsAtStart : 0,
      outstandingCompensation: promisedCompensation(s),
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
        outstanding_compensation: promisedCompensation(s),
      },
    });
    return { state: s, events };
  },
};

const STEPS = [
  proposalStep,
  responseStep,
  deliveryStep,
  financialStep,
  settlementStep,
  disclosureStep,
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
    const events: EventBody[] = [];
    s.round = round;
    s.inbox = {};
    s.pending = [];
    if (s.m2) {
      s.m2.solicited = [];
      s.m2.discloseToNonSigners = false;
      for (const id of applyExits(s.m2, round)) {
        events.push({ type: "mechanism", action: "exit_effective", agent: id });
      }
    }
    return { state: s, events };
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
      if (s.m1 && promisedCompensation(s) > 0) {
        events.push({
          type: "transition",
          kind: "compensation_void",
          total: promisedCompensation(s),
        });
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
    s.done = true;
    const welfare = Object.values(payoffs).reduce((a, b) => a + b, 0);
    return {
      state: s,
      events,
      outcome: {
        success,
        failure: s.failure?.kind ?? null,
        rounds: s.round,
        payoffs,
        welfare,
      },
    };
  },
  bounds: bankRunBounds,
};

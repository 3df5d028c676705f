/**
 * The reward-crowdfunding environment (Section 3.1.3, Table 4) as a pure
 * state machine with the round order of Appendix F: mechanism proposals,
 * mechanism responses (and, under M3, the three in-round exit confirmation
 * hands), certified message delivery, financial decisions (pledge or
 * withdrawal), settlement, the founder's launch decision when P >= G, and
 * disclosure (interest, refunds, the public snapshot). Rounds 1-9 decide; the
 * episode ends when the campaign launches or fails, and every balance is then
 * accrued to round 10 in closed form (see `settlement.ts`).
 *
 * @module
 */
import type { Environment, Step } from "../../core/environment.ts";
import type { EventBody } from "../../core/events.ts";
import { applyExits } from "../mechanisms/agreement.ts";
import { completeExit } from "../mechanisms/coalition.ts";
import { awaitingConfirmation, confirmedExits } from "../mechanisms/in_round_exit.ts";
import { assertMechanism } from "../types.ts";
import { committedAmount, isCommitted, outstandingBonuses } from "./commitments.ts";
import {
  coalitionResponseContract,
  exitConfirmationContract,
  intentSolicitationContract,
  launchDecisionContract,
  mechanismResponseContract,
  pledgeContract,
  pledgeOfferContract,
  withdrawalContract,
} from "./contracts.ts";
import {
  applyCoalitionResponses,
  applyExitConfirmations,
  applyProposal,
  applyResponses,
  deliverMessages,
} from "./mechanism_steps.ts";
import { crowdfundingBounds, type CrowdfundingParams, parseCrowdfundingParams } from "./params.ts";
import {
  accrueToHorizon,
  canLaunch,
  closeRound,
  launchCampaign,
  settleDecisions,
} from "./settlement.ts";
import { type CrowdfundingState, FOUNDER_ID, initialCrowdfundingState, pool } from "./state.ts";
import { backerView, callFor, exitConfirmationView, founderView } from "./views.ts";

type CfStep = Step<CrowdfundingState>;

const proposalStep: CfStep = {
  id: "mechanism_proposal",
  requests(s) {
    if (s.done || !(s.m1 || s.m2)) return [];
    return [{
      agent: FOUNDER_ID,
      role: "founder",
      call: s.m1 ? "pledge_offer" : "intent_solicitation",
      round: s.round,
      step: "mechanism_proposal",
      view: founderView(s),
    }];
  },
  apply(s, reports) {
    const r = reports.get(FOUNDER_ID);
    return { state: s, events: r ? applyProposal(s, r) : [] };
  },
};

const responseStep: CfStep = {
  id: "mechanism_response",
  requests(s) {
    if (s.done || s.mechanism === "M0") return [];
    return s.backers.map((b) => ({
      agent: b.id,
      role: "backer",
      call: s.m3 ? "coalition_response" : "mechanism_response",
      round: s.round,
      step: "mechanism_response",
      view: backerView(s, b.id),
    }));
  },
  apply(s, reports) {
    return {
      state: s,
      events: s.m3 ? applyCoalitionResponses(s, reports) : applyResponses(s, reports),
    };
  },
};

function confirmationStep(hand: number): CfStep {
  const id = `exit_confirmation_${hand}`;
  return {
    id,
    requests(s) {
      if (!s.m3) return [];
      return awaitingConfirmation(s.m3.exits, s.round).map((member) => ({
        agent: member,
        role: "backer",
        call: "exit_confirmation",
        round: s.round,
        step: id,
        view: exitConfirmationView(s, member, hand),
      }));
    },
    apply(s, reports) {
      return { state: s, events: applyExitConfirmations(s, reports, hand) };
    },
  };
}

const deliveryStep: CfStep = {
  id: "delivery",
  requests: () => [],
  apply(s) {
    return { state: s, events: s.done ? [] : deliverMessages(s) };
  },
};

const financialStep: CfStep = {
  id: "financial",
  requests(s) {
    if (s.done) return [];
    return s.backers.map((b) => ({
      agent: b.id,
      role: "backer",
      call: callFor(b),
      round: s.round,
      step: "financial",
      view: backerView(s, b.id),
    }));
  },
  apply(s, reports) {
    const events: EventBody[] = [];
    s.pending = [];
    for (const b of s.backers) {
      const r = reports.get(b.id);
      if (!r) continue;
      const call = callFor(b);
      const field = call === "pledge" ? "pledge_probability" : "withdraw_probability";
      const original = r[field] as number;
      const committed = isCommitted(s, b.id, s.round);
      let reported = original;
      if (call === "withdrawal" && committed && original > 0) {
        reported = 0;
        events.push({
          type: "override",
          agent: b.id,
          call,
          field,
          from: original,
          to: 0,
          reason: "committed backers cannot withdraw while the commitment holds",
        });
      }
      s.pending.push({ agent: b.id, call, reported, original, committed });
    }
    return { state: s, events };
  },
};

const settlementStep: CfStep = {
  id: "settlement",
  requests: () => [],
  apply(s, _reports, ctx) {
    return { state: s, events: s.done ? [] : settleDecisions(s, ctx) };
  },
};

const launchStep: CfStep = {
  id: "launch",
  requests(s) {
    if (!canLaunch(s)) return [];
    return [{
      agent: FOUNDER_ID,
      role: "founder",
      call: "launch_decision",
      round: s.round,
      step: "launch",
      view: founderView(s),
    }];
  },
  apply(s, reports) {
    const r = reports.get(FOUNDER_ID);
    if (!r || !canLaunch(s)) return { state: s, events: [] };
    if (r.launch !== true) {
      return {
        state: s,
        events: [{
          type: "mechanism",
          action: "launch_declined",
          agent: FOUNDER_ID,
          pool: pool(s),
        }],
      };
    }
    return { state: s, events: launchCampaign(s) };
  },
};

const disclosureStep: CfStep = {
  id: "disclosure",
  requests: () => [],
  apply(s) {
    const events: EventBody[] = [];
    if (s.done) return { state: s, events };
    events.push(...closeRound(s));
    if (s.m3) {
      const leaving = confirmedExits(s.m3.exits, s.round);
      if (leaving.length) {
        completeExit(s.m3, leaving);
        events.push({
          type: "mechanism",
          action: "exit_confirmed",
          agent: "coalition",
          members: leaving,
        });
      }
    }
    const withdrawn = Object.values(s.withdrawnThisRound);
    s.disclosed = {
      pool: s.launch ? s.launch.pool : pool(s),
      newPledges: s.pledgedThisRound.length,
      withdrawals: withdrawn.length,
      withdrawnFace: withdrawn.reduce((a, b) => a + b, 0),
      open: !s.done,
      launched: s.launch !== null,
      outstandingBonuses: outstandingBonuses(s),
    };
    events.push({
      type: "disclosure",
      public: { ...s.disclosed },
      metrics: {
        pool: s.disclosed.pool,
        committed: committedAmount(s, s.round),
        pledged_this_round: s.disclosed.newPledges,
        withdrawn_this_round: s.disclosed.withdrawnFace,
        idle_balances: s.backers.reduce((a, b) => a + b.bank, 0),
        outstanding_bonuses: s.disclosed.outstandingBonuses,
        launched: s.launch ? 1 : 0,
      },
    });
    return { state: s, events };
  },
};

const BASE_STEPS: readonly CfStep[] = [proposalStep, responseStep];
const CONFIRMATION_STEPS: readonly CfStep[] = [1, 2, 3].map(confirmationStep);
const TAIL_STEPS: readonly CfStep[] = [
  deliveryStep,
  financialStep,
  settlementStep,
  launchStep,
  disclosureStep,
];
const STEPS_M3: readonly CfStep[] = [...BASE_STEPS, ...CONFIRMATION_STEPS, ...TAIL_STEPS];
const STEPS: readonly CfStep[] = [...BASE_STEPS, ...TAIL_STEPS];

/**
 * The reward-crowdfunding environment.
 *
 * @example
 * ```ts
 * import { crowdfunding } from "./environment.ts";
 * const p = crowdfunding.parseParams({});
 * const b = crowdfunding.bounds(p);
 * if (b.worst.toFixed(3) !== "15.450" || b.best.toFixed(3) !== "22.802") throw new Error();
 * ```
 */
export const crowdfunding: Environment<CrowdfundingParams, CrowdfundingState> = {
  id: "crowdfunding",
  parseParams: parseCrowdfundingParams,
  init(params, { mechanism }) {
    assertMechanism(mechanism);
    return initialCrowdfundingState(params, mechanism);
  },
  roster(s) {
    return [
      { id: FOUNDER_ID, role: "founder" },
      ...s.backers.map((b) => ({ id: b.id, role: "backer" })),
    ];
  },
  horizon: (s) => s.params.horizon,
  startRound(s, round) {
    const events: EventBody[] = [];
    s.round = round;
    s.inbox = {};
    s.pending = [];
    s.pledgedThisRound = [];
    s.withdrawnThisRound = {};
    if (s.m2) {
      s.m2.solicited = [];
      s.m2.discloseToNonSigners = false;
      for (const id of applyExits(s.m2, round)) {
        events.push({ type: "mechanism", action: "exit_effective", agent: id });
      }
    }
    if (s.m3) {
      s.m3.exits = [];
      s.m3.ballots = {};
    }
    return { state: s, events };
  },
  steps: (s) => (s.m3 ? STEPS_M3 : STEPS),
  contracts: {
    pledge: pledgeContract,
    withdrawal: withdrawalContract,
    mechanism_response: mechanismResponseContract,
    coalition_response: coalitionResponseContract,
    exit_confirmation: exitConfirmationContract,
    pledge_offer: pledgeOfferContract,
    intent_solicitation: intentSolicitationContract,
    launch_decision: launchDecisionContract,
  },
  isDone: (s) => s.done,
  finish(s) {
    const { payoffs, events } = accrueToHorizon(s);
    s.done = true;
    const welfare = Object.values(payoffs).reduce((a, b) => a + b, 0);
    return {
      state: s,
      events,
      outcome: {
        success: s.launch !== null,
        failure: s.failure?.kind ?? null,
        rounds: s.round,
        payoffs,
        welfare,
      },
    };
  },
  bounds: crowdfundingBounds,
};

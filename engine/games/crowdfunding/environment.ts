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
import { frailRebase } from "../../frail/rebase.ts";
import type { Environment, Step } from "../../core/environment.ts";
import type { EventBody } from "../../core/events.ts";
import { type FinancialDecision, financialStep } from "../../frail/financial_decision.ts";
import { completeExit } from "../../frail/mechanisms/coalition.ts";
import { mechanismResponseContract } from "../../frail/mechanisms/contracts.ts";
import { awaitingConfirmation, confirmedExits } from "../../frail/mechanisms/in_round_exit.ts";
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
  coalitionResponseContract,
  exitConfirmationContract,
  intentSolicitationContract,
  launchDecisionContract,
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
import { crowdfundingStateJson } from "./state_json.ts";
import {
  type BackerCall,
  type CrowdfundingState,
  FOUNDER_ID,
  initialCrowdfundingState,
  pool,
} from "./state.ts";
import { backerView, callFor, exitConfirmationView, founderView } from "./views.ts";

type CfStep = Step<CrowdfundingState>;

const everyBacker = (s: CrowdfundingState) => s.backers.map((b) => b.id);

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

/** End of round: interest and refunds, confirmed exits leave, then the public snapshot. */
function disclose(s: CrowdfundingState): EventBody[] {
  const events: EventBody[] = [];
  if (s.done) return events;
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
    outstandingBonuses: promisedTotal(s),
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
  return events;
}

const BASE_STEPS: readonly CfStep[] = [
  proposalStep<CrowdfundingState>({
    central: FOUNDER_ID,
    role: "founder",
    calls: { M1: "pledge_offer", M2: "intent_solicitation" },
    view: founderView,
    apply: applyProposal,
  }),
  responseStep<CrowdfundingState>({
    role: "backer",
    callees: everyBacker,
    call: (s) => (s.m3 ? "coalition_response" : "mechanism_response"),
    view: backerView,
    apply: (s, reports) => (s.m3 ? applyCoalitionResponses : applyResponses)(s, reports),
  }),
];
const CONFIRMATION_STEPS: readonly CfStep[] = [1, 2, 3].map(confirmationStep);
const TAIL_STEPS: readonly CfStep[] = [
  engineStep<CrowdfundingState>("delivery", (s) => (s.done ? [] : deliverMessages(s))),
  financialStep<CrowdfundingState, BackerCall, FinancialDecision<BackerCall>>({
    role: "backer",
    callees: (s) => (s.done ? [] : everyBacker(s)),
    call: (s, id) => callFor(s.backers.find((b) => b.id === id)!),
    view: backerView,
    field: (call) => (call === "pledge" ? "pledge_probability" : "withdraw_probability"),
    binds: (call) => call === "withdrawal",
    overrideReason: "committed backers cannot withdraw while the commitment holds",
    pending: (decision) => decision,
  }),
  engineStep<CrowdfundingState>("settlement", (s, ctx) => (s.done ? [] : settleDecisions(s, ctx))),
  launchStep,
  engineStep<CrowdfundingState>("disclosure", disclose),
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
    const events = beginRound(s, round);
    s.pledgedThisRound = [];
    s.withdrawnThisRound = {};
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
    return endEpisode(s, { success: s.launch !== null, payoffs, events });
  },
  bounds: crowdfundingBounds,
  stateJson: crowdfundingStateJson,
  rebase: (s, params, options) => frailRebase(crowdfunding)(s, params, options),
};

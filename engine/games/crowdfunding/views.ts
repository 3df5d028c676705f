/**
 * Authorized views. Crowdfunding agents are told the round, the horizon and
 * the rounds remaining (Appendix F). A backer sees its own bank balance,
 * pledge and decisions, the campaign as disclosed at the end of last round,
 * the mechanism messages addressed to it this round and, as a coalition
 * member, member-only information.
 *
 * The founder sees what §3.2 lets it see. Under M0 agents "cannot observe
 * other agents' individual actions": the founder gets the campaign's
 * aggregates, as disclosed and the pool now (its launch call comes after this
 * round's pledges and withdrawals, Appendix F), and no backer's position.
 * Under M1 and M2 it also gets what its own agreements certify: the backers it
 * may address (the public roster), the offers accepted with their bonuses and
 * locks, the signers and their exits, and the pledges committed under them.
 * Under M3 coalition membership and members' positions stay inside the
 * coalition; the founder sees only a locked total that a member vote has
 * disclosed to it (a certified message).
 *
 * @module
 */
import { isMember } from "../../frail/mechanisms/coalition.ts";
import { EXIT_CONFIRMATIONS } from "../../frail/mechanisms/in_round_exit.ts";
import { isCommittedUnder, promisedTotal } from "../../frail/mechanisms/profile.ts";
import {
  acceptedOffersTo,
  centralMechanismView,
  hasDeclaredExit,
  mayJoin,
  openProposals,
} from "../../frail/mechanisms/views.ts";
import type { MechanismId, Message, ParticipantViewHead } from "../../frail/types.ts";
import { committedAmount, lockedTotal } from "./commitments.ts";
import { type CrowdfundingParams, lastDecisionRound } from "./params.ts";
import {
  type BackerCall,
  type CrowdfundingDisclosure,
  type CrowdfundingState,
  FOUNDER_ID,
  isPledged,
  pool,
} from "./state.ts";

/**
 * Game parameters every crowdfunding agent is told (no regime label): the
 * crowdfunding parameters and the last decision round they imply.
 */
export interface CrowdfundingParameters extends
  Pick<
    CrowdfundingParams,
    | "backers"
    | "unitPledge"
    | "goal"
    | "reward"
    | "margin"
    | "riskFree"
    | "withdrawalCapacity"
    | "capacityRule"
    | "horizon"
  > {
  /** Last decision round (T - 1). */
  lastDecisionRound: number;
}

/** A backer's commitment as shown to it. */
export type BackerCommitmentView =
  | { kind: "paid_pledge"; bonus: number; lockUntil: number }
  | { kind: "letter_of_intent"; exitDeclared: boolean }
  | { kind: "coalition_member"; exitRequested: boolean };

/** What a backer sees. */
export interface BackerView extends ParticipantViewHead<"backer"> {
  /** Current round. */
  round: number;
  /** Last round (settlement only). */
  horizon: number;
  /** Rounds after this one, up to the horizon. */
  roundsRemaining: number;
  /** Game parameters. */
  parameters: CrowdfundingParameters;
  /** Idle bank balance. */
  bank: number;
  /** Face pledged (0 when unpledged). */
  pledged: number;
  /** Own past financial decisions (`acted`: something was pledged or withdrawn). */
  previousDecisions: {
    round: number;
    call: "pledge" | "withdrawal";
    reported: number;
    acted: boolean;
  }[];
  /** The backer's active commitment, if any. */
  commitment: BackerCommitmentView | null;
  /** The campaign as of the end of last round. */
  campaign: Omit<CrowdfundingDisclosure, "outstandingBonuses">;
  /** Outstanding M1 bonuses in aggregate as of the end of last round (public; M1 only). */
  outstandingBonuses: number | null;
  /** Proposals awaiting this backer's answer. */
  proposals: {
    id: string;
    kind: "paid_pledge" | "letter_of_intent";
    bonus?: number;
    lockUntil?: number;
  }[];
  /** Certified messages delivered to this backer this round. */
  announcements: Message[];
  /** M3: whether the backer may still join (not a member, never exited). */
  canJoin: boolean;
  /** M3 member-only information. */
  coalition: {
    members: { id: string; face: number }[];
    lockedTotal: number;
    exitsThisRound: { member: string; confirmations: number; status: string }[];
  } | null;
  /** Set on an exit-confirmation call: which hand this is. */
  exitConfirmation?: { hand: number; of: number };
}

/** What the founder sees (§3.2; see the module notes). */
export interface FounderView {
  /** Always `"founder"`. */
  role: "founder";
  /** Mechanism of the episode. */
  mechanism: MechanismId;
  /** Current round. */
  round: number;
  /** Last round (settlement only). */
  horizon: number;
  /** Rounds after this one, up to the horizon. */
  roundsRemaining: number;
  /** Game parameters. */
  parameters: CrowdfundingParameters;
  /** The campaign as of the end of last round. */
  campaign: CrowdfundingDisclosure;
  /** The pool now. */
  pool: number;
  /** Whether a launch is allowed now (P >= G). */
  launchAllowed: boolean;
  /** M1-M2: the backer ids it may address (the public roster, no positions); empty under M0 and M3. */
  backers: string[];
  /** Promised M1 bonuses B outstanding. */
  outstandingBonuses: number;
  /** (1 - m) x pool: launching with more promised bonuses fails the campaign (M1). */
  bonusLimit: number;
  /** M1-M2: pledges committed under the founder's own agreements; `null` under M0 and M3. */
  committedTotal: number | null;
  /** Accepted M1 offers (`amount` is the bonus). */
  acceptedOffers: { target: string; amount: number; lockUntil: number }[];
  /** M2 signers of the letter of intent. */
  signers: { id: string; exitDeclared: boolean }[];
  /** Certified messages delivered to the founder this round (M3: a voted locked total). */
  announcements: Message[];
}

function parameters(p: CrowdfundingParams): CrowdfundingParameters {
  return {
    backers: p.backers,
    unitPledge: p.unitPledge,
    goal: p.goal,
    reward: p.reward,
    margin: p.margin,
    riskFree: p.riskFree,
    withdrawalCapacity: p.withdrawalCapacity,
    capacityRule: p.capacityRule,
    horizon: p.horizon,
    lastDecisionRound: lastDecisionRound(p),
  };
}

/**
 * Builds a backer's authorized view.
 *
 * @example
 * ```ts
 * import { backerView } from "./views.ts";
 * import { initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M0");
 * s.round = 1;
 * const v = backerView(s, "bkr_01");
 * if (v.round !== 1 || v.roundsRemaining !== 9 || v.bank !== 1 || v.campaign.pool !== 0) throw new Error();
 * ```
 * @throws {RangeError} For an unknown backer id.
 */
export function backerView(s: CrowdfundingState, id: string): BackerView {
  const b = s.backers.find((x) => x.id === id);
  if (!b) throw new RangeError(`Unknown backer "${id}"`);
  const round = s.round;
  const open = openProposals(s, id, { round });
  const { outstandingBonuses: disclosedBonuses, ...campaign } = s.disclosed;
  return {
    role: "backer",
    id,
    mechanism: s.mechanism,
    round,
    horizon: s.params.horizon,
    roundsRemaining: s.params.horizon - round,
    parameters: parameters(s.params),
    bank: b.bank,
    pledged: b.pledged,
    previousDecisions: b.history.map((h) => ({
      round: h.round,
      call: h.call,
      reported: h.reported,
      acted: h.processed > 0,
    })),
    commitment: commitmentView(s, id),
    campaign,
    outstandingBonuses: s.m1 ? disclosedBonuses : null,
    proposals: [
      ...open.offers.map((o) => ({
        id: o.id,
        kind: "paid_pledge" as const,
        bonus: o.amount,
        lockUntil: o.lockUntil,
      })),
      ...(open.solicitation ? [{ id: open.solicitation, kind: "letter_of_intent" as const }] : []),
    ],
    announcements: s.inbox[id] ?? [],
    canJoin: mayJoin(s.m3, id),
    coalition: s.m3 && isMember(s.m3, id)
      ? {
        members: s.m3.members.map((m) => ({
          id: m.id,
          face: s.backers.find((x) => x.id === m.id)!.pledged,
        })),
        lockedTotal: lockedTotal(s),
        exitsThisRound: s.m3.exits.filter((e) => e.round === round).map((e) => ({
          member: e.member,
          confirmations: e.confirmations,
          status: e.status,
        })),
      }
      : null,
  };
}

/**
 * A backer's view for one exit-confirmation hand.
 *
 * @example
 * ```ts
 * import { exitConfirmationView } from "./views.ts";
 * import { initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M3");
 * if (exitConfirmationView(s, "bkr_01", 2).exitConfirmation?.hand !== 2) throw new Error();
 * ```
 */
export function exitConfirmationView(s: CrowdfundingState, id: string, hand: number): BackerView {
  return { ...backerView(s, id), exitConfirmation: { hand, of: EXIT_CONFIRMATIONS } };
}

function commitmentView(s: CrowdfundingState, id: string): BackerCommitmentView | null {
  if (!isCommittedUnder(s, id, s.round)) return null;
  if (s.m1) {
    const o = acceptedOffersTo(s, id)[0];
    return { kind: "paid_pledge", bonus: o.amount, lockUntil: o.lockUntil };
  }
  if (s.m2) return { kind: "letter_of_intent", exitDeclared: hasDeclaredExit(s, id) };
  return {
    kind: "coalition_member",
    exitRequested: s.m3?.exits.some((e) => e.member === id && e.round === s.round) ?? false,
  };
}

/**
 * Builds the founder's authorized view.
 *
 * @example
 * ```ts
 * import { founderView } from "./views.ts";
 * import { initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M1");
 * const v = founderView(s);
 * if (v.backers.length !== 15 || v.launchAllowed || v.committedTotal !== 0) throw new Error();
 * const m0 = founderView(initialCrowdfundingState(parseCrowdfundingParams({}), "M0"));
 * if (m0.backers.length !== 0 || m0.committedTotal !== null) throw new Error("aggregates only");
 * ```
 */
export function founderView(s: CrowdfundingState): FounderView {
  const P = pool(s);
  const agreements = s.m1 !== null || s.m2 !== null;
  return {
    role: "founder",
    mechanism: s.mechanism,
    round: s.round,
    horizon: s.params.horizon,
    roundsRemaining: s.params.horizon - s.round,
    parameters: parameters(s.params),
    campaign: { ...s.disclosed },
    pool: P,
    launchAllowed: s.launch === null && s.failure === null && P + 1e-9 >= s.params.goal,
    backers: agreements ? s.backers.map((b) => b.id) : [],
    outstandingBonuses: promisedTotal(s),
    bonusLimit: (1 - s.params.margin) * P,
    committedTotal: agreements ? committedAmount(s, s.round) : null,
    ...centralMechanismView(s),
    announcements: s.inbox[FOUNDER_ID] ?? [],
  };
}

/**
 * Which financial call a backer gets in a decision round (Table 7): the pledge
 * call while unpledged, the withdrawal call while pledged.
 *
 * @example
 * ```ts
 * import { callFor } from "./views.ts";
 * if (callFor({ pledged: 1 } as never) !== "withdrawal") throw new Error();
 * ```
 */
export function callFor(b: { pledged: number }): BackerCall {
  return isPledged(b) ? "withdrawal" : "pledge";
}

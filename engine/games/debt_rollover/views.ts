/**
 * Authorized views. A creditor sees the round number, the horizon and the
 * rounds remaining (Appendix F), the public wave assignment, the borrower's
 * balance sheet and last round's activity as disclosed at the end of last
 * round, its own claim and decisions, the mechanism messages addressed to it,
 * and (as a committee member) member-only information. The borrower sees its
 * own books as of the end of last round, every creditor's claim and
 * commitment, and its mechanism's state. Neither is told the regime.
 *
 * @module
 */
import { isMember } from "../../frail/mechanisms/coalition.ts";
import { isCommittedUnder } from "../../frail/mechanisms/profile.ts";
import {
  acceptedOffersTo,
  centralMechanismView,
  coalitionMemberView,
  hasDeclaredExit,
  mayJoin,
  openProposals,
} from "../../frail/mechanisms/views.ts";
import type { MechanismId, Message, ParticipantViewHead } from "../../frail/types.ts";
import { committedClaims } from "./commitments.ts";
import { claimAt, type DebtRolloverParams } from "./params.ts";
import type { DebtRolloverDisclosure, DebtRolloverState, RolloverOutcome } from "./state.ts";
import { isDue } from "./state.ts";

/**
 * Game parameters every player is told (all of Table 4; no regime label):
 * the debt rollover parameters, the public wave assignment and what a claim
 * held to the horizon pays.
 */
export interface RolloverParameters extends
  Pick<
    DebtRolloverParams,
    | "creditors"
    | "horizon"
    | "faceValue"
    | "claimRate"
    | "initialCash"
    | "cashRate"
    | "assets"
    | "earlySalePrice"
    | "capacity"
  > {
  /** Public wave assignment: creditors whose claims first mature at each wave round. */
  waves: { round: number; creditors: string[] }[];
  /** What a claim held to the horizon pays: F (1 + r_d)^T. */
  claimAtHorizon: number;
}

/** A creditor's commitment as shown to it. */
export type CreditorCommitmentView =
  | { kind: "rollover_agreement"; premium: number; lockUntil: number }
  | { kind: "standstill_agreement"; exitDeclared: boolean }
  | { kind: "committee_member"; onExitList: boolean };

/** What a creditor sees. */
export interface CreditorView extends ParticipantViewHead<"creditor"> {
  /** Current round. */
  round: number;
  /** Last round. */
  horizon: number;
  /** Rounds left including this one (`horizon - round + 1`). */
  roundsRemaining: number;
  /** Game parameters (all of Table 4). */
  parameters: RolloverParameters;
  /** Own claim. */
  position: {
    /** Round the claim first matured or matures. */
    wave: number;
    /** Whether the claim is due this round (a redeem-or-roll decision is asked). */
    due: boolean;
    /** Whether the claim is still outstanding. */
    outstanding: boolean;
    /** Claim as of the last settlement. */
    claim: number;
    /** What redeeming this round pays: the claim after this round's accrual. */
    redemptionValue: number;
  };
  /** Own earlier redeem-or-roll reports and what became of them, oldest first. */
  previousDecisions: { round: number; reported: number; outcome: RolloverOutcome }[];
  /** Own commitment, if any. */
  commitment: CreditorCommitmentView | null;
  /** The borrower's balance sheet as of the end of last round. */
  borrower: { cash: number; assets: { round: number; face: number }[]; claimsOutstanding: number };
  /** Last round's activity (counts of creditors, amount paid). */
  lastRound: DebtRolloverDisclosure["last"];
  /** Outstanding premiums in aggregate (M1 only; public). */
  outstandingPremiums: number | null;
  /** Proposals awaiting this creditor's answer. */
  proposals: { id: string; kind: string; amount?: number; lockUntil?: number }[];
  /** Certified messages delivered to this creditor this round. */
  announcements: Message[];
  /** M3: whether the creditor may still join (outstanding, not a member, never exited). */
  canJoin: boolean;
  /** M3 member-only information. */
  committee: {
    members: { id: string; claim: number; wave: number }[];
    total: number;
    exitRitual: { wave: number; list: string[] } | null;
    pendingVotes: { id: string; proposer: string; announceTo: "all" | string[] }[];
  } | null;
}

/** What the borrower sees. */
export interface BorrowerView {
  /** Always `"borrower"`. */
  role: "borrower";
  /** Mechanism in force. */
  mechanism: MechanismId;
  /** Current round. */
  round: number;
  /** Last round. */
  horizon: number;
  /** Rounds left including this one (`horizon - round + 1`). */
  roundsRemaining: number;
  /** Game parameters (all of Table 4). */
  parameters: RolloverParameters;
  /** Own books as of the end of last round. */
  books: DebtRolloverDisclosure;
  /**
   * Solvency margin as of the end of last round: cash + remaining face -
   * outstanding claims at the horizon - outstanding premiums.
   */
  solvencyMargin: number;
  /** Creditors with an outstanding claim: wave, claim, whether due and whether committed. */
  creditors: { id: string; wave: number; claim: number; due: boolean; committed: boolean }[];
  /** Claims of the committed creditors (as of the last settlement). */
  committedTotal: number;
  /** M1 rollover agreements accepted so far (`amount` is the premium). */
  acceptedOffers: { target: string; amount: number; lockUntil: number }[];
  /** M2 standstill signers. */
  signers: { id: string; exitDeclared: boolean }[];
}

function parameters(s: DebtRolloverState): RolloverParameters {
  const p: DebtRolloverParams = s.params;
  return {
    creditors: p.creditors,
    waves: p.maturityWaves.map((round) => ({
      round,
      creditors: s.creditors.filter((c) => c.wave === round).map((c) => c.id),
    })),
    horizon: p.horizon,
    faceValue: p.faceValue,
    claimRate: p.claimRate,
    claimAtHorizon: claimAt(p, p.horizon),
    initialCash: p.initialCash,
    cashRate: p.cashRate,
    assets: p.assets.map((a) => ({ ...a })),
    earlySalePrice: p.earlySalePrice,
    capacity: p.capacity,
  };
}

/**
 * Builds a creditor's authorized view.
 *
 * @example
 * ```ts
 * import { creditorView } from "./views.ts";
 * import { initialDebtRolloverState } from "./state.ts";
 * import { parseDebtRolloverParams } from "./params.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M0");
 * s.round = 1;
 * const v = creditorView(s, "crd_01");
 * if (!v.position.due || v.roundsRemaining !== 7 || v.borrower.cash !== 0.2) throw new Error();
 * ```
 * @throws {RangeError} For an unknown creditor id.
 */
export function creditorView(s: DebtRolloverState, id: string): CreditorView {
  const c = s.creditors.find((x) => x.id === id);
  if (!c) throw new RangeError(`Unknown creditor "${id}"`);
  const round = s.round;
  const open = openProposals(s, id, { round });
  return {
    role: "creditor",
    id,
    mechanism: s.mechanism,
    round,
    horizon: s.params.horizon,
    roundsRemaining: s.params.horizon - round + 1,
    parameters: parameters(s),
    position: {
      wave: c.wave,
      due: isDue(s, c),
      outstanding: c.outstanding,
      claim: c.claim,
      redemptionValue: claimAt(s.params, round),
    },
    previousDecisions: c.history.map((h) => ({
      round: h.round,
      reported: h.reported,
      outcome: h.outcome,
    })),
    commitment: commitmentView(s, id),
    borrower: {
      cash: s.disclosed.cash,
      assets: s.disclosed.assets.map((a) => ({ ...a })),
      claimsOutstanding: s.disclosed.claimsOutstanding,
    },
    lastRound: { ...s.disclosed.last },
    outstandingPremiums: s.m1 ? s.disclosed.outstandingPremiums : null,
    proposals: [
      ...open.offers.map((o) => ({
        id: o.id,
        kind: "rollover_offer",
        amount: o.amount,
        lockUntil: o.lockUntil,
      })),
      ...(open.solicitation ? [{ id: open.solicitation, kind: "standstill_agreement" }] : []),
    ],
    announcements: s.inbox[id] ?? [],
    canJoin: c.outstanding && mayJoin(s.m3, id),
    committee: s.m3 && isMember(s.m3, id)
      ? coalitionMemberView(s.m3, (member) => {
        const x = s.creditors.find((y) => y.id === member)!;
        return { id: member, claim: x.claim, wave: x.wave };
      })
      : null,
  };
}

function commitmentView(s: DebtRolloverState, id: string): CreditorCommitmentView | null {
  if (!isCommittedUnder(s, id, s.round)) return null;
  if (s.m1) {
    const mine = acceptedOffersTo(s, id);
    return {
      kind: "rollover_agreement",
      premium: mine.reduce((a, o) => a + o.amount, 0),
      lockUntil: mine[0].lockUntil,
    };
  }
  if (s.m2) return { kind: "standstill_agreement", exitDeclared: hasDeclaredExit(s, id) };
  return { kind: "committee_member", onExitList: s.m3?.ritual?.list.includes(id) ?? false };
}

/**
 * Builds the borrower's authorized view.
 *
 * @example
 * ```ts
 * import { borrowerView } from "./views.ts";
 * import { initialDebtRolloverState } from "./state.ts";
 * import { parseDebtRolloverParams } from "./params.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M1");
 * s.round = 1;
 * const v = borrowerView(s);
 * if (v.creditors.length !== 8 || v.solvencyMargin.toFixed(3) !== "0.511") throw new Error();
 * ```
 */
export function borrowerView(s: DebtRolloverState): BorrowerView {
  const p = s.params;
  const d = s.disclosed;
  const face = d.assets.reduce((a, t) => a + t.face, 0);
  return {
    role: "borrower",
    mechanism: s.mechanism,
    round: s.round,
    horizon: p.horizon,
    roundsRemaining: p.horizon - s.round + 1,
    parameters: parameters(s),
    books: structuredClone(d),
    solvencyMargin: d.cash + face - d.claimsOutstanding * claimAt(p, p.horizon) -
      d.outstandingPremiums,
    creditors: s.creditors.filter((c) => c.outstanding).map((c) => ({
      id: c.id,
      wave: c.wave,
      claim: c.claim,
      due: isDue(s, c),
      committed: isCommittedUnder(s, c.id, s.round),
    })),
    committedTotal: committedClaims(s, s.round),
    ...centralMechanismView(s),
  };
}

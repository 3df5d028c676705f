/**
 * The mechanism steps of the bank run's batched path (`batched.ts`) under
 * M1-M3: one round's start, the mock bank's proposal, the mock depositors'
 * answers, the delivery of certified messages and M3's exit ritual, played
 * on the episode's mechanism profile with the mechanisms' own functions
 * (`makeOffers`, `answerOffer`, `expireOffers`, `applyCentralProposal`,
 * `openAgreementRound`, `sign`, `declareExit`, `join`, `proposeVote`, `castVote`,
 * `tallyVotes`, `requestExit`, `advanceCoalitionExit`, `deliverCertified`)
 * and the mock agents' rules as functions of numbers (`mock.ts`), with no
 * view, reply or event per depositor. The round loop, the financial step, settlement, disclosure and
 * the final payouts are the loop's (`batched.ts`), shared with M0.
 *
 * What a depositor's view would show is read off the profile and the loop's
 * numbers: under M2 a committed depositor sees its commitment (and answers
 * no solicitation), an uncommitted one the solicitation if it is among the
 * solicited; under M1 each offer of the round is pending until its target
 * answers it; under M3 every depositor's answer reads the coalition as it
 * was before the round's answers (the views of a step are all built before
 * any report applies). In the response step no certified message has been
 * delivered yet (delivery follows it), so a depositor outside a coalition
 * sees a committed share of 0 there.
 *
 * @module
 */
import type { Message } from "../../frail/types.ts";
import {
  declareExit,
  isSigner,
  openAgreementRound,
  sign,
  signerOf,
} from "../../frail/mechanisms/agreement.ts";
import { applyCentralProposal } from "../../frail/mechanisms/central_proposals.ts";
import { deliverCertified } from "../../frail/mechanisms/certified_delivery.ts";
import {
  answerOffer,
  expireOffers,
  makeOffers,
  type OfferProposal,
} from "../../frail/mechanisms/paid_offers.ts";
import { isCommittedUnder, type MechanismProfile } from "../../frail/mechanisms/profile.ts";
import { announcementProposer, solicitationReply } from "../../agents/mock/_mechanism_replies.ts";
import {
  castVote,
  coalitionTotal,
  isMember,
  join,
  proposeVote,
  tallyVotes,
} from "../../frail/mechanisms/coalition.ts";
import { advanceCoalitionExit } from "../../frail/mechanisms/coalition_exit.ts";
import { requestExit } from "../../frail/mechanisms/exit_ritual.ts";
import { lastBindingRound } from "./mechanism_steps.ts";
import {
  acceptedTermsValue,
  BANK_OFFER_LOCK_ROUNDS,
  bankOfferAmount,
  type BankPolicy,
  committedShareOf,
  defensiveAccepts,
  defensiveCommits,
  defensiveStressed,
} from "./mock.ts";
import type { BankRunParams } from "./params.ts";
import { BANK_ID } from "./state.ts";

/** A depositor's mock policy on the batched path, as its index in `DEPOSITOR_POLICIES`: defensive. */
export const DEFENSIVE = 0;
/** Always stay (commits to everything). */
export const STAY = 1;
/** Always run (commits to nothing). */
export const RUN = 2;

/** What the round loop shares with a mechanism's steps: the roster and its accounts. */
export interface BatchedRoster {
  /** Depositor ids, in roster order. */
  readonly ids: readonly string[];
  /** Each depositor's policy (`DEFENSIVE`, `STAY`, `RUN`). */
  readonly policy: readonly number[];
  /** Each defensive depositor's trait (0 for the others). */
  readonly traits: readonly number[];
  /** Each depositor's balance, updated by the loop's settlement. */
  readonly balance: readonly number[];
  /** The episode's parameters. */
  readonly params: BankRunParams;
  /** The episode's mechanism profile (the final state's `m1`-`m3`). */
  readonly profile: MechanismProfile;
  /** The mock bank's policy. */
  readonly bank: BankPolicy;
}

/** What a round's mechanism steps are given: who is asked, and the public figures they see. */
export interface RoundInputs {
  /** Indexes of the depositors with money at the bank, in roster order (the callees). */
  readonly active: readonly number[];
  /** Their ids. */
  readonly activeIds: readonly string[];
  /** Deposits still at the bank at the end of last round (`depositsRemaining`). */
  readonly remaining: number;
  /** Share redeemed last round (`fractionRedeemed`). */
  readonly stress: number;
}

/** A mechanism's steps of a round, before the financial step. */
export interface BatchedMechanism {
  /** The central player's reports in a round (the bank's proposal). */
  readonly central: number;
  /** Plays round `round`'s start, proposal, responses and delivery. */
  round(round: number, inputs: RoundInputs): void;
  /** The committed share depositor `i` sees in the financial step of the round played last. */
  share(i: number): number;
  /** The inbox of the round played last, as delivery filled it (for the final state). */
  inbox(): Record<string, Message[]>;
  /** The mechanism's part of the round's disclosure, before the snapshot (M3's exit ritual). */
  disclose?(round: number): void;
}

/** The committed aggregate of a mechanism that certifies none (only M2 does: never called). */
const NONE = () => 0;

/** The delivery of the last round played, again, into a new inbox (its events dropped). */
function lastInbox(
  profile: MechanismProfile,
  { round, active, committedTotal }: {
    round: number;
    active: readonly string[];
    committedTotal: () => number;
  },
): Record<string, Message[]> {
  const inbox: Record<string, Message[]> = {};
  deliverCertified(profile, inbox, {
    round,
    central: BANK_ID,
    active,
    committedTotal,
    participantKey: "depositor",
    compensationKind: "outstanding_compensation",
  });
  return inbox;
}

/**
 * M2's steps: the round opens the agreement (last round's exits take effect),
 * the bank solicits (`solicitationReply`), each solicited depositor signs or
 * declines, a stressed defensive signer declares its exit, and the signers'
 * committed balances are certified to the signers (and to the others when
 * the bank discloses the aggregate).
 *
 * @example
 * ```ts
 * import { m2Mechanism, STAY } from "./_batched_mechanisms.ts";
 * import { emptyProfile } from "../../frail/mechanisms/profile.ts";
 * import { parseBankRunParams } from "./params.ts";
 * const profile = emptyProfile("M2");
 * const m = m2Mechanism({
 *   ids: ["dep_01"], policy: [STAY], traits: [0], balance: [1],
 *   params: parseBankRunParams({ depositors: 1, totalDeposits: 1 }), profile, bank: "active",
 * });
 * m.round(1, { active: [0], activeIds: ["dep_01"], remaining: 1, stress: 0 });
 * if (profile.m2!.signers[0].id !== "dep_01" || m.share(0) !== 1) throw new Error();
 * ```
 */
export function m2Mechanism(roster: BatchedRoster): BatchedMechanism {
  const { ids, policy, traits, balance, profile } = roster;
  const m2 = profile.m2!;
  const total = roster.params.totalDeposits;
  // The bank's reply, as the report the general path applies (read, never changed).
  const reply: Record<string, unknown> = { ...solicitationReply(roster.bank, "everyone") };
  // What a depositor sees in the response step: no message yet, no coalition.
  const unseen = committedShareOf(0, total);
  let played = 0;
  let lastActive: readonly string[] = [];
  let certified = 0;
  return {
    central: 1,
    round(round, { active, activeIds, stress }) {
      // The round's start (beginRound's): last round's solicitation closes, exits take effect.
      openAgreementRound(m2, round);
      applyCentralProposal(profile, reply, {
        round,
        central: BANK_ID,
        eligible: activeIds,
        ids: "plain",
      });
      // The responses, in roster order: each depositor's answer reads only its own standing.
      for (let k = 0; k < active.length; k++) {
        const i = active[k];
        const id = ids[i];
        const code = policy[i];
        const signer = signerOf(m2, id);
        if (signer !== undefined) {
          if (code === DEFENSIVE && signer.exitDeclared === null && defensiveStressed(stress)) {
            declareExit(m2, id, round);
          }
        } else if (
          m2.solicited.includes(id) &&
          (code === STAY || (code === DEFENSIVE && defensiveCommits(traits[i], stress, unseen)))
        ) {
          sign(m2, id, round);
        }
      }
      // Delivery: the committed balances in roster order (committedAmount).
      let committed = 0;
      for (let i = 0; i < ids.length; i++) committed += isSigner(m2, ids[i]) ? balance[i] : 0;
      certified = committed;
      played = round;
      lastActive = activeIds;
    },
    share(i) {
      const sees = isSigner(m2, ids[i]) || m2.discloseToNonSigners;
      return sees ? committedShareOf(Math.max(0, certified), total) : unseen;
    },
    inbox: () =>
      lastInbox(profile, { round: played, active: lastActive, committedTotal: () => certified }),
  };
}

/**
 * M1's steps: the bank offers every uncommitted depositor with money at the
 * bank the compensation of `bankOfferAmount` (locking for
 * `BANK_OFFER_LOCK_ROUNDS`) and discloses the accepted terms to all, each
 * target accepts or declines, unanswered offers expire, and the delivery
 * certifies the outstanding compensation and the accepted terms.
 *
 * @example
 * ```ts
 * import { DEFENSIVE, m1Mechanism } from "./_batched_mechanisms.ts";
 * import { emptyProfile } from "../../frail/mechanisms/profile.ts";
 * import { parseBankRunParams } from "./params.ts";
 * const profile = emptyProfile("M1");
 * const m = m1Mechanism({
 *   ids: ["dep_01"], policy: [DEFENSIVE], traits: [0.1], balance: [1],
 *   params: parseBankRunParams({ depositors: 1, totalDeposits: 1 }), profile, bank: "active",
 * });
 * m.round(1, { active: [0], activeIds: ["dep_01"], remaining: 1, stress: 0 });
 * const [o] = profile.m1!.offers;
 * if (o.status !== "accepted" || o.amount !== 0.03 || o.lockUntil !== 12 || m.share(0) !== 1) {
 *   throw new Error();
 * }
 * ```
 */
export function m1Mechanism(roster: BatchedRoster): BatchedMechanism {
  const { ids, policy, traits, balance, profile, params } = roster;
  const m1 = profile.m1!;
  const total = params.totalDeposits;
  const offering = roster.bank === "active";
  let accepted = 0;
  let share = 0;
  let played = 0;
  let lastActive: readonly string[] = [];
  return {
    central: 1,
    round(round, { activeIds, remaining, stress }) {
      // The bank's proposal: its view lists the depositors with a positive balance.
      const amount = offering
        ? bankOfferAmount({ depositsRemaining: remaining, fractionRedeemed: stress }, total)
        : 0;
      const proposals: OfferProposal[] = [];
      const targets: number[] = [];
      if (amount > 0) {
        const lockUntil = lastBindingRound(round, BANK_OFFER_LOCK_ROUNDS);
        for (let i = 0; i < ids.length; i++) {
          if (balance[i] > 0 && !isCommittedUnder(profile, ids[i], round)) {
            proposals.push({ target: ids[i], amount, lock_until: lockUntil });
            targets.push(i);
          }
        }
      }
      // applyCentralProposal's M1 part: a passive bank's reply names no recipients.
      m1.discloseTermsTo = offering ? "all" : "none";
      if (proposals.length > 0) {
        const may = new Set(activeIds);
        const made = makeOffers(m1, proposals, {
          round,
          eligible: (id) => may.has(id),
          ids: "plain",
        });
        // Each offer made is its target's one pending proposal of the round.
        for (let k = 0; k < made.length; k++) {
          const r = made[k];
          if (!r.ok) continue;
          const i = targets[k];
          const code = policy[i];
          const yes = code === STAY ||
            (code === DEFENSIVE && defensiveAccepts(r.offer.amount, traits[i]));
          answerOffer(m1, r.offer.target, r.offer.id, yes);
          if (yes) accepted++;
        }
      }
      expireOffers(m1);
      // Every depositor asked receives the accepted terms when the bank discloses them to all.
      const seen = m1.discloseTermsTo === "none"
        ? 0
        : Math.max(0, acceptedTermsValue(accepted, params));
      share = committedShareOf(seen, total);
      played = round;
      lastActive = activeIds;
    },
    share: () => share,
    inbox: () => lastInbox(profile, { round: played, active: lastActive, committedTotal: NONE }),
  };
}

/**
 * M3's steps (no central player): each depositor that may join joins or not,
 * each defensive member proposes the announcement vote (the lowest id, when
 * none is open and it is not alone, `announcementProposer`), supports the
 * open votes of others and, stressed, asks to leave; the votes of earlier
 * rounds are tallied; a vote that passed last round has the coalition total
 * certified to the outsiders; at the round's end the exit ritual advances.
 * A member sees its coalition's total, an outsider the certified total
 * delivered to it this round.
 *
 * @example
 * ```ts
 * import { m3Mechanism, STAY } from "./_batched_mechanisms.ts";
 * import { emptyProfile } from "../../frail/mechanisms/profile.ts";
 * import { parseBankRunParams } from "./params.ts";
 * const profile = emptyProfile("M3");
 * const m = m3Mechanism({
 *   ids: ["dep_01", "dep_02"], policy: [STAY, STAY], traits: [0, 0], balance: [1, 1],
 *   params: parseBankRunParams({ depositors: 2, totalDeposits: 2 }), profile, bank: "active",
 * });
 * m.round(1, { active: [0, 1], activeIds: ["dep_01", "dep_02"], remaining: 2, stress: 0 });
 * if (profile.m3!.members.length !== 2 || m.share(0) !== 1 || m.central !== 0) throw new Error();
 * ```
 */
export function m3Mechanism(roster: BatchedRoster): BatchedMechanism {
  const { ids, policy, traits, balance, profile } = roster;
  const m3 = profile.m3!;
  const total = roster.params.totalDeposits;
  const unseen = committedShareOf(0, total);
  let inbox: Record<string, Message[]> = {};
  // The coalition total certified to the outsiders this round, or -1 (no message).
  let certified = -1;
  // The share a member sees this round, or -1 until a member asks (the coalition does not
  // change between the round's answers and its financial step: one total a round, not one
  // a member).
  let memberShare = -1;
  return {
    central: 0,
    round(round, { active, activeIds, stress }) {
      inbox = {};
      certified = -1;
      memberShare = -1;
      // What every member's view shows: the coalition before the round's answers.
      const open = m3.votes.filter((v) => v.status === "open");
      const proposer = announcementProposer({ members: m3.members, pendingVotes: open });
      const listed = m3.ritual ? [...m3.ritual.list] : [];
      const stressed = defensiveStressed(stress);
      // The answers, applied in roster order (applyParticipantResponses' M3 actions).
      for (let k = 0; k < active.length; k++) {
        const i = active[k];
        const id = ids[i];
        const code = policy[i];
        if (isMember(m3, id)) {
          // Only a defensive member acts as a member (the others' rule has no member part).
          if (code !== DEFENSIVE) continue;
          if (id === proposer) {
            proposeVote(m3, { proposer: id, announceTo: "all", round, ids: "plain" });
          }
          for (const v of open) {
            if (v.proposer !== id) castVote(m3, { voter: id, voteId: v.id, support: true, round });
          }
          if (stressed && !listed.includes(id)) m3.ritual = requestExit(m3.ritual, id, round);
        } else if (
          !m3.exited.includes(id) &&
          (code === STAY || (code === DEFENSIVE && defensiveCommits(traits[i], stress, unseen)))
        ) {
          join(m3, { id, since: round, amount: balance[i] });
        }
      }
      tallyVotes(m3, round);
      // Delivery: a vote passed last round certifies the total to the outsiders.
      if (m3.votes.some((v) => v.status === "passed" && v.round === round - 1)) {
        inbox = lastInbox(profile, { round, active: activeIds, committedTotal: NONE });
        certified = coalitionTotal(m3);
      }
    },
    share(i) {
      if (isMember(m3, ids[i])) {
        if (memberShare < 0) memberShare = committedShareOf(coalitionTotal(m3), total);
        return memberShare;
      }
      return certified < 0 ? unseen : committedShareOf(Math.max(0, certified), total);
    },
    inbox: () => inbox,
    disclose(round) {
      advanceCoalitionExit(m3, round);
    },
  };
}

/**
 * The mechanism profile of an environment whose central player proposes (M1
 * offers, M2 solicitations) and whose participants may form a coalition (M3):
 * at most one of the three parts is non-null. Environments keep these three
 * fields in their state, so the shared steps in this folder (proposals,
 * participant actions, certified delivery, coalition exits) work on any of them.
 * The coalition part is the bank run's (with its exit ritual) unless an
 * environment names another: the crowdfunding backer coalition keeps in-round
 * exits and ballots instead, and shares only what needs mere membership.
 *
 * @module
 */
import { type AgreementState, isSigner } from "./agreement.ts";
import { type CoalitionState, isMember } from "./coalition.ts";
import type { ExitRitual } from "./exit_ritual.ts";
import { isLocked, outstandingCompensation, type PaidOffersState } from "./paid_offers.ts";
import type { MechanismId } from "../types.ts";

/** Who may receive the central player's certified individual terms (M1). */
export type TermsRecipients = "none" | "all" | string[];

/** The M1 part: offers plus the central player's disclosure choice of this round. */
export type PaidOffersProfile = PaidOffersState & { discloseTermsTo: TermsRecipients };

/** The M3 part: the coalition plus its exit ritual in progress. */
export type CoalitionProfile = CoalitionState & { ritual: ExitRitual | null };

/**
 * The mechanism fields of an environment's state; `C` is the coalition part
 * (default: the coalition with its exit ritual).
 */
export interface MechanismProfile<C extends CoalitionState = CoalitionProfile> {
  /** M1 profile, or `null`. */
  m1: PaidOffersProfile | null;
  /** M2 profile, or `null`. */
  m2: AgreementState | null;
  /** M3 profile, or `null`. */
  m3: C | null;
}

/**
 * The empty profile of a mechanism (all parts `null` under M0).
 *
 * @example
 * ```ts
 * import { emptyProfile } from "./profile.ts";
 * const p = emptyProfile("M2");
 * if (p.m1 !== null || p.m2?.signers.length !== 0 || p.m3 !== null) throw new Error();
 * ```
 */
export function emptyProfile(mechanism: MechanismId): MechanismProfile {
  return {
    m1: mechanism === "M1" ? { offers: [], discloseTermsTo: "none" } : null,
    m2: mechanism === "M2" ? { solicited: [], signers: [], discloseToNonSigners: false } : null,
    m3: mechanism === "M3" ? { members: [], exited: [], votes: [], ritual: null } : null,
  };
}

/**
 * Whether a participant is committed in `round`: an M1 lock, an M2 signature
 * whose exit has not taken effect, or M3 membership until the exit is confirmed.
 *
 * @example
 * ```ts
 * import { emptyProfile, isCommittedUnder } from "./profile.ts";
 * const p = emptyProfile("M3");
 * p.m3!.members.push({ id: "a", since: 1, amount: 1 });
 * if (!isCommittedUnder(p, "a", 1) || isCommittedUnder(p, "b", 1)) throw new Error();
 * ```
 */
export function isCommittedUnder(
  profile: MechanismProfile<CoalitionState>,
  id: string,
  round: number,
): boolean {
  if (profile.m1) return isLocked(profile.m1, id, round);
  if (profile.m2) return isSigner(profile.m2, id);
  if (profile.m3) return isMember(profile.m3, id);
  return false;
}

/**
 * Promised M1 compensation still outstanding (0 without M1).
 *
 * @example
 * ```ts
 * import { emptyProfile, promisedTotal } from "./profile.ts";
 * if (promisedTotal(emptyProfile("M0")) !== 0) throw new Error();
 * ```
 */
export function promisedTotal(profile: MechanismProfile<CoalitionState>): number {
  return profile.m1 ? outstandingCompensation(profile.m1) : 0;
}

/**
 * Who is committed in a crowdfunding campaign, under each mechanism, and how
 * much. A commitment always holds a pledge in the pool: accepting a paid
 * pledge agreement (M1), signing a letter of intent (M2) or joining the backer
 * coalition (M3) pledges one unit if the backer is not pledged yet, and the
 * pledge cannot be withdrawn while the commitment holds.
 *
 * @module
 */
import { isSigner } from "../mechanisms/agreement.ts";
import { isMember } from "../mechanisms/coalition.ts";
import { confirmedExits } from "../mechanisms/in_round_exit.ts";
import { isLocked, outstandingCompensation } from "../mechanisms/paid_offers.ts";
import type { CrowdfundingState } from "./state.ts";

/**
 * Whether a backer is committed in `round` (M1 lock through `lock_until`, M2
 * signature until its exit takes effect, M3 membership until the round its
 * exit is confirmed has ended).
 *
 * @example
 * ```ts
 * import { isCommitted } from "./commitments.ts";
 * import { initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M3");
 * s.m3!.members.push({ id: "bkr_01", since: 1, amount: 1 });
 * if (!isCommitted(s, "bkr_01", 1) || isCommitted(s, "bkr_02", 1)) throw new Error();
 * ```
 */
export function isCommitted(state: CrowdfundingState, id: string, round: number): boolean {
  if (state.m1) return isLocked(state.m1, id, round);
  if (state.m2) return isSigner(state.m2, id);
  if (state.m3) return isMember(state.m3, id);
  return false;
}

/**
 * Pledged face held by committed backers (after a launch, the face they
 * launched with).
 *
 * @example
 * ```ts
 * import { committedAmount } from "./commitments.ts";
 * import { initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * if (committedAmount(initialCrowdfundingState(parseCrowdfundingParams({}), "M0"), 1) !== 0) throw new Error();
 * ```
 */
export function committedAmount(state: CrowdfundingState, round: number): number {
  const face = (id: string, pledged: number) =>
    state.launch ? (state.launch.shares[id] ?? 0) : pledged;
  return state.backers.reduce(
    (s, b) => s + (isCommitted(state, b.id, round) ? face(b.id, b.pledged) : 0),
    0,
  );
}

/**
 * Outstanding promised M1 bonuses B (paid on launch, void on failure).
 *
 * @example
 * ```ts
 * import { outstandingBonuses } from "./commitments.ts";
 * if (outstandingBonuses({ m1: null } as never) !== 0) throw new Error();
 * ```
 */
export function outstandingBonuses(state: CrowdfundingState): number {
  return state.m1 ? outstandingCompensation(state.m1) : 0;
}

/**
 * The backer coalition's locked total: the pledges of the members who are not
 * leaving at the end of this round.
 *
 * @example
 * ```ts
 * import { lockedTotal } from "./commitments.ts";
 * import { initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M3");
 * s.round = 1;
 * s.backers[0].pledged = 1;
 * s.m3!.members.push({ id: "bkr_01", since: 1, amount: 1 });
 * if (lockedTotal(s) !== 1) throw new Error();
 * ```
 */
export function lockedTotal(s: CrowdfundingState): number {
  if (!s.m3) return 0;
  const leaving = confirmedExits(s.m3.exits, s.round);
  return s.m3.members.filter((m) => !leaving.includes(m.id)).reduce(
    (t, m) => t + s.backers.find((b) => b.id === m.id)!.pledged,
    0,
  );
}

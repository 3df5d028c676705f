/**
 * How much is committed in a crowdfunding campaign. A commitment always holds
 * a pledge in the pool: accepting a paid pledge agreement (M1), signing a
 * letter of intent (M2) or joining the backer coalition (M3) pledges one unit
 * if the backer is not pledged yet, and the pledge cannot be withdrawn while
 * the commitment holds. Who is committed is the shared rule of
 * `isCommittedUnder` in `../mechanisms/profile.ts` (M1 lock through
 * `lock_until`, M2 signature until its exit takes effect, M3 membership until
 * the round its exit is confirmed has ended).
 *
 * @module
 */
import { confirmedExits } from "../../frail/mechanisms/in_round_exit.ts";
import { isCommittedUnder } from "../../frail/mechanisms/profile.ts";
import type { CrowdfundingState } from "./state.ts";

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
    (s, b) => s + (isCommittedUnder(state, b.id, round) ? face(b.id, b.pledged) : 0),
    0,
  );
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

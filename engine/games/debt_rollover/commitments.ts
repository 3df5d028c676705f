/**
 * How much is committed in debt rollover. Who is committed is the shared rule
 * of `isCommittedUnder` in `../mechanisms/profile.ts`: an M1 paid rollover
 * agreement binds until its `lock_until` round, an M2 standstill until the
 * round after the exit notice, and M3 committee membership until the exit
 * ritual is confirmed. A committed creditor's claim rolls whenever it is due.
 *
 * @module
 */
import { isCommittedUnder } from "../../frail/mechanisms/profile.ts";
import type { DebtRolloverState } from "./state.ts";

/**
 * Claims of the committed, outstanding creditors (as of the last settlement).
 *
 * @example
 * ```ts
 * import { committedClaims } from "./commitments.ts";
 * import { initialDebtRolloverState } from "./state.ts";
 * import { parseDebtRolloverParams } from "./params.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M0");
 * if (committedClaims(s, 1) !== 0) throw new Error();
 * ```
 */
export function committedClaims(state: DebtRolloverState, round: number): number {
  return state.creditors.reduce(
    (s, c) => s + (c.outstanding && isCommittedUnder(state, c.id, round) ? c.claim : 0),
    0,
  );
}

/**
 * Face value of the committed, outstanding claims (the committed volume in
 * the units of Table 9's shares).
 *
 * @example
 * ```ts
 * import { committedFace } from "./commitments.ts";
 * import { initialDebtRolloverState } from "./state.ts";
 * import { parseDebtRolloverParams } from "./params.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M3");
 * s.m3!.members.push({ id: "crd_01", since: 1, amount: 1 });
 * if (committedFace(s, 1) !== 1) throw new Error();
 * ```
 */
export function committedFace(state: DebtRolloverState, round: number): number {
  return state.creditors.filter((c) => c.outstanding && isCommittedUnder(state, c.id, round))
    .length *
    state.params.faceValue;
}

/**
 * Who is committed in debt rollover, under each mechanism, and how much: an
 * M1 paid rollover agreement binds until its `lock_until` round, an M2
 * standstill until the round after the exit notice, and M3 committee
 * membership until the exit ritual is confirmed. A committed creditor's claim
 * rolls whenever it is due.
 *
 * @module
 */
import { isCommittedUnder, promisedTotal } from "../mechanisms/profile.ts";
import type { DebtRolloverState } from "./state.ts";

/**
 * Whether a creditor is committed in `round`.
 *
 * @example
 * ```ts
 * import { isCommitted } from "./commitments.ts";
 * import { initialDebtRolloverState } from "./state.ts";
 * import { parseDebtRolloverParams } from "./params.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M2");
 * s.m2!.signers.push({ id: "crd_01", since: 1, exitDeclared: null });
 * if (!isCommitted(s, "crd_01", 1) || isCommitted(s, "crd_02", 1)) throw new Error();
 * ```
 */
export function isCommitted(state: DebtRolloverState, id: string, round: number): boolean {
  return isCommittedUnder(state, id, round);
}

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
    (s, c) => s + (c.outstanding && isCommitted(state, c.id, round) ? c.claim : 0),
    0,
  );
}

/**
 * Outstanding M1 premiums: a liability in the insolvency test, paid only on success.
 *
 * @example
 * ```ts
 * import { outstandingPremiums } from "./commitments.ts";
 * if (outstandingPremiums({ m1: null } as never) !== 0) throw new Error();
 * ```
 */
export function outstandingPremiums(state: DebtRolloverState): number {
  return promisedTotal(state);
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
  return state.creditors.filter((c) => c.outstanding && isCommitted(state, c.id, round)).length *
    state.params.faceValue;
}

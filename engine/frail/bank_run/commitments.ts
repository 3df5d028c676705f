/**
 * Who is committed in a bank run, under each mechanism, and how much.
 *
 * @module
 */
import { isSigner } from "../mechanisms/agreement.ts";
import { isMember } from "../mechanisms/coalition.ts";
import { isLocked, outstandingCompensation } from "../mechanisms/paid_offers.ts";
import type { BankRunState } from "./state.ts";

/**
 * Whether a depositor is committed in `round` (M1 lock, M2 signature whose
 * exit has not taken effect, M3 membership until the exit is confirmed).
 *
 * @example
 * ```ts
 * import { isCommitted } from "./commitments.ts";
 * import { initialBankRunState } from "./state.ts";
 * import { parseBankRunParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * const s = initialBankRunState(parseBankRunParams({}), "M3",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * s.m3!.members.push({ id: "dep_01", since: 1, amount: 1 });
 * if (!isCommitted(s, "dep_01", 1) || isCommitted(s, "dep_02", 1)) throw new Error();
 * ```
 */
export function isCommitted(state: BankRunState, id: string, round: number): boolean {
  if (state.m1) return isLocked(state.m1, id, round);
  if (state.m2) return isSigner(state.m2, id);
  if (state.m3) return isMember(state.m3, id);
  return false;
}

/**
 * Deposits currently committed under the mechanism (balances of committed depositors).
 *
 * @example
 * ```ts
 * import { committedAmount } from "./commitments.ts";
 * import { initialBankRunState } from "./state.ts";
 * import { parseBankRunParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * const s = initialBankRunState(parseBankRunParams({}), "M0",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * if (committedAmount(s, 1) !== 0) throw new Error();
 * ```
 */
export function committedAmount(state: BankRunState, round: number): number {
  return state.depositors.reduce(
    (s, d) => s + (isCommitted(state, d.id, round) ? d.balance : 0),
    0,
  );
}

/**
 * Outstanding promised compensation (M1), a liability in the insolvency test.
 *
 * @example
 * ```ts
 * import { promisedCompensation } from "./commitments.ts";
 * if (promisedCompensation({ m1: null } as never) !== 0) throw new Error();
 * ```
 */
export function promisedCompensation(state: BankRunState): number {
  return state.m1 ? outstandingCompensation(state.m1) : 0;
}

/**
 * How much is committed in a bank run: the deposits of the depositors bound
 * by the mechanism (who is bound is the shared rule of `isCommittedUnder` in
 * `../mechanisms/profile.ts`: an M1 lock, an M2 signature whose exit has not
 * taken effect, M3 membership until the exit is confirmed).
 *
 * @module
 */
import { isCommittedUnder } from "../../frail/mechanisms/profile.ts";
import type { BankRunState } from "./state.ts";

/**
 * Deposits currently committed under the mechanism (balances of committed depositors).
 *
 * @example
 * ```ts
 * import { committedAmount } from "./commitments.ts";
 * import { initialBankRunState } from "./state.ts";
 * import { parseBankRunParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * const s = initialBankRunState(parseBankRunParams({}), "M3",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * s.m3!.members.push({ id: "dep_01", since: 1, amount: 1 });
 * if (committedAmount(s, 1) !== 1) throw new Error();
 * ```
 */
export function committedAmount(state: BankRunState, round: number): number {
  if (!(state.m1 || state.m2 || state.m3)) return 0;
  // The committed balances added in roster order (what a reduce adding 0 for the others gives).
  let total = 0;
  for (const d of state.depositors) {
    total += isCommittedUnder(state, d.id, round) ? d.balance : 0;
  }
  return total;
}

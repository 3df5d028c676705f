/**
 * How a FRAIL episode is branched (`Environment.rebase`): from the branch's
 * round on, the new parameters and mechanism apply.
 *
 * Choices where the paper's rules leave a branch open (docs/modelling-choices.md):
 * - The same mechanism keeps its profile: commitments made before the branch
 *   round (M1 locks, M2 signatures, M3 membership) stay in force.
 * - Another mechanism starts empty, as at set-up; it is refused when the
 *   parent's mechanism holds anything at the switch (an M1 offer, an M2
 *   solicitation or signature, an M3 member or vote), since no rule says
 *   what becomes of a commitment under a mechanism that has none. Branching
 *   out of M0 is always possible.
 * - Parameters read only at set-up (e.g. the number of players or the
 *   deposits) cannot change: the runner checks that rebasing the initial
 *   state gives exactly the state the new condition sets up.
 *
 * @module
 */
import { firstDifference } from "../core/diff.ts";
import type { SetupOptions } from "../core/environment.ts";
import type { MechanismProfile } from "./mechanisms/profile.ts";
import type { MechanismId } from "./types.ts";

/** The state fields every FRAIL environment's state has that a branch changes. */
interface FrailRebasable<P> extends MechanismProfile<never> {
  params: P;
  mechanism: MechanismId;
}

/**
 * The `rebase` of a FRAIL environment whose set-up is `init`.
 *
 * @example
 * ```ts
 * import { frailRebase } from "./rebase.ts";
 * import { bankRun } from "./bank_run/environment.ts";
 * import { openStream } from "../core/rng.ts";
 * const stream = (agent: string, purpose: string) => openStream({ seed: 1, round: 0, agent, purpose });
 * const p = bankRun.parseParams({});
 * const s = bankRun.init(p, { mechanism: "M0", seed: 1, stream });
 * const rebased = frailRebase(bankRun.init)(s, p, { mechanism: "M3", seed: 1, stream });
 * if (rebased.mechanism !== "M3" || rebased.m3?.members.length !== 0) throw new Error();
 * ```
 * @throws {RangeError} When the mechanism changes while the parent's holds a commitment.
 */
export function frailRebase<P, S>(
  init: (params: P, options: SetupOptions) => S,
): (state: S, params: P, options: SetupOptions) => S {
  return (state, params, options) => {
    const s = state as unknown as FrailRebasable<P>;
    const fresh = init(params, options) as unknown as FrailRebasable<P>;
    if (s.mechanism !== options.mechanism) {
      const empty = init(s.params, { ...options, mechanism: s.mechanism }) as unknown as
        FrailRebasable<P>;
      for (const part of ["m1", "m2", "m3"] as const) {
        const d = firstDifference(empty[part], s[part]);
        if (d) {
          const at = d.path ? `${part}.${d.path}` : part;
          throw new RangeError(
            `Cannot branch from ${s.mechanism} to ${options.mechanism} in round ${
              (state as { round?: number }).round ?? 0
            }: the ${s.mechanism} profile is no longer empty (${at}: ${JSON.stringify(d.right)}), ` +
              `and no rule says what becomes of its commitments; branch earlier or keep the mechanism`,
          );
        }
      }
      s.m1 = fresh.m1;
      s.m2 = fresh.m2;
      s.m3 = fresh.m3;
      s.mechanism = fresh.mechanism;
    }
    s.params = fresh.params;
    return state;
  };
}

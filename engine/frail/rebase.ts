/**
 * How a FRAIL episode is branched (`Environment.rebase`): from the branch's
 * round on, the new parameters and mechanism apply.
 *
 * Choices where the paper's rules leave a branch open (docs/modelling-choices.md):
 * - The same mechanism keeps its profile: commitments made before the branch
 *   round (M1 locks, M2 signatures, M3 membership) stay in force.
 * - Another mechanism starts empty, as at set-up (offers declined or
 *   expired, solicitations and disclosure choices of the parent's mechanism
 *   are gone); it is refused when a participant is committed under the
 *   parent's mechanism at the branch round (an M1 lock, an M2 signature, M3
 *   membership) or M1 compensation is outstanding, since no rule says what
 *   becomes of a commitment under another mechanism. Branching out of M0 is
 *   always possible.
 * - Parameters read only at set-up (e.g. the number of players or the
 *   deposits) cannot change: the runner checks that rebasing the initial
 *   state gives exactly the state the new condition sets up.
 *
 * @module
 */
import type { SetupOptions } from "../core/environment.ts";
import type { CoalitionState } from "./mechanisms/coalition.ts";
import { isCommittedUnder, type MechanismProfile, promisedTotal } from "./mechanisms/profile.ts";
import type { MechanismId } from "./types.ts";

/** The state fields every FRAIL environment's state has that a branch changes. */
interface FrailRebasable<P> extends MechanismProfile<CoalitionState> {
  params: P;
  mechanism: MechanismId;
  round: number;
}

/** What {@linkcode frailRebase} needs of an environment. */
export interface FrailRebaseParts<P, S> {
  /** The environment's set-up. */
  init(params: P, options: SetupOptions): S;
  /** The environment's players. */
  roster(state: S): { id: string; role: string }[];
}

/**
 * The `rebase` of a FRAIL environment.
 *
 * @example
 * ```ts
 * import { frailRebase } from "./rebase.ts";
 * import { bankRun } from "../games/bank_run/environment.ts";
 * import { openStream } from "../core/rng.ts";
 * const stream = (agent: string, purpose: string) => openStream({ seed: 1, round: 0, agent, purpose });
 * const p = bankRun.parseParams({});
 * const s = bankRun.init(p, { mechanism: "M0", seed: 1, stream });
 * const rebased = frailRebase(bankRun)(s, p, { mechanism: "M3", seed: 1, stream });
 * if (rebased.mechanism !== "M3" || rebased.m3?.members.length !== 0) throw new Error();
 * ```
 * @throws {RangeError} When the mechanism changes while a participant is committed under the
 * parent's, or compensation is outstanding.
 */
export function frailRebase<P, S>(
  env: FrailRebaseParts<P, S>,
): (state: S, params: P, options: SetupOptions) => S {
  return (state, params, options) => {
    const s = state as unknown as FrailRebasable<P>;
    const fresh = env.init(params, options) as unknown as FrailRebasable<P>;
    if (s.mechanism !== options.mechanism) {
      const next = s.round + 1;
      const refuse = (what: string) =>
        new RangeError(
          `Cannot branch from ${s.mechanism} to ${options.mechanism} at round ${next}: ${what}, ` +
            `and no rule says what becomes of a commitment under ${options.mechanism}; branch ` +
            `earlier or keep the mechanism`,
        );
      const committed = env.roster(state).filter((p) => isCommittedUnder(s, p.id, next));
      if (committed.length > 0) {
        throw refuse(
          `${committed.map((p) => p.id).join(", ")} ${
            committed.length === 1 ? "is" : "are"
          } committed under ${s.mechanism}`,
        );
      }
      const promised = promisedTotal(s);
      if (promised !== 0) throw refuse(`${promised} of M1 compensation is outstanding`);
      s.m1 = fresh.m1;
      s.m2 = fresh.m2;
      s.m3 = fresh.m3;
      s.mechanism = fresh.mechanism;
    }
    s.params = fresh.params;
    return state;
  };
}

/**
 * Closed-form welfare bounds and the derived quantities of the
 * minimum-effort game, logged in `episode_start.derived`.
 *
 * Welfare of one round with efforts e_1..e_N and minimum m:
 * `W = sum_i (a m - b e_i + c) = N a m - b sum_i e_i + N c`.
 *
 * Best (all at E): every e_i >= m, so `sum_i e_i >= N m` and, with b >= 0,
 * `W <= N (a - b) m + N c`; with a > b this grows with m, and m <= E, so
 * `W <= N ((a - b) E + c)`, which all players at E attain.
 *
 * Worst (one player at 1, the rest at E): one player is at m and the others
 * at most at E, so `sum_i e_i <= m + (N - 1) E` and, with b >= 0,
 * `W >= (N a - b) m - b (N - 1) E + N c`. Since a > b >= 0 gives a > 0 and
 * N >= 2, `N a > a > b`: the right side grows with m, so its least value
 * is at m = 1: `W >= N a - b - b (N - 1) E + N c`, which one player at 1
 * and the rest at E attain (under b = 0, every profile with minimum 1).
 *
 * Rounds are independent and each can attain its bound, so the bounds of an
 * episode are T times these. Game A, N = 7, T = 10: best = 70 * 1.3 = 91,
 * worst = 10 * (1.3 - 4.2 + 4.2) = 13.
 *
 * Derived quantities besides the bounds, per player and round unless said:
 * `efficient_payoff` = (a - b) E + c (all at E; 1.3 in game A),
 * `secure_payoff` = a - b + c (effort 1 guarantees it whatever the others
 * do; 0.7), `lowest_payoff` = a - b E + c (effort E when the minimum is 1;
 * 0.1) and `secure_welfare` = T N (a - b + c), the welfare of the episode
 * when everyone plays 1 every round (49 for N = 7, T = 10).
 *
 * @module
 */
import type { DerivedQuantities } from "../../core/game.ts";
import { type MinEffortParams, payoffOf } from "./params.ts";

/**
 * Closed-form welfare bounds over the T rounds (see the module doc for the proof).
 *
 * @example
 * ```ts
 * import { minEffortBounds } from "./bounds.ts";
 * import { parseMinEffortParams } from "./params.ts";
 * const b = minEffortBounds(parseMinEffortParams({}));
 * if (Math.abs(b.best - 91) > 1e-9 || Math.abs(b.worst - 13) > 1e-9) throw new Error(JSON.stringify(b));
 * ```
 */
export function minEffortBounds(p: MinEffortParams): { worst: number; best: number } {
  const { N, T, efforts: E } = p;
  // The payoffs of the two profiles of the proof, written as the game pays them.
  return {
    worst: T * (payoffOf(p, 1, 1) + (N - 1) * payoffOf(p, E, 1)),
    best: T * N * payoffOf(p, E, E),
  };
}

/**
 * The quantities that follow from the parameters: `bounds`,
 * `efficient_payoff`, `secure_payoff`, `lowest_payoff` and `secure_welfare`.
 *
 * @example
 * ```ts
 * import { minEffortDerived } from "./bounds.ts";
 * import { parseMinEffortParams } from "./params.ts";
 * const d = minEffortDerived(parseMinEffortParams({}));
 * if ((d.secure_welfare as number).toFixed(6) !== "49.000000") throw new Error();
 * ```
 */
export function minEffortDerived(p: MinEffortParams): DerivedQuantities {
  const { N, T, efforts: E } = p;
  return {
    bounds: minEffortBounds(p),
    efficient_payoff: payoffOf(p, E, E),
    secure_payoff: payoffOf(p, 1, 1),
    lowest_payoff: payoffOf(p, E, 1),
    secure_welfare: T * N * payoffOf(p, 1, 1),
  };
}

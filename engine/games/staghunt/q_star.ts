/**
 * The mean-field cutoff q* of Section 3.2: with K ~ Binomial(N - 1, q) other
 * players publicly reporting Stag, the benchmark plays Stag iff
 * `R_S P(K >= M - 1) + R_F P(K < M - 1) >= H`, and q* is the smallest q for
 * which that holds.
 *
 * Which Hare payoff is "the certain payoff from Hare" H: the paper's text
 * (Section 3.2) treats Hare as certain, which it is only when H_S = H_F, as in
 * its payoffs (4, 2, 0, 2). For general payoffs the default is H = H_F, the
 * payoff of universal Hare (the risk-dominant equilibrium, u(Hare, Hare) of
 * the two-player inequalities of Section 4.1). Options: `"HS"` uses H = H_S,
 * and `"expected"` uses the mean-field expected Hare payoff
 * `H_S P(K >= M) + H_F P(K < M)` (a Hare player needs M others on Stag). All
 * three coincide when H_S = H_F, so the paper's q* depends on N and M alone:
 * with (4, 2, 0, 2) the condition reduces to P(K >= M - 1) >= 1/2, and q* is
 * the median of Beta(M - 1, N - M + 1).
 *
 * Edge cases, explicit: M = 1 (success needs nobody else) and H <= R_F (Stag
 * pays at least H even on failure) give q* = 0; a condition that fails even at
 * q = 1 (H > R_S) gives q* = Infinity, so `qHat >= qStar` is never true and
 * the benchmark always says Hare. With R_S > R_F (and H_F >= H_S for
 * `"expected"`) the gap E[U_S] - E[U_H] is non-decreasing in q, so the cutoff
 * form holds and bisection finds q* to within 1e-15.
 *
 * @module
 */
import { type PayoffsInput, toPayoffs } from "./payoffs.ts";

/** The game q* depends on. */
export interface QStarGame {
  /** Number of players N (an integer >= 1). */
  N: number;
  /** Threshold M (an integer in 1..N). */
  M: number;
  /** Payoffs (R_S, H_S, R_F, H_F), as an object or a tuple. */
  payoffs: PayoffsInput;
}

/** Options of {@linkcode qStar}. */
export interface QStarOptions {
  /** Which Hare payoff H the Stag payoff is compared with: `"HF"`, `"HS"` or `"expected"`. Default `"HF"`. */
  hare?: "HF" | "HS" | "expected";
}

/**
 * Both tails of K ~ Binomial(n, q) at k, each summed from its own terms (so
 * a tail near 0 keeps its relative precision instead of being 1 minus a
 * number near 1): `upper = P(K >= k)`, `lower = P(K < k)`. Exact integer
 * coefficients for n <= 50, log space above.
 *
 * @example
 * ```ts
 * import { binomialTails } from "./q_star.ts";
 * // P(Bin(4, 0.5) >= 2) = 11/16, P(Bin(4, 0.5) < 2) = 5/16
 * const t = binomialTails(4, 2, 0.5);
 * if (t.upper !== 11 / 16 || t.lower !== 5 / 16) throw new Error();
 * ```
 */
export function binomialTails(n: number, k: number, q: number): { upper: number; lower: number } {
  if (k <= 0) return { upper: 1, lower: 0 };
  if (k > n) return { upper: 0, lower: 1 };
  if (q <= 0) return { upper: 0, lower: 1 };
  if (q >= 1) return { upper: 1, lower: 0 };
  let upper = 0;
  let lower = 0;
  if (n <= 50) {
    // Exact integer binomial coefficients; q^1 and 1 - q stay exact, so
    // dyadic ties (e.g. q* = 1/2 for N = 2, M = 2) come out exactly.
    let c = 1;
    for (let j = 0; j <= n; j++) {
      const term = c * q ** j * (1 - q) ** (n - j);
      if (j >= k) upper += term;
      else lower += term;
      c = (c * (n - j)) / (j + 1);
    }
  } else {
    const lq = Math.log(q);
    const lp = Math.log1p(-q);
    let logC = 0;
    for (let j = 0; j <= n; j++) {
      const term = Math.exp(logC + j * lq + (n - j) * lp);
      if (j >= k) upper += term;
      else lower += term;
      logC += Math.log(n - j) - Math.log(j + 1);
    }
  }
  return { upper: Math.min(1, upper), lower: Math.min(1, lower) };
}

/**
 * P(K >= k) for K ~ Binomial(n, q).
 *
 * @example
 * ```ts
 * import { binomialTail } from "./q_star.ts";
 * // P(Bin(4, 0.5) >= 2) = 11/16
 * if (Math.abs(binomialTail(4, 2, 0.5) - 11 / 16) > 1e-15) throw new Error();
 * ```
 */
export function binomialTail(n: number, k: number, q: number): number {
  return binomialTails(n, k, q).upper;
}

/**
 * The mean-field cutoff q* for N players, threshold M and payoffs: the
 * benchmark action is Stag iff the estimate q-hat >= q*. Exact to 1e-15 by
 * bisection on the binomial condition; 0 when Stag is always worth it (M = 1,
 * or H <= R_F), `Infinity` when it never is (H > R_S).
 *
 * @example
 * ```ts
 * import { qStar } from "./q_star.ts";
 * // N = 3, M = 3, (4, 2, 0, 2): q^2 >= 1/2, so q* = 1/sqrt(2).
 * const q = qStar({ N: 3, M: 3, payoffs: [4, 2, 0, 2] });
 * if (Math.abs(q - Math.SQRT1_2) > 1e-12) throw new Error(String(q));
 * if (qStar({ N: 5, M: 1, payoffs: [4, 2, 0, 2] }) !== 0) throw new Error();
 * ```
 * @throws {RangeError} When N or M is not an integer with 1 <= M <= N, or R_S <= R_F.
 */
export function qStar(game: QStarGame, options: QStarOptions = {}): number {
  const { N, M } = game;
  if (!Number.isSafeInteger(N) || N < 1) {
    throw new RangeError(`qStar() needs N to be an integer >= 1, got ${N}`);
  }
  if (!Number.isSafeInteger(M) || M < 1 || M > N) {
    throw new RangeError(`qStar() needs M to be an integer in 1..${N}, got ${M}`);
  }
  const p = toPayoffs(game.payoffs);
  if (!(p.RS > p.RF)) {
    throw new RangeError(
      `qStar() needs R_S > R_F for a cutoff to exist, got R_S = ${p.RS} and R_F = ${p.RF}`,
    );
  }
  const hare = options.hare ?? "HF";
  if (hare !== "HF" && hare !== "HS" && hare !== "expected") {
    throw new RangeError(`Unknown hare option "${hare}": expected "HF", "HS" or "expected"`);
  }
  if (hare === "expected" && p.HS > p.HF) {
    throw new RangeError(
      `qStar() with hare "expected" needs H_F >= H_S, got H_S = ${p.HS} and H_F = ${p.HF}`,
    );
  }
  const n = N - 1;
  // The gap E[U_S] - E[U_H], written on whichever tails are small (upper
  // tails near q = 0, lower tails near q = 1) so its sign stays exact.
  const gap = (q: number): number => {
    const s = binomialTails(n, M - 1, q);
    if (hare === "expected") {
      const h = binomialTails(n, M, q);
      return s.upper <= s.lower
        ? (p.RF - p.HF) + (p.RS - p.RF) * s.upper + (p.HF - p.HS) * h.upper
        : (p.RS - p.HS) - (p.RS - p.RF) * s.lower - (p.HF - p.HS) * h.lower;
    }
    const H = hare === "HF" ? p.HF : p.HS;
    return s.upper <= s.lower
      ? (p.RF - H) + (p.RS - p.RF) * s.upper
      : (p.RS - H) - (p.RS - p.RF) * s.lower;
  };
  if (gap(0) >= 0) return 0;
  if (gap(1) < 0) return Infinity;
  let lo = 0;
  let hi = 1;
  // gap(lo) < 0 <= gap(hi) throughout; stop when the midpoint no longer moves.
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (mid <= lo || mid >= hi) break;
    if (gap(mid) >= 0) hi = mid;
    else lo = mid;
  }
  return hi;
}

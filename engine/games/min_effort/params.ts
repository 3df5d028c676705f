/**
 * Parameters of the minimum-effort coordination game (Van Huyck, Battalio
 * and Beil 1990, "Tacit Coordination Games, Strategic Uncertainty, and
 * Coordination Failure", AER 80(1)): N players each choose an effort in
 * 1..E; a player's payoff in a round is `a * min(efforts) - b * own + c`
 * (dollars). Their game A is a = 0.2, b = 0.1, c = 0.6 with E = 7; their
 * treatment B drops the cost of effort (b = 0).
 *
 * Validation (a failure is a `RangeError` naming the field):
 * - `N` an integer in 2..1000 (the paper's sessions had 14-16 players, its
 *   treatment C pairs of 2), `T` an integer in 1..1000, `efforts` (E, the
 *   highest effort) an integer in 2..20 (one effort is no choice; 20 bounds
 *   the per-effort count columns of the round measures).
 * - `a`, `b`, `c` finite; `b >= 0` (treatment B has b = 0) and `a > b`.
 *   This is what the paper's design needs: with a > b >= 0 every common
 *   effort is a Nash equilibrium (strict when b > 0), the equilibria are
 *   Pareto ranked (all at E pays most, all at 1 least) and effort 1 is the
 *   secure choice; with a <= b effort 1 would dominate and the game is not
 *   a coordination game. The welfare bounds' closed forms (`bounds.ts`) use
 *   exactly these conditions.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { describeInputIssue, isPlainObject, strictObject } from "../../core/strict_input.ts";

/** The environment id, as logged in `episode_start.env`. */
export const MIN_EFFORT_ID = "min_effort";

/** The highest `efforts` accepted. */
export const MAX_EFFORTS = 20;

/** Validated parameters of the minimum-effort game. */
export interface MinEffortParams {
  /** Players N (default 7). */
  N: number;
  /** Rounds T (default 10, the paper's treatment A). */
  T: number;
  /** Payoff per unit of the group's minimum effort, in dollars (default 0.2). */
  a: number;
  /** Cost per unit of one's own effort, in dollars (default 0.1). */
  b: number;
  /** Constant payoff per round, in dollars (default 0.6). */
  c: number;
  /** Highest effort E: efforts are the integers 1..E (default 7). */
  efforts: number;
}

/**
 * The defaults: game A of the paper with N = 7 players and T = 10 rounds.
 *
 * @example
 * ```ts
 * import { MIN_EFFORT_DEFAULTS } from "./params.ts";
 * if (MIN_EFFORT_DEFAULTS.a !== 0.2 || MIN_EFFORT_DEFAULTS.efforts !== 7) throw new Error();
 * ```
 */
export const MIN_EFFORT_DEFAULTS: Readonly<MinEffortParams> = Object.freeze({
  N: 7,
  T: 10,
  a: 0.2,
  b: 0.1,
  c: 0.6,
  efforts: 7,
});

// zod 4 numbers are finite: NaN and the infinities are rejected as invalid types.
const finite = () => z.number({ error: "must be a finite number" });

const integerIn = (lo: number, hi: number) =>
  z.number({ error: `must be an integer in ${lo}..${hi}` }).int(
    `must be an integer in ${lo}..${hi}`,
  ).min(lo, `must be an integer in ${lo}..${hi}`).max(hi, `must be an integer in ${lo}..${hi}`);

/** Zod schema of {@linkcode MinEffortParams}, with the defaults of {@linkcode MIN_EFFORT_DEFAULTS}. */
export const MinEffortParamsSchema: z.ZodType<MinEffortParams, Partial<MinEffortParams>> =
  strictObject({
    N: integerIn(2, 1000).default(MIN_EFFORT_DEFAULTS.N),
    T: integerIn(1, 1000).default(MIN_EFFORT_DEFAULTS.T),
    a: finite().default(MIN_EFFORT_DEFAULTS.a),
    b: finite().default(MIN_EFFORT_DEFAULTS.b),
    c: finite().default(MIN_EFFORT_DEFAULTS.c),
    efforts: integerIn(2, MAX_EFFORTS).default(MIN_EFFORT_DEFAULTS.efforts),
  }).superRefine((p, ctx) => {
    if (p.b < 0) {
      ctx.addIssue({
        code: "custom",
        path: ["b"],
        message: "must be at least 0 (the cost of effort; the paper's treatment B has b = 0)",
      });
    } else if (!(p.a > p.b)) {
      ctx.addIssue({
        code: "custom",
        path: ["a"],
        message:
          `must be greater than b = ${p.b}, so that the common efforts are Pareto-ranked equilibria`,
      });
    }
  }) as unknown as z.ZodType<MinEffortParams, Partial<MinEffortParams>>;

/**
 * Validates minimum-effort parameters, filling defaults.
 *
 * @example
 * ```ts
 * import { parseMinEffortParams } from "./params.ts";
 * const p = parseMinEffortParams({ N: 3 });
 * if (p.N !== 3 || p.T !== 10 || p.b !== 0.1) throw new Error();
 * try {
 *   parseMinEffortParams({ a: 0.1, b: 0.2 });
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e instanceof RangeError) || !e.message.startsWith('Invalid min_effort parameter "a"')) throw e;
 * }
 * ```
 * @throws {RangeError} Naming the bad field.
 */
export function parseMinEffortParams(input: unknown): MinEffortParams {
  const what = `${MIN_EFFORT_ID} parameter`;
  if (isPlainObject(input)) {
    // Named here: the schema's message would show an infinity as JSON's null.
    for (const [key, value] of Object.entries(input)) {
      if (typeof value === "number" && !Number.isFinite(value)) {
        throw new RangeError(`Invalid ${what} "${key}": must be a finite number (got ${value})`);
      }
    }
  }
  const r = MinEffortParamsSchema.safeParse(input ?? {});
  if (r.success) return r.data;
  throw new RangeError(
    describeInputIssue(r.error.issues[0], input ?? {}, what),
  );
}

/**
 * A player's payoff in one round: `a * minimum - b * own + c`.
 *
 * @example
 * ```ts
 * import { MIN_EFFORT_DEFAULTS, payoffOf } from "./params.ts";
 * // Game A: choosing 7 when the minimum is 1 pays 0.2 - 0.7 + 0.6 = 0.1.
 * if (Math.abs(payoffOf(MIN_EFFORT_DEFAULTS, 7, 1) - 0.1) > 1e-12) throw new Error();
 * ```
 */
export function payoffOf(
  p: Pick<MinEffortParams, "a" | "b" | "c">,
  own: number,
  minimum: number,
): number {
  return p.a * minimum - p.b * own + p.c;
}

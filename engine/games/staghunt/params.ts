/**
 * Stag Hunt parameters (Sections 4.1, 4.3, 4.4): N players, threshold M,
 * T rounds, F corrupted players, the payoff tuple and the corruption mode,
 * validated with zod (a failure is a `RangeError` naming the field), and the
 * closed-form welfare bounds.
 *
 * Welfare bounds: one round with k public Stag actions yields
 * `W(k) = k R_F + (N - k) H_F` when k < M and `k R_S + (N - k) H_S` otherwise.
 * `best = T max_k W(k) = T N R_S` (everyone on Stag) and
 * `worst = T min_k W(k)`: the lowest welfare any public action profile can
 * produce, so the welfare realization spans exactly [0, 1]. With the paper's
 * payoffs (4, 2, 0, 2) the worst profile is M - 1 lone Stag players, giving
 * `worst = 2 T (N - M + 1)`; for N = 5, M = 3, T = 4: worst 24, best 80.
 * (The looser `T N R_F` is never reached: N Stag actions always meet M <= N.)
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { parseWith } from "../../frail/params.ts";
import {
  DEFAULT_PAYOFFS,
  isStagHuntOrdering,
  type PayoffsInput,
  PayoffsSchema,
  type StagHuntPayoffs,
} from "./payoffs.ts";

/**
 * All corruption modes (the one list of them): `base` inverts a corrupted
 * player's public action; `b3` draws it uniformly at random; both execute
 * the public action. `communication_only` inverts the public report as
 * `base` does but executes the original action (the Stag Hunt paper's
 * "corrupted transcript paired with truthful execution").
 *
 * @example
 * ```ts
 * import { CORRUPTION_MODES } from "./params.ts";
 * if (CORRUPTION_MODES.join() !== "base,b3,communication_only") throw new Error();
 * ```
 */
export const CORRUPTION_MODES = ["base", "b3", "communication_only"] as const;

/**
 * Corruption modes: `base` inverts a corrupted player's public action; `b3`
 * draws it uniformly at random; `communication_only` inverts the report only
 * (the original action is executed).
 */
export type CorruptionMode = (typeof CORRUPTION_MODES)[number];

/** Validated Stag Hunt parameters. */
export interface StagHuntParams {
  /** Players N (default 5, the paper's focal setting). */
  N: number;
  /** Threshold M in 1..N: public coordination succeeds iff at least M public Stag actions (default 3). */
  M: number;
  /** Rounds T (default 4). */
  T: number;
  /** Corrupted players F in 0..N, drawn from the episode seed and fixed across rounds (default 0). */
  F: number;
  /** Payoffs (R_S, H_S, R_F, H_F) with R_S > H_F >= H_S > R_F (default (4, 2, 0, 2)). */
  payoffs: StagHuntPayoffs;
  /** Corruption mode (default `"base"`). */
  corruption: CorruptionMode;
}

/** Parameters as accepted on input: every field optional; payoffs as an object or a tuple. */
export type StagHuntParamsInput = Partial<Omit<StagHuntParams, "payoffs">> & {
  payoffs?: PayoffsInput;
};

/** Zod schema of {@linkcode StagHuntParams}, with the focal defaults N = 5, M = 3, T = 4, F = 0. */
export const StagHuntParamsSchema: z.ZodType<StagHuntParams, StagHuntParamsInput> = z.object({
  N: z.number().int().min(1).max(1000).default(5),
  M: z.number().int().min(1).default(3),
  T: z.number().int().min(1).max(1000).default(4),
  F: z.number().int().min(0).default(0),
  payoffs: PayoffsSchema.default({ ...DEFAULT_PAYOFFS }),
  corruption: z.enum(CORRUPTION_MODES).default("base"),
}).strict().superRefine((p, ctx) => {
  if (p.M > p.N) {
    ctx.addIssue({ code: "custom", path: ["M"], message: `must be in 1..N = 1..${p.N}` });
  }
  if (p.F > p.N) {
    ctx.addIssue({ code: "custom", path: ["F"], message: `must be in 0..N = 0..${p.N}` });
  }
  if (!isStagHuntOrdering(p.payoffs)) {
    ctx.addIssue({
      code: "custom",
      path: ["payoffs"],
      message: "must satisfy the Stag Hunt ordering R_S > H_F >= H_S > R_F",
    });
  }
});

/**
 * Validates Stag Hunt parameters, filling defaults.
 *
 * @example
 * ```ts
 * import { parseStagHuntParams } from "./params.ts";
 * const p = parseStagHuntParams({ N: 3, M: 2, payoffs: [4, 2, 0, 2] });
 * if (p.T !== 4 || p.payoffs.RS !== 4 || p.corruption !== "base") throw new Error();
 * try {
 *   parseStagHuntParams({ N: 3, M: 4 });
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e instanceof RangeError) || !e.message.includes('"M"')) throw e;
 * }
 * ```
 * @throws {RangeError} Naming the bad field.
 */
export function parseStagHuntParams(input: unknown): StagHuntParams {
  return parseWith(StagHuntParamsSchema, input, "staghunt");
}

/**
 * Welfare of one round with k public Stag actions.
 *
 * @example
 * ```ts
 * import { roundWelfare } from "./params.ts";
 * const p = { N: 5, M: 3, payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 } };
 * if (roundWelfare(p, 2) !== 6 || roundWelfare(p, 5) !== 20) throw new Error();
 * ```
 */
export function roundWelfare(
  p: Pick<StagHuntParams, "N" | "M" | "payoffs">,
  stag: number,
): number {
  const { RS, HS, RF, HF } = p.payoffs;
  return stag < p.M ? stag * RF + (p.N - stag) * HF : stag * RS + (p.N - stag) * HS;
}

/**
 * Closed-form welfare bounds: T times the lowest and highest one-round
 * welfare over all public action profiles.
 *
 * @example
 * ```ts
 * import { parseStagHuntParams, stagHuntBounds } from "./params.ts";
 * const b = stagHuntBounds(parseStagHuntParams({ N: 5, M: 3, T: 4 }));
 * if (b.worst !== 24 || b.best !== 80) throw new Error(JSON.stringify(b));
 * ```
 */
export function stagHuntBounds(p: StagHuntParams): { worst: number; best: number } {
  let worst = Infinity;
  let best = -Infinity;
  for (let k = 0; k <= p.N; k++) {
    const w = roundWelfare(p, k);
    worst = Math.min(worst, w);
    best = Math.max(best, w);
  }
  // Field by field, not a literal: see `finish` in environment.ts.
  const bounds = {} as { worst: number; best: number };
  bounds.worst = p.T * worst;
  bounds.best = p.T * best;
  return bounds;
}

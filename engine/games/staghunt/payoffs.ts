/**
 * Stag Hunt payoffs (Section 4.1): the tuple (R_S, H_S, R_F, H_F) with the
 * ordering R_S > H_F >= H_S > R_F, and the payoff rule that turns an action
 * and a threshold outcome into a payoff.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";

/** A Stag Hunt action. */
export type StagHuntAction = "Stag" | "Hare";

/** The payoff tuple of Section 4.1. */
export interface StagHuntPayoffs {
  /** R_S: Stag when the threshold is met. */
  RS: number;
  /** H_S: Hare when the threshold is met. */
  HS: number;
  /** R_F: Stag when the threshold is not met. */
  RF: number;
  /** H_F: Hare when the threshold is not met. */
  HF: number;
}

/** The paper's payoffs (R_S, H_S, R_F, H_F) = (4, 2, 0, 2), fixed across all its conditions. */
export const DEFAULT_PAYOFFS: Readonly<StagHuntPayoffs> = Object.freeze({
  RS: 4,
  HS: 2,
  RF: 0,
  HF: 2,
});

/** Payoffs as accepted on input: an object, or the tuple `[R_S, H_S, R_F, H_F]`. */
export type PayoffsInput = StagHuntPayoffs | readonly [number, number, number, number];

const finite = (): z.ZodNumber => z.number().finite();

/** Zod schema of payoffs in either input form, read into a {@linkcode StagHuntPayoffs} object (no ordering check). */
export const PayoffsSchema: z.ZodType<StagHuntPayoffs, PayoffsInput> = z.union([
  z.object({ RS: finite(), HS: finite(), RF: finite(), HF: finite() }).strict(),
  z.tuple([finite(), finite(), finite(), finite()]).transform(([RS, HS, RF, HF]) => ({
    RS,
    HS,
    RF,
    HF,
  })),
]);

/**
 * Whether payoffs satisfy the Stag Hunt ordering R_S > H_F >= H_S > R_F.
 *
 * @example
 * ```ts
 * import { DEFAULT_PAYOFFS, isStagHuntOrdering } from "./payoffs.ts";
 * if (!isStagHuntOrdering(DEFAULT_PAYOFFS)) throw new Error();
 * if (isStagHuntOrdering({ RS: 2, HS: 2, RF: 0, HF: 2 })) throw new Error();
 * ```
 */
export function isStagHuntOrdering(p: StagHuntPayoffs): boolean {
  return p.RS > p.HF && p.HF >= p.HS && p.HS > p.RF;
}

/**
 * Reads payoffs given as an object or as the tuple `[R_S, H_S, R_F, H_F]`.
 * Only finiteness is checked here; the game parameters check the ordering.
 *
 * @example
 * ```ts
 * import { toPayoffs } from "./payoffs.ts";
 * const p = toPayoffs([4, 2, 0, 2]);
 * if (p.RS !== 4 || p.HF !== 2) throw new Error();
 * ```
 * @throws {TypeError} When the input is neither form or holds a non-finite number.
 */
export function toPayoffs(input: PayoffsInput): StagHuntPayoffs {
  const r = PayoffsSchema.safeParse(input);
  if (!r.success) {
    throw new TypeError(
      `Payoffs must be { RS, HS, RF, HF } or [R_S, H_S, R_F, H_F] of finite numbers, got ${
        JSON.stringify(input)
      }`,
    );
  }
  return r.data;
}

/**
 * The payoff of one action given whether the threshold was met.
 *
 * @example
 * ```ts
 * import { DEFAULT_PAYOFFS, payoffOf } from "./payoffs.ts";
 * if (payoffOf("Stag", true, DEFAULT_PAYOFFS) !== 4) throw new Error();
 * if (payoffOf("Stag", false, DEFAULT_PAYOFFS) !== 0) throw new Error();
 * ```
 */
export function payoffOf(action: StagHuntAction, success: boolean, p: StagHuntPayoffs): number {
  if (action === "Stag") return success ? p.RS : p.RF;
  return success ? p.HS : p.HF;
}

/**
 * Debt-rollover parameters (Section 3.1.2, Table 4, stable regime) and the
 * regime presets of Table 5 (initial cash 0.500 / 0.200 / 0.000).
 *
 * Choices where Table 4 leaves a detail open (also in docs/modelling-choices.md):
 * - Cash interest `cashRate` is a rate (0.5% of the cash held), not a fixed
 *   +0.005: the paper's worst bound L0 (1 + r_L) = 0.201 needs the rate.
 * - Creditors are split over the maturity waves in id order, as evenly as
 *   possible (creditor i, from 0, is in wave `floor(i x waves / creditors)`):
 *   two per wave with the defaults, as in the prompts' public wave assignment.
 * - Every asset tranche and every wave must fall within the horizon, so all
 *   assets have matured or been sold when the episode ends.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { parseWith, type RegimeId } from "../../frail/params.ts";

/** One asset tranche: face value maturing (paying its face in cash) at a round. */
export interface AssetTranche {
  /** Round at which the tranche matures. */
  round: number;
  /** Face value paid at maturity. */
  face: number;
}

/** Debt-rollover parameters; defaults are the stable regime of Table 4. */
export interface DebtRolloverParams {
  /** Number of creditors (8). */
  creditors: number;
  /** Rounds at which the creditors' claims first mature, one wave each ([1, 3, 5, 7]). */
  maturityWaves: number[];
  /** Rounds (7). */
  horizon: number;
  /** Face value of each claim at the start (1.000). */
  faceValue: number;
  /** Claim accrual per round, compounding (0.020). */
  claimRate: number;
  /** Initial cash L0 (0.200). */
  initialCash: number;
  /** Interest on cash per round, a rate (0.005). */
  cashRate: number;
  /** Asset tranches by maturity round ((4: 2.000), (5: 1.000), (6: 2.500), (7: 4.000)). */
  assets: AssetTranche[];
  /** Early-sale price h per unit of remaining face (0.700). */
  earlySalePrice: number;
  /** Redemptions processed per round; excess requests roll one round (2.500). */
  capacity: number;
}

const TrancheSchema = z.object({
  round: z.number().int().min(1),
  face: z.number().positive(),
}).strict();

/**
 * Zod schema of {@linkcode DebtRolloverParams}, with the stable defaults.
 *
 * @example
 * ```ts
 * import { DebtRolloverParamsSchema } from "./params.ts";
 * if (DebtRolloverParamsSchema.parse({}).horizon !== 7) throw new Error();
 * ```
 */
export const DebtRolloverParamsSchema: z.ZodType<DebtRolloverParams, Partial<DebtRolloverParams>> =
  z.object({
    /** Number of creditors. */
    creditors: z.number().int().min(1).max(1000).default(8),
    /** Rounds at which the claims of each wave first mature. */
    maturityWaves: z.array(z.number().int().min(1)).min(1).default([1, 3, 5, 7]),
    /** Rounds. */
    horizon: z.number().int().min(1).max(1000).default(7),
    /** Face value of each claim. */
    faceValue: z.number().positive().default(1),
    /** Claim accrual per round (compounding). */
    claimRate: z.number().nonnegative().default(0.02),
    /** Initial cash L0. */
    initialCash: z.number().nonnegative().default(0.2),
    /** Interest on cash per round (a rate). */
    cashRate: z.number().nonnegative().default(0.005),
    /** Asset tranches by maturity round. */
    assets: z.array(TrancheSchema).min(1).default([
      { round: 4, face: 2 },
      { round: 5, face: 1 },
      { round: 6, face: 2.5 },
      { round: 7, face: 4 },
    ]),
    /** Early-sale price per unit of remaining face. */
    earlySalePrice: z.number().positive().max(1).default(0.7),
    /** Redemptions processed per round. */
    capacity: z.number().positive().default(2.5),
  }).strict().superRefine((p, ctx) => {
    p.maturityWaves.forEach((w, i) => {
      if (w > p.horizon) {
        ctx.addIssue({
          code: "custom",
          path: ["maturityWaves", i],
          message: `wave round ${w} is after the horizon ${p.horizon}`,
        });
      }
      if (i > 0 && w <= p.maturityWaves[i - 1]) {
        ctx.addIssue({
          code: "custom",
          path: ["maturityWaves", i],
          message: "wave rounds must increase",
        });
      }
    });
    if (p.creditors < p.maturityWaves.length) {
      ctx.addIssue({
        code: "custom",
        path: ["creditors"],
        message: `need at least one creditor per wave (${p.maturityWaves.length} waves)`,
      });
    }
    p.assets.forEach((a, i) => {
      if (a.round > p.horizon) {
        ctx.addIssue({
          code: "custom",
          path: ["assets", i, "round"],
          message: `tranche matures after the horizon ${p.horizon}`,
        });
      }
    });
  });

/**
 * Table 5 presets for debt rollover (only the initial cash changes).
 *
 * @example
 * ```ts
 * import { DEBT_ROLLOVER_REGIMES } from "./params.ts";
 * if (DEBT_ROLLOVER_REGIMES.contraction.initialCash !== 0) throw new Error();
 * ```
 */
export const DEBT_ROLLOVER_REGIMES: Record<RegimeId, Partial<DebtRolloverParams>> = {
  expansion: { initialCash: 0.5 },
  stable: { initialCash: 0.2 },
  contraction: { initialCash: 0 },
};

/**
 * Validates debt-rollover parameters, filling defaults.
 *
 * @example
 * ```ts
 * import { parseDebtRolloverParams } from "./params.ts";
 * const p = parseDebtRolloverParams({});
 * if (p.capacity !== 2.5 || p.assets.length !== 4) throw new Error();
 * ```
 * @throws {RangeError} Naming the bad field.
 */
export function parseDebtRolloverParams(input: unknown): DebtRolloverParams {
  return parseWith(DebtRolloverParamsSchema, input, "debt_rollover");
}

/**
 * The wave (first maturity round) of each creditor, by index from 0: creditors
 * are split over the waves in id order, as evenly as possible.
 *
 * @example
 * ```ts
 * import { parseDebtRolloverParams, waveAssignment } from "./params.ts";
 * if (waveAssignment(parseDebtRolloverParams({})).join() !== "1,1,3,3,5,5,7,7") throw new Error();
 * ```
 */
export function waveAssignment(p: DebtRolloverParams): number[] {
  const w = p.maturityWaves.length;
  return Array.from(
    { length: p.creditors },
    (_, i) => p.maturityWaves[Math.floor((i * w) / p.creditors)],
  );
}

/**
 * A claim's value after the accrual of `round`: face x (1 + r_d)^round
 * (computed in closed form, so claims never drift).
 *
 * @example
 * ```ts
 * import { claimAt, parseDebtRolloverParams } from "./params.ts";
 * if (claimAt(parseDebtRolloverParams({}), 7).toFixed(3) !== "1.149") throw new Error();
 * ```
 */
export function claimAt(p: DebtRolloverParams, round: number): number {
  return p.faceValue * (1 + p.claimRate) ** round;
}

/**
 * Bank-run parameters (Table 4, stable regime) and the regime presets of Table 5.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { type CapacityRule, CapacityRuleSchema } from "../../frail/capacity.ts";
import { parseWith, type RegimeId } from "../../frail/params.ts";

const positive = (): z.ZodNumber => z.number().positive();

/** Bank-run parameters; defaults are the stable regime of Table 4. */
export interface BankRunParams {
  /** Number of depositors (15). */
  depositors: number;
  /** Total deposits, split among depositors (15.000). */
  totalDeposits: number;
  /** `"equal"` units, or a seeded `"heterogeneous"` split that still sums to the total. */
  depositSplit: "equal" | "heterogeneous";
  /** Rounds (12). */
  horizon: number;
  /** Initial cash L0 (1.125). */
  initialCash: number;
  /** Initial long-term assets A0, in units (15.075). */
  longTermAssets: number;
  /** Promised yield per unit of deposit held to the end (1.114). */
  depositYield: number;
  /** Asset maturity return R per unit (1.131). */
  assetReturn: number;
  /** Early-sale price h per unit (0.850). */
  earlySalePrice: number;
  /** Withdrawals processed per round (3.750). */
  capacity: number;
  /**
   * What happens to a request that does not fit the round's remaining capacity:
   * `"expire"` (default, Table 4: it expires whole and the deposit stays) or
   * `"partial"` (it is paid in part; not the paper's reading).
   */
  capacityRule: CapacityRule;
}

/**
 * Zod schema of {@linkcode BankRunParams}, with the stable defaults.
 *
 * @example
 * ```ts
 * import { BankRunParamsSchema } from "./params.ts";
 * if (BankRunParamsSchema.parse({}).depositors !== 15) throw new Error();
 * ```
 */
export const BankRunParamsSchema: z.ZodType<BankRunParams, Partial<BankRunParams>> = z.object({
  /** Number of depositors. */
  depositors: z.number().int().min(1).max(1000).default(15),
  /** Total deposits, split among depositors. */
  totalDeposits: positive().default(15),
  /** `"equal"` units, or a seeded `"heterogeneous"` split that still sums to the total. */
  depositSplit: z.enum(["equal", "heterogeneous"]).default("equal"),
  /** Rounds. */
  horizon: z.number().int().min(1).max(1000).default(12),
  /** Initial cash L0. */
  initialCash: z.number().nonnegative().default(1.125),
  /** Initial long-term assets A0 (units). */
  longTermAssets: z.number().nonnegative().default(15.075),
  /** Promised yield per unit of deposit held to the end. */
  depositYield: positive().default(1.114),
  /** Asset maturity return R per unit. */
  assetReturn: positive().default(1.131),
  /** Early-sale price h per unit. */
  earlySalePrice: z.number().positive().max(1).default(0.85),
  /** Withdrawals processed per round. */
  capacity: positive().default(3.75),
  /** A request beyond the capacity expires whole (`"expire"`) or is paid in part (`"partial"`). */
  capacityRule: CapacityRuleSchema,
}).strict();

/**
 * Table 5 presets for the bank run.
 *
 * @example
 * ```ts
 * import { BANK_RUN_REGIMES } from "./params.ts";
 * if (BANK_RUN_REGIMES.contraction.earlySalePrice !== 0.75) throw new Error();
 * ```
 */
export const BANK_RUN_REGIMES: Record<RegimeId, Partial<BankRunParams>> = {
  expansion: { assetReturn: 1.18, initialCash: 1.5, earlySalePrice: 0.85 },
  stable: {},
  contraction: { assetReturn: 1.08, initialCash: 1.125, earlySalePrice: 0.75 },
};

/**
 * Validates bank-run parameters, filling defaults.
 *
 * @example
 * ```ts
 * import { parseBankRunParams } from "./params.ts";
 * if (parseBankRunParams({}).capacity !== 3.75) throw new Error();
 * ```
 * @throws {RangeError} Naming the bad field.
 */
export function parseBankRunParams(input: unknown): BankRunParams {
  return parseWith(BankRunParamsSchema, input, "bank_run");
}

/**
 * Closed-form welfare bounds of Appendix D.3: worst = L0 + h A0 (an immediate
 * full run liquidates everything), best = L0 + R A0 (everyone holds to maturity).
 *
 * @example
 * ```ts
 * import { bankRunBounds, parseBankRunParams } from "./params.ts";
 * const b = bankRunBounds(parseBankRunParams({}));
 * if (b.worst.toFixed(3) !== "13.939" || b.best.toFixed(3) !== "18.175") throw new Error();
 * ```
 */
export function bankRunBounds(p: BankRunParams): { worst: number; best: number } {
  return {
    worst: p.initialCash + p.earlySalePrice * p.longTermAssets,
    best: p.initialCash + p.assetReturn * p.longTermAssets,
  };
}

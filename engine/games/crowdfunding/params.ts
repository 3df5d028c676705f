/**
 * Reward-crowdfunding parameters (Table 4, stable regime), the regime presets
 * of Table 5, and the closed-form welfare bounds of Appendix D.3.
 *
 * Choices where the paper leaves a detail open (also in docs/modelling-choices.md):
 * - Every backer starts with a bank balance of exactly one unit pledge
 *   (`unitPledge`, 1.000), the amount of every pledge.
 * - Rounds 1 to `horizon - 1` are decision rounds; round `horizon` is
 *   settlement only and is not played as a round: once the campaign has
 *   launched or failed, the remaining interest up to round `horizon` is
 *   accrued in closed form at the end of the episode.
 * - The M1 over-promise threshold `(1 - 0.050) x P` uses the founder margin
 *   parameter for its 0.050.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { type CapacityRule, CapacityRuleSchema } from "../../frail/capacity.ts";
import { parseWith, type RegimeId } from "../../frail/params.ts";

const positive = (): z.ZodNumber => z.number().positive();

/** Reward-crowdfunding parameters; defaults are the stable regime of Table 4. */
export interface CrowdfundingParams {
  /** Number of backers n (15). */
  backers: number;
  /** Unit pledge, also each backer's starting bank balance (1.000). */
  unitPledge: number;
  /** Rounds T including the settlement-only last round (10: rounds 1-9 decide, 10 settles). */
  horizon: number;
  /** Funding goal G (14.000). */
  goal: number;
  /** Reward v per pledged unit, paid the round after launch (1.150). */
  reward: number;
  /** Founder margin m per pledged unit (0.050). */
  margin: number;
  /** Risk-free rate r_f per round on idle bank balances (0.030). */
  riskFree: number;
  /** Pledge face that can be withdrawn per round (3.750). */
  withdrawalCapacity: number;
  /**
   * What happens to a withdrawal that does not fit the round's remaining
   * capacity: `"expire"` (default, Table 4: the whole pledge stays pledged) or
   * `"partial"` (it is withdrawn in part; not the paper's reading).
   */
  capacityRule: CapacityRule;
}

/**
 * Zod schema of {@linkcode CrowdfundingParams}, with the stable defaults.
 *
 * @example
 * ```ts
 * import { CrowdfundingParamsSchema } from "./params.ts";
 * if (CrowdfundingParamsSchema.parse({}).goal !== 14) throw new Error();
 * ```
 */
export const CrowdfundingParamsSchema: z.ZodType<CrowdfundingParams, Partial<CrowdfundingParams>> =
  z.object({
    /** Number of backers. */
    backers: z.number().int().min(1).max(1000).default(15),
    /** Unit pledge and starting bank balance. */
    unitPledge: positive().default(1),
    /** Rounds including the settlement-only last round. */
    horizon: z.number().int().min(2).max(1000).default(10),
    /** Funding goal. */
    goal: positive().default(14),
    /** Reward per pledged unit. */
    reward: z.number().nonnegative().default(1.15),
    /** Founder margin per pledged unit. */
    margin: z.number().nonnegative().max(1).default(0.05),
    /** Risk-free rate per round. */
    riskFree: z.number().min(0).max(1).default(0.03),
    /** Withdrawable pledge face per round. */
    withdrawalCapacity: positive().default(3.75),
    /** A withdrawal beyond the capacity stays pledged whole (`"expire"`) or in part (`"partial"`). */
    capacityRule: CapacityRuleSchema,
  }).strict();

/**
 * Table 5 presets for reward crowdfunding (goal, reward, risk-free rate).
 *
 * @example
 * ```ts
 * import { CROWDFUNDING_REGIMES } from "./params.ts";
 * if (CROWDFUNDING_REGIMES.contraction.goal !== 15) throw new Error();
 * ```
 */
export const CROWDFUNDING_REGIMES: Record<RegimeId, Partial<CrowdfundingParams>> = {
  expansion: { goal: 12, reward: 1.25, riskFree: 0.02 },
  stable: { goal: 14, reward: 1.15, riskFree: 0.03 },
  contraction: { goal: 15, reward: 1.1, riskFree: 0.04 },
};

/**
 * Validates crowdfunding parameters, filling defaults.
 *
 * @example
 * ```ts
 * import { parseCrowdfundingParams } from "./params.ts";
 * if (parseCrowdfundingParams({}).goal !== 14) throw new Error();
 * ```
 * @throws {RangeError} Naming the bad field.
 */
export function parseCrowdfundingParams(input: unknown): CrowdfundingParams {
  return parseWith(CrowdfundingParamsSchema, input, "crowdfunding");
}

/**
 * The last decision round (`horizon - 1`, i.e. 9): a campaign not launched
 * by its end fails.
 *
 * @example
 * ```ts
 * import { lastDecisionRound, parseCrowdfundingParams } from "./params.ts";
 * if (lastDecisionRound(parseCrowdfundingParams({})) !== 9) throw new Error();
 * ```
 */
export function lastDecisionRound(p: CrowdfundingParams): number {
  return p.horizon - 1;
}

/**
 * Closed-form welfare bounds of Appendix D.3. Worst: every backer pledges in
 * round 1 and the campaign never launches, so the pledges earn nothing until
 * the refund after round-9 interest and then one final round of interest,
 * `n u (1 + r_f)`. Best: every backer pledges in round 1, the founder launches
 * at once, rewards and margins are paid in round 2 and earn interest for the
 * remaining `T - 2` rounds, `n u (v + m) (1 + r_f)^(T-2)`.
 *
 * @example
 * ```ts
 * import { crowdfundingBounds, parseCrowdfundingParams } from "./params.ts";
 * const b = crowdfundingBounds(parseCrowdfundingParams({}));
 * if (b.worst.toFixed(3) !== "15.450" || b.best.toFixed(3) !== "22.802") throw new Error();
 * ```
 */
export function crowdfundingBounds(p: CrowdfundingParams): { worst: number; best: number } {
  const total = p.backers * p.unitPledge;
  const growth = 1 + p.riskFree;
  return {
    worst: total * growth ** (p.horizon - lastDecisionRound(p)),
    best: total * (p.reward + p.margin) * growth ** (p.horizon - 2),
  };
}

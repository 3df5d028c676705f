/**
 * What the analysis knows about each FRAIL environment without looking at a
 * log: who the central player is, which disclosure metrics the figures draw
 * and how the paper names things. All of it comes from the environments'
 * descriptors (`engine/frail/registry.ts`); nothing is spelled out here.
 *
 * Quantities that depend on parameters (bounds, the insolvency boundary, the
 * goal, the first maturity round, total funding, the central player's best
 * payoff) are never computed here: the engine logs them in each episode's
 * `episode_start.derived`, and the loaders put them in the `episodes` frame
 * (`funding`, `central_best`, `reference`, `worst`, `best`).
 *
 * Choices where the paper leaves a detail open (see each descriptor):
 * - Shares (withdrawal and redemption rates, committed shares of Figures 3b
 *   and 6) are of the total initial funding: total deposits in the bank
 *   run, total face value of the claims in debt rollover and the backers'
 *   total unit pledges in crowdfunding.
 * - The central player's normalized payoff (Figure 3b) is its payoff divided
 *   by its payoff in the best case of Appendix D.3, with 0 (failure) as the
 *   worst case; like the paper's role-level payoffs it is not truncated.
 *
 * @module
 */
import { FRAIL_ENV_IDS, FRAIL_GAMES } from "../../engine/frail/registry.ts";
import { REGIME_INFO, REGIMES } from "../../engine/frail/params.ts";
import { MECHANISM_INFO, MECHANISMS } from "../../engine/frail/types.ts";

/** The analysis view of one environment (static facts of its descriptor). */
export interface EnvProfile {
  /** Environment id, e.g. `"bank_run"`. */
  env: string;
  /** Display name, as in the paper's tables. */
  label: string;
  /** Role of the central player: `"bank"`, `"borrower"` or `"founder"`. */
  centralRole: string;
  /** Role of the other players: `"depositor"`, `"creditor"` or `"backer"`. */
  participantRole: string;
  /** Disclosure metric drawn in Figure 4's top row. */
  financialMetric: string;
  /** Label of that metric. */
  financialLabel: string;
  /** Disclosure metric of the cumulative exit volume (Table 9), if any. */
  exitMetric: string | null;
  /** Disclosure metric that is 1 once the project launched (crowdfunding only). */
  launchMetric: string | null;
  /** Whether Figure 4's reference line is vertical (a round) or horizontal (a level). */
  referenceAxis: "x" | "y";
  /** Label of Figure 4's reference line (its position is logged per episode). */
  referenceLabel: string;
}

/**
 * The profiles of the FRAIL environments, by id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ENV_PROFILES } from "./env_profiles.ts";
 *
 * assert.equal(ENV_PROFILES.crowdfunding.centralRole, "founder");
 * assert.equal(ENV_PROFILES.bank_run.financialMetric, "cumulative_withdrawn");
 * ```
 */
export const ENV_PROFILES: Readonly<Record<string, EnvProfile>> = Object.fromEntries(
  FRAIL_GAMES.map((g) => [g.id, {
    env: g.id,
    label: g.label,
    centralRole: g.roles.central!.id,
    participantRole: g.roles.participant.id,
    financialMetric: g.metrics.financial.id,
    financialLabel: g.metrics.financial.label,
    exitMetric: g.metrics.exit,
    launchMetric: g.metrics.launch,
    referenceAxis: g.referenceLine.axis,
    referenceLabel: g.referenceLine.label,
  }]),
);

/**
 * Environment ids in the paper's order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ENV_ORDER } from "./env_profiles.ts";
 *
 * assert.deepEqual(ENV_ORDER, ["bank_run", "debt_rollover", "crowdfunding"]);
 * ```
 */
export const ENV_ORDER: readonly string[] = FRAIL_ENV_IDS;

/**
 * Display names of the environments, as in the paper's tables.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ENV_LABELS } from "./env_profiles.ts";
 *
 * assert.equal(ENV_LABELS.crowdfunding, "Reward crowdfunding");
 * ```
 */
export const ENV_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
  FRAIL_GAMES.map((g) => [g.id, g.label]),
);

/**
 * Display names of the mechanisms, as in the paper's tables.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MECHANISM_LABELS } from "./env_profiles.ts";
 *
 * assert.equal(MECHANISM_LABELS.M2, "M2: agreement");
 * ```
 */
export const MECHANISM_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
  MECHANISM_INFO.map((m) => [m.id, m.label]),
);

/**
 * Mechanism ids in the paper's order.
 *
 * @example
 * ```ts
 * import { MECHANISM_ORDER } from "./env_profiles.ts";
 * if (MECHANISM_ORDER.join() !== "M0,M1,M2,M3") throw new Error();
 * ```
 */
export const MECHANISM_ORDER: readonly string[] = MECHANISMS;

/**
 * Regime ids in the paper's order (Table 5).
 *
 * @example
 * ```ts
 * import { REGIME_ORDER } from "./env_profiles.ts";
 * if (REGIME_ORDER.join() !== "expansion,stable,contraction") throw new Error();
 * ```
 */
export const REGIME_ORDER: readonly string[] = REGIMES;

/**
 * Display names of the regimes.
 *
 * @example
 * ```ts
 * import { REGIME_LABELS } from "./env_profiles.ts";
 * if (REGIME_LABELS.contraction !== "Contraction") throw new Error();
 * ```
 */
export const REGIME_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
  REGIME_INFO.map((r) => [r.id, r.label]),
);

/**
 * The profile of an environment.
 *
 * @param env Environment id.
 * @returns Its profile.
 * @throws {RangeError} For an id that is not a FRAIL environment.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { envProfile } from "./env_profiles.ts";
 *
 * assert.equal(envProfile("debt_rollover").participantRole, "creditor");
 * ```
 */
export function envProfile(env: string): EnvProfile {
  const profile = ENV_PROFILES[env];
  if (profile === undefined) {
    throw new RangeError(
      `Unknown environment "${env}": expected one of ${
        ENV_ORDER.map((id) => `"${id}"`).join(", ")
      }`,
    );
  }
  return profile;
}

/**
 * The central role of an environment, or `undefined` for an environment
 * without a profile (such as the Stag Hunt).
 *
 * @param env Environment id.
 * @returns `"bank"`, `"borrower"`, `"founder"` or `undefined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { centralRoleOf } from "./env_profiles.ts";
 *
 * assert.equal(centralRoleOf("debt_rollover"), "borrower");
 * assert.equal(centralRoleOf("staghunt"), undefined);
 * ```
 */
export function centralRoleOf(env: string): string | undefined {
  return ENV_PROFILES[env]?.centralRole;
}

/**
 * What the analysis needs to know about each FRAIL environment: who the
 * central player is, the initial funding that shares are taken of, which
 * disclosure metric is the financial state of Figure 4 and where its
 * critical boundary lies, and the central player's best-case payoff.
 *
 * Everything is read from an episode's logged `params` and `bounds`; names
 * are tried in order and the paper's stable-regime values (Table 4) are the
 * last resort, so the analysis keeps working while environments evolve.
 *
 * Choices where the paper leaves a detail open:
 * - Shares (withdrawal and redemption rates, committed shares of Figures 3b
 *   and 6) are of the total initial funding: total deposits (15) in the bank
 *   run, total face value of the claims (8) in debt rollover and the
 *   backers' total unit pledges (15) in crowdfunding.
 * - The central player's normalized payoff (Figure 3b) is its payoff divided
 *   by its payoff in the best case of Appendix D.3, with 0 (failure: the bank
 *   or borrower is wiped out, the founder earns no margin) as the worst case;
 *   like the paper's role-level payoffs it is not truncated. Best cases: the
 *   bank keeps W_best minus the deposits paid with yield
 *   (L0 + R·A0 - D·y); the borrower keeps W_best minus the claims compounded
 *   to the horizon (the enumerated profit pi*); the founder keeps the margin
 *   share m / (v + m) of W_best.
 *
 * @module
 */

/** The analysis view of one environment. */
export interface EnvProfile {
  /** Environment id, e.g. `"bank_run"`. */
  env: string;
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
  /** Label of Figure 4's reference line. */
  referenceLabel: string;
  /** Position of Figure 4's reference line for an episode's params. */
  reference(params: unknown): number;
  /** Total initial funding for an episode's params. */
  funding(params: unknown): number;
  /** The central player's best-case payoff, from params and W_best. */
  centralBest(params: unknown, best: number): number;
}

/** The round of the first asset tranche to mature (`params.assets[].round`), if logged. */
function firstMaturity(params: unknown): number | undefined {
  const assets = (params as { assets?: { round?: unknown }[] } | null)?.assets;
  if (!Array.isArray(assets)) return undefined;
  const rounds = assets.map((a) => a?.round).filter((r): r is number => typeof r === "number");
  return rounds.length === 0 ? undefined : Math.min(...rounds);
}

/** Numeric field of `params` under the first of `names` present, else `fallback`. */
function field(params: unknown, names: readonly string[], fallback: number): number {
  if (typeof params === "object" && params !== null) {
    const record = params as Record<string, unknown>;
    for (const name of names) {
      const value = record[name];
      if (typeof value === "number" && Number.isFinite(value)) return value;
    }
  }
  return fallback;
}

const BANK_RUN: EnvProfile = {
  env: "bank_run",
  centralRole: "bank",
  participantRole: "depositor",
  financialMetric: "cumulative_withdrawn",
  financialLabel: "Cumulative withdrawals",
  exitMetric: "cumulative_withdrawn",
  launchMetric: null,
  referenceAxis: "y",
  referenceLabel: "insolvency boundary",
  // Appendix H.4: the bank fails once cumulative withdrawals exceed 8.48 units (stable regime).
  reference: (params) => field(params, ["insolvencyBoundary"], 8.48),
  funding: (params) => field(params, ["totalDeposits"], 15),
  centralBest: (params, best) =>
    best - field(params, ["totalDeposits"], 15) * field(params, ["depositYield"], 1.114),
};

const DEBT_ROLLOVER: EnvProfile = {
  env: "debt_rollover",
  centralRole: "borrower",
  participantRole: "creditor",
  financialMetric: "cumulative_redeemed",
  financialLabel: "Cumulative redemptions",
  exitMetric: "cumulative_redeemed",
  launchMetric: null,
  referenceAxis: "x",
  referenceLabel: "first asset tranche matures",
  reference: (params) => firstMaturity(params) ?? 4,
  funding: (params) => field(params, ["creditors"], 8) * field(params, ["faceValue", "face"], 1),
  centralBest: (params, best) => {
    const claims = field(params, ["creditors"], 8) * field(params, ["faceValue", "face"], 1) *
      (1 + field(params, ["claimAccrual", "claimRate", "accrual"], 0.02)) **
        field(params, ["horizon"], 7);
    return best - claims;
  },
};

const CROWDFUNDING: EnvProfile = {
  env: "crowdfunding",
  centralRole: "founder",
  participantRole: "backer",
  financialMetric: "pool",
  financialLabel: "Pledged pool",
  exitMetric: null,
  launchMetric: "launched",
  referenceAxis: "y",
  referenceLabel: "goal",
  reference: (params) => field(params, ["goal"], 14),
  funding: (params) =>
    field(params, ["backers", "investors"], 15) * field(params, ["unitPledge", "pledge"], 1),
  centralBest: (params, best) => {
    const margin = field(params, ["founderMargin", "margin"], 0.05);
    return best * margin / (field(params, ["reward"], 1.15) + margin);
  },
};

/**
 * The profiles of the three FRAIL environments, by id.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ENV_PROFILES } from "./env_profiles.ts";
 *
 * assert.equal(ENV_PROFILES.crowdfunding.centralRole, "founder");
 * ```
 */
export const ENV_PROFILES: Readonly<Record<string, EnvProfile>> = {
  bank_run: BANK_RUN,
  debt_rollover: DEBT_ROLLOVER,
  crowdfunding: CROWDFUNDING,
};

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
export const ENV_ORDER: readonly string[] = ["bank_run", "debt_rollover", "crowdfunding"];

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
export const ENV_LABELS: Readonly<Record<string, string>> = {
  bank_run: "Bank run",
  debt_rollover: "Debt rollover",
  crowdfunding: "Reward crowdfunding",
};

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
export const MECHANISM_LABELS: Readonly<Record<string, string>> = {
  M0: "M0: baseline",
  M1: "M1: compensated",
  M2: "M2: agreement",
  M3: "M3: coalition",
};

/**
 * The profile of an environment.
 *
 * @param env Environment id.
 * @returns Its profile.
 * @throws {RangeError} For an id that is not a FRAIL environment.
 *
 * @example Stable-regime values of the bank run
 * ```ts
 * import assert from "node:assert/strict";
 * import { envProfile } from "./env_profiles.ts";
 *
 * const bank = envProfile("bank_run");
 * const params = { totalDeposits: 15, depositYield: 1.114 };
 * assert.equal(bank.funding(params), 15);
 * assert.equal(bank.centralBest(params, 18.174825).toFixed(4), "1.4648");
 * assert.equal(envProfile("crowdfunding").reference({}), 14);
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

/**
 * The bank run as a game: roles, mock policies, Table 5 presets, and the
 * quantities the analysis needs from resolved parameters.
 *
 * Derived quantities (logged in `episode_start.derived`):
 * - `bounds`: Appendix D.3, worst L0 + h A0, best L0 + R A0;
 * - `funding`: total deposits D, the denominator of withdrawal shares;
 * - `central_best`: the bank's payoff in the best case, W_best - y D (every
 *   depositor holds to maturity and is paid the promised yield);
 * - `insolvency_boundary`: cumulative withdrawals beyond which the end-of-round
 *   insolvency test fails (8.48 in the stable regime, Appendix H.4), or
 *   `null` when the formula's point lies outside (L0, D] (the test then never
 *   fails on withdrawals paid by early sales, or fails at the start);
 * - `reference`: that boundary as Figure 4's horizontal line on cumulative
 *   withdrawals.
 *
 * @module
 */
import { type FrailGame, frailGameDescriptor } from "../_frail_game.ts";
import { BANK_RUN_MEASURES } from "./measures.ts";
import { bankRun } from "./environment.ts";
import { bankRunBatched } from "./batched.ts";
import {
  BANK_POLICIES,
  BANK_RUN_MOCK_POLICIES,
  BANK_RUN_MOCK_PRESETS,
  bankRunMockPopulation,
  DEPOSITOR_POLICIES,
} from "./mock.ts";
import { bankRunPrompts } from "./prompts/mod.ts";
import { BANK_RUN_REGIMES, bankRunBounds, type BankRunParams } from "./params.ts";
import { insolvencyBoundary } from "./settlement.ts";
import { BANK_ID } from "./state.ts";

/**
 * Cumulative withdrawals at which the bank turns insolvent, where that point
 * lies past the initial cash and within total deposits; else `null`.
 *
 * @example
 * ```ts
 * import { bankRunInsolvencyBoundary } from "./descriptor.ts";
 * import { parseBankRunParams } from "./params.ts";
 * if (bankRunInsolvencyBoundary(parseBankRunParams({}))?.toFixed(2) !== "8.48") throw new Error();
 * ```
 */
export function bankRunInsolvencyBoundary(p: BankRunParams): number | null {
  const w = insolvencyBoundary(p);
  return Number.isFinite(w) && w > p.initialCash && w <= p.totalDeposits ? w : null;
}

export { BANK_POLICIES, DEPOSITOR_POLICIES };

/**
 * The bank-run descriptor.
 *
 * @example
 * ```ts
 * import { bankRunGame } from "./descriptor.ts";
 * import { parseBankRunParams } from "./params.ts";
 * const d = bankRunGame.derive(parseBankRunParams({ ...bankRunGame.regimes.contraction }));
 * if (d.reference.value?.toFixed(2) !== "3.65" || d.funding !== 15) throw new Error();
 * ```
 */
export const bankRunGame: FrailGame<BankRunParams, "bank_run"> = frailGameDescriptor({
  id: "bank_run",
  label: "Bank run",
  environment: bankRun,
  roles: {
    central: { id: "bank", label: "Bank", player: BANK_ID },
    participant: { id: "depositor", label: "Depositor" },
  },
  mockPolicies: BANK_RUN_MOCK_POLICIES,
  mockPopulation: bankRunMockPopulation,
  mockPresets: BANK_RUN_MOCK_PRESETS,
  measures: BANK_RUN_MEASURES,
  regimes: BANK_RUN_REGIMES,
  metrics: {
    financial: { id: "cumulative_withdrawn", label: "Cumulative withdrawals" },
    exit: "cumulative_withdrawn",
    launch: null,
  },
  referenceLine: { axis: "y", metric: "cumulative_withdrawn", label: "insolvency boundary" },
  prompts: bankRunPrompts,
  // M0-M3 episodes of its mock agents, outcome only (batched.ts).
  batched: bankRunBatched,
  derive(p) {
    const bounds = bankRunBounds(p);
    const boundary = bankRunInsolvencyBoundary(p);
    return {
      bounds,
      funding: p.totalDeposits,
      central_best: bounds.best - p.depositYield * p.totalDeposits,
      insolvency_boundary: boundary,
      reference: { ...bankRunGame.referenceLine, value: boundary },
    };
  },
});

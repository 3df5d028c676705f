/**
 * Debt rollover as a game: roles, mock policies, Table 5 presets, and the
 * quantities the analysis needs from resolved parameters.
 *
 * Derived quantities (logged in `episode_start.derived`):
 * - `bounds`: Appendix D.3 (see `bounds.ts`; 6.851 / 9.899 in the stable regime);
 * - `funding`: total face value of the claims n F, the denominator of redemption shares;
 * - `central_best`: the borrower's maximal profit pi* over the repayment
 *   schedules that keep it alive (0.710 in the stable regime);
 * - `first_maturity`: the round the first asset tranche matures;
 * - `reference`: that round as Figure 4's vertical line.
 *
 * @module
 */
import type { FrailDerived } from "../../frail/descriptor.ts";
import { type FrailGame, frailGameDescriptor } from "../_frail_game.ts";
import { DEBT_ROLLOVER_MEASURES } from "./measures.ts";
import { bestRepaymentSchedule, debtRolloverBounds } from "./bounds.ts";
import { debtRollover } from "./environment.ts";
import {
  BORROWER_POLICIES,
  CREDITOR_POLICIES,
  DEBT_ROLLOVER_MOCK_POLICIES,
  DEBT_ROLLOVER_MOCK_PRESETS,
  debtRolloverMockPopulation,
} from "./mock.ts";
import { debtRolloverPrompts } from "./prompts/mod.ts";
import { DEBT_ROLLOVER_REGIMES, type DebtRolloverParams } from "./params.ts";
import { BORROWER_ID } from "./state.ts";

export { BORROWER_POLICIES, CREDITOR_POLICIES };

/**
 * The debt-rollover descriptor.
 *
 * @example
 * ```ts
 * import { debtRolloverGame } from "./descriptor.ts";
 * import { parseDebtRolloverParams } from "./params.ts";
 * const d = debtRolloverGame.derive(parseDebtRolloverParams({}));
 * if (d.central_best.toFixed(3) !== "0.710" || d.reference.value !== 4 || d.funding !== 8) throw new Error();
 * ```
 */
export const debtRolloverGame: FrailGame<DebtRolloverParams, "debt_rollover"> = frailGameDescriptor(
  {
    id: "debt_rollover",
    label: "Debt rollover",
    environment: debtRollover,
    roles: {
      central: { id: "borrower", label: "Borrower", player: BORROWER_ID },
      participant: { id: "creditor", label: "Creditor" },
    },
    mockPolicies: DEBT_ROLLOVER_MOCK_POLICIES,
    mockPopulation: debtRolloverMockPopulation,
    mockPresets: DEBT_ROLLOVER_MOCK_PRESETS,
    measures: DEBT_ROLLOVER_MEASURES,
    regimes: DEBT_ROLLOVER_REGIMES,
    metrics: {
      financial: { id: "cumulative_redeemed", label: "Cumulative redemptions" },
      exit: "cumulative_redeemed",
      launch: null,
    },
    referenceLine: {
      axis: "x",
      metric: "cumulative_redeemed",
      label: "first asset tranche matures",
    },
    prompts: debtRolloverPrompts,
    derive(p) {
      const key = JSON.stringify(p);
      const cached = derivedCache.get(key);
      if (cached) return structuredClone(cached);
      const first = p.assets.length === 0 ? null : Math.min(...p.assets.map((a) => a.round));
      const derived: FrailDerived = {
        bounds: debtRolloverBounds(p),
        funding: p.creditors * p.faceValue,
        central_best: bestRepaymentSchedule(p).profit,
        first_maturity: first,
        reference: { ...debtRolloverGame.referenceLine, value: first },
      };
      if (derivedCache.size >= 64) derivedCache.delete(derivedCache.keys().next().value!);
      derivedCache.set(key, derived);
      return structuredClone(derived);
    },
  },
);

// pi* comes from an exhaustive enumeration; the episodes of one cell share their parameters.
const derivedCache = new Map<string, FrailDerived>();

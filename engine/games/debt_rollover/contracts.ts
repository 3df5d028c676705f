/**
 * Debt-rollover reply contracts (Appendix G): the due creditor's
 * redeem-or-roll call (G.2) and the borrower's M1 offer and M2 solicitation
 * calls (the shared contracts of `../mechanisms/contracts.ts` under the
 * borrower's call names). The creditors' mechanism response is the shared
 * `mechanismResponseContract`.
 *
 * The G.3 debt-rollover M1 excerpt shows the offer answered inside the due
 * creditor's decision call; here, following Table 7 and the round order of
 * Appendix F, the offer is answered in the mechanism-response call that
 * precedes the decision (an accepted offer binds at once, so that round's
 * redeem probability is already overridden to 0).
 *
 * @module
 */
import type { Contract } from "../../core/contract.ts";
import { probabilityContract } from "../../frail/financial_decision.ts";
import {
  offerContract,
  type OfferReport,
  solicitationContract,
  type SolicitationReport,
} from "../../frail/mechanisms/contracts.ts";

/**
 * Redeem-or-roll call: `{ withdraw_probability: 0-100 (probability to redeem), reasoning }`.
 *
 * @example
 * ```ts
 * import { redeemOrRollContract } from "./contracts.ts";
 * const { value } = redeemOrRollContract.parse('{"withdraw_probability": "35%", "reasoning": "x"}');
 * if (value.withdraw_probability !== 35) throw new Error();
 * ```
 */
export const redeemOrRollContract: Contract<{ withdraw_probability: number; reasoning: string }> =
  probabilityContract("redeem_or_roll", "withdraw_probability");

/**
 * M1 borrower call: `{ offers: [{target, amount, lock_until}], disclose_terms_to, reasoning }`.
 *
 * @example
 * ```ts
 * import { rolloverOfferContract } from "./contracts.ts";
 * const { value } = rolloverOfferContract.parse({
 *   offers: [{ target: "crd_01", amount: 0.05, lock_until: 4 }], disclose_terms_to: "all", reasoning: "",
 * });
 * if (value.offers[0].lock_until !== 4) throw new Error();
 * ```
 */
export const rolloverOfferContract: Contract<OfferReport> = offerContract("rollover_offer");

/**
 * M2 borrower call: `{ solicit: ids | ["all"], disclose_aggregate, reasoning }`.
 *
 * @example
 * ```ts
 * import { standstillSolicitationContract } from "./contracts.ts";
 * const { value } = standstillSolicitationContract.parse({ solicit: ["all"], reasoning: "" });
 * if (value.solicit[0] !== "all" || value.disclose_aggregate !== false) throw new Error();
 * ```
 */
export const standstillSolicitationContract: Contract<SolicitationReport> = solicitationContract(
  "standstill_solicitation",
);

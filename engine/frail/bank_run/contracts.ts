/**
 * Bank-run reply contracts (Appendix G): the depositor's withdrawal call and
 * the bank's M1 offer and M2 solicitation calls (the shared contracts of
 * `../mechanisms/contracts.ts` under the bank's call names). The depositor's
 * mechanism response is the shared `mechanismResponseContract`.
 *
 * @module
 */
import type { Contract } from "../../core/contract.ts";
import { probabilityContract } from "../financial_decision.ts";
import {
  offerContract,
  type OfferReport,
  solicitationContract,
  type SolicitationReport,
} from "../mechanisms/contracts.ts";

/**
 * Withdrawal call: `{ withdraw_probability: 0-100, reasoning }`.
 *
 * @example
 * ```ts
 * import { withdrawalContract } from "./contracts.ts";
 * if (withdrawalContract.parse({ withdraw_probability: 140 }).value.withdraw_probability !== 100) throw new Error();
 * ```
 */
export const withdrawalContract: Contract<{ withdraw_probability: number; reasoning: string }> =
  probabilityContract("withdrawal", "withdraw_probability");

/**
 * M1 bank call: `{ offers: [{target, amount, lock_until}], disclose_terms_to, reasoning }`.
 *
 * @example
 * ```ts
 * import { retentionOfferContract } from "./contracts.ts";
 * if (retentionOfferContract.call !== "retention_offer") throw new Error();
 * ```
 */
export const retentionOfferContract: Contract<OfferReport> = offerContract("retention_offer");

/**
 * M2 bank call: `{ solicit: ids | ["all"], disclose_aggregate, reasoning }`.
 *
 * @example
 * ```ts
 * import { protectionSolicitationContract } from "./contracts.ts";
 * if (protectionSolicitationContract.call !== "protection_solicitation") throw new Error();
 * ```
 */
export const protectionSolicitationContract: Contract<SolicitationReport> = solicitationContract(
  "protection_solicitation",
);

/**
 * Bank-run reply contracts (Appendix G): the depositor's withdrawal call and
 * the bank's M1 offer and M2 solicitation calls (the shared contracts of
 * `../mechanisms/contracts.ts` under the bank's call names). The depositor's
 * mechanism response is the shared `mechanismResponseContract`.
 *
 * The bank is told neither the round number nor the horizon (Appendix F), so
 * an M1 offer states its lock as a number of rounds from acceptance,
 * `lock_rounds` (1 binds the acceptance round only); the engine converts it
 * into the last binding round (`mechanism_steps.ts`).
 *
 * @module
 */
import type { z } from "npm:zod@4.6.7";
import type { Contract } from "../../core/contract.ts";
import { probabilityContract } from "../../frail/financial_decision.ts";
import {
  offerContract,
  offerItemSchema,
  type OfferReport,
  solicitationContract,
  type SolicitationReport,
} from "../../frail/mechanisms/contracts.ts";

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

/** One paid retention offer as the bank reports it. */
export interface RetentionOffer {
  /** The depositor it is addressed to. */
  target: string;
  /** Compensation promised on acceptance. */
  amount: number;
  /** Rounds the commitment binds, the acceptance round included (at least 1). */
  lock_rounds: number;
}

/**
 * Schema of one {@linkcode RetentionOffer}.
 *
 * @example
 * ```ts
 * import { RetentionOfferSchema } from "./contracts.ts";
 * if (RetentionOfferSchema.safeParse({ target: "dep_01", amount: 0.03, lock_rounds: 0 }).success) throw new Error();
 * ```
 */
export const RetentionOfferSchema: z.ZodType<RetentionOffer> = offerItemSchema("lock_rounds");

/**
 * M1 bank call: `{ offers: [{target, amount, lock_rounds}], disclose_terms_to, reasoning }`.
 *
 * @example
 * ```ts
 * import { retentionOfferContract } from "./contracts.ts";
 * const { value } = retentionOfferContract.parse({ offers: [{ target: "dep_01", amount: 0.03, lock_rounds: 4 }] });
 * if (value.offers[0].lock_rounds !== 4 || value.disclose_terms_to !== "none") throw new Error();
 * ```
 */
export const retentionOfferContract: Contract<OfferReport<RetentionOffer>> = offerContract(
  "retention_offer",
  RetentionOfferSchema,
);

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

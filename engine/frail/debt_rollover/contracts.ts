/**
 * Debt-rollover reply contracts (Appendix G): the due creditor's
 * redeem-or-roll call (G.2), the creditors' mechanism response, and the
 * borrower's M1 offer and M2 solicitation calls. The mechanism-response
 * contract (`mechanismResponseContract`) and the item schemas are the bank
 * run's, reused as they are from `../bank_run/contracts.ts`.
 *
 * The G.3 debt-rollover M1 excerpt shows the offer answered inside the due
 * creditor's decision call; here, following Table 7 and the round order of
 * Appendix F, the offer is answered in the mechanism-response call that
 * precedes the decision (an accepted offer binds at once, so that round's
 * redeem probability is already overridden to 0).
 *
 * @module
 */
import { z } from "zod";
import { type Contract, defineContract } from "../../core/contract.ts";
import { OfferItemSchema, RecipientsSchema } from "../bank_run/contracts.ts";

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
  defineContract("redeem_or_roll", {
    withdraw_probability: { kind: "probability" },
    reasoning: { kind: "text" },
  });

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
export const rolloverOfferContract: Contract<{
  offers: z.infer<typeof OfferItemSchema>[];
  disclose_terms_to: "none" | "all" | string[];
  reasoning: string;
}> = defineContract("rollover_offer", {
  offers: { kind: "list", item: OfferItemSchema },
  disclose_terms_to: { kind: "value", schema: RecipientsSchema, default: "none" },
  reasoning: { kind: "text" },
});

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
export const standstillSolicitationContract: Contract<{
  solicit: string[];
  disclose_aggregate: boolean;
  reasoning: string;
}> = defineContract("standstill_solicitation", {
  solicit: { kind: "list", item: z.string() },
  disclose_aggregate: { kind: "boolean", default: false },
  reasoning: { kind: "text" },
});

/**
 * The debt rollover's prompt templates: the creditor's redeem-or-roll and
 * mechanism-response calls, the borrower's M1 offer and M2 solicitation calls.
 *
 * @module
 */
import type { PromptSet } from "../../../agents/llm/prompts/template.ts";
import { borrowerRolloverOfferPrompt } from "./borrower_rollover_offer.ts";
import { borrowerStandstillSolicitationPrompt } from "./borrower_standstill_solicitation.ts";
import { creditorMechanismResponsePrompt } from "./creditor_mechanism_response.ts";
import { creditorRedeemOrRollPrompt } from "./creditor_redeem_or_roll.ts";

/**
 * Every debt-rollover template.
 *
 * @example
 * ```ts
 * import { debtRolloverPrompts } from "./mod.ts";
 * if (debtRolloverPrompts.length !== 4) throw new Error();
 * ```
 */
export const debtRolloverPrompts: PromptSet = [
  creditorRedeemOrRollPrompt,
  creditorMechanismResponsePrompt,
  borrowerRolloverOfferPrompt,
  borrowerStandstillSolicitationPrompt,
];

/**
 * The bank run's prompt templates: the depositor's withdrawal and
 * mechanism-response calls, the bank's M1 offer and M2 solicitation calls.
 *
 * @module
 */
import type { PromptSet } from "../../../agents/llm/prompts/template.ts";
import { bankProtectionSolicitationPrompt } from "./bank_protection_solicitation.ts";
import { bankRetentionOfferPrompt } from "./bank_retention_offer.ts";
import { depositorMechanismResponsePrompt } from "./depositor_mechanism_response.ts";
import { depositorWithdrawalPrompt } from "./depositor_withdrawal.ts";

/**
 * Every bank-run template.
 *
 * @example
 * ```ts
 * import { bankRunPrompts } from "./mod.ts";
 * if (bankRunPrompts.length !== 4) throw new Error();
 * ```
 */
export const bankRunPrompts: PromptSet = [
  depositorWithdrawalPrompt,
  depositorMechanismResponsePrompt,
  bankRetentionOfferPrompt,
  bankProtectionSolicitationPrompt,
];

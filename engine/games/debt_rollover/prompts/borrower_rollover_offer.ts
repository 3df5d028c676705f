/**
 * Debt rollover, borrower, M1 offer call (every round under M1; FRAIL
 * Table 7, "propose / publicize"): paid rollover agreements and the disclosure
 * of certified accepted terms. The paper prints no borrower prompt; this one
 * follows the creditor's block structure.
 *
 * @module
 */
import type { BorrowerView } from "../views.ts";
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import { offerReply, outputBlock } from "../../../agents/llm/prompts/_shared_blocks.ts";
import { BORROWER_ROLE, borrowerMechanismRules, borrowerState, gameParameters } from "./blocks.ts";

/**
 * The borrower's M1 offer-call template.
 *
 * @example
 * ```ts
 * import { borrowerRolloverOfferPrompt } from "./borrower_rollover_offer.ts";
 * import { borrowerView } from "../views.ts";
 * import { initialDebtRolloverState } from "../state.ts";
 * import { parseDebtRolloverParams } from "../params.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M1");
 * s.round = 1;
 * const [, user] = borrowerRolloverOfferPrompt.render(borrowerView(s));
 * if (!user.content.includes('"lock_until"')) throw new Error();
 * ```
 */
export const borrowerRolloverOfferPrompt: PromptTemplate<BorrowerView> = definePrompt<BorrowerView>(
  {
    env: "debt_rollover",
    role: "borrower",
    call: "rollover_offer",
    separator: "\n",
    system: (v) => [BORROWER_ROLE, gameParameters(v.parameters), borrowerMechanismRules("M1")],
    user: (v) => [
      ...borrowerState(v),
      outputBlock(offerReply({ party: "creditor", amount: "premium" })),
    ],
  },
);

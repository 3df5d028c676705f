/**
 * Debt rollover, borrower, M2 solicitation call (every round under M2; FRAIL
 * Table 7, "propose / publicize"): whom to ask to sign the standstill
 * agreement and whether to disclose the certified committed total to
 * non-signers. The paper prints no borrower prompt; this one follows the
 * creditor's block structure.
 *
 * @module
 */
import type { BorrowerView } from "../views.ts";
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import {
  KEEP_REASONING_SHORT,
  outputBlock,
  solicitationReply,
} from "../../../agents/llm/prompts/_shared_blocks.ts";
import { BORROWER_ROLE, borrowerMechanismRules, borrowerState, gameParameters } from "./blocks.ts";

/**
 * The borrower's M2 solicitation-call template.
 *
 * @example
 * ```ts
 * import { borrowerStandstillSolicitationPrompt } from "./borrower_standstill_solicitation.ts";
 * import { borrowerView } from "../views.ts";
 * import { initialDebtRolloverState } from "../state.ts";
 * import { parseDebtRolloverParams } from "../params.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M2");
 * s.round = 1;
 * const [, user] = borrowerStandstillSolicitationPrompt.render(borrowerView(s));
 * if (!user.content.includes('"disclose_aggregate"')) throw new Error();
 * ```
 */
export const borrowerStandstillSolicitationPrompt: PromptTemplate<BorrowerView> = definePrompt<
  BorrowerView
>({
  env: "debt_rollover",
  role: "borrower",
  call: "standstill_solicitation",
  separator: "\n",
  system: (v) => [BORROWER_ROLE, gameParameters(v.parameters), borrowerMechanismRules("M2")],
  user: (v) => [
    ...borrowerState(v),
    outputBlock(`${solicitationReply("creditor")}
["all"] asks every uncommitted creditor; [] asks nobody this round.
${KEEP_REASONING_SHORT}`),
  ],
});

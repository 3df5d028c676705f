/**
 * Bank run, bank, M2 solicitation call (every round under M2; FRAIL Table 7,
 * "propose / publicize"): whom to ask to sign the deposit protection agreement
 * and whether to disclose the certified committed total to non-signers. The
 * paper prints no bank prompt; this one follows the depositor's block structure.
 *
 * @module
 */
import type { BankView } from "../views.ts";
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import {
  DISCLOSE_AGGREGATE_FIELD,
  outputContractBlock,
  REASONING_SENTENCES,
  solicitField,
} from "../../../agents/llm/prompts/_shared_blocks.ts";
import { BANK_ROLE, bankMechanismRules, bankState, gameParameters } from "./blocks.ts";

/**
 * The bank's M2 solicitation-call template.
 *
 * @example
 * ```ts
 * import { bankProtectionSolicitationPrompt } from "./bank_protection_solicitation.ts";
 * import { bankView } from "../views.ts";
 * import { initialBankRunState } from "../state.ts";
 * import { parseBankRunParams } from "../params.ts";
 * import { openStream } from "../../../core/rng.ts";
 * const s = initialBankRunState(parseBankRunParams({}), "M2",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * s.round = 1;
 * const [, user] = bankProtectionSolicitationPrompt.render(bankView(s));
 * if (!user.content.includes('"solicit"')) throw new Error();
 * ```
 */
export const bankProtectionSolicitationPrompt: PromptTemplate<BankView> = definePrompt<BankView>({
  env: "bank_run",
  role: "bank",
  call: "protection_solicitation",
  system: (
    v,
  ) => [BANK_ROLE, gameParameters(v.parameters, { reader: "bank" }), bankMechanismRules("M2")],
  user: (v) => [
    ...bankState(v),
    `[TASK]
1. Decide which depositors to ask to sign the deposit protection agreement
   this round: a list of depositor ids, ["all"] for every uncommitted
   depositor, or [] for nobody.
2. Decide whether to disclose the certified committed total to non-signers
   this round (true or false).
3. Give 1-2 sentences of reasoning.`,
    outputContractBlock([
      solicitField("depositor"),
      DISCLOSE_AGGREGATE_FIELD,
      REASONING_SENTENCES,
    ]),
  ],
});

/**
 * Bank run, bank, M1 offer call (every round under M1; FRAIL Table 7,
 * "propose / publicize"): paid retention offers and the disclosure of
 * certified accepted terms. The paper prints no bank prompt; this one follows
 * the depositor's block structure.
 *
 * @module
 */
import type { BankView } from "../views.ts";
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import {
  discloseTermsField,
  outputContractBlock,
  REASONING_SENTENCES,
} from "../../../agents/llm/prompts/_shared_blocks.ts";
import {
  BANK_ROLE,
  bankMechanismRules,
  bankState,
  gameParameters,
  RETENTION_OFFERS_FIELD,
} from "./blocks.ts";

/**
 * The bank's M1 offer-call template.
 *
 * @example
 * ```ts
 * import { bankRetentionOfferPrompt } from "./bank_retention_offer.ts";
 * import { bankView } from "../views.ts";
 * import { initialBankRunState } from "../state.ts";
 * import { parseBankRunParams } from "../params.ts";
 * import { openStream } from "../../../core/rng.ts";
 * const s = initialBankRunState(parseBankRunParams({}), "M1",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * s.round = 1;
 * const [, user] = bankRetentionOfferPrompt.render(bankView(s));
 * if (!user.content.includes('"disclose_terms_to"') || !user.content.includes('"lock_rounds"')) throw new Error();
 * ```
 */
export const bankRetentionOfferPrompt: PromptTemplate<BankView> = definePrompt<BankView>({
  env: "bank_run",
  role: "bank",
  call: "retention_offer",
  system: (
    v,
  ) => [BANK_ROLE, gameParameters(v.parameters, { reader: "bank" }), bankMechanismRules("M1")],
  user: (v) => [
    ...bankState(v),
    `[TASK]
1. Decide which depositors to make paid retention offers to this round, the
   compensation for each, and for how many rounds each commitment binds,
   the round of acceptance included (lock_rounds, at least 1). An empty list
   makes no offers.
2. Decide to whom to disclose the certified accepted terms: "none", "all", or
   a list of depositor ids.
3. Give 1-2 sentences of reasoning.`,
    outputContractBlock([
      RETENTION_OFFERS_FIELD,
      discloseTermsField("depositor"),
      REASONING_SENTENCES,
    ]),
  ],
});

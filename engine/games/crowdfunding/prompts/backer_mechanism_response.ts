/**
 * Reward crowdfunding, backer, mechanism-phase call under M1-M2 (every
 * decision round, all backers; FRAIL Table 7): accept or decline a paid
 * pledge agreement, sign or decline a letter of intent, or declare an exit.
 *
 * @module
 */
import type { BackerView } from "../views.ts";
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import {
  answerActionsReply,
  EMPTY_ARRAY_NOTE,
  KEEP_REASONING_SHORT,
  outputBlock,
} from "../../../agents/llm/prompts/_shared_blocks.ts";
import { backerLastRound, backerSystem, mechanismPosition, messages, proposals } from "./blocks.ts";

/**
 * The backer's M1-M2 mechanism-response template.
 *
 * @example
 * ```ts
 * import { backerMechanismResponsePrompt } from "./backer_mechanism_response.ts";
 * import { backerView } from "../views.ts";
 * import { initialCrowdfundingState } from "../state.ts";
 * import { parseCrowdfundingParams } from "../params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M2");
 * s.round = 1;
 * const [, user] = backerMechanismResponsePrompt.render(backerView(s, "bkr_01"));
 * if (!user.content.includes("[LETTER OF INTENT]")) throw new Error();
 * ```
 */
export const backerMechanismResponsePrompt: PromptTemplate<BackerView> = definePrompt<BackerView>({
  env: "crowdfunding",
  role: "backer",
  call: "mechanism_response",
  separator: "\n",
  system: backerSystem,
  user: (v) => [
    backerLastRound(v),
    mechanismPosition(v),
    proposals(v),
    messages(v),
    outputBlock(
      `${answerActionsReply(v.mechanism === "M1" ? "M1" : "M2", { agreement: "a letter" })}
${EMPTY_ARRAY_NOTE}
${KEEP_REASONING_SHORT}`,
    ),
  ],
});

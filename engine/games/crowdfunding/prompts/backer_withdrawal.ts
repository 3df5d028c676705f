/**
 * Reward crowdfunding, backer, withdrawal call (every decision round, pledged
 * backers; FRAIL Table 7): the pledge call's blocks with a withdrawal [OUTPUT].
 *
 * @module
 */
import type { BackerView } from "../views.ts";
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import { outputBlock, probabilityReply } from "../../../agents/llm/prompts/_shared_blocks.ts";
import { backerDecisionState, backerSystem } from "./blocks.ts";

/**
 * The backer's withdrawal-call template.
 *
 * @example
 * ```ts
 * import { backerWithdrawalPrompt } from "./backer_withdrawal.ts";
 * import { backerView } from "../views.ts";
 * import { initialCrowdfundingState } from "../state.ts";
 * import { parseCrowdfundingParams } from "../params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M0");
 * s.round = 2;
 * const [, user] = backerWithdrawalPrompt.render(backerView(s, "bkr_01"));
 * if (!user.content.includes('"withdraw_probability"')) throw new Error();
 * ```
 */
export const backerWithdrawalPrompt: PromptTemplate<BackerView> = definePrompt<BackerView>({
  env: "crowdfunding",
  role: "backer",
  call: "withdrawal",
  separator: "\n",
  system: backerSystem,
  user: (v) => [
    ...backerDecisionState(v),
    outputBlock(`${probabilityReply("withdraw_probability")}
withdraw_probability is the probability you withdraw your pledge this round.
0 means keep it pledged. Keep reasoning short.`),
  ],
});

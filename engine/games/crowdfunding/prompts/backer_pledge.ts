/**
 * Reward crowdfunding, backer, pledge call (every decision round, unpledged
 * backers; FRAIL Table 7). Under M0 this is the complete G.2 prompt; under
 * M1-M3 the mechanism's [GAME PARAMETERS] bullet, the backer's commitment,
 * the round's certified messages and (M3) coalition information are added.
 *
 * @module
 */
import type { BackerView } from "../views.ts";
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import { outputBlock, probabilityReply } from "../../../agents/llm/prompts/_shared_blocks.ts";
import { backerDecisionState, backerSystem } from "./blocks.ts";

/**
 * The backer's pledge-call template.
 *
 * @example
 * ```ts
 * import { backerPledgePrompt } from "./backer_pledge.ts";
 * import { backerView } from "../views.ts";
 * import { initialCrowdfundingState } from "../state.ts";
 * import { parseCrowdfundingParams } from "../params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M0");
 * s.round = 1;
 * const [, user] = backerPledgePrompt.render(backerView(s, "bkr_01"));
 * if (!user.content.includes('"pledge_probability"')) throw new Error();
 * ```
 */
export const backerPledgePrompt: PromptTemplate<BackerView> = definePrompt<BackerView>({
  env: "crowdfunding",
  role: "backer",
  call: "pledge",
  separator: "\n",
  system: backerSystem,
  user: (v) => [
    ...backerDecisionState(v),
    outputBlock(`${probabilityReply("pledge_probability")}
0 means wait (keep cash in the bank). Keep reasoning short.`),
  ],
});

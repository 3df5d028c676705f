/**
 * Reward crowdfunding, backer, pledge call (every decision round, unpledged
 * backers; FRAIL Table 7). Under M0 this is the complete G.2 prompt; under
 * M1-M3 the mechanism's [GAME PARAMETERS] bullet, the backer's commitment,
 * the round's certified messages and (M3) coalition information are added.
 *
 * @module
 */
import type { BackerView } from "../../../../frail/crowdfunding/views.ts";
import { definePrompt, type PromptTemplate } from "../template.ts";
import {
  backerPosition,
  backerRole,
  coalition,
  endOfLastRound,
  gameParameters,
  messages,
} from "./blocks.ts";

/**
 * The backer's pledge-call template.
 *
 * @example
 * ```ts
 * import { backerPledgePrompt } from "./backer_pledge.ts";
 * import { backerView } from "../../../../frail/crowdfunding/views.ts";
 * import { initialCrowdfundingState } from "../../../../frail/crowdfunding/state.ts";
 * import { parseCrowdfundingParams } from "../../../../frail/crowdfunding/params.ts";
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
  system: (v) => [backerRole(v.parameters), gameParameters(v.parameters, v.mechanism)],
  user: (v) => [
    endOfLastRound(v.campaign, v.outstandingBonuses),
    backerPosition(v),
    messages(v),
    coalition(v),
    `[OUTPUT]
Reply with a single JSON object, no other text:
{"pledge_probability": <integer 0 to 100>, "reasoning": "<at most 40 words>"}
0 means wait (keep cash in the bank). Keep reasoning short.`,
  ],
});

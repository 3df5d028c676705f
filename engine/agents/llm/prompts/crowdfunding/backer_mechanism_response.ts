/**
 * Reward crowdfunding, backer, mechanism-phase call under M1-M2 (every
 * decision round, all backers; FRAIL Table 7): accept or decline a paid
 * pledge agreement, sign or decline a letter of intent, or declare an exit.
 *
 * @module
 */
import type { BackerView } from "../../../../frail/crowdfunding/views.ts";
import { definePrompt, type PromptTemplate } from "../template.ts";
import {
  backerRole,
  endOfLastRound,
  gameParameters,
  mechanismPosition,
  messages,
  proposals,
} from "./blocks.ts";

const OUTPUT: Record<string, string> = {
  M1: `{"proposal_actions": [{"action": "accept"|"decline", "proposal_id": "..."}],
 "reasoning": "<at most 40 words>"}
If you have an offer, include accept or decline in proposal_actions.`,
  M2: `{"proposal_actions": [{"action": "sign"|"decline", "proposal_id": "..."},
                      {"action": "exit"}],
 "reasoning": "<at most 40 words>"}
If you have a letter to answer, include sign or decline in proposal_actions.`,
};

/**
 * The backer's M1-M2 mechanism-response template.
 *
 * @example
 * ```ts
 * import { backerMechanismResponsePrompt } from "./backer_mechanism_response.ts";
 * import { backerView } from "../../../../frail/crowdfunding/views.ts";
 * import { initialCrowdfundingState } from "../../../../frail/crowdfunding/state.ts";
 * import { parseCrowdfundingParams } from "../../../../frail/crowdfunding/params.ts";
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
  system: (v) => [backerRole(v.parameters), gameParameters(v.parameters, v.mechanism)],
  user: (v) => [
    endOfLastRound(v.campaign, v.outstandingBonuses),
    mechanismPosition(v),
    proposals(v),
    messages(v),
    `[OUTPUT]
Reply with a single JSON object, no other text:
${OUTPUT[v.mechanism] ?? OUTPUT.M2}
Use an empty array when no action applies.
Keep reasoning short so the JSON object is complete.`,
  ],
});

/**
 * Reward crowdfunding, founder, M1 offer call (every round under M1; FRAIL
 * Table 7, "propose / publicize"): paid pledge agreements and the disclosure
 * of certified accepted terms. The paper prints no founder prompt; this one
 * follows the backer's block structure.
 *
 * @module
 */
import type { FounderView } from "../views.ts";
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import { offerReply, outputBlock } from "../../../agents/llm/prompts/_shared_blocks.ts";
import { founderParameters, founderRole, founderState } from "./blocks.ts";

/**
 * The founder's M1 offer-call template.
 *
 * @example
 * ```ts
 * import { founderPledgeOfferPrompt } from "./founder_pledge_offer.ts";
 * import { founderView } from "../views.ts";
 * import { initialCrowdfundingState } from "../state.ts";
 * import { parseCrowdfundingParams } from "../params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M1");
 * s.round = 1;
 * const [, user] = founderPledgeOfferPrompt.render(founderView(s));
 * if (!user.content.includes('"lock_until"')) throw new Error();
 * ```
 */
export const founderPledgeOfferPrompt: PromptTemplate<FounderView> = definePrompt<FounderView>({
  env: "crowdfunding",
  role: "founder",
  call: "pledge_offer",
  separator: "\n",
  system: (v) => [founderRole(v.parameters), founderParameters(v.parameters, "M1")],
  user: (v) => [
    ...founderState(v),
    outputBlock(offerReply({ party: "backer", amount: "bonus" })),
  ],
});

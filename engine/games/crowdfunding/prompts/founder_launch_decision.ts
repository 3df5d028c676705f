/**
 * Reward crowdfunding, founder, launch decision (when P >= G, after the
 * round's pledges and withdrawals; FRAIL Table 7 and Appendix F). A launch
 * settles the pool and ends the episode.
 *
 * @module
 */
import type { FounderView } from "../views.ts";
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import { outputBlock, REASONING_40_WORDS } from "../../../agents/llm/prompts/_shared_blocks.ts";
import { founderParameters, founderRole, founderState } from "./blocks.ts";

/**
 * The founder's launch-decision template.
 *
 * @example
 * ```ts
 * import { founderLaunchDecisionPrompt } from "./founder_launch_decision.ts";
 * import { founderView } from "../views.ts";
 * import { initialCrowdfundingState } from "../state.ts";
 * import { parseCrowdfundingParams } from "../params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M0");
 * s.round = 3;
 * const [, user] = founderLaunchDecisionPrompt.render(founderView(s));
 * if (!user.content.includes('{"launch": true or false')) throw new Error();
 * ```
 */
export const founderLaunchDecisionPrompt: PromptTemplate<FounderView> = definePrompt<FounderView>({
  env: "crowdfunding",
  role: "founder",
  call: "launch_decision",
  separator: "\n",
  system: (v) => [founderRole(v.parameters), founderParameters(v.parameters, v.mechanism)],
  user: (v) => [
    ...founderState(v),
    outputBlock(
      `{"launch": true or false, ${REASONING_40_WORDS}}
Launching settles the pool and ends the campaign. Keep reasoning short.`,
      { lead: "This round's pledges and withdrawals are processed. Decide whether to launch now." },
    ),
  ],
});

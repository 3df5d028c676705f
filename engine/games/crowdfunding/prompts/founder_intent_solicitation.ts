/**
 * Reward crowdfunding, founder, M2 solicitation call (every round under M2;
 * FRAIL Table 7, "propose / publicize"): whom to ask to sign the letter of
 * intent and whether to disclose the certified committed total to
 * non-signers. The paper prints no founder prompt; this one follows the
 * backer's block structure.
 *
 * @module
 */
import type { FounderView } from "../views.ts";
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import {
  KEEP_REASONING_SHORT,
  outputBlock,
  solicitationReply,
} from "../../../agents/llm/prompts/_shared_blocks.ts";
import { founderParameters, founderRole, founderState } from "./blocks.ts";

/**
 * The founder's M2 solicitation-call template.
 *
 * @example
 * ```ts
 * import { founderIntentSolicitationPrompt } from "./founder_intent_solicitation.ts";
 * import { founderView } from "../views.ts";
 * import { initialCrowdfundingState } from "../state.ts";
 * import { parseCrowdfundingParams } from "../params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M2");
 * s.round = 1;
 * const [, user] = founderIntentSolicitationPrompt.render(founderView(s));
 * if (!user.content.includes('"disclose_aggregate"')) throw new Error();
 * ```
 */
export const founderIntentSolicitationPrompt: PromptTemplate<FounderView> = definePrompt<
  FounderView
>({
  env: "crowdfunding",
  role: "founder",
  call: "intent_solicitation",
  separator: "\n",
  system: (v) => [founderRole(v.parameters), founderParameters(v.parameters, "M2")],
  user: (v) => [
    ...founderState(v),
    outputBlock(`${solicitationReply("backer")}
["all"] asks every backer not yet locked; [] asks nobody this round.
${KEEP_REASONING_SHORT}`),
  ],
});

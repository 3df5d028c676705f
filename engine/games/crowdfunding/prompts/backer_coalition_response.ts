/**
 * Reward crowdfunding, backer, M3 mechanism-phase call (every decision round,
 * all backers; FRAIL Table 7): join, request an exit, and vote on disclosing
 * the coalition's locked total, as in the G.3 excerpt.
 *
 * @module
 */
import type { BackerView } from "../views.ts";
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import {
  compactJson,
  outputBlock,
  REASONING_40_WORDS,
} from "../../../agents/llm/prompts/_shared_blocks.ts";
import { backerLastRound, backerSystem, coalition, mechanismPosition, messages } from "./blocks.ts";

/**
 * The backer's M3 coalition-response template.
 *
 * @example
 * ```ts
 * import { backerCoalitionResponsePrompt } from "./backer_coalition_response.ts";
 * import { backerView } from "../views.ts";
 * import { initialCrowdfundingState } from "../state.ts";
 * import { parseCrowdfundingParams } from "../params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M3");
 * s.round = 1;
 * const [, user] = backerCoalitionResponsePrompt.render(backerView(s, "bkr_01"));
 * if (!user.content.includes('{"join": true or false')) throw new Error();
 * ```
 */
export const backerCoalitionResponsePrompt: PromptTemplate<BackerView> = definePrompt<BackerView>({
  env: "crowdfunding",
  role: "backer",
  call: "coalition_response",
  separator: "\n",
  system: backerSystem,
  user: (v) => [
    backerLastRound(v),
    messages(v),
    mechanismPosition(v),
    coalition(v),
    outputBlock(
      `${
        compactJson([
          '"join": true or false, "exit_request": false, "vote": null',
          REASONING_40_WORDS,
        ])
      }
To vote use "vote": {"announce_to": "all"} or a list of ids.`,
    ),
  ],
});

/**
 * Reward crowdfunding, backer, M3 exit-confirmation call: one of the three
 * in-round confirmation hands an exit request needs (G.3: "Exit requires
 * three in-round confirmation hands"). Each hand is its own call.
 *
 * @module
 */
import type { BackerView } from "../views.ts";
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import {
  KEEP_REASONING_SHORT,
  outputBlock,
  REASONING_40_WORDS,
} from "../../../agents/llm/prompts/_shared_blocks.ts";
import { backerLastRound, backerSystem, coalition, mechanismPosition } from "./blocks.ts";

/**
 * The backer's exit-confirmation template.
 *
 * @example
 * ```ts
 * import { backerExitConfirmationPrompt } from "./backer_exit_confirmation.ts";
 * import { exitConfirmationView } from "../views.ts";
 * import { initialCrowdfundingState } from "../state.ts";
 * import { parseCrowdfundingParams } from "../params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M3");
 * s.round = 2;
 * const [, user] = backerExitConfirmationPrompt.render(exitConfirmationView(s, "bkr_01", 2));
 * if (!user.content.includes("confirmation hand 2 of 3")) throw new Error();
 * ```
 */
export const backerExitConfirmationPrompt: PromptTemplate<BackerView> = definePrompt<BackerView>({
  env: "crowdfunding",
  role: "backer",
  call: "exit_confirmation",
  separator: "\n",
  system: backerSystem,
  user: (v) => [
    backerLastRound(v),
    mechanismPosition(v),
    coalition(v),
    `[EXIT CONFIRMATION]
You requested to exit the coalition this round. This is confirmation hand ${
      v.exitConfirmation?.hand ?? 1
    } of ${v.exitConfirmation?.of ?? 3}.
Confirming every hand completes your exit at the end of this round (you stay
locked this round, may withdraw from next round, and cannot rejoin); a single
false cancels the exit.`,
    outputBlock(`{"confirm": true or false, ${REASONING_40_WORDS}}
${KEEP_REASONING_SHORT}`),
  ],
});

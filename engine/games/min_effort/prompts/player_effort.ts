/**
 * Minimum-effort game, player, effort call (every round, every player): the
 * player sees the rules, the payoff table and its own history, and replies
 * with its number and a short reasoning.
 *
 * @module
 */
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import { EFFORT_CALL } from "../contracts.ts";
import { PLAYER_ROLE } from "../environment.ts";
import { MIN_EFFORT_ID } from "../params.ts";
import type { MinEffortView } from "../state.ts";
import { history, system } from "./blocks.ts";

/**
 * The player's effort-call template.
 *
 * @example
 * ```ts
 * import { playerEffortPrompt } from "./player_effort.ts";
 * const v = { you: "p01", round: 2, T: 10, N: 7, efforts: 7, a: 0.2, b: 0.1, c: 0.6,
 *   history: [{ round: 1, effort: 5, minimum: 3, payoff: 0.7 }] };
 * const [system, user] = playerEffortPrompt.render(v);
 * if (!system.content.startsWith("[ROLE]\nYou are p01") || !user.content.includes("Round 2 of 10:")) {
 *   throw new Error(user.content);
 * }
 * ```
 */
export const playerEffortPrompt: PromptTemplate<MinEffortView> = definePrompt<MinEffortView>({
  env: MIN_EFFORT_ID,
  role: PLAYER_ROLE,
  call: EFFORT_CALL,
  system: (v) => [system(v)],
  user: (v) => [
    history(v),
    `[YOUR CHOICE]
Round ${v.round} of ${v.T}: choose your number for this round (a whole number
from 1 to ${v.efforts}).`,
    `[OUTPUT]
Reply with a single JSON object, no other text:
{"effort": <your number, an integer 1 to ${v.efforts}>, "reasoning": "<at most 40 words>"}
Keep reasoning short so the JSON object is complete.`,
  ],
});

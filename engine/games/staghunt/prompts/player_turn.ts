/**
 * Stag Hunt, player, turn call (Section 4.2): on its turn a player sees the
 * public transcript so far and replies with an action, a confidence and a
 * one-sentence justification.
 *
 * @module
 */
import type { StagHuntView } from "../views.ts";
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import { outputBlock } from "../../../agents/llm/prompts/_shared_blocks.ts";
import { speakerLine, system, transcript } from "./blocks.ts";

/**
 * The player's turn template.
 *
 * @example
 * ```ts
 * import { playerTurnPrompt } from "./player_turn.ts";
 * const v = { you: "p01", position: 1, round: 1, N: 2, M: 2, payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 },
 *   order: ["p01", "p02"], transcript: [{ round: 1, outcome: null, reports: [] }] };
 * const [, user] = playerTurnPrompt.render(v);
 * if (!user.content.includes("Round 1: you are speaker 1 of 2.")) throw new Error(user.content);
 * ```
 */
export const playerTurnPrompt: PromptTemplate<StagHuntView> = definePrompt<StagHuntView>({
  env: "staghunt",
  role: "player",
  call: "stag_hunt_turn",
  system: (v) => [system(v)],
  user: (v) => [
    transcript(v),
    `[YOUR TURN]
${speakerLine(v)} Choose your action for this round.`,
    outputBlock(
      '{"action": "Stag" | "Hare", "confidence": <number from 0 to 1>, "justification": "<one sentence>"}',
    ),
  ],
});

/**
 * The Stag Hunt's prompt templates: the player's turn and re-justification calls.
 *
 * @module
 */
import type { PromptSet } from "../../../agents/llm/prompts/template.ts";
import { playerRejustifyPrompt } from "./player_rejustify.ts";
import { playerTurnPrompt } from "./player_turn.ts";

/**
 * Every Stag Hunt template.
 *
 * @example
 * ```ts
 * import { stagHuntPrompts } from "./mod.ts";
 * if (stagHuntPrompts.length !== 2) throw new Error();
 * ```
 */
export const stagHuntPrompts: PromptSet = [playerTurnPrompt, playerRejustifyPrompt];

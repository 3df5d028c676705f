/**
 * The minimum-effort game's prompt templates: the player's effort call, the
 * game's only call.
 *
 * @module
 */
import type { PromptSet } from "../../../agents/llm/prompts/template.ts";
import { playerEffortPrompt } from "./player_effort.ts";

/**
 * Every minimum-effort template.
 *
 * @example
 * ```ts
 * import { minEffortPrompts } from "./mod.ts";
 * if (minEffortPrompts.length !== 1 || minEffortPrompts[0].call !== "effort_choice") throw new Error();
 * ```
 */
export const minEffortPrompts: PromptSet = [playerEffortPrompt];

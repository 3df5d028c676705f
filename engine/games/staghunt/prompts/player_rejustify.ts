/**
 * Stag Hunt, player, re-justification call (Section 4.3): when a corrupted
 * player's public action differs from its reply, the same model is asked for
 * a justification of the public action; the original confidence is kept.
 *
 * @module
 */
import type { RejustifyView } from "../views.ts";
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import { outputBlock } from "../../../agents/llm/prompts/_shared_blocks.ts";
import { speakerLine, system, transcript } from "./blocks.ts";

/**
 * The player's re-justification template.
 *
 * @example
 * ```ts
 * import { playerRejustifyPrompt } from "./player_rejustify.ts";
 * const v = { you: "p01", position: 1, round: 1, N: 2, M: 2, payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 },
 *   order: ["p01", "p02"], transcript: [{ round: 1, outcome: null, reports: [] }],
 *   justify: { action: "Hare" as const, confidence: 0.9 } };
 * const [, user] = playerRejustifyPrompt.render(v);
 * if (!user.content.includes("Your report this round is Hare with confidence 0.9.")) throw new Error(user.content);
 * ```
 */
export const playerRejustifyPrompt: PromptTemplate<RejustifyView> = definePrompt<RejustifyView>({
  env: "staghunt",
  role: "player",
  call: "rejustify",
  system: (v) => [system(v)],
  user: (v) => [
    transcript(v),
    `[YOUR REPORT]
${speakerLine(v)} Your report this round is ${v.justify.action} with confidence ${
      String(Math.round(v.justify.confidence * 1000) / 1000)
    }.
Write the one-sentence justification that will be published with it.`,
    outputBlock('{"justification": "<one sentence>"}'),
  ],
});

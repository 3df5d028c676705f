/**
 * Bank run, depositor, mechanism-response call (every round under M1-M3, all
 * active depositors; FRAIL Table 7): accept or decline M1 offers, sign,
 * decline or exit the M2 agreement, join, request an exit or vote in the M3
 * group. The shared blocks are those of G.2; the mechanism blocks and the M3
 * [OUTPUT CONTRACT] are G.3's. The paper prints no [TASK] for this call; one is
 * added before the proposals so the excerpt's [THIS ROUND PROPOSALS] and
 * [OUTPUT CONTRACT] stay adjacent as printed.
 *
 * @module
 */
import type { DepositorView } from "../views.ts";
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import {
  coalitionActionsReply,
  EMPTY_ARRAY_NOTE,
  proposalActions,
  REASONING_SENTENCES,
} from "../../../agents/llm/prompts/_shared_blocks.ts";
import { depositorState, depositorSystem, thisRoundProposals } from "./blocks.ts";

const answer = (action: string) => `{"action": "${action}", "proposal_id": "..."}`;

const ACTIONS: Record<string, string> = {
  M1: proposalActions([answer("accept"), answer("decline")], REASONING_SENTENCES),
  M2: proposalActions(
    [answer("sign"), answer("decline"), '{"action": "exit"}'],
    REASONING_SENTENCES,
  ),
  M3: coalitionActionsReply(REASONING_SENTENCES),
};

/**
 * The depositor's mechanism-response template.
 *
 * @example
 * ```ts
 * import { depositorMechanismResponsePrompt } from "./depositor_mechanism_response.ts";
 * import { depositorView } from "../views.ts";
 * import { initialBankRunState } from "../state.ts";
 * import { parseBankRunParams } from "../params.ts";
 * import { openStream } from "../../../core/rng.ts";
 * const s = initialBankRunState(parseBankRunParams({}), "M3",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * const [, user] = depositorMechanismResponsePrompt.render(depositorView(s, "dep_01"));
 * if (!user.content.endsWith("Use an empty array when no action applies.")) throw new Error();
 * ```
 */
export const depositorMechanismResponsePrompt: PromptTemplate<DepositorView> = definePrompt<
  DepositorView
>({
  env: "bank_run",
  role: "depositor",
  call: "mechanism_response",
  system: depositorSystem,
  user: (v) => [
    ...depositorState(v),
    `[TASK]
1. Decide your mechanism actions for this round (see MECHANISM RULES and the
   proposals below). Your redemption decision is asked for separately.
2. Give 1-2 sentences of reasoning.`,
    thisRoundProposals(v),
    `[OUTPUT CONTRACT]
${ACTIONS[v.mechanism] ?? ACTIONS.M3}
${EMPTY_ARRAY_NOTE}`,
  ],
});

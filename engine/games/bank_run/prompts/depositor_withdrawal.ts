/**
 * Bank run, depositor, withdrawal call (every round, all active depositors;
 * FRAIL Table 7). Under M0 this is the complete G.2 prompt; under M1-M3 the
 * binding [COMMITMENT SEMANTICS], the mechanism's [MECHANISM RULES] and the
 * round's certified announcements (and M3 member-only information) are added
 * (G.3). Proposals are answered in the mechanism-response call, so they are
 * not listed here.
 *
 * @module
 */
import type { DepositorView } from "../views.ts";
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import {
  outputContractBlock,
  REASONING_SENTENCES,
} from "../../../agents/llm/prompts/_shared_blocks.ts";
import { depositorState, depositorSystem, thisRoundProposals } from "./blocks.ts";

/**
 * The depositor's withdrawal-call template.
 *
 * @example
 * ```ts
 * import { depositorWithdrawalPrompt } from "./depositor_withdrawal.ts";
 * import { depositorView } from "../views.ts";
 * import { initialBankRunState } from "../state.ts";
 * import { parseBankRunParams } from "../params.ts";
 * import { openStream } from "../../../core/rng.ts";
 * const s = initialBankRunState(parseBankRunParams({}), "M0",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * const [system, user] = depositorWithdrawalPrompt.render(depositorView(s, "dep_01"));
 * if (!system.content.startsWith("[ROLE]") || !user.content.includes('"withdraw_probability": <int 0-100>')) {
 *   throw new Error();
 * }
 * ```
 */
export const depositorWithdrawalPrompt: PromptTemplate<DepositorView> = definePrompt<DepositorView>(
  {
    env: "bank_run",
    role: "depositor",
    call: "withdrawal",
    system: depositorSystem,
    user: (v) => [
      ...depositorState(v),
      thisRoundProposals(v, { awaiting: false }),
      `[TASK]
1. Decide your redemption probability for this round (integer 0-100;
   0 = definitely keep deposited, 100 = definitely redeem). The system samples
   your actual action server-side from this probability.
2. Give 1-2 sentences of reasoning.`,
      outputContractBlock(['"withdraw_probability": <int 0-100>', REASONING_SENTENCES]),
    ],
  },
);

/**
 * Debt rollover, creditor, mechanism-response call (every round under M1-M3:
 * creditors with an offer, a solicitation or a commitment, and under M3 every
 * creditor who may join; FRAIL Table 7). The M1 [OFFER] block and output
 * lines follow the G.3 excerpt, without `withdraw_probability`, which is asked
 * in the redeem-or-roll call that follows (see `blocks.ts`).
 *
 * @module
 */
import type { CreditorView } from "../views.ts";
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import {
  answerActionsReply,
  coalitionActionsReply,
  EMPTY_ARRAY_NOTE,
  KEEP_REASONING_SHORT,
  outputBlock,
  REASONING_40_WORDS,
} from "../../../agents/llm/prompts/_shared_blocks.ts";
import {
  committee,
  creditorLastRound,
  creditorPosition,
  creditorSystem,
  messages,
  proposals,
} from "./blocks.ts";

const reply = (mechanism: string) =>
  mechanism === "M1" || mechanism === "M2"
    ? answerActionsReply(mechanism, { agreement: "an agreement" })
    : coalitionActionsReply(REASONING_40_WORDS);

/**
 * The creditor's mechanism-response template.
 *
 * @example
 * ```ts
 * import { creditorMechanismResponsePrompt } from "./creditor_mechanism_response.ts";
 * import { creditorView } from "../views.ts";
 * import { initialDebtRolloverState } from "../state.ts";
 * import { parseDebtRolloverParams } from "../params.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M3");
 * s.round = 1;
 * const [, user] = creditorMechanismResponsePrompt.render(creditorView(s, "crd_05"));
 * if (!user.content.includes("You are not due this round (1); your claim first matures at round 5.")) throw new Error();
 * ```
 */
export const creditorMechanismResponsePrompt: PromptTemplate<CreditorView> = definePrompt<
  CreditorView
>({
  env: "debt_rollover",
  role: "creditor",
  call: "mechanism_response",
  separator: "\n",
  system: creditorSystem,
  user: (v) => [
    creditorLastRound(v),
    creditorPosition(v),
    proposals(v),
    messages(v),
    committee(v),
    outputBlock(`${reply(v.mechanism)}\n${EMPTY_ARRAY_NOTE}\n${KEEP_REASONING_SHORT}`, {
      lead: `This is the mechanism step of round ${v.round} of ${v.horizon}; your redeem-or-roll
decision, if you are due, is asked for separately.`,
    }),
  ],
});

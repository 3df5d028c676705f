/**
 * Debt rollover, creditor, redeem-or-roll call (maturity rounds, due
 * creditors; FRAIL Table 7). Under M0 this is the complete G.2 prompt; under
 * M1-M3 the mechanism's [MECHANISM RULES], the creditor's commitment, the
 * round's certified messages and (M3) committee information are added.
 *
 * @module
 */
import type { CreditorView } from "../views.ts";
import { definePrompt, type PromptTemplate } from "../../../agents/llm/prompts/template.ts";
import {
  KEEP_REASONING_SHORT,
  outputBlock,
  probabilityReply,
} from "../../../agents/llm/prompts/_shared_blocks.ts";
import {
  committee,
  creditorLastRound,
  creditorPosition,
  creditorSystem,
  messages,
} from "./blocks.ts";

/**
 * The creditor's redeem-or-roll template.
 *
 * @example
 * ```ts
 * import { creditorRedeemOrRollPrompt } from "./creditor_redeem_or_roll.ts";
 * import { creditorView } from "../views.ts";
 * import { initialDebtRolloverState } from "../state.ts";
 * import { parseDebtRolloverParams } from "../params.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M0");
 * s.round = 1;
 * const [, user] = creditorRedeemOrRollPrompt.render(creditorView(s, "crd_01"));
 * if (!user.content.includes("You are due this round (1).")) throw new Error();
 * ```
 */
export const creditorRedeemOrRollPrompt: PromptTemplate<CreditorView> = definePrompt<CreditorView>({
  env: "debt_rollover",
  role: "creditor",
  call: "redeem_or_roll",
  separator: "\n",
  system: creditorSystem,
  user: (v) => [
    creditorLastRound(v),
    creditorPosition(v),
    messages(v),
    committee(v),
    outputBlock(`${probabilityReply("withdraw_probability")}
withdraw_probability is the probability you redeem this round. 0 means roll.
You are due this round; rolling defers the next decision to the next round.
${KEEP_REASONING_SHORT}`),
  ],
});

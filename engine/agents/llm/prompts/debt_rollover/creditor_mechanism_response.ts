/**
 * Debt rollover, creditor, mechanism-response call (every round under M1-M3:
 * creditors with an offer, a solicitation or a commitment, and under M3 every
 * creditor who may join; FRAIL Table 7). The M1 [OFFER] block and output
 * lines follow the G.3 excerpt, without `withdraw_probability`, which is asked
 * in the redeem-or-roll call that follows (see `blocks.ts`).
 *
 * @module
 */
import type { CreditorView } from "../../../../frail/debt_rollover/views.ts";
import { definePrompt, type PromptTemplate } from "../template.ts";
import {
  committee,
  CREDITOR_ROLE,
  creditorMechanismRules,
  creditorPosition,
  endOfLastRound,
  gameParameters,
  messages,
  proposals,
} from "./blocks.ts";

const OUTPUT: Record<string, string> = {
  M1: `{"proposal_actions": [{"action": "accept"|"decline", "proposal_id": "..."}],
 "reasoning": "<at most 40 words>"}
If you have an offer, include accept or decline in proposal_actions.`,
  M2: `{"proposal_actions": [{"action": "sign"|"decline", "proposal_id": "..."},
                      {"action": "exit"}],
 "reasoning": "<at most 40 words>"}
If you have an agreement to answer, include sign or decline in proposal_actions.`,
  M3: `{"proposal_actions": [{"action": "join"}, {"action": "exit_request"},
                      {"action": "propose_announcement_vote", "announce_to": "all"},
                      {"action": "vote", "vote_id": "...", "support": true}],
 "reasoning": "<at most 40 words>"}`,
};

/**
 * The creditor's mechanism-response template.
 *
 * @example
 * ```ts
 * import { creditorMechanismResponsePrompt } from "./creditor_mechanism_response.ts";
 * import { creditorView } from "../../../../frail/debt_rollover/views.ts";
 * import { initialDebtRolloverState } from "../../../../frail/debt_rollover/state.ts";
 * import { parseDebtRolloverParams } from "../../../../frail/debt_rollover/params.ts";
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
  system: (v) => [CREDITOR_ROLE, gameParameters(v.parameters), creditorMechanismRules(v.mechanism)],
  user: (v) => [
    endOfLastRound(v.borrower, v.lastRound, v.outstandingPremiums),
    creditorPosition(v),
    proposals(v),
    messages(v),
    committee(v),
    `[OUTPUT]
This is the mechanism step of round ${v.round} of ${v.horizon}; your redeem-or-roll
decision, if you are due, is asked for separately.
Reply with a single JSON object, no other text:
${OUTPUT[v.mechanism] ?? OUTPUT.M3}
Use an empty array when no action applies.
Keep reasoning short so the JSON object is complete.`,
  ],
});

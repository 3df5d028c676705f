// Test helpers: scripted bank-run agents.
import type { AgentFactory } from "../../../../engine/core/agent.ts";
import { type Script, scriptedWith } from "../../frail/_scripted.ts";

export { idx } from "../../frail/_scripted.ts";

/** What an agent says when the script has nothing to say (never acts, never withdraws). */
const NEUTRAL: Record<string, unknown> = {
  withdrawal: { withdraw_probability: 0, reasoning: "" },
  mechanism_response: { proposal_actions: [], reasoning: "" },
  retention_offer: { offers: [], disclose_terms_to: "none", reasoning: "" },
  protection_solicitation: { solicit: [], disclose_aggregate: false, reasoning: "" },
};

/** Agents that all follow one script. */
export const scripted: (script: Script) => AgentFactory = scriptedWith(NEUTRAL);

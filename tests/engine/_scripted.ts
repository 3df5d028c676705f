// Test helper: agents whose replies are a function of the request.
import type { Agent, AgentFactory } from "../../engine/agents/agent.ts";
import type { CallRequest } from "../../engine/core/environment.ts";

/** A reply function: `undefined` falls back to the neutral reply for the call. */
export type Script = (req: CallRequest) => unknown;

const NEUTRAL: Record<string, unknown> = {
  withdrawal: { withdraw_probability: 0, reasoning: "" },
  mechanism_response: { proposal_actions: [], reasoning: "" },
  retention_offer: { offers: [], disclose_terms_to: "none", reasoning: "" },
  protection_solicitation: { solicit: [], disclose_aggregate: false, reasoning: "" },
};

/** Agents that all follow one script. */
export function scripted(script: Script): AgentFactory {
  return (): Agent => ({
    policy: "test:scripted",
    decide: (req) => Promise.resolve(script(req) ?? NEUTRAL[req.call]),
  });
}

/** The depositor's index (dep_01 -> 1). */
export function idx(id: string): number {
  return Number(id.replace(/^\D+/, ""));
}

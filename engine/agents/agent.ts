/**
 * The one interface mock, LLM and replay agents share.
 *
 * @module
 */
import type { CallRequest } from "../core/environment.ts";

/**
 * An agent answers calls with raw reports (an object, or the text of a model
 * reply); the engine validates and repairs them against the call's contract.
 *
 * @example
 * ```ts
 * import type { Agent } from "./agent.ts";
 * const stay: Agent = {
 *   policy: "mock:always_stay",
 *   decide: () => Promise.resolve({ withdraw_probability: 0, reasoning: "I stay." }),
 * };
 * ```
 */
export interface Agent {
  /** Names the policy or model behind the agent, e.g. `"mock:defensive"`. */
  policy: string;
  /** Answers one call from the agent's authorized view. */
  decide(request: CallRequest): Promise<unknown>;
}

/** Gives the agent that plays a given id and role. */
export type AgentFactory = (player: { id: string; role: string }) => Agent;

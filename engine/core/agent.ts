/**
 * The one interface mock, LLM and replay agents share.
 *
 * @module
 */
import type { CallRequest } from "./environment.ts";

/**
 * An agent answers calls with raw reports (an object, or the text of a model
 * reply); the engine validates and repairs them against the call's contract.
 * It may answer synchronously (return the reply: mock and replay agents do, and
 * a step whose agents all do completes without awaiting) or asynchronously
 * (return a promise of it, as LLM agents do).
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
  /** Answers one call from the agent's authorized view: the reply, or a promise of it. */
  decide(request: CallRequest): unknown | Promise<unknown>;
}

/** Gives the agent that plays a given id and role. */
export type AgentFactory = (player: { id: string; role: string }) => Agent;

/**
 * Agent factories that pick a mock agent by role.
 *
 * @module
 */
import type { Agent, AgentFactory } from "../../core/agent.ts";

/** Makes the agent of one role; see {@linkcode agentsByRole}. */
export type RoleAgentMaker = (player: { id: string; role: string }) => Agent;

/**
 * An agent factory that hands every player to the maker of its role.
 *
 * @param what What the makers are, for the error, e.g. `"crowdfunding mock policy"`.
 * @param makers One maker per role.
 * @returns The factory; it throws a `RangeError` (`No <what> for role "<role>"`)
 * for a role without a maker.
 *
 * @example
 * ```ts
 * import { agentsByRole } from "./_roles.ts";
 * const make = agentsByRole("test policy", {
 *   bank: () => ({ policy: "mock:passive_bank", decide: () => Promise.resolve({}) }),
 * });
 * if (make({ id: "bank", role: "bank" }).policy !== "mock:passive_bank") throw new Error();
 * try {
 *   make({ id: "x", role: "toString" });
 *   throw new Error("no error");
 * } catch (e) {
 *   if ((e as Error).message !== 'No test policy for role "toString"') throw e;
 * }
 * ```
 */
export function agentsByRole(
  what: string,
  makers: Readonly<Record<string, RoleAgentMaker>>,
): AgentFactory {
  return (player) => {
    if (!Object.hasOwn(makers, player.role)) {
      throw new RangeError(`No ${what} for role "${player.role}"`);
    }
    return makers[player.role](player);
  };
}

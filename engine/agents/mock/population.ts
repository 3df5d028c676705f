/**
 * Mock populations: which rule-based policy plays each role.
 *
 * @module
 */
import type { AgentFactory } from "../agent.ts";
import { type BankPolicy, type DepositorPolicy, mockBank, mockDepositor } from "./bank_run.ts";

/** Options of {@linkcode mockPopulation}. */
export interface MockPopulationOptions {
  /** Depositor policy, or a function of id and index (from 0, read off the id). Default `"defensive"`. */
  depositors?: DepositorPolicy | ((id: string, index: number) => DepositorPolicy);
  /** Bank policy. Default `"active"`. */
  bank?: BankPolicy;
  /** Seed for the agents' traits. Default 0. */
  seed?: number;
}

/**
 * An agent factory of rule-based mock agents.
 *
 * @example
 * ```ts
 * import { mockPopulation } from "./population.ts";
 * const make = mockPopulation({ depositors: "always_stay" });
 * if (make({ id: "dep_01", role: "depositor" }).policy !== "mock:always_stay") throw new Error();
 * ```
 */
export function mockPopulation(options: MockPopulationOptions = {}): AgentFactory {
  const seed = options.seed ?? 0;
  const policy = options.depositors ?? "defensive";
  return ({ id, role }) => {
    const index = Number(id.replace(/^\D+/, "")) - 1;
    switch (role) {
      case "depositor":
        return mockDepositor(typeof policy === "function" ? policy(id, index) : policy, {
          seed,
          id,
        });
      case "bank":
        return mockBank(options.bank ?? "active");
      default:
        throw new RangeError(`No mock policy for role "${role}"`);
    }
  };
}

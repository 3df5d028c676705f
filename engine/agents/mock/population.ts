/**
 * Mock populations: which rule-based policy plays each role, in every FRAIL
 * environment. One options object covers all roles, so the same population
 * can play a grid across environments.
 *
 * @module
 */
import { checkMockOptions } from "../../frail/descriptor.ts";
import type { AgentFactory } from "../../core/agent.ts";
import { agentsByRole, type RoleAgentMaker } from "./_roles.ts";
import {
  BANK_RUN_MOCK_POLICIES,
  type BankPolicy,
  type DepositorPolicy,
  mockBank,
  mockDepositor,
} from "../../games/bank_run/mock.ts";
import {
  CROWDFUNDING_MOCK_POLICIES,
  type CrowdfundingMockOptions,
  crowdfundingMockPopulation,
} from "../../games/crowdfunding/mock.ts";
import {
  DEBT_ROLLOVER_MOCK_POLICIES,
  type DebtRolloverMockOptions,
  debtRolloverMockPopulation,
} from "../../games/debt_rollover/mock.ts";

// The FRAIL environments' mock options, in the paper's order (as their descriptors list them).
const FRAIL_MOCKS = [
  { mockPolicies: BANK_RUN_MOCK_POLICIES },
  { mockPolicies: DEBT_ROLLOVER_MOCK_POLICIES },
  { mockPolicies: CROWDFUNDING_MOCK_POLICIES },
] as const;

/** Options of {@linkcode mockPopulation}. */
export interface MockPopulationOptions
  extends Omit<DebtRolloverMockOptions, "seed">, Omit<CrowdfundingMockOptions, "seed"> {
  /** Depositor policy, or a function of id and index (from 0, read off the id). Default `"defensive"`. */
  depositors?: DepositorPolicy | ((id: string, index: number) => DepositorPolicy);
  /** Bank policy. Default `"active"`. */
  bank?: BankPolicy;
  /** Seed for the agents' traits. Default 0. */
  seed?: number;
}

/**
 * An agent factory of rule-based mock agents for every FRAIL role: depositor
 * and bank, creditor and borrower, backer and founder.
 *
 * @example
 * ```ts
 * import { mockPopulation } from "./population.ts";
 * const make = mockPopulation({ depositors: "always_stay", creditors: "always_roll" });
 * if (make({ id: "dep_01", role: "depositor" }).policy !== "mock:always_stay") throw new Error();
 * if (make({ id: "crd_01", role: "creditor" }).policy !== "mock:always_roll") throw new Error();
 * ```
 * @throws {RangeError} For an unknown option or policy (with a suggestion), and for a role no
 * mock policy plays (when the factory is called).
 */
export function mockPopulation(options: MockPopulationOptions = {}): AgentFactory {
  checkMockOptions(options as Record<string, unknown>, FRAIL_MOCKS, ["seed"]);
  const seed = options.seed ?? 0;
  const policy = options.depositors ?? "defensive";
  // The other environments' populations are built when one of their roles is
  // first asked for (a bank-run episode never asks).
  let debt: AgentFactory | undefined;
  let crowd: AgentFactory | undefined;
  const debtAgent: RoleAgentMaker = (p) =>
    (debt ??= debtRolloverMockPopulation({ ...options, seed }))(p);
  const crowdAgent: RoleAgentMaker = (p) =>
    (crowd ??= crowdfundingMockPopulation({ ...options, seed }))(p);
  return agentsByRole("mock policy", {
    depositor: ({ id }) => {
      if (typeof policy !== "function") return mockDepositor(policy, { seed, id });
      const index = Number(id.replace(/^\D+/, "")) - 1;
      return mockDepositor(policy(id, index), { seed, id });
    },
    bank: () => mockBank(options.bank ?? "active"),
    creditor: debtAgent,
    borrower: debtAgent,
    backer: crowdAgent,
    founder: crowdAgent,
  });
}

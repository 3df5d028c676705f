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
  type BankRunMockOptions,
  bankRunMockPopulation,
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
  extends
    Omit<BankRunMockOptions, "seed">,
    Omit<DebtRolloverMockOptions, "seed">,
    Omit<CrowdfundingMockOptions, "seed"> {
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
  // Each environment's population is built when one of its roles is first
  // asked for (a bank-run episode never asks for a creditor).
  let bank: AgentFactory | undefined;
  let debt: AgentFactory | undefined;
  let crowd: AgentFactory | undefined;
  const bankAgent: RoleAgentMaker = (p) =>
    (bank ??= bankRunMockPopulation({ ...options, seed }))(p);
  const debtAgent: RoleAgentMaker = (p) =>
    (debt ??= debtRolloverMockPopulation({ ...options, seed }))(p);
  const crowdAgent: RoleAgentMaker = (p) =>
    (crowd ??= crowdfundingMockPopulation({ ...options, seed }))(p);
  return agentsByRole("mock policy", {
    depositor: bankAgent,
    bank: bankAgent,
    creditor: debtAgent,
    borrower: debtAgent,
    backer: crowdAgent,
    founder: crowdAgent,
  });
}

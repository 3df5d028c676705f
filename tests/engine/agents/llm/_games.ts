/**
 * The four games as test cases: environment, parameters, mechanisms and mock agents.
 *
 * @module
 */
import type { AgentFactory } from "../../../../engine/agents/agent.ts";
import { mockPopulation } from "../../../../engine/agents/mock/population.ts";
import { mockStagHuntPlayers } from "../../../../engine/agents/mock/staghunt.ts";
import type { Environment } from "../../../../engine/core/environment.ts";
import { bankRun } from "../../../../engine/frail/bank_run/environment.ts";
import { crowdfunding } from "../../../../engine/frail/crowdfunding/environment.ts";
import { debtRollover } from "../../../../engine/frail/debt_rollover/environment.ts";
import { stagHunt } from "../../../../engine/staghunt/environment.ts";

/** One game to play in a test. */
export interface GameCase {
  /** Environment id (also the prompt set's). */
  id: string;
  // deno-lint-ignore no-explicit-any
  env: Environment<any, any>;
  /** Parameter input. */
  params: Record<string, unknown>;
  /** Mechanisms (Stag Hunt: corruption modes) to play, with the regime to record. */
  conditions: { mechanism: string; regime: string }[];
  /** Mock agents with the same rules the local server's "coordlab-defensive" model uses. */
  mocks: (seed: number) => AgentFactory;
}

const FRAIL = ["M0", "M1", "M2", "M3"].map((mechanism) => ({ mechanism, regime: "stable" }));

/** The three FRAIL games under M0-M3 and the Stag Hunt (N = 5, M = 3, F = 2). */
export const GAMES: readonly GameCase[] = [
  {
    id: "bank_run",
    env: bankRun,
    params: {},
    conditions: FRAIL,
    mocks: (seed) => mockPopulation({ seed }),
  },
  {
    id: "debt_rollover",
    env: debtRollover,
    params: {},
    conditions: FRAIL,
    mocks: (seed) => mockPopulation({ seed }),
  },
  {
    id: "crowdfunding",
    env: crowdfunding,
    params: {},
    conditions: FRAIL,
    mocks: (seed) => mockPopulation({ seed }),
  },
  {
    id: "stag_hunt",
    env: stagHunt,
    params: { N: 5, M: 3, T: 4, F: 2 },
    conditions: [{ mechanism: "base", regime: "h1" }],
    mocks: (seed) => mockStagHuntPlayers({ seed }),
  },
];

/**
 * The four games as test cases: environment, conditions and mock agents.
 *
 * @module
 */
import type { AgentFactory } from "../../../../engine/core/agent.ts";
import { mockPopulation } from "../../../../engine/agents/mock/population.ts";
import { mockStagHuntPlayers } from "../../../../engine/games/staghunt/mock.ts";
import type { Environment } from "../../../../engine/core/environment.ts";
import { bankRun } from "../../../../engine/games/bank_run/environment.ts";
import { crowdfunding } from "../../../../engine/games/crowdfunding/environment.ts";
import { debtRollover } from "../../../../engine/games/debt_rollover/environment.ts";
import { stagHunt } from "../../../../engine/games/staghunt/environment.ts";
import type { ReplaySetup } from "../../../../engine/core/replay.ts";
import { frailSetup } from "../../../../engine/frail/descriptor.ts";
import { frailGame } from "../../../../engine/frail/registry.ts";
import { MECHANISMS } from "../../../../engine/frail/types.ts";
import { stagHuntSetup } from "../../../../engine/games/staghunt/descriptor.ts";

/** One game to play in a test. */
export interface GameCase {
  /** Environment id (also the prompt set's). */
  id: string;
  // deno-lint-ignore no-explicit-any
  env: Environment<any, any>;
  /** Conditions to play: parameters and the recorded condition. */
  setups: ReplaySetup<unknown>[];
  /** Mock agents with the same rules the local server's "coordlab-defensive" model uses. */
  mocks: (seed: number) => AgentFactory;
}

const frail = (id: string) =>
  MECHANISMS.map((mechanism) => frailSetup(frailGame(id), { mechanism, regime: "stable" }));

/** The three FRAIL games under M0-M3 and the Stag Hunt (N = 5, M = 3, F = 2). */
export const GAMES: readonly GameCase[] = [
  {
    id: "bank_run",
    env: bankRun,
    setups: frail("bank_run"),
    mocks: (seed) => mockPopulation({ seed }),
  },
  {
    id: "debt_rollover",
    env: debtRollover,
    setups: frail("debt_rollover"),
    mocks: (seed) => mockPopulation({ seed }),
  },
  {
    id: "crowdfunding",
    env: crowdfunding,
    setups: frail("crowdfunding"),
    mocks: (seed) => mockPopulation({ seed }),
  },
  {
    id: "staghunt",
    env: stagHunt,
    setups: [stagHuntSetup({ N: 5, M: 3, T: 4, F: 2 }, "h1")],
    mocks: (seed) => mockStagHuntPlayers({ seed }),
  },
];

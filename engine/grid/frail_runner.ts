/**
 * The FRAIL episode runner of a grid: `runEpisode` with the cell's
 * environment, mechanism, regime and parameter overrides, and either the
 * agents factory given to the grid or the environment's rule-based agents
 * (seeded with the episode seed, policies from the `mock` entry).
 *
 * @module
 */
import type { AgentFactory } from "../agents/agent.ts";
import { crowdfundingMockPopulation } from "../agents/mock/crowdfunding.ts";
import { debtRolloverMockPopulation } from "../agents/mock/debt_rollover.ts";
import { mockPopulation } from "../agents/mock/population.ts";
import { EpisodeError } from "../core/episode.ts";
import type { EngineEvent } from "../core/events.ts";
import { environment, resolveParams } from "../frail/registry.ts";
import type { EnvId } from "../frail/types.ts";
import { runEpisode } from "../run_episode.ts";
import type { FrailCondition, GridEpisode } from "./cells.ts";
import type { EpisodeRunner } from "./runners.ts";
import type { FrailMockSpec } from "./spec.ts";

const MOCKS: Readonly<Record<EnvId, (seed: number, m: FrailMockSpec) => AgentFactory>> = {
  bank_run: (seed, m) => mockPopulation({ seed, depositors: m.depositors, bank: m.bank }),
  debt_rollover: (seed, m) =>
    debtRolloverMockPopulation({ seed, creditors: m.creditors, borrower: m.borrower }),
  crowdfunding: (seed, m) =>
    crowdfundingMockPopulation({ seed, backers: m.backers, founder: m.founder }),
};

/**
 * The rule-based agents of a FRAIL episode's `mock` entry.
 *
 * @example
 * ```ts
 * import { frailMockAgents } from "./frail_runner.ts";
 * const make = frailMockAgents("bank_run", { seed: 1, mock: { depositors: "always_stay" } });
 * if (make({ id: "dep_01", role: "depositor" }).policy !== "mock:always_stay") throw new Error();
 * ```
 */
export function frailMockAgents(
  env: EnvId,
  options: { seed: number; mock: FrailMockSpec },
): AgentFactory {
  return MOCKS[env](options.seed, options.mock);
}

/**
 * The FRAIL runner.
 *
 * @example
 * ```ts
 * import { frailRunner } from "./frail_runner.ts";
 * const events = await frailRunner.play({
 *   id: "ep", index: 0, run: "demo", cell: "c", replicate: 0, seed: 3,
 *   condition: { game: "frail", env: "bank_run", mechanism: "M1", regime: "stable", params: {} },
 *   agents: { kind: "mock", mock: {} },
 * });
 * if (events.at(-1)?.type !== "episode_end") throw new Error();
 * ```
 */
export const frailRunner: EpisodeRunner = {
  check({ condition, agents }) {
    const c = condition as FrailCondition;
    environment(c.env);
    resolveParams(c.env, c.regime, c.params);
    if (agents.kind === "mock" && !MOCKS[c.env]) {
      throw new RangeError(`No rule-based agents for environment "${c.env}"`);
    }
  },
  async play(ep: GridEpisode, options = {}): Promise<EngineEvent[]> {
    const c = ep.condition as FrailCondition;
    let agents: AgentFactory | undefined = options.agents;
    if (!agents) {
      if (ep.agents.kind !== "mock") {
        throw new TypeError(
          `Episode "${ep.id}" names LLM agents: pass an agents factory (RunGridOptions.agents)`,
        );
      }
      agents = frailMockAgents(c.env, { seed: ep.seed, mock: ep.agents.mock as FrailMockSpec });
    }
    try {
      const r = await runEpisode({
        env: c.env,
        mechanism: c.mechanism,
        regime: c.regime,
        params: c.params,
        seed: ep.seed,
        agents,
        run: ep.run,
        episode: ep.id,
      });
      return r.events;
    } catch (err) {
      if (err instanceof EpisodeError) return err.events;
      throw err;
    }
  },
};

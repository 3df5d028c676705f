/**
 * The FRAIL episode runner of a grid: `runEpisode` with the cell's
 * environment, mechanism, regime and parameter overrides. Its rule-based
 * agents are `mockPopulation` seeded with the episode seed, with the
 * policies of the episode's `mock` entry (one entry covers every FRAIL role,
 * so it can play a block across environments).
 *
 * @module
 */
import { mockPopulation } from "../agents/mock/population.ts";
import type { EngineEvent } from "../core/events.ts";
import { isOverridesName } from "../frail/descriptor.ts";
import { environment, resolveParams } from "../frail/registry.ts";
import { type EpisodeResult, runEpisode } from "../run_episode.ts";
import type { FrailCondition, GridEpisode } from "./cell.ts";
import { gridLogging } from "./logging.ts";
import type { EpisodeRunner, GridAgentFactory, PlayedText } from "./episode_runner.ts";
import { playedText } from "./_played_text.ts";

/**
 * The FRAIL runner.
 *
 * @example
 * ```ts
 * import { frailRunner } from "./frail_runner.ts";
 * const episode = {
 *   id: "ep", index: 0, run: "demo", cell: "c", replicate: 0, seed: 3,
 *   condition: { game: "frail", env: "bank_run", mechanism: "M1", regime: "stable", params: {} },
 *   agents: { kind: "mock", mock: { depositors: "always_stay" } },
 * } as const;
 * const agents = frailRunner.mockAgents(episode);
 * if (agents({ id: "dep_01", role: "depositor" }).policy !== "mock:always_stay") throw new Error();
 * const events = await frailRunner.play(episode, agents);
 * if (events.at(-1)?.type !== "episode_end") throw new Error();
 * // The same log as the text the grid writes.
 * const { text, tally } = await frailRunner.playText!(episode, frailRunner.mockAgents(episode));
 * const reports = events.filter((e) => e.type === "report").length;
 * if (text.split("\n").length !== events.length + 1 || tally.reports !== reports) throw new Error();
 * ```
 */
export const frailRunner: EpisodeRunner = {
  check({ condition }) {
    const c = condition as FrailCondition;
    environment(c.env);
    resolveParams(c.env, c.regime, c.params);
    if (c.paramsName !== undefined && !isOverridesName(c.paramsName)) {
      throw new RangeError(`Invalid override set name ${JSON.stringify(c.paramsName)}`);
    }
  },
  mockAgents(ep) {
    return mockPopulation({ seed: ep.seed, ...(ep.agents.kind === "mock" ? ep.agents.mock : {}) });
  },
  async play(ep, agents): Promise<EngineEvent[]> {
    return (await run(ep, agents, false)).events;
  },
  async playText(ep, agents): Promise<PlayedText> {
    const r = await run(ep, agents, true);
    return playedText(r);
  },
};

/** The episode with complete logging: its events, or (`text`) its log text only. */
function run(ep: GridEpisode, agents: GridAgentFactory, text: boolean): Promise<EpisodeResult> {
  const c = ep.condition as FrailCondition;
  return runEpisode({
    env: c.env,
    mechanism: c.mechanism,
    regime: c.regime,
    params: c.params,
    ...(c.paramsName === undefined ? {} : { paramsName: c.paramsName }),
    seed: ep.seed,
    agents,
    ...gridLogging(ep, text),
  });
}

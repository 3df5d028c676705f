/**
 * How a grid plays one episode: the one runner of every game, through the
 * game's descriptor (`gameDescriptor(cellGameId(condition))`: its `setup` of
 * the cell's condition, its `mockAgents` of the agents entry's `mock`
 * options, its `players` hook for the entry's model policy; see `playGame`),
 * and the runner of a branch block's episodes. A game registered at run time
 * (`registerGame`) is played by in-process runs, and by worker runs when the
 * module that registers it is listed in `RunGridOptions.gameModules`.
 * {@linkcode playGridEpisode} is the one place that picks an episode's
 * agents and turns a crash into its log.
 *
 * @module
 */
import { EpisodeError } from "../core/episode.ts";
import { type EpisodeTally, tallyEvents } from "../core/event_recorder.ts";
import type { EngineEvent } from "../core/events.ts";
import type { GameDescriptor } from "../core/game.ts";
import { gameDescriptor } from "../games/registry.ts";
import { playGame } from "../run_episode.ts";
import { type CellCondition, cellGameId, type GridEpisode } from "./cells.ts";
import { branchRunner } from "./branch_block.ts";
import { modelsOf } from "./spec.ts";
import { playedText } from "./_played_text.ts";

export type { EpisodeRunner, GridAgentFactory, GridPlayer, PlayedText } from "./episode_runner.ts";
import type { EpisodeRunner, GridAgentFactory, PlayedText } from "./episode_runner.ts";

/**
 * The error for an episode that names LLM agents when nothing can build them.
 *
 * @example
 * ```ts
 * import { noLlmAgentsError } from "./runners.ts";
 * if (!noLlmAgentsError("ep").message.startsWith('Episode "ep" names LLM agents: pass an LLM runtime')) throw new Error();
 * ```
 */
export function noLlmAgentsError(episodeId: string): TypeError {
  return new TypeError(
    `Episode "${episodeId}" names LLM agents: pass an LLM runtime (RunGridOptions.runtime) ` +
      `or an agents factory (RunGridOptions.agents) to build them`,
  );
}

/** An episode's complete log as {@linkcode playGridLog} gives it: its text or its events, and its tally. */
export interface GridLog {
  /** The NDJSON text, when the runner built it. */
  readonly text?: string;
  /** The same lines as UTF-8, when the runner has them (written instead of `text`). */
  readonly bytes?: Uint8Array;
  /** The events, when the runner gave them instead. */
  events?: EngineEvent[];
  /** The log at a glance. */
  tally: EpisodeTally;
}

/** Options of {@linkcode playGridLog}. */
export interface PlayGridLogOptions extends PlayGridEpisodeOptions {
  /** Ask for the text where the runner can build it (`EpisodeRunner.playText`). Default `false`. */
  text?: boolean;
}

/**
 * Plays one episode of a grid with its game's runner and returns its complete
 * log: as text where asked and the runner builds it, else as events; either
 * way ending in `episode_end` (of status `"error"` when the episode crashed).
 *
 * @example
 * ```ts
 * import { playGridLog } from "./runners.ts";
 * const log = await playGridLog({
 *   id: "ep", index: 0, run: "demo", cell: "c", replicate: 0, seed: 1,
 *   condition: { game: "frail", env: "bank_run", mechanism: "M0", regime: "stable", params: {} },
 *   agents: { kind: "mock", mock: { depositors: "always_stay" } },
 * }, { text: true });
 * // M0: 15 withdrawal calls a round for 12 rounds; no event object was built.
 * if (log.events !== undefined || log.tally.reports !== 12 * 15) throw new Error();
 * const end = JSON.parse(log.text!.trimEnd().split("\n").at(-1)!);
 * if (end.type !== "episode_end" || end.status !== "ok") throw new Error();
 * ```
 * @throws {TypeError} When the episode names LLM agents and no agents are given; any error of a config that could not start.
 */
export function playGridLog(
  episode: GridEpisode,
  options: PlayGridLogOptions = {},
): Promise<GridLog> {
  return withRunner(
    episode,
    options.agents,
    async (runner, agents) => {
      if (options.text && runner.playText) return await runner.playText(episode, agents);
      const events = await runner.play(episode, agents);
      return { events, tally: tallyEvents(events) };
    },
    (err) =>
      options.text && err.ndjson !== undefined && err.tally !== undefined
        ? { text: err.ndjson, tally: err.tally }
        : { events: err.events, tally: tallyEvents(err.events) },
  );
}

/**
 * Plays an episode with its runner and agents (`given`, else the runner's
 * mock agents for an entry that names no model), and turns a crash
 * (`EpisodeError`) into what `crashed` makes of it; other errors are thrown.
 */
async function withRunner<T>(
  episode: GridEpisode,
  given: GridAgentFactory | undefined,
  play: (runner: EpisodeRunner, agents: GridAgentFactory) => Promise<T>,
  crashed: (err: EpisodeError) => T,
): Promise<T> {
  const runner = episodeRunner(episode.condition);
  const agents = agentsOf(runner, episode, given);
  try {
    return await play(runner, agents);
  } catch (err) {
    if (!(err instanceof EpisodeError)) throw err;
    return crashed(err);
  }
}

function agentsOf(
  runner: EpisodeRunner,
  episode: GridEpisode,
  agents: GridAgentFactory | undefined,
): GridAgentFactory {
  if (agents) return agents;
  if (modelsOf(episode.agents).length > 0) throw noLlmAgentsError(episode.id);
  return runner.mockAgents(episode);
}

/** Options of {@linkcode playGridEpisode}. */
export interface PlayGridEpisodeOptions {
  /** Agents. Default: the runner's `mockAgents`, for an episode whose entry names no model. */
  agents?: GridAgentFactory;
}

/**
 * Plays one episode of a grid with its game's runner and returns its complete
 * log, ending in `episode_end` (of status `"error"` when the episode crashed).
 *
 * @example
 * ```ts
 * import { playGridEpisode } from "./runners.ts";
 * const events = await playGridEpisode({
 *   id: "ep", index: 0, run: "demo", cell: "c", replicate: 0, seed: 1,
 *   condition: { game: "frail", env: "bank_run", mechanism: "M0", regime: "stable", params: {} },
 *   agents: { kind: "mock", mock: { depositors: "always_stay" } },
 * });
 * // M0: 15 withdrawal calls a round for 12 rounds.
 * if (events.filter((e) => e.type === "report").length !== 12 * 15) throw new Error();
 * ```
 * @throws {TypeError} When the episode names LLM agents and no agents are given; any error of a config that could not start.
 */
export function playGridEpisode(
  episode: GridEpisode,
  options: PlayGridEpisodeOptions = {},
): Promise<EngineEvent[]> {
  return withRunner(
    episode,
    options.agents,
    (runner, agents) => runner.play(episode, agents),
    (err) => err.events,
  );
}

/**
 * Plays one episode of a grid with its game's runner and keeps no log
 * (`EpisodeRunner.playUnlogged`, or `play` for a runner without it): for
 * counting what its agents are asked. A crash ends the episode, as in a
 * run, and is not an error here.
 *
 * @example
 * ```ts
 * import { playGridUnlogged } from "./runners.ts";
 * import { mockPopulation } from "../agents/mock/population.ts";
 * let calls = 0;
 * const always = mockPopulation({ depositors: "always_stay" });
 * await playGridUnlogged({
 *   id: "ep", index: 0, run: "demo", cell: "c", replicate: 0, seed: 1,
 *   condition: { game: "frail", env: "bank_run", mechanism: "M0", regime: "stable", params: {} },
 *   agents: { kind: "mock", mock: {} },
 * }, { agents: (p) => { const a = always(p); return { ...a, decide: (r) => (calls++, a.decide(r)) }; } });
 * // M0: 15 withdrawal calls a round for 12 rounds.
 * if (calls !== 12 * 15) throw new Error(String(calls));
 * ```
 * @throws {TypeError} When the episode names LLM agents and no agents are given; any error of a config that could not start.
 */
export function playGridUnlogged(
  episode: GridEpisode,
  options: PlayGridEpisodeOptions = {},
): Promise<void> {
  return withRunner(episode, options.agents, async (runner, agents) => {
    if (runner.playUnlogged) await runner.playUnlogged(episode, agents);
    else await runner.play(episode, agents);
  }, () => {});
}

/** The game a (non-branch) cell plays. */
function cellGame(condition: CellCondition): GameDescriptor {
  return gameDescriptor(cellGameId(condition));
}

/** The `mock` options of an agents entry (`{}` for an entry without them). */
function mockOptionsOf(agents: GridEpisode["agents"]): Readonly<Record<string, unknown>> {
  return ("mock" in agents && agents.mock ? agents.mock : {}) as Readonly<Record<string, unknown>>;
}

/**
 * Plays one episode of a game with complete logging (hashes and checkpoint
 * states): its log text only (`"text"`) or its events (`"events"`); or
 * with none (`"none"`).
 */
function playCell(ep: GridEpisode, agents: GridAgentFactory, log: "text" | "events" | "none") {
  const game = cellGame(ep.condition);
  return playGame(game, ep.condition as unknown as Record<string, unknown>, {
    seed: ep.seed,
    agents,
    models: game.players?.policy(ep.agents),
    run: ep.run,
    episode: ep.id,
    hashes: log !== "none",
    ndjson: log === "text",
    events: log === "events",
  });
}

/**
 * The runner of every game's cells, through its descriptor.
 *
 * @example
 * ```ts
 * import { gameRunner } from "./runners.ts";
 * const episode = {
 *   id: "ep", index: 0, run: "demo", cell: "c", replicate: 0, seed: 3,
 *   condition: { game: "staghunt", N: 3, M: 2, T: 2, F: 1, corruption: "base", heterogeneity: "h1",
 *     payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 } },
 *   agents: { kind: "mock", mock: { players: "always_stag" } },
 * } as const;
 * const events = await gameRunner.play(episode, gameRunner.mockAgents(episode));
 * if (events.filter((e) => e.type === "turn").length !== 6) throw new Error();
 * // The same log as the text the grid writes.
 * const { text, tally } = await gameRunner.playText!(episode, gameRunner.mockAgents(episode));
 * // A line per event after the block header, and the final newline.
 * if (text.split("\n").length !== events.length + 2 || tally.last?.type !== "episode_end") throw new Error();
 * ```
 */
export const gameRunner: EpisodeRunner = {
  check({ condition, agents }, options = {}) {
    const game = cellGame(condition);
    game.setup(condition as unknown as Record<string, unknown>);
    // Mock options the game refuses are refused before any episode starts.
    if (agents.kind === "mock" && (options.agents ?? true)) {
      game.mockAgents({ seed: 0, ...mockOptionsOf(agents) });
    }
  },
  mockAgents(ep) {
    return cellGame(ep.condition).mockAgents({ seed: ep.seed, ...mockOptionsOf(ep.agents) });
  },
  async play(ep, agents): Promise<EngineEvent[]> {
    return (await playCell(ep, agents, "events")).played.events;
  },
  async playText(ep, agents): Promise<PlayedText> {
    return playedText((await playCell(ep, agents, "text")).played);
  },
  async playUnlogged(ep, agents): Promise<void> {
    await playCell(ep, agents, "none");
  },
};

/**
 * The runner of a cell's condition: the branch runner for a branch block's
 * cells, else {@linkcode gameRunner}.
 *
 * @example
 * ```ts
 * import { episodeRunner, gameRunner } from "./runners.ts";
 * const condition = { game: "frail", env: "bank_run", mechanism: "M0", regime: "stable", params: {} } as const;
 * if (episodeRunner(condition) !== gameRunner) throw new Error();
 * try {
 *   episodeRunner({ ...condition, env: "chess" as "bank_run" }).check({ condition: { ...condition, env: "chess" as "bank_run" }, agents: { kind: "mock", mock: {} } });
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e as Error).message.startsWith('Unknown game "chess"')) throw e;
 * }
 * ```
 */
export function episodeRunner(condition: CellCondition): EpisodeRunner {
  return condition.game === "branch" ? branchRunner : gameRunner;
}

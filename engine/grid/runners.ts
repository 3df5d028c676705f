/**
 * The episode-runner registry: how a grid plays one episode of each game.
 * FRAIL (`runEpisode`) and the Stag Hunt (`runStagHuntEpisode`) are
 * registered when this module loads; a runner registered at run time is seen
 * by in-process runs, and by worker runs when the module that registers it is
 * listed in `RunGridOptions.runnerModules`. {@linkcode playGridEpisode} is
 * the one place that picks an episode's agents and turns a crash into its log.
 *
 * @module
 */
import { EpisodeError } from "../core/episode.ts";
import { type EpisodeTally, tallyEvents } from "../core/event_recorder.ts";
import type { EngineEvent } from "../core/events.ts";
import type { GridEpisode } from "./cell.ts";
import { branchRunner } from "./branch_block.ts";
import { frailRunner } from "./frail_runner.ts";
import { type GameId, modelsOf } from "./spec.ts";
import { stagHuntRunner } from "./staghunt_runner.ts";
import type { EpisodeRunner, GridAgentFactory, GridPlayer, PlayedText } from "./episode_runner.ts";

export type { EpisodeRunner, GridAgentFactory, GridPlayer, PlayedText };

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
export async function playGridLog(
  episode: GridEpisode,
  options: PlayGridLogOptions = {},
): Promise<GridLog> {
  const runner = episodeRunner(episode.condition.game);
  const agents = agentsOf(runner, episode, options.agents);
  try {
    if (options.text && runner.playText) return await runner.playText(episode, agents);
    const events = await runner.play(episode, agents);
    return { events, tally: tallyEvents(events) };
  } catch (err) {
    if (!(err instanceof EpisodeError)) throw err;
    if (options.text && err.ndjson !== undefined && err.tally !== undefined) {
      return { text: err.ndjson, tally: err.tally };
    }
    return { events: err.events, tally: tallyEvents(err.events) };
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
export async function playGridEpisode(
  episode: GridEpisode,
  options: PlayGridEpisodeOptions = {},
): Promise<EngineEvent[]> {
  const runner = episodeRunner(episode.condition.game);
  const agents = agentsOf(runner, episode, options.agents);
  try {
    return await runner.play(episode, agents);
  } catch (err) {
    if (err instanceof EpisodeError) return err.events;
    throw err;
  }
}

const RUNNERS = new Map<string, EpisodeRunner>([
  ["frail", frailRunner],
  ["staghunt", stagHuntRunner],
  ["branch", branchRunner],
]);

/**
 * Registers (or replaces) the runner of a game.
 *
 * @example
 * ```ts
 * import { episodeRunner, registerEpisodeRunner } from "./runners.ts";
 * const frail = episodeRunner("frail");
 * registerEpisodeRunner("frail", frail);
 * ```
 */
export function registerEpisodeRunner(game: GameId, runner: EpisodeRunner): void {
  RUNNERS.set(game, runner);
}

/**
 * The runner of a game.
 *
 * @example
 * ```ts
 * import { episodeRunner } from "./runners.ts";
 * episodeRunner("staghunt").check({
 *   condition: { game: "staghunt", N: 5, M: 3, T: 4, F: 2, corruption: "base", heterogeneity: "h1",
 *     payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 } },
 *   agents: { kind: "mock", mock: {} },
 * });
 * ```
 * @throws {RangeError} For a game without a runner, listing those with one.
 */
export function episodeRunner(game: string): EpisodeRunner {
  const r = RUNNERS.get(game);
  if (!r) {
    throw new RangeError(
      `No episode runner for game "${game}": registered ${
        [...RUNNERS.keys()].map((g) => `"${g}"`).join(", ")
      } (add one with registerEpisodeRunner)`,
    );
  }
  return r;
}

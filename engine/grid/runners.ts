/**
 * The episode-runner registry: how a grid plays one episode of each game.
 * FRAIL (`runEpisode`) and the Stag Hunt (`runStagHuntEpisode`) are
 * registered when this module loads; a runner registered at run time is seen
 * by in-process runs, and by worker runs when the module that registers it is
 * listed in `RunGridOptions.runnerModules`.
 *
 * @module
 */
import type { Agent } from "../agents/agent.ts";
import type { EngineEvent } from "../core/events.ts";
import type { GridCell, GridEpisode } from "./cells.ts";
import { frailRunner } from "./frail_runner.ts";
import type { GameId } from "./spec.ts";
import { stagHuntRunner } from "./staghunt_runner.ts";

/** What an agent factory of a grid is told about a player (`index` and `model` for the Stag Hunt). */
export interface GridPlayer {
  /** Player id. */
  id: string;
  /** Role. */
  role: string;
  /** Speaking index from 0 (Stag Hunt). */
  index?: number;
  /** The model the heterogeneity policy assigned (Stag Hunt). */
  model?: string;
}

/** Builds the agent of a player; works for both games. */
export type GridAgentFactory = (player: GridPlayer) => Agent;

/** Options of {@linkcode EpisodeRunner.play}. */
export interface EpisodeRunnerOptions {
  /** Agents. Default: the rule-based agents of the episode's `mock` entry. */
  agents?: GridAgentFactory;
}

/** Plays one game's episodes for a grid. */
export interface EpisodeRunner {
  /** Throws a `RangeError` when the cell cannot run in this build (unknown environment, bad parameters). */
  check(cell: Pick<GridCell, "condition" | "agents">): void;
  /**
   * Plays one episode and returns its complete log, ending in `episode_end`
   * (of status `"error"` when the episode crashed). Throws only for a config
   * it could not start.
   */
  play(episode: GridEpisode, options?: EpisodeRunnerOptions): Promise<EngineEvent[]>;
}

const RUNNERS = new Map<string, EpisodeRunner>([
  ["frail", frailRunner],
  ["staghunt", stagHuntRunner],
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

/**
 * What a grid's episode runner is: the interface the one runner of every game
 * (`gameRunner`, runners.ts) and the runner of branch blocks implement, and
 * what they play with and give back.
 *
 * @module
 */
import type { Agent } from "../core/agent.ts";
import type { EpisodeTally } from "../core/event_recorder.ts";
import type { EngineEvent } from "../core/events.ts";
import type { PlayerInfo } from "../core/game.ts";
import type { GridCell, GridEpisode } from "./cell.ts";

/** What an agent factory of a grid is told about a player (`index` and `model` for the Stag Hunt). */
export type GridPlayer = PlayerInfo;

/** Builds the agent of a player; works for every game. */
export type GridAgentFactory = (player: GridPlayer) => Agent;

/** Plays one game's episodes for a grid. */
export interface EpisodeRunner {
  /** Throws a `RangeError` when the cell cannot run in this build (unknown environment, bad parameters). */
  check(
    cell: Pick<GridCell, "condition" | "agents" | "parents">,
    options?: { agents?: boolean },
  ): void;
  /**
   * The rule-based agents of an episode, seeded with its seed: those of its
   * `mock` entry, or the game's defaults for an entry that names models (the
   * stand-ins of a dry run).
   */
  mockAgents(episode: GridEpisode): GridAgentFactory;
  /**
   * Plays one episode with these agents and returns its log; throws an
   * `EpisodeError` (carrying the log) when the episode crashed, any other
   * error for a config it could not start.
   */
  play(episode: GridEpisode, agents: GridAgentFactory): Promise<EngineEvent[]>;
  /**
   * Plays one episode with these agents and returns its log as the engine
   * built its text, with the tally that summarises it, without building its
   * events (what the grid writes). Optional: without it the grid writes
   * what `play` returns. Throws as `play` does; a crash's `EpisodeError`
   * carries the text (`ndjson`) and the tally.
   */
  playText?(episode: GridEpisode, agents: GridAgentFactory): Promise<PlayedText>;
  /**
   * Plays one episode with these agents and keeps no log (no events, hashes
   * or text): what counts the calls its agents get (the estimate) needs,
   * since the log never changes what they are asked. Optional: without it
   * the episode is played by `play`. Throws as `play` does.
   */
  playUnlogged?(episode: GridEpisode, agents: GridAgentFactory): Promise<void>;
}

/** An episode's log as text, and its tally (see `EpisodeTally`). */
export interface PlayedText {
  /** The NDJSON lines, from `episode_start` to `episode_end`. */
  readonly text: string;
  /** The same lines as UTF-8, as the engine encoded them (what the grid writes), when it has them. */
  readonly bytes?: Uint8Array;
  /** The log at a glance. */
  readonly tally: EpisodeTally;
}

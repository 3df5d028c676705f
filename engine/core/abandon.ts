/**
 * `EpisodeAbandoned`: what an agent throws when its episode must not go on
 * and must not be logged, because the run is stopping (a budget that cannot
 * cover the next call, a response cache that cannot be written, a signal).
 *
 * Unlike any other agent failure, which gives the decision its neutral
 * default and ends the episode `"degraded"`, an abandonment passes through
 * the round loop: the calls of the same step already in flight are awaited
 * first (so their paid replies are counted and cached), then the episode
 * stops without an `episode_end`, the grid writes no log for it, and a resume
 * plays it again from the start (its earlier calls then come from the cache).
 *
 * @module
 */

/**
 * Thrown by an agent (or the LLM runtime under it) when its episode is
 * abandoned: the round loop rethrows it as it is, and the grid does not log
 * the episode.
 *
 * @example
 * ```ts
 * import { EpisodeAbandoned, isEpisodeAbandoned } from "./abandon.ts";
 * const e = new EpisodeAbandoned("Cost budget reached");
 * if (!isEpisodeAbandoned(e) || e.name !== "EpisodeAbandoned") throw new Error();
 * if (isEpisodeAbandoned(new Error("x"))) throw new Error();
 * ```
 */
export class EpisodeAbandoned extends Error {
  /** Creates the error; `message` says why the run stopped. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "EpisodeAbandoned";
  }
}

/**
 * Whether a value is an {@linkcode EpisodeAbandoned} (also across realms and
 * structured clones, by name).
 *
 * @example
 * ```ts
 * import { EpisodeAbandoned, isEpisodeAbandoned } from "./abandon.ts";
 * if (!isEpisodeAbandoned(new EpisodeAbandoned("stop"))) throw new Error();
 * ```
 */
export function isEpisodeAbandoned(err: unknown): err is EpisodeAbandoned {
  return err instanceof EpisodeAbandoned ||
    (err instanceof Error && err.name === "EpisodeAbandoned");
}

/**
 * What a game's batched path returns (`BatchedPlay` in `game.ts`): a played
 * episode that kept nothing but its outcome, built as `playEpisode` builds
 * it with no events, hashes or text asked: the outcome with the bounds and
 * the welfare realization, empty events and hashes, the tally of the log the
 * general path would have counted, and the final state, built when first
 * read.
 *
 * @module
 */
import type { EpisodeTally } from "./event_recorder.ts";
import type { EngineEvent, EpisodeOutcome } from "./events.ts";
import { episodeOutcome } from "./episode_outcome.ts";

/**
 * Which path played an episode: `"general"`, the round loop of
 * `playEpisode` (requests, views, replies, reports, events), or `"batched"`,
 * a game's batched path (`BatchedPlay`), which gives the same outcome.
 *
 * @example
 * ```ts
 * import type { EpisodePath } from "./batched.ts";
 * const path: EpisodePath = "batched";
 * if (path !== "batched") throw new Error();
 * ```
 */
export type EpisodePath = "general" | "batched";

/**
 * What a batched path played (a `PlayedEpisode` of `episode.ts` with nothing
 * recorded): the outcome, `events` and `hashes` empty, the tally the general
 * path would have counted (its reports, no model calls, the `episode_end`),
 * and the general path's final state.
 */
export interface BatchedEpisode<S> {
  /** Outcome with welfare and its realization. */
  readonly outcome: EpisodeOutcome;
  /** Empty: nothing is recorded. */
  readonly events: EngineEvent[];
  /** Empty: nothing is hashed. */
  readonly hashes: string[];
  /** Its reports, no model calls, and its `episode_end`. */
  readonly tally: EpisodeTally;
  /** The final state (built when first read). */
  readonly state: S;
}

/** Options of {@linkcode batchedEpisode}. */
export interface BatchedEpisodeOptions<S> {
  /** The agent reports the general path would have recorded (`EpisodeTally.reports`). */
  reports: number;
  /** Builds the final state; called once, when `state` is first read. */
  state: () => S;
}

/**
 * The played episode of a batched path, from the environment's final
 * settlement (`Environment.finish`'s outcome) and the parameters' bounds:
 * the outcome gets the bounds and the welfare realization exactly as
 * `playEpisode` adds them (truncated at 1, float dust within 1e-9 of 0 or 1
 * read as 0 or 1), and the tally ends with the `"ok"` `episode_end` (mock
 * agents never fail).
 *
 * @example
 * ```ts
 * import { batchedEpisode } from "./batched.ts";
 * const played = batchedEpisode(
 *   { success: true, failure: null, rounds: 1, payoffs: { a: 2 }, welfare: 2 },
 *   { worst: 1, best: 3 },
 *   { reports: 1, state: () => ({ done: true }) },
 * );
 * if (played.outcome.welfareRealization !== 0.5 || played.events.length !== 0) throw new Error();
 * if (played.tally.reports !== 1 || played.tally.last?.type !== "episode_end" || !played.state.done) {
 *   throw new Error();
 * }
 * ```
 */
export function batchedEpisode<S>(
  fin: Omit<EpisodeOutcome, "bounds" | "welfareRealization">,
  bounds: { worst: number; best: number },
  options: BatchedEpisodeOptions<S>,
): BatchedEpisode<S> {
  const outcome = episodeOutcome(fin, bounds);
  return new Batched(outcome, options.reports, options.state);
}

/** A batched episode's result: a class, so its getters sit on the prototype (see `Played`). */
class Batched<S> implements BatchedEpisode<S> {
  readonly tally: EpisodeTally;
  /** Empty: a batched episode hashes nothing. */
  readonly hashes: string[] = [];
  #build: (() => S) | undefined;
  #state: S | undefined;
  constructor(readonly outcome: EpisodeOutcome, reports: number, build: () => S) {
    this.tally = {
      reports,
      llmCalls: [],
      last: { type: "episode_end", status: "ok", outcome },
    };
    this.#build = build;
  }
  /** Empty: a batched episode keeps no events. */
  get events(): EngineEvent[] {
    return [];
  }
  /** The final state, built when first read. */
  get state(): S {
    if (this.#build) {
      this.#state = this.#build();
      this.#build = undefined;
    }
    return this.#state!;
  }
  /** The result as plain data, as `playEpisode`'s gives it (`events` empty). */
  toJSON(): object {
    return { outcome: this.outcome, state: this.state, hashes: this.hashes, events: this.events };
  }
}

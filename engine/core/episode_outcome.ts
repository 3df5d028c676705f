/**
 * An episode's outcome from its game's: the bounds and the welfare
 * realization added. One rule for every path that plays an episode (the
 * round loop, `episode.ts`, and a game's batched path, `batched.ts`).
 *
 * @module
 */
import type { EpisodeOutcome } from "./events.ts";

/**
 * The episode's outcome: the game's with the bounds and the welfare
 * realization W~ = (W - worst) / (best - worst), truncated at 1 (Appendix
 * D.3); float dust within 1e-9 of 0 or 1 (W is a sum of payoffs, the bounds
 * closed forms) is read as 0 or 1. A function of its own, not inlined in the
 * round loop: the games' outcomes and bounds share their shapes with integer
 * fields in one game and fractional ones in another, and V8's property reads
 * of them kept missing their cache once several games had run, which reset
 * the optimisation of the function holding them on every episode
 * (`playEpisode` stayed unoptimised).
 *
 * @example
 * ```ts
 * import { episodeOutcome } from "./episode_outcome.ts";
 * const game = { success: true, failure: null, rounds: 3, payoffs: { a: 15 }, welfare: 15 };
 * const o = episodeOutcome(game, { worst: 10, best: 20 });
 * if (o.welfareRealization !== 0.5 || o.bounds.best !== 20) throw new Error();
 * const top = episodeOutcome({ ...game, welfare: 20 - 1e-12 }, { worst: 10, best: 20 });
 * if (top.welfareRealization !== 1) throw new Error();
 * ```
 */
export function episodeOutcome(
  game: Omit<EpisodeOutcome, "bounds" | "welfareRealization">,
  bounds: { worst: number; best: number },
): EpisodeOutcome {
  const { worst, best } = bounds;
  const raw = (game.welfare - worst) / (best - worst);
  return {
    ...game,
    bounds,
    welfareRealization: raw > 1 - 1e-9 ? 1 : Math.abs(raw) < 1e-9 ? 0 : raw,
  };
}

/**
 * Per-episode quantities derived from the `rounds` frame (disclosure
 * metrics), shared by the FRAIL tables and figures: final cumulative exits,
 * the first launch round, and committed shares of initial funding.
 *
 * Choices:
 * - An episode's final value of a cumulative metric is its value in the
 *   last disclosed round.
 * - The launch round is the first round whose `launched` metric is at least
 *   1; an episode never launched has none.
 * - A committed share is the `committed` metric divided by the episode's
 *   `funding` (total initial funding, see `env_profiles.ts`). Baseline (M0)
 *   episodes have no commitment channel: their share is 0 whatever the log
 *   says.
 *
 * @module
 */

import pl from "npm:nodejs-polars@0.25.2";
import { requireColumns } from "../stats.ts";

/**
 * Columns identifying an episode across frames.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EPISODE_ID } from "./episode_measures.ts";
 *
 * assert.deepEqual(EPISODE_ID, ["run", "episode"]);
 * ```
 */
export const EPISODE_ID: readonly string[] = ["run", "episode"];

/**
 * The value of `metric` in each episode's last disclosed round.
 *
 * @param rounds The `rounds` frame of `loadRuns()`.
 * @param metric A metric column, e.g. `"cumulative_withdrawn"`.
 * @returns Columns `run`, `episode`, `last_round` and `metric` (named after
 * the metric); episodes whose metric is null throughout are left out.
 * @throws {RangeError} If `rounds` lacks the metric column.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { finalMetric } from "./episode_measures.ts";
 *
 * const rounds = pl.DataFrame({
 *   run: ["r", "r", "r"], episode: ["a", "a", "b"], round: [1, 2, 1],
 *   cumulative_withdrawn: [2, 5, 0],
 * });
 * const out = finalMetric(rounds, "cumulative_withdrawn").sort("episode").toRecords();
 * assert.deepEqual(out.map((r) => [r.episode, r.last_round, r.cumulative_withdrawn]), [
 *   ["a", 2, 5],
 *   ["b", 1, 0],
 * ]);
 * ```
 */
export function finalMetric(rounds: pl.DataFrame, metric: string): pl.DataFrame {
  requireColumns(rounds, [...EPISODE_ID, "round", metric], "finalMetric()");
  return rounds.filter(pl.col(metric).isNotNull())
    .sort([...EPISODE_ID, "round"])
    .groupBy([...EPISODE_ID])
    .agg(pl.col("round").last().alias("last_round"), pl.col(metric).last().alias(metric));
}

/**
 * The first round in which each episode's `launched` metric is at least 1.
 *
 * @param rounds The `rounds` frame, with a `launched` column.
 * @param metric The launch metric.
 * @returns Columns `run`, `episode`, `launch_round` for launched episodes
 * only.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { launchRounds } from "./episode_measures.ts";
 *
 * const rounds = pl.DataFrame({
 *   run: ["r", "r", "r", "r"], episode: ["a", "a", "a", "b"], round: [1, 2, 3, 1],
 *   launched: [0, 1, 1, 0],
 * });
 * assert.deepEqual(launchRounds(rounds).toRecords(), [{ run: "r", episode: "a", launch_round: 2 }]);
 * ```
 */
export function launchRounds(rounds: pl.DataFrame, metric = "launched"): pl.DataFrame {
  if (!rounds.columns.includes(metric)) {
    return pl.DataFrame([
      pl.Series("run", [], pl.Utf8),
      pl.Series("episode", [], pl.Utf8),
      pl.Series("launch_round", [], pl.Int32),
    ]);
  }
  requireColumns(rounds, [...EPISODE_ID, "round"], "launchRounds()");
  return rounds.filter(pl.col(metric).gtEq(1))
    .groupBy([...EPISODE_ID])
    .agg(pl.col("round").min().cast(pl.Int32).alias("launch_round"))
    .sort([...EPISODE_ID]);
}

/**
 * Committed share of initial funding per episode and round: `committed /
 * funding`, and 0 for baseline (M0) episodes.
 *
 * @param rounds The `rounds` frame (with `mechanism` and `committed`).
 * @param episodes The `episodes` frame (with `funding`).
 * @returns `rounds`' episode keys and `round`, plus `committed` and
 * `committed_share`.
 * @throws {RangeError} If a needed column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { committedShares } from "./episode_measures.ts";
 *
 * const rounds = pl.DataFrame({
 *   run: ["r", "r"], episode: ["a", "b"], mechanism: ["M3", "M0"], round: [1, 1],
 *   committed: [6, 4],
 * });
 * const episodes = pl.DataFrame({ run: ["r", "r"], episode: ["a", "b"], funding: [15, 15] });
 * const shares = committedShares(rounds, episodes).sort("episode").getColumn("committed_share");
 * assert.deepEqual(shares.toArray(), [0.4, 0]);
 * ```
 */
export function committedShares(rounds: pl.DataFrame, episodes: pl.DataFrame): pl.DataFrame {
  requireColumns(rounds, [...EPISODE_ID, "mechanism", "round", "committed"], "committedShares()");
  requireColumns(episodes, [...EPISODE_ID, "funding"], "committedShares()");
  return rounds.select(
    ...EPISODE_ID.map((name) => pl.col(name)),
    pl.col("mechanism"),
    pl.col("round"),
    pl.col("committed"),
  )
    .join(episodes.select(...EPISODE_ID.map((name) => pl.col(name)), pl.col("funding")), {
      on: [...EPISODE_ID],
      how: "left",
    })
    .withColumns(
      pl.when(pl.col("mechanism").eq(pl.lit("M0"))).then(pl.lit(0))
        .otherwise(pl.col("committed").fillNull(0).div(pl.col("funding")))
        .cast(pl.Float64)
        .alias("committed_share"),
    )
    .drop("funding");
}

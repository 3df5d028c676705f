/**
 * FRAIL Figure 3b: the six-dimension mechanism scorecard of Appendix H.3,
 * each dimension oriented so that larger is better. Per-model means are
 * first taken within each environment over its episodes; then:
 * - `welfare`: mean W~, averaged over models and environments;
 * - `success`: mean success, averaged over models and environments;
 * - `central_payoff`: the central player's normalized payoff, averaged over
 *   models and environments;
 * - `consistency`: one minus the (sample) standard deviation of the model
 *   means of W~ within an environment, averaged over environments;
 * - `weakest_welfare`: the minimum over environments of the environment's
 *   mean W~ (mean of its model means);
 * - `early_participation`: the committed share of initial funding in the
 *   first two rounds (mean of the round-1 and round-2 shares of an
 *   episode, over the rounds it played), averaged over episodes, models and
 *   environments; M0 scores 0.
 *
 * The scorecard pools environments and models by design; every other
 * condition key splits it: one scorecard per regime, parameter override set
 * and mechanism (override sets are per environment, so a set pools only the
 * environments that ran it).
 *
 * Choices: "averaged over models and environments" is the unweighted mean
 * of the (environment, model) means; the central player's normalized payoff
 * is defined in `env_profiles.ts`; only episodes with `status` `ok` (and
 * `degraded` when asked) count.
 *
 * @module
 */

import pl from "npm:nodejs-polars@0.25.2";
import { countedEpisodes, type EpisodeStatusOptions } from "../conditions.ts";
import { requireColumns } from "../stats.ts";
import { committedShares, EPISODE_ID } from "./episode_measures.ts";
import { cellKeysOf, sortCells } from "./welfare_table.ts";

/** Options for {@linkcode scorecard}. */
export type ScorecardOptions = EpisodeStatusOptions;

/**
 * The six dimensions, in the paper's order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SCORECARD_DIMENSIONS } from "./scorecard.ts";
 *
 * assert.equal(SCORECARD_DIMENSIONS.length, 6);
 * ```
 */
export const SCORECARD_DIMENSIONS: readonly string[] = [
  "welfare",
  "success",
  "central_payoff",
  "consistency",
  "weakest_welfare",
  "early_participation",
];

/**
 * Display names of the dimensions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SCORECARD_LABELS } from "./scorecard.ts";
 *
 * assert.equal(SCORECARD_LABELS.weakest_welfare, "Weakest welfare");
 * ```
 */
export const SCORECARD_LABELS: Readonly<Record<string, string>> = {
  welfare: "Social welfare",
  success: "Success rate",
  central_payoff: "Central-player welfare",
  consistency: "Cross-model consistency",
  weakest_welfare: "Weakest welfare",
  early_participation: "Early participation",
};

/**
 * Each episode's early participation: its mean committed share over rounds
 * 1 and 2 (0 under M0).
 *
 * @param episodes The `episodes` frame of `loadRuns()`.
 * @param rounds The `rounds` frame of `loadRuns()`.
 * @returns Columns `run`, `episode`, `early_participation`; episodes
 * without a disclosed round 1 or 2 get null.
 *
 * @example Committed 3 then 9 of 15 units
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { earlyParticipation } from "./scorecard.ts";
 *
 * const episodes = pl.DataFrame({ run: ["r"], episode: ["a"], funding: [15] });
 * const rounds = pl.DataFrame({
 *   run: ["r", "r", "r"], episode: ["a", "a", "a"], mechanism: ["M2", "M2", "M2"],
 *   round: [1, 2, 3], committed: [3, 9, 15],
 * });
 * const [row] = earlyParticipation(episodes, rounds).toRecords();
 * assert.equal((row.early_participation as number).toFixed(3), "0.400");
 * ```
 */
export function earlyParticipation(episodes: pl.DataFrame, rounds: pl.DataFrame): pl.DataFrame {
  const shares = committedShares(rounds.filter(pl.col("round").ltEq(2)), episodes);
  return episodes.select(...EPISODE_ID.map((name) => pl.col(name)))
    .join(
      shares.groupBy([...EPISODE_ID]).agg(
        pl.col("committed_share").mean().alias("early_participation"),
      ),
      { on: [...EPISODE_ID], how: "left" },
    );
}

/**
 * The mechanism scorecard of FRAIL Figure 3b.
 *
 * @param episodes The `episodes` frame of `loadRuns()` (with
 * `central_payoff_normalized`).
 * @param rounds The `rounds` frame of `loadRuns()` (with `committed`).
 * @param options Whether degraded episodes count.
 * @returns Columns `regime`, `overrides_id` (when the frame has it),
 * `mechanism`, `dimension`, `value`: six rows per regime, override set and
 * mechanism, dimensions in the paper's order.
 * @throws {RangeError} If a needed column is missing.
 *
 * @example Two environments, one model, M0 only
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { scorecard } from "./scorecard.ts";
 *
 * const episodes = pl.DataFrame({
 *   run: ["r", "r"], episode: ["a", "b"], env: ["bank_run", "debt_rollover"],
 *   regime: ["stable", "stable"], mechanism: ["M0", "M0"], model: ["m", "m"],
 *   status: ["ok", "ok"], success: [true, false], welfare_realization: [1, 0.2],
 *   central_payoff_normalized: [1, 0], funding: [15, 8],
 * });
 * const rounds = pl.DataFrame({
 *   run: ["r", "r"], episode: ["a", "b"], mechanism: ["M0", "M0"], round: [1, 1],
 *   committed: [0, 0],
 * });
 * const card = Object.fromEntries(
 *   scorecard(episodes, rounds).toRecords().map((r) => [r.dimension, r.value]),
 * );
 * assert.equal(card.welfare, 0.6);
 * assert.equal(card.success, 0.5);
 * assert.equal(card.weakest_welfare, 0.2);
 * assert.equal(card.consistency, null); // one model: no spread to measure
 * assert.equal(card.early_participation, 0);
 * ```
 */
export function scorecard(
  episodes: pl.DataFrame,
  rounds: pl.DataFrame,
  options: ScorecardOptions = {},
): pl.DataFrame {
  const keys = cellKeysOf(episodes, "scorecard()");
  const card = keys.filter((key) => key !== "env");
  requireColumns(
    episodes,
    [
      ...EPISODE_ID,
      "model",
      "status",
      "success",
      "welfare_realization",
      "central_payoff_normalized",
      "funding",
    ],
    "scorecard()",
  );
  const ok = countedEpisodes(episodes, { ...options, game: "frail" });
  const withEarly = ok.join(earlyParticipation(ok, rounds), { on: [...EPISODE_ID], how: "left" })
    .withColumns(
      pl.when(pl.col("mechanism").eq(pl.lit("M0"))).then(pl.lit(0))
        .otherwise(pl.col("early_participation")).cast(pl.Float64).alias("early_participation"),
    );
  // Each stage's groups are sorted before the next averages them: Polars
  // returns groups in an order that varies from call to call, and a mean's
  // last digit depends on the order it sums in.
  const modelMeans = withEarly.groupBy([...keys, "model"]).agg(
    pl.col("welfare_realization").mean().alias("welfare"),
    pl.col("success").cast(pl.Float64).mean().alias("success"),
    pl.col("central_payoff_normalized").mean().alias("central_payoff"),
    pl.col("early_participation").mean().alias("early_participation"),
  ).sort([...keys, "model"]);
  const perEnv = modelMeans.groupBy(keys).agg(
    pl.col("welfare").mean().alias("env_welfare"),
    // Consistency across models needs two models: with one it is null, not 1.
    pl.lit(1).sub(pl.col("welfare").std()).alias("env_consistency"),
  ).sort(keys);
  const pooled = modelMeans.groupBy(card).agg(
    pl.col("welfare").mean().alias("welfare"),
    pl.col("success").mean().alias("success"),
    pl.col("central_payoff").mean().alias("central_payoff"),
    pl.col("early_participation").mean().alias("early_participation"),
  );
  const envLevel = perEnv.groupBy(card).agg(
    pl.col("env_consistency").mean().alias("consistency"),
    pl.col("env_welfare").min().alias("weakest_welfare"),
  );
  const wide = pooled.join(envLevel, { on: card });
  const long = pl.concat(
    SCORECARD_DIMENSIONS.map((dimension, index) =>
      wide.select(
        ...card.map((key) => pl.col(key)),
        pl.lit(dimension).alias("dimension"),
        pl.col(dimension).cast(pl.Float64).alias("value"),
        pl.lit(index).alias("__order"),
      )
    ),
    { how: "vertical" },
  );
  return sortCells(long, ["__order"])
    .select(...[...card, "dimension", "value"].map((c) => pl.col(c)));
}

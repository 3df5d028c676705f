/**
 * FRAIL Figure 6 and the 82% / 37% comparison of Section 4.2 (Appendix
 * I.1): episodes binned by their maximum committed share in rounds 1-3.
 *
 * - An episode's early share is the maximum over rounds 1-3 of its committed
 *   share of initial funding; baseline (M0) episodes count as 0.
 * - Five equal-width bins of width 0.2: [0, 0.2), [0.2, 0.4), ..., [0.8,
 *   1.0] (the last one closed).
 * - The outcome is success (0/1) in the bank run and debt rollover and the
 *   launch round in crowdfunding, 10 for an episode that never launches.
 * - Bin points are means with 95% normal-approximation confidence intervals
 *   across the episodes in the bin, with their number n. The interval of a
 *   success rate is cut to [0, 1] (a rate cannot leave it; the normal
 *   approximation can, e.g. 2 successes in 11 give 0.182 ± 0.239); that of
 *   a launch round is not cut.
 *
 * Conditions: the per-episode frame carries every condition key. The bins
 * and the comparison pool mechanisms (and models) by design, as the paper
 * does; they take `by` to split further and refuse a frame that mixes
 * regimes or parameter override sets they were not told to split (see
 * `analysis/conditions.ts`).
 *
 * Choices: shares are computed as `floor(share · 5 + 1e-9)` so that a share
 * of exactly 0.6 falls in [0.6, 0.8) despite floating point; the comparison
 * pools every environment in the frame (pass `by: ["env"]` to split it) and
 * counts crowdfunding launches as successes; only episodes with `status`
 * `ok` (and `degraded` when asked) count.
 *
 * @module
 */

import pl from "npm:nodejs-polars@0.25.2";
import {
  assertSingleCondition,
  countedEpisodes,
  type EpisodeStatusOptions,
  FRAIL_CONDITION_KEYS,
} from "../conditions.ts";
import { ciAggregations, type MeanCiOptions, requireColumns, wilson } from "../stats.ts";
import { ENV_PROFILES } from "./env_profiles.ts";
import { committedShares, EPISODE_ID, launchRounds } from "./episode_measures.ts";
import { cellKeysOf, sortCells } from "./welfare_table.ts";

/** Environments whose Figure 6 outcome is success (0/1): those without a launch. */
const SUCCESS_ENVS = Object.values(ENV_PROFILES).filter((p) => p.launchMetric === null)
  .map((p) => p.env);

/** Options for {@linkcode earlyCommitment}. */
export interface EarlyCommitmentOptions extends EpisodeStatusOptions {
  /**
   * The early window: rounds 1 to this round.
   *
   * @default {3}
   */
  rounds?: number;
  /**
   * Number of equal-width bins over [0, 1].
   *
   * @default {5}
   */
  bins?: number;
  /**
   * Launch round recorded for crowdfunding episodes that never launch.
   *
   * @default {10}
   */
  neverLaunchedRound?: number;
}

/**
 * Each episode's early committed share, bin and outcome.
 *
 * @param episodes The `episodes` frame of `loadRuns()`.
 * @param rounds The `rounds` frame of `loadRuns()`.
 * @param options The early window, the number of bins, the launch round
 * of unlaunched episodes and whether degraded episodes count.
 * @returns Columns `run`, `episode`, `env`, `regime`, `overrides_id` (when
 * the frame has it), `mechanism`, `model`, `early_share`, `bin` (0-based),
 * `bin_start`, `bin_end`, `success` (0/1),
 * `launch_round` (crowdfunding only, else null) and `outcome` (the value
 * Figure 6 plots).
 * @throws {RangeError} If `rounds` or `bins` is not a positive integer, or a
 * needed column is missing.
 *
 * @example An M3 bank run that commits 6 of 15 units by round 2
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { earlyCommitment } from "./early_commitment.ts";
 *
 * const episodes = pl.DataFrame([{
 *   run: "r", episode: "a", env: "bank_run", regime: "stable", mechanism: "M3", model: "m",
 *   status: "ok", success: true, funding: 15,
 * }]);
 * const rounds = pl.DataFrame([1, 2, 3, 4].map((round) => ({
 *   run: "r", episode: "a", mechanism: "M3", round, committed: [3, 6, 4, 15][round - 1],
 * })));
 * const [row] = earlyCommitment(episodes, rounds).toRecords();
 * assert.equal(row.early_share, 0.4);
 * assert.equal(row.bin, 2);
 * assert.equal(row.outcome, 1);
 * ```
 */
export function earlyCommitment(
  episodes: pl.DataFrame,
  rounds: pl.DataFrame,
  options: EarlyCommitmentOptions = {},
): pl.DataFrame {
  const { rounds: window = 3, bins = 5, neverLaunchedRound = 10, includeDegraded } = options;
  for (const [name, value] of [["rounds", window], ["bins", bins]] as const) {
    if (!(Number.isInteger(value) && value > 0)) {
      throw new RangeError(
        `Early commitment ${name} must be a positive integer: received ${value}`,
      );
    }
  }
  const keys = [...EPISODE_ID, ...cellKeysOf(episodes, "earlyCommitment()"), "model"];
  requireColumns(episodes, [...keys, "status", "success", "funding"], "earlyCommitment()");
  const ok = countedEpisodes(episodes, { includeDegraded, game: "frail" });
  const early = committedShares(rounds.filter(pl.col("round").ltEq(window)), ok)
    .groupBy([...EPISODE_ID])
    .agg(pl.col("committed_share").max().alias("__share"));
  const launchEnvs = Object.values(ENV_PROFILES).filter((p) => p.launchMetric !== null)
    .map((p) => p.env);
  const launches = launchRounds(rounds);
  const bin = pl.col("early_share").mul(bins).add(1e-9).floor().clip(0, bins - 1).cast(pl.Int32);
  const isLaunchEnv = pl.col("env").isIn(launchEnvs);
  return sortCells(
    ok.select(
      ...keys.map((name) => pl.col(name)),
      pl.col("success"),
      pl.col("mechanism").alias("__m"),
    )
      .join(early, { on: [...EPISODE_ID], how: "left" })
      .join(launches, { on: [...EPISODE_ID], how: "left" })
      .withColumns(
        pl.when(pl.col("__m").eq(pl.lit("M0"))).then(pl.lit(0))
          .otherwise(pl.col("__share").fillNull(0)).cast(pl.Float64).alias("early_share"),
        pl.col("success").cast(pl.Int32).alias("success"),
        pl.when(isLaunchEnv).then(
          pl.col("launch_round").cast(pl.Float64).fillNull(neverLaunchedRound),
        ).otherwise(pl.lit(null).cast(pl.Float64)).alias("launch_round"),
      )
      .withColumns(bin.alias("bin"))
      .withColumns(
        pl.col("bin").cast(pl.Float64).div(bins).alias("bin_start"),
        pl.col("bin").add(1).cast(pl.Float64).div(bins).alias("bin_end"),
        pl.when(isLaunchEnv).then(pl.col("launch_round"))
          .otherwise(pl.col("success").cast(pl.Float64)).alias("outcome"),
      )
      .select(
        ...keys.map((name) => pl.col(name)),
        pl.col("early_share"),
        pl.col("bin"),
        pl.col("bin_start"),
        pl.col("bin_end"),
        pl.col("success"),
        pl.col("launch_round"),
        pl.col("outcome"),
      ),
    EPISODE_ID,
  );
}

/** Options for {@linkcode earlyCommitmentBins}. */
export interface EarlyCommitmentBinsOptions extends MeanCiOptions {
  /**
   * Whether baseline (M0) episodes are counted (in the lowest bin).
   *
   * @default {true}
   */
  includeBaseline?: boolean;
  /**
   * Columns to split the points by besides the environment, e.g.
   * `["regime"]`; a frame that mixes regimes or override sets not named here
   * is refused.
   *
   * @default {[]}
   */
  by?: readonly string[];
}

/**
 * The points of FRAIL Figure 6: per environment and bin, the mean outcome
 * with a 95% confidence interval and the number of episodes. Mechanisms and
 * models are pooled, as in the paper; every other condition key must hold
 * one value per environment unless it is named in `by`.
 *
 * @param perEpisode The frame of {@linkcode earlyCommitment}.
 * @param options Whether baseline episodes count, the split, and the normal
 * quantile.
 * @returns Columns `env`, the other condition keys the frame has but
 * `mechanism` (`regime`, `overrides_id`), the other `by` columns, `bin`,
 * `bin_start`, `bin_end`, `mean`, `lower`, `upper` (within [0, 1] for a
 * success rate), `n`; empty bins are left out.
 * @throws {RangeError} If a needed column is missing, or the frame mixes
 * conditions not named in `by`, e.g. `earlyCommitmentBins: the frame holds 2
 * regimes (stable, contraction); filter to one or pass by: ["regime"]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { earlyCommitmentBins } from "./early_commitment.ts";
 *
 * const perEpisode = pl.DataFrame({
 *   env: ["bank_run", "bank_run", "bank_run", "bank_run"],
 *   regime: ["stable", "stable", "stable", "contraction"],
 *   mechanism: ["M0", "M3", "M3", "M3"],
 *   bin: [0, 0, 4, 4], bin_start: [0, 0, 0.8, 0.8], bin_end: [0.2, 0.2, 1, 1],
 *   outcome: [0, 1, 1, 0],
 * });
 * assert.throws(() => earlyCommitmentBins(perEpisode), {
 *   message: 'earlyCommitmentBins: the frame holds 2 regimes (stable, contraction); ' +
 *     'filter to one or pass by: ["regime"]',
 * });
 * const stable = perEpisode.filter(pl.col("regime").eq(pl.lit("stable")));
 * const points = earlyCommitmentBins(stable, { includeBaseline: false }).toRecords();
 * assert.deepEqual(points.map((p) => [p.regime, p.bin, p.mean, p.n]), [
 *   ["stable", 0, 1, 1],
 *   ["stable", 4, 1, 1],
 * ]);
 * const split = earlyCommitmentBins(perEpisode, { by: ["regime"] }).toRecords();
 * assert.deepEqual(split.map((p) => [p.regime, p.bin, p.mean, p.n]), [
 *   ["stable", 0, 0.5, 2],
 *   ["stable", 4, 1, 1],
 *   ["contraction", 4, 0, 1],
 * ]);
 * ```
 */
export function earlyCommitmentBins(
  perEpisode: pl.DataFrame,
  options: EarlyCommitmentBinsOptions = {},
): pl.DataFrame {
  const { includeBaseline = true, by = [], ...ci } = options;
  requireColumns(
    perEpisode,
    ["env", "mechanism", "bin", "bin_start", "bin_end", "outcome"],
    "earlyCommitmentBins()",
  );
  const rows = includeBaseline
    ? perEpisode
    : perEpisode.filter(pl.col("mechanism").neq(pl.lit("M0")));
  const keys = assertSingleCondition(rows, "earlyCommitmentBins", {
    keys: FRAIL_CONDITION_KEYS,
    by: ["env", ...by],
    pooled: ["mechanism"],
  });
  const groups = [...new Set([...keys, ...by])];
  const rate = pl.col("env").isIn(SUCCESS_ENVS);
  return sortCells(
    rows.groupBy([...groups, "bin", "bin_start", "bin_end"])
      .agg(...ciAggregations("outcome", ci))
      .withColumns(
        pl.when(rate).then(pl.col("lower").clip(0, 1)).otherwise(pl.col("lower")).alias("lower"),
        pl.when(rate).then(pl.col("upper").clip(0, 1)).otherwise(pl.col("upper")).alias("upper"),
      ),
    [...groups, "bin"],
  );
}

/** Options for {@linkcode earlyCommitmentContrast}. */
export interface EarlyCommitmentContrastOptions {
  /**
   * The high group: early share strictly above this.
   *
   * @default {0.45}
   */
  above?: number;
  /**
   * The low group: early share at or below this.
   *
   * @default {0.1}
   */
  atMost?: number;
  /**
   * Columns to split the comparison by, e.g. `["env"]` or `["regime"]`; a
   * frame that mixes regimes or override sets not named here is refused.
   *
   * @default {[] (environments and mechanisms pooled)}
   */
  by?: readonly string[];
}

/**
 * The Section 4.2 comparison: the success rate of episodes whose early
 * share exceeds 45% against those at or below 10%, with baseline episodes
 * included and excluded, with 95% Wilson intervals. Environments,
 * mechanisms and models are pooled, as in the paper; every other condition
 * key must hold one value unless it is named in `by`.
 *
 * @param perEpisode The frame of {@linkcode earlyCommitment}.
 * @param options The two thresholds and an optional split.
 * @returns Columns: the condition keys the frame has that are not pooled
 * (`regime`, `overrides_id`, and `env` when in `by`), the other `by`
 * columns, `baseline` (`"included"` / `"excluded"`), `group` (`"above"` /
 * `"at_most"`), `episodes`, `successes`, `rate`, `lower`, `upper`.
 * @throws {RangeError} If a needed column is missing, or the frame mixes
 * conditions not named in `by`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { earlyCommitmentContrast } from "./early_commitment.ts";
 *
 * const perEpisode = pl.DataFrame({
 *   mechanism: ["M0", "M0", "M3", "M3", "M3"],
 *   early_share: [0, 0, 0.1, 0.5, 0.9],
 *   success: [0, 1, 0, 1, 0],
 * });
 * const rows = earlyCommitmentContrast(perEpisode).toRecords();
 * assert.deepEqual(rows.map((r) => [r.baseline, r.group, r.successes, r.episodes]), [
 *   ["included", "above", 1, 2],
 *   ["included", "at_most", 1, 3],
 *   ["excluded", "above", 1, 2],
 *   ["excluded", "at_most", 0, 1],
 * ]);
 * ```
 */
export function earlyCommitmentContrast(
  perEpisode: pl.DataFrame,
  options: EarlyCommitmentContrastOptions = {},
): pl.DataFrame {
  const { above = 0.45, atMost = 0.1 } = options;
  requireColumns(perEpisode, ["mechanism", "early_share", "success"], "earlyCommitmentContrast()");
  const keys = assertSingleCondition(perEpisode, "earlyCommitmentContrast", {
    keys: FRAIL_CONDITION_KEYS,
    by: options.by,
    pooled: ["env", "mechanism"],
  });
  const by = [...new Set([...keys, ...(options.by ?? [])])];
  const group = pl.when(pl.col("early_share").gt(above)).then(pl.lit("above"))
    .when(pl.col("early_share").ltEq(atMost)).then(pl.lit("at_most"))
    .otherwise(pl.lit(null).cast(pl.Utf8)).alias("group");
  const tally = (rows: pl.DataFrame, baseline: string) =>
    rows.withColumns(group).filter(pl.col("group").isNotNull())
      .groupBy([...by, "group"])
      .agg(
        pl.col("success").count().cast(pl.Int32).alias("episodes"),
        pl.col("success").cast(pl.Int32).sum().cast(pl.Int32).alias("successes"),
      )
      .withColumns(pl.lit(baseline).alias("baseline"));
  const counts = pl.concat([
    tally(perEpisode, "included"),
    tally(perEpisode.filter(pl.col("mechanism").neq(pl.lit("M0"))), "excluded"),
  ], { how: "vertical" });
  const intervals = counts.toRecords().map((row) =>
    wilson(row.successes as number, row.episodes as number)
  );
  return counts.withColumns(
    pl.Series("rate", intervals.map((i) => i.rate), pl.Float64),
    pl.Series("lower", intervals.map((i) => i.lower), pl.Float64),
    pl.Series("upper", intervals.map((i) => i.upper), pl.Float64),
    pl.col("baseline").eq(pl.lit("excluded")).alias("__b"),
  ).sort([...by, "__b", "group"]).select(
    ...by.map((name) => pl.col(name)),
    pl.col("baseline"),
    pl.col("group"),
    pl.col("episodes"),
    pl.col("successes"),
    pl.col("rate"),
    pl.col("lower"),
    pl.col("upper"),
  );
}

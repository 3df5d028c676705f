/**
 * FRAIL Table 9: action-level measures from realized actions (Appendix
 * H.2): the withdrawal rate (bank run), the redemption rate (debt rollover)
 * and the first-launch round (crowdfunding), as means across model means ±
 * SE.
 *
 * Choices: the withdrawal and redemption volumes are the engine's
 * cumulative paid exits in the last disclosed round (`cumulative_withdrawn`,
 * `cumulative_redeemed`), divided by the episode's initial funding (15
 * deposits, 8 face value); the first-launch round averages launched
 * episodes only. Only episodes with `status` `ok` (and `degraded` when
 * asked) count. Every condition (environment, regime, parameter overrides,
 * mechanism) has rows of its own.
 *
 * @module
 */

import pl from "npm:nodejs-polars@0.25.2";
import { countedEpisodes, type EpisodeStatusOptions } from "../conditions.ts";
import { acrossModelMeans, requireColumns } from "../stats.ts";
import { ENV_PROFILES } from "./env_profiles.ts";
import { EPISODE_ID, finalMetric, launchRounds } from "./episode_measures.ts";
import { cellKeysOf, sortCells } from "./welfare_table.ts";

/** Options for {@linkcode episodeActionMeasures} and {@linkcode actionMeasuresTable}. */
export type ActionMeasuresOptions = EpisodeStatusOptions;

/**
 * Measure names of Table 9, with the environment each applies to.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ACTION_MEASURES } from "./action_measures.ts";
 *
 * assert.equal(ACTION_MEASURES.redemption_rate, "debt_rollover");
 * ```
 */
export const ACTION_MEASURES: Readonly<Record<string, string>> = {
  withdrawal_rate: "bank_run",
  redemption_rate: "debt_rollover",
  first_launch_round: "crowdfunding",
};

/**
 * Per-episode action measures: one row per episode and applicable measure.
 *
 * @param episodes The `episodes` frame of `loadRuns()`.
 * @param rounds The `rounds` frame of `loadRuns()`.
 * @param options Whether degraded episodes count.
 * @returns Columns `run`, `episode`, `env`, `regime`, `overrides_id` (when
 * the frame has it), `mechanism`, `model`, `measure`, `value`; rows in
 * (`run`, `episode`) order, the same on every call.
 * @throws {RangeError} If a needed column is missing.
 *
 * @example A bank run where 6 of 15 deposits were withdrawn
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { episodeActionMeasures } from "./action_measures.ts";
 *
 * const episodes = pl.DataFrame({
 *   run: ["r"], episode: ["a"], env: ["bank_run"], regime: ["stable"], mechanism: ["M0"],
 *   model: ["m"], status: ["ok"], funding: [15],
 * });
 * const rounds = pl.DataFrame({
 *   run: ["r", "r"], episode: ["a", "a"], round: [1, 2], cumulative_withdrawn: [2, 6],
 * });
 * const [row] = episodeActionMeasures(episodes, rounds).toRecords();
 * assert.equal(row.measure, "withdrawal_rate");
 * assert.equal(row.value, 0.4);
 * ```
 */
export function episodeActionMeasures(
  episodes: pl.DataFrame,
  rounds: pl.DataFrame,
  options: ActionMeasuresOptions = {},
): pl.DataFrame {
  const keys = [...EPISODE_ID, ...cellKeysOf(episodes, "episodeActionMeasures()"), "model"];
  requireColumns(episodes, [...keys, "status", "funding"], "episodeActionMeasures()");
  const ok = countedEpisodes(episodes, { ...options, game: "frail" });
  const parts: pl.DataFrame[] = [];
  for (const [measure, env] of Object.entries(ACTION_MEASURES)) {
    const profile = ENV_PROFILES[env];
    const inEnv = ok.filter(pl.col("env").eq(pl.lit(env)));
    if (inEnv.height === 0) continue;
    let values: pl.DataFrame;
    if (profile.exitMetric !== null) {
      if (!rounds.columns.includes(profile.exitMetric)) continue;
      values = inEnv.join(finalMetric(rounds, profile.exitMetric), { on: [...EPISODE_ID] })
        .withColumns(pl.col(profile.exitMetric).div(pl.col("funding")).alias("value"));
    } else {
      values = inEnv.join(launchRounds(rounds, profile.launchMetric ?? "launched"), {
        on: [...EPISODE_ID],
      }).withColumns(pl.col("launch_round").cast(pl.Float64).alias("value"));
    }
    parts.push(values.select(
      ...keys.map((name) => pl.col(name)),
      pl.lit(measure).alias("measure"),
      pl.col("value").cast(pl.Float64),
    ));
  }
  if (parts.length === 0) {
    return pl.DataFrame([
      ...keys.map((name) => pl.Series(name, [], pl.Utf8)),
      pl.Series("measure", [], pl.Utf8),
      pl.Series("value", [], pl.Float64),
    ]);
  }
  // In episode order: a join's rows come in an order that varies from call to call, and
  // actionMeasuresTable() sums each model's values in the order it sees them.
  return pl.concat(parts, { how: "vertical" }).sort([...EPISODE_ID]);
}

/**
 * FRAIL Table 9: each measure's mean across model means ± SE, per condition
 * (environment, regime, parameter overrides, mechanism).
 *
 * @param episodes The `episodes` frame of `loadRuns()`.
 * @param rounds The `rounds` frame of `loadRuns()`.
 * @param options Whether degraded episodes count.
 * @returns Columns `measure`, `env`, `regime`, `overrides_id` (when the
 * frame has it), `mechanism`, `mean`, `se`, `models`.
 *
 * @example Two models' withdrawal rates 0.4 and 0.6
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { actionMeasuresTable } from "./action_measures.ts";
 *
 * const episodes = pl.DataFrame({
 *   run: ["r", "r"], episode: ["a", "b"], env: ["bank_run", "bank_run"],
 *   regime: ["stable", "stable"], mechanism: ["M0", "M0"], model: ["x", "y"],
 *   status: ["ok", "ok"], funding: [15, 15],
 * });
 * const rounds = pl.DataFrame({
 *   run: ["r", "r"], episode: ["a", "b"], round: [3, 5], cumulative_withdrawn: [6, 9],
 * });
 * const [row] = actionMeasuresTable(episodes, rounds).toRecords();
 * assert.equal((row.mean as number).toFixed(3), "0.500");
 * assert.equal((row.se as number).toFixed(3), "0.100");
 * ```
 */
export function actionMeasuresTable(
  episodes: pl.DataFrame,
  rounds: pl.DataFrame,
  options: ActionMeasuresOptions = {},
): pl.DataFrame {
  const perEpisode = episodeActionMeasures(episodes, rounds, options);
  const keys = cellKeysOf(perEpisode, "actionMeasuresTable()");
  const table = acrossModelMeans(perEpisode, { by: ["measure", ...keys], value: "value" });
  return sortCells(table).select(
    ...["measure", ...keys, "mean", "se", "models"].map((c) => pl.col(c)),
  );
}

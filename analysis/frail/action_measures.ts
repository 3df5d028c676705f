/**
 * FRAIL Table 9: action-level measures from realized actions (Appendix
 * H.2): the withdrawal rate (bank run), the redemption rate (debt rollover)
 * and the first-launch round (crowdfunding), as means across model means ±
 * SE.
 *
 * The measures are the FRAIL environments' own (`measures` of each
 * descriptor, in `engine/games/<id>/measures.ts`): pure functions of an
 * episode's disclosure metrics (the `rounds` frame) and derived quantities
 * (the `episodes` frame's columns of the same name, e.g. `funding`).
 *
 * Choices: the withdrawal and redemption volumes are the engine's
 * cumulative paid exits in the last disclosed round (`cumulative_withdrawn`,
 * `cumulative_redeemed`), divided by the episode's initial funding (15
 * deposits, 8 face value); the first-launch round averages launched
 * episodes only. Only episodes with `status` `ok` (and `degraded` when
 * asked) count. Every condition (environment, regime, parameter overrides,
 * mechanism) has rows of its own. A measure whose disclosure metrics the
 * `rounds` frame lacks is left out.
 *
 * @module
 */

import pl from "npm:nodejs-polars@0.25.2";
import type { GameMeasure } from "../../engine/core/game.ts";
import { FRAIL_GAMES } from "../../engine/frail/registry.ts";
import { countedEpisodes, type EpisodeStatusOptions } from "../conditions.ts";
import { acrossModelMeans, requireColumns } from "../stats.ts";
import { EPISODE_ID } from "./episode_measures.ts";
import { cellKeysOf, sortCells } from "./welfare_table.ts";

/** Options for {@linkcode episodeActionMeasures} and {@linkcode actionMeasuresTable}. */
export type ActionMeasuresOptions = EpisodeStatusOptions;

/**
 * Measure names of Table 9, with the environment each applies to (from the
 * descriptors' `measures`, in the paper's order).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ACTION_MEASURES } from "./action_measures.ts";
 *
 * assert.equal(ACTION_MEASURES.redemption_rate, "debt_rollover");
 * ```
 */
export const ACTION_MEASURES: Readonly<Record<string, string>> = Object.fromEntries(
  FRAIL_GAMES.flatMap((g) => (g.measures ?? []).map((m) => [m.id, g.id])),
);

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
  for (const game of FRAIL_GAMES) {
    for (const measure of game.measures ?? []) {
      const inEnv = ok.filter(pl.col("env").eq(pl.lit(game.id)));
      if (inEnv.height === 0) continue;
      if (!measure.metrics.every((m) => rounds.columns.includes(m))) continue;
      const values = measureValues(measure, inEnv, rounds);
      parts.push(
        inEnv.join(values, { on: [...EPISODE_ID] }).select(
          ...keys.map((name) => pl.col(name)),
          pl.lit(measure.id).alias("measure"),
          pl.col("value").cast(pl.Float64),
        ),
      );
    }
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
 * A measure's value in each episode of `episodes` that has one: columns
 * `run`, `episode`, `value`. The measure reads its disclosure metrics from
 * `rounds` (in round order) and its derived quantities from the episodes'
 * columns of the same name.
 */
function measureValues(
  measure: GameMeasure,
  episodes: pl.DataFrame,
  rounds: pl.DataFrame,
): pl.DataFrame {
  const where = "episodeActionMeasures()";
  requireColumns(rounds, [...EPISODE_ID, "round"], where);
  requireColumns(episodes, measure.derived, where);
  const ids = episodes.select(...EPISODE_ID.map((name) => pl.col(name))).unique();
  const byEpisode = new Map<string, Record<string, unknown>[]>();
  const rows = rounds.select(...[...EPISODE_ID, "round", ...measure.metrics].map((c) => pl.col(c)))
    .join(ids, { on: [...EPISODE_ID] })
    .sort([...EPISODE_ID, "round"]).toRecords();
  for (const row of rows) {
    const key = `${row.run}\u0000${row.episode}`;
    const list = byEpisode.get(key);
    if (list === undefined) byEpisode.set(key, [row]);
    else list.push(row);
  }
  const run: string[] = [], episode: string[] = [], value: number[] = [];
  const seen = new Set<string>();
  for (
    const row of episodes.select(...[...EPISODE_ID, ...measure.derived].map((c) => pl.col(c)))
      .toRecords()
  ) {
    const derived = Object.fromEntries(measure.derived.map((name) => [name, row[name]]));
    const v = measure.value({
      derived,
      rounds: byEpisode.get(`${row.run}\u0000${row.episode}`) ?? [],
    });
    const key = `${row.run}\u0000${row.episode}`;
    if (v === null || seen.has(key)) continue;
    seen.add(key);
    run.push(String(row.run));
    episode.push(String(row.episode));
    value.push(v);
  }
  return pl.DataFrame([
    pl.Series("run", run, pl.Utf8),
    pl.Series("episode", episode, pl.Utf8),
    pl.Series("value", value, pl.Float64),
  ]);
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

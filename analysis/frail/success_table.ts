/**
 * FRAIL Table 8: success rates per environment, model and mechanism with
 * 95% Wilson score intervals (Appendix H.1).
 *
 * One row per condition (environment, regime, parameter overrides,
 * mechanism) and model; only FRAIL episodes with `status` `ok` (and
 * `degraded` when asked) and a known success count.
 *
 * @module
 */

import pl from "npm:nodejs-polars@0.25.2";
import { countedEpisodes, type EpisodeStatusOptions } from "../conditions.ts";
import { requireColumns, wilson, type WilsonOptions } from "../stats.ts";
import { cellKeysOf, sortCells } from "./welfare_table.ts";

/** Options for {@linkcode successTable}. */
export interface SuccessTableOptions extends WilsonOptions, EpisodeStatusOptions {}

/**
 * Success rate and Wilson interval per condition (environment, regime,
 * parameter overrides, mechanism) and model.
 *
 * @param episodes The `episodes` frame of `loadRuns()`.
 * @param options The normal quantile of the interval (default 1.96: 95%)
 * and whether degraded episodes count.
 * @returns Columns `env`, `regime`, `overrides_id` (when the frame has it),
 * `mechanism`, `model`, `successes`, `episodes`, `rate`, `lower`, `upper`,
 * sorted like the paper.
 * @throws {RangeError} If a needed column is missing.
 *
 * @example Two of five episodes succeed: 0.40 [0.12, 0.77]
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { successTable } from "./success_table.ts";
 *
 * const episodes = pl.DataFrame({
 *   env: Array(5).fill("bank_run"), regime: Array(5).fill("stable"),
 *   mechanism: Array(5).fill("M1"), model: Array(5).fill("GPT-terra"),
 *   status: Array(5).fill("ok"), success: [true, false, true, false, false],
 * });
 * const [row] = successTable(episodes).toRecords();
 * assert.equal(row.rate, 0.4);
 * assert.equal((row.lower as number).toFixed(2), "0.12");
 * assert.equal((row.upper as number).toFixed(2), "0.77");
 * ```
 */
export function successTable(
  episodes: pl.DataFrame,
  options: SuccessTableOptions = {},
): pl.DataFrame {
  const { includeDegraded, ...interval } = options;
  const keys = cellKeysOf(episodes, "successTable()");
  requireColumns(episodes, ["model", "status", "success"], "successTable()");
  const counts = countedEpisodes(episodes, { includeDegraded, game: "frail" })
    .filter(pl.col("success").isNotNull())
    .groupBy([...keys, "model"])
    .agg(
      pl.col("success").cast(pl.Int32).sum().cast(pl.Int32).alias("successes"),
      pl.col("success").count().cast(pl.Int32).alias("episodes"),
    );
  const intervals = counts.toRecords().map((row) =>
    wilson(row.successes as number, row.episodes as number, interval)
  );
  return sortCells(counts.withColumns(
    pl.Series("rate", intervals.map((i) => i.rate), pl.Float64),
    pl.Series("lower", intervals.map((i) => i.lower), pl.Float64),
    pl.Series("upper", intervals.map((i) => i.upper), pl.Float64),
  ));
}

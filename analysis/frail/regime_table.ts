/**
 * FRAIL Table 10: welfare realization across the economic regimes, the mean
 * across model means ± SE per environment, mechanism and regime. The
 * per-model tables behind it (Tables 11 and 12) are `welfareTable()`
 * filtered to one regime. Parameter override sets stay apart: with
 * `overrides_id` in the frame, each set has rows of its own.
 *
 * @module
 */

import pl from "npm:nodejs-polars@0.25.2";
import { welfareAverage, welfareTable, type WelfareTableOptions } from "./welfare_table.ts";
import { sortByConditions } from "../conditions.ts";

/** Options for {@linkcode regimeTable}. */
export type RegimeTableOptions = WelfareTableOptions;

/**
 * Welfare realization by environment, mechanism and regime (Table 10), per
 * parameter override set.
 *
 * @param episodes The `episodes` frame of `loadRuns()`.
 * @param options Passed to `welfareTable()`.
 * @returns Columns `env`, `overrides_id` (when the frame has it),
 * `mechanism`, `regime`, `mean`, `se`, `models`, sorted by environment,
 * override set, mechanism and regime (expansion, stable, contraction).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { regimeTable } from "./regime_table.ts";
 *
 * const episodes = pl.DataFrame({
 *   env: ["bank_run", "bank_run", "bank_run"],
 *   regime: ["stable", "expansion", "expansion"],
 *   mechanism: ["M3", "M3", "M3"],
 *   model: ["a", "a", "b"],
 *   status: ["ok", "ok", "ok"],
 *   success: [true, true, false],
 *   welfare_realization: [1, 1, 0.5],
 * });
 * const rows = regimeTable(episodes).toRecords();
 * assert.deepEqual(rows.map((r) => [r.regime, r.mean, r.se]), [
 *   ["expansion", 0.75, 0.25],
 *   ["stable", 1, null], // one model: no SE
 * ]);
 * ```
 */
export function regimeTable(
  episodes: pl.DataFrame,
  options: RegimeTableOptions = {},
): pl.DataFrame {
  const average = welfareAverage(welfareTable(episodes, options));
  const overrides = average.columns.includes("overrides_id") ? ["overrides_id"] : [];
  const columns = ["env", ...overrides, "mechanism", "regime"];
  return sortByConditions(average, columns).select(
    ...[...columns, "mean", "se", "models"].map((c) => pl.col(c)),
  );
}

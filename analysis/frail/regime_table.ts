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
import { ENV_ORDER, REGIME_ORDER } from "./env_profiles.ts";

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
 *   ["stable", 1, 0],
 * ]);
 * ```
 */
export function regimeTable(
  episodes: pl.DataFrame,
  options: RegimeTableOptions = {},
): pl.DataFrame {
  const average = welfareAverage(welfareTable(episodes, options));
  const rank = (name: string, order: readonly string[]) => {
    let expr: pl.Expr = pl.lit(order.length);
    for (let i = order.length - 1; i >= 0; i--) {
      expr = pl.when(pl.col(name).eq(pl.lit(order[i]))).then(pl.lit(i)).otherwise(expr);
    }
    return expr.alias(`__${name}`);
  };
  const overrides = average.columns.includes("overrides_id") ? ["overrides_id"] : [];
  return average
    .withColumns(rank("env", ENV_ORDER), rank("regime", REGIME_ORDER))
    .sort(["__env", "env", ...overrides, "mechanism", "__regime", "regime"])
    .select(
      ...["env", ...overrides, "mechanism", "regime", "mean", "se", "models"].map((c) => pl.col(c)),
    );
}

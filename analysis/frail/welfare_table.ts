/**
 * FRAIL Table 2 (and Tables 11-12, Figure 3a): welfare realization W~ per
 * model and mechanism with successes out of n, the average across model
 * means ± SE, and up/down marks against M0 of the same model.
 *
 * Every row is one condition (environment, regime, parameter overrides,
 * mechanism) and model: the tables split by every FRAIL key column the frame
 * has and carry them all (see `analysis/conditions.ts`), so a grid over
 * several regimes or override sets gives one row per condition, never a
 * pooled one.
 *
 * Choices:
 * - Only FRAIL episodes with `status` `ok` (and `degraded` when asked) and a
 *   welfare realization count; errored or incomplete episodes have no
 *   outcome.
 * - An up/down mark compares a model's mean with its own M0 mean in the same
 *   environment, regime and override set after rounding both to the printed
 *   precision (3 decimals), so equal printed values (1.000 and 1.000) get no
 *   mark, as in the paper.
 *
 * @module
 */

import pl from "npm:nodejs-polars@0.25.2";
import {
  countedEpisodes,
  type EpisodeStatusOptions,
  FRAIL_CONDITION_KEYS,
  sortByConditions,
} from "../conditions.ts";
import { acrossModelMeans, requireColumns } from "../stats.ts";
import { ENV_LABELS, MECHANISM_LABELS, REGIME_LABELS } from "./env_profiles.ts";

/**
 * Columns that identify a cell of the FRAIL tables, in the order the tables
 * sort by: the FRAIL condition keys with the mechanism last. A frame without
 * `overrides_id` (a hand-built frame, a published table) is taken to hold
 * one override set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CELL_KEYS } from "./welfare_table.ts";
 *
 * assert.deepEqual(CELL_KEYS, ["env", "regime", "overrides_id", "mechanism"]);
 * ```
 */
export const CELL_KEYS: readonly string[] = [
  ...FRAIL_CONDITION_KEYS.filter((key) => key !== "mechanism"),
  "mechanism",
];

/**
 * The cell keys a frame has: those of {@linkcode CELL_KEYS} present, after
 * checking that it has `env`, `regime` and `mechanism`.
 *
 * @param frame A frame, or anything with `columns`.
 * @param fn The caller, named in the error, e.g. `"welfareTable()"`.
 * @returns The cell keys present, in order.
 * @throws {RangeError} If `env`, `regime` or `mechanism` is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { cellKeysOf } from "./welfare_table.ts";
 *
 * const df = pl.DataFrame({ mechanism: ["M0"], env: ["bank_run"], regime: ["stable"] });
 * assert.deepEqual(cellKeysOf(df, "f()"), ["env", "regime", "mechanism"]);
 * assert.throws(() => cellKeysOf(pl.DataFrame({ env: ["bank_run"] }), "f()"), /needs a column "regime"/);
 * ```
 */
export function cellKeysOf(frame: { readonly columns: string[] }, fn: string): string[] {
  requireColumns(frame, ["env", "regime", "mechanism"], fn);
  return CELL_KEYS.filter((key) => frame.columns.includes(key));
}

/** Options for {@linkcode welfareTable}. */
export interface WelfareTableOptions extends EpisodeStatusOptions {
  /**
   * Decimals to which a model's mean and its M0 mean are rounded before the
   * up/down comparison.
   *
   * @default {3}
   */
  markDecimals?: number;
  /**
   * The mechanism every other one is compared with.
   *
   * @default {"M0"}
   */
  baseline?: string;
}

/**
 * Per-model welfare cells of FRAIL Table 2: one row per condition
 * (environment, regime, parameter overrides, mechanism) and model with the
 * mean welfare realization, successes, the number of episodes and the mark
 * against the baseline mechanism.
 *
 * @param episodes The `episodes` frame of `loadRuns()`.
 * @param options Rounding of the comparison, the baseline mechanism and
 * whether degraded episodes count.
 * @returns Columns `env`, `regime`, `overrides_id` (when the frame has it),
 * `mechanism`, `model`, `welfare`, `successes`, `episodes`, `mark` (`"up"`,
 * `"down"` or `""`), sorted by environment (paper order), regime, override
 * set, mechanism and model.
 * @throws {RangeError} If a needed column is missing.
 *
 * @example Two regimes of one model stay apart
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { welfareTable } from "./welfare_table.ts";
 *
 * const episodes = pl.DataFrame({
 *   env: Array(6).fill("bank_run"),
 *   regime: ["stable", "stable", "stable", "stable", "contraction", "contraction"],
 *   overrides_id: Array(6).fill("none"),
 *   mechanism: ["M0", "M0", "M1", "M1", "M0", "M1"],
 *   model: Array(6).fill("m"),
 *   status: Array(6).fill("ok"),
 *   success: [false, true, true, true, false, false],
 *   welfare_realization: [0, 0.5, 1, 0.9, 0.2, 0.1],
 * });
 * const cells = welfareTable(episodes).toRecords();
 * assert.deepEqual(cells.map((c) => [c.regime, c.mechanism, c.welfare, c.successes, c.mark]), [
 *   ["stable", "M0", 0.25, 1, ""],
 *   ["stable", "M1", 0.95, 2, "up"],
 *   ["contraction", "M0", 0.2, 0, ""],
 *   ["contraction", "M1", 0.1, 0, "down"],
 * ]);
 * ```
 */
export function welfareTable(
  episodes: pl.DataFrame,
  options: WelfareTableOptions = {},
): pl.DataFrame {
  const { markDecimals = 3, baseline = "M0", includeDegraded } = options;
  const keys = cellKeysOf(episodes, "welfareTable()");
  requireColumns(episodes, ["model", "status", "success", "welfare_realization"], "welfareTable()");
  const cells = countedEpisodes(episodes, { includeDegraded, game: "frail" })
    .filter(pl.col("welfare_realization").isNotNull())
    .groupBy([...keys, "model"])
    .agg(
      pl.col("welfare_realization").mean().alias("welfare"),
      pl.col("success").cast(pl.Int32).sum().cast(pl.Int32).alias("successes"),
      pl.col("welfare_realization").count().cast(pl.Int32).alias("episodes"),
    );
  return sortCells(withMarks(cells, { value: "welfare", decimals: markDecimals, baseline }));
}

/** Options for {@linkcode withMarks}. */
export interface WithMarksOptions {
  /** The column compared with the baseline. */
  value: string;
  /**
   * Decimals to round to before comparing.
   *
   * @default {3}
   */
  decimals?: number;
  /**
   * The baseline mechanism.
   *
   * @default {"M0"}
   */
  baseline?: string;
}

/**
 * Adds a `mark` column: `"up"` / `"down"` where a row's rounded `value` is
 * above / below that of the baseline mechanism for the same environment,
 * regime, override set (when `overrides_id` is present) and model; `""` for
 * equal values, the baseline itself, or no baseline row.
 *
 * @param cells Rows with `env`, `regime`, `mechanism`, `model` and `value`
 * (and `overrides_id`).
 * @param options The value column, rounding and baseline mechanism.
 * @returns `cells` with `mark` added (row order not guaranteed).
 *
 * @example Table 2, DeepSeek, bank run: 0.997 under M2 against 1.000 under M0
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { withMarks } from "./welfare_table.ts";
 *
 * const cells = pl.DataFrame({
 *   env: ["bank_run", "bank_run", "bank_run"],
 *   regime: ["stable", "stable", "stable"],
 *   mechanism: ["M0", "M1", "M2"],
 *   model: ["DeepSeek", "DeepSeek", "DeepSeek"],
 *   welfare: [1, 1, 0.997],
 * });
 * const marks = withMarks(cells, { value: "welfare" }).sort("mechanism").getColumn("mark");
 * assert.deepEqual(marks.toArray(), ["", "", "down"]);
 * ```
 */
export function withMarks(cells: pl.DataFrame, options: WithMarksOptions): pl.DataFrame {
  const { value, decimals = 3, baseline = "M0" } = options;
  const on = [...cellKeysOf(cells, "withMarks()").filter((key) => key !== "mechanism"), "model"];
  const base = cells.filter(pl.col("mechanism").eq(pl.lit(baseline)))
    .select(...on.map((key) => pl.col(key)), pl.col(value).round(decimals).alias("__base"));
  const rounded = pl.col(value).round(decimals);
  return cells.join(base, { on, how: "left" })
    .withColumns(
      pl.when(pl.col("mechanism").eq(pl.lit(baseline)).or(pl.col("__base").isNull()))
        .then(pl.lit(""))
        .when(rounded.gt(pl.col("__base"))).then(pl.lit("up"))
        .when(rounded.lt(pl.col("__base"))).then(pl.lit("down"))
        .otherwise(pl.lit(""))
        .alias("mark"),
    )
    .drop("__base");
}

/**
 * The Average column of FRAIL Table 2 (and Table 10, Figure 3a): per
 * condition (environment, regime, parameter overrides, mechanism), the mean
 * of the model means ± SE (sample sd of the model means / sqrt(number of
 * models)).
 *
 * @param cells Per-model cells from {@linkcode welfareTable}, or a published
 * table with the same columns (`env`, `regime`, `mechanism`, `model`,
 * `welfare`, and `overrides_id` if it has one).
 * @returns Columns `env`, `regime`, `overrides_id` (when `cells` has it),
 * `mechanism`, `mean`, `se`, `models`, sorted like the paper.
 * @throws {RangeError} If a needed column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { welfareAverage } from "./welfare_table.ts";
 *
 * const cells = pl.DataFrame({
 *   env: ["bank_run", "bank_run"],
 *   regime: ["stable", "stable"],
 *   mechanism: ["M3", "M3"],
 *   model: ["a", "b"],
 *   welfare: [0.5, 1],
 * });
 * const [row] = welfareAverage(cells).toRecords();
 * assert.equal(row.mean, 0.75);
 * assert.equal(row.se, 0.25);
 * assert.equal(row.models, 2);
 * ```
 */
export function welfareAverage(cells: pl.DataFrame): pl.DataFrame {
  const by = cellKeysOf(cells, "welfareAverage()");
  return sortCells(acrossModelMeans(cells, { by, value: "welfare" }));
}

/** Options for {@linkcode welfareTableDisplay}. */
export interface WelfareTableDisplayOptions {
  /**
   * Model columns, in order.
   *
   * @default {the models in `cells`, sorted}
   */
  models?: readonly string[];
}

/**
 * The welfare table laid out as in the paper, as text cells: the condition
 * (Environment, Regime, and Overrides when the cells have `overrides_id`),
 * Mechanism, `Average W~` (`0.215 ± 0.139`) and one column per model
 * (`0.174 (1/5) ↑`). One row per condition: a grid over several regimes or
 * override sets keeps them apart, labelled.
 *
 * @param cells Per-model cells from {@linkcode welfareTable}.
 * @param options The model columns.
 * @returns A frame of strings, one row per condition, in the order of
 * `cells`.
 * @throws {RangeError} If `env`, `regime` or `mechanism` is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { welfareTable, welfareTableDisplay } from "./welfare_table.ts";
 *
 * const episodes = pl.DataFrame({
 *   env: ["bank_run", "bank_run", "bank_run"],
 *   regime: ["stable", "stable", "contraction"],
 *   overrides_id: ["none", "none", "none"],
 *   mechanism: ["M0", "M3", "M3"],
 *   model: ["Qwen", "Qwen", "Qwen"],
 *   status: ["ok", "ok", "ok"],
 *   success: [false, true, false],
 *   welfare_realization: [0.174, 1, 0.3],
 * });
 * const table = welfareTableDisplay(welfareTable(episodes)).toRecords();
 * assert.deepEqual(table.map((row) => [row.Regime, row.Mechanism, row.Qwen]), [
 *   ["Stable", "M0: baseline", "0.174 (0/1)"],
 *   ["Stable", "M3: coalition", "1.000 (1/1) ↑"],
 *   ["Contraction", "M3: coalition", "0.300 (0/1)"],
 * ]);
 * assert.deepEqual(Object.keys(table[0]), [
 *   "Environment", "Regime", "Overrides", "Mechanism", "Average W~", "Qwen",
 * ]);
 * ```
 */
export function welfareTableDisplay(
  cells: pl.DataFrame,
  options: WelfareTableDisplayOptions = {},
): pl.DataFrame {
  const keys = cellKeysOf(cells, "welfareTableDisplay()");
  const records = cells.toRecords();
  const models = options.models ??
    [...new Set(records.map((row) => String(row.model)))].sort();
  const cellId = (row: Record<string, unknown>) => JSON.stringify(keys.map((key) => row[key]));
  const averages = new Map(
    welfareAverage(cells).toRecords().map((row) => [
      cellId(row),
      row.se === null ? fixed(row.mean) : `${fixed(row.mean)} ± ${fixed(row.se)}`,
    ]),
  );
  const byCell = new Map(records.map((row) => [`${cellId(row)}|${row.model}`, row]));
  const conditions = [...new Map(records.map((row) => [cellId(row), row])).values()];
  const heads: [string, string, (value: unknown) => string][] = [
    ["env", "Environment", (v) => ENV_LABELS[String(v)] ?? String(v)],
    ["regime", "Regime", (v) => REGIME_LABELS[String(v)] ?? String(v)],
    ["overrides_id", "Overrides", (v) => String(v)],
    ["mechanism", "Mechanism", (v) => MECHANISM_LABELS[String(v)] ?? String(v)],
  ];
  const shown = heads.filter(([key]) => keys.includes(key));
  const rows = conditions.map((condition) => {
    const out: Record<string, string> = {};
    for (const [key, title, label] of shown) out[title] = label(condition[key]);
    out["Average W~"] = averages.get(cellId(condition)) ?? "";
    for (const model of models) {
      const cell = byCell.get(`${cellId(condition)}|${model}`);
      const arrow = cell?.mark === "up" ? " ↑" : cell?.mark === "down" ? " ↓" : "";
      out[model] = cell === undefined
        ? ""
        : `${fixed(cell.welfare)} (${cell.successes}/${cell.episodes})${arrow}`;
    }
    return out;
  });
  const columns = [...shown.map(([, title]) => title), "Average W~", ...models];
  return pl.DataFrame(
    columns.map((name) => pl.Series(name, rows.map((row) => row[name]), pl.Utf8)),
  );
}

/**
 * Sorts rows by environment and regime (paper order), then parameter
 * overrides, mechanism and model, where present, then the `then` columns.
 *
 * @param df Rows to sort.
 * @param then Columns to sort by after the cell keys, e.g. `["bin"]`.
 * @returns The sorted frame.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { sortCells } from "./welfare_table.ts";
 *
 * const df = pl.DataFrame({
 *   env: ["crowdfunding", "bank_run", "bank_run"], mechanism: ["M0", "M1", "M1"], bin: [0, 4, 1],
 * });
 * assert.deepEqual(sortCells(df, ["bin"]).getColumn("bin").toArray(), [1, 4, 0]);
 * ```
 */
export function sortCells(df: pl.DataFrame, then: readonly string[] = []): pl.DataFrame {
  return sortByConditions(df, [...CELL_KEYS, "model", ...then]);
}

function fixed(value: unknown): string {
  return typeof value === "number" ? value.toFixed(3) : "";
}

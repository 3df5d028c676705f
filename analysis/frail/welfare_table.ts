/**
 * FRAIL Table 2 (and Tables 11-12, Figure 3a): welfare realization W~ per
 * model and mechanism with successes out of n, the average across model
 * means ± SE, and up/down marks against M0 of the same model.
 *
 * Choices:
 * - Only episodes with `status` `ok` and a welfare realization count;
 *   errored or incomplete episodes have no outcome.
 * - An up/down mark compares a model's mean with its own M0 mean in the same
 *   environment and regime after rounding both to the printed precision
 *   (3 decimals), so equal printed values (1.000 and 1.000) get no mark, as
 *   in the paper.
 *
 * @module
 */

import pl from "npm:nodejs-polars@0.25.2";
import { acrossModelMeans, requireColumns } from "../stats.ts";
import { ENV_LABELS, ENV_ORDER, MECHANISM_LABELS, REGIME_ORDER } from "./env_profiles.ts";

/**
 * Columns that identify a cell of the welfare table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CELL_KEYS } from "./welfare_table.ts";
 *
 * assert.deepEqual(CELL_KEYS, ["env", "regime", "mechanism"]);
 * ```
 */
export const CELL_KEYS: readonly string[] = ["env", "regime", "mechanism"];

/** Options for {@linkcode welfareTable}. */
export interface WelfareTableOptions {
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
 * Per-model welfare cells of FRAIL Table 2: one row per environment, regime,
 * mechanism and model with the mean welfare realization, successes, the
 * number of episodes and the mark against the baseline mechanism.
 *
 * @param episodes The `episodes` frame of `loadRuns()`.
 * @param options Rounding of the comparison and the baseline mechanism.
 * @returns Columns `env`, `regime`, `mechanism`, `model`, `welfare`,
 * `successes`, `episodes`, `mark` (`"up"`, `"down"` or `""`), sorted by
 * environment (paper order), regime, mechanism and model.
 * @throws {RangeError} If a needed column is missing.
 *
 * @example Two M0 and two M1 episodes of one model
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { welfareTable } from "./welfare_table.ts";
 *
 * const episodes = pl.DataFrame({
 *   env: ["bank_run", "bank_run", "bank_run", "bank_run"],
 *   regime: ["stable", "stable", "stable", "stable"],
 *   mechanism: ["M0", "M0", "M1", "M1"],
 *   model: ["m", "m", "m", "m"],
 *   status: ["ok", "ok", "ok", "ok"],
 *   success: [false, true, true, true],
 *   welfare_realization: [0, 0.5, 1, 0.9],
 * });
 * const cells = welfareTable(episodes).toRecords();
 * assert.deepEqual(cells.map((c) => [c.mechanism, c.welfare, c.successes, c.mark]), [
 *   ["M0", 0.25, 1, ""],
 *   ["M1", 0.95, 2, "up"],
 * ]);
 * ```
 */
export function welfareTable(
  episodes: pl.DataFrame,
  options: WelfareTableOptions = {},
): pl.DataFrame {
  const { markDecimals = 3, baseline = "M0" } = options;
  requireColumns(
    episodes,
    [...CELL_KEYS, "model", "status", "success", "welfare_realization"],
    "welfareTable()",
  );
  const cells = episodes
    .filter(pl.col("status").eq(pl.lit("ok")).and(pl.col("welfare_realization").isNotNull()))
    .groupBy([...CELL_KEYS, "model"])
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
 * regime and model; `""` for equal values, the baseline itself, or no
 * baseline row.
 *
 * @param cells Rows with `env`, `regime`, `mechanism`, `model` and `value`.
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
  const base = cells.filter(pl.col("mechanism").eq(pl.lit(baseline)))
    .select(
      pl.col("env"),
      pl.col("regime"),
      pl.col("model"),
      pl.col(value).round(decimals).alias("__base"),
    );
  const rounded = pl.col(value).round(decimals);
  return cells.join(base, { on: ["env", "regime", "model"], how: "left" })
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
 * environment, regime and mechanism, the mean of the model means ± SE
 * (sample sd of the model means / sqrt(number of models)).
 *
 * @param cells Per-model cells from {@linkcode welfareTable}, or a published
 * table with the same columns (`env`, `regime`, `mechanism`, `model`,
 * `welfare`).
 * @returns Columns `env`, `regime`, `mechanism`, `mean`, `se`, `models`,
 * sorted like the paper.
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
  return sortCells(acrossModelMeans(cells, { by: CELL_KEYS, value: "welfare" }));
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
 * The welfare table laid out as in the paper, as text cells: Environment,
 * Mechanism, `Average W~` (`0.215 ± 0.139`) and one column per model
 * (`0.174 (1/5) ↑`). One regime per call: filter the frames first.
 *
 * @param cells Per-model cells from {@linkcode welfareTable}.
 * @param options The model columns.
 * @returns A frame of strings, one row per environment and mechanism.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { welfareTable, welfareTableDisplay } from "./welfare_table.ts";
 *
 * const episodes = pl.DataFrame({
 *   env: ["bank_run", "bank_run"],
 *   regime: ["stable", "stable"],
 *   mechanism: ["M0", "M3"],
 *   model: ["Qwen", "Qwen"],
 *   status: ["ok", "ok"],
 *   success: [false, true],
 *   welfare_realization: [0.174, 1],
 * });
 * const table = welfareTableDisplay(welfareTable(episodes)).toRecords();
 * assert.deepEqual(table[1], {
 *   Environment: "Bank run",
 *   Mechanism: "M3: coalition",
 *   "Average W~": "1.000 ± 0.000",
 *   Qwen: "1.000 (1/1) ↑",
 * });
 * ```
 */
export function welfareTableDisplay(
  cells: pl.DataFrame,
  options: WelfareTableDisplayOptions = {},
): pl.DataFrame {
  const records = cells.toRecords();
  const models = options.models ??
    [...new Set(records.map((row) => String(row.model)))].sort();
  const averages = new Map(
    welfareAverage(cells).toRecords().map((row) => [
      `${row.env}|${row.mechanism}`,
      `${fixed(row.mean)} ± ${fixed(row.se)}`,
    ]),
  );
  const byCell = new Map(records.map((row) => [`${row.env}|${row.mechanism}|${row.model}`, row]));
  const keys = [...new Map(records.map((row) => [`${row.env}|${row.mechanism}`, row])).values()];
  const rows = keys.map((key) => {
    const out: Record<string, string> = {
      Environment: ENV_LABELS[String(key.env)] ?? String(key.env),
      Mechanism: MECHANISM_LABELS[String(key.mechanism)] ?? String(key.mechanism),
      "Average W~": averages.get(`${key.env}|${key.mechanism}`) ?? "",
    };
    for (const model of models) {
      const cell = byCell.get(`${key.env}|${key.mechanism}|${model}`);
      const arrow = cell?.mark === "up" ? " ↑" : cell?.mark === "down" ? " ↓" : "";
      out[model] = cell === undefined
        ? ""
        : `${fixed(cell.welfare)} (${cell.successes}/${cell.episodes})${arrow}`;
    }
    return out;
  });
  const columns = ["Environment", "Mechanism", "Average W~", ...models];
  return pl.DataFrame(
    columns.map((name) => pl.Series(name, rows.map((row) => row[name]), pl.Utf8)),
  );
}

/**
 * Sorts rows by environment and regime (paper order), then parameter
 * overrides, mechanism and model where present.
 *
 * @param df Rows with at least `env`.
 * @returns The sorted frame.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { sortCells } from "./welfare_table.ts";
 *
 * const df = pl.DataFrame({ env: ["crowdfunding", "bank_run"], mechanism: ["M0", "M1"] });
 * assert.deepEqual(sortCells(df).getColumn("env").toArray(), ["bank_run", "crowdfunding"]);
 * ```
 */
export function sortCells(df: pl.DataFrame): pl.DataFrame {
  const ranks = [rankOf("env", ENV_ORDER).alias("__rank")];
  const hasRegime = df.columns.includes("regime");
  if (hasRegime) ranks.push(rankOf("regime", REGIME_ORDER).alias("__regime_rank"));
  const others = ["overrides_id", "mechanism", "model"].filter((name) => df.columns.includes(name));
  const by = ["__rank", "env", ...(hasRegime ? ["__regime_rank", "regime"] : []), ...others];
  return df.withColumns(...ranks).sort(by).drop(
    ...["__rank", ...(hasRegime ? ["__regime_rank"] : [])],
  );
}

/** The position of a column's value in an ordered list; values not in it sort last. */
function rankOf(column: string, order: readonly string[]): pl.Expr {
  let rank: pl.Expr = pl.lit(order.length);
  for (let i = order.length - 1; i >= 0; i--) {
    rank = pl.when(pl.col(column).eq(pl.lit(order[i]))).then(pl.lit(i)).otherwise(rank);
  }
  return rank;
}

function fixed(value: unknown): string {
  return typeof value === "number" ? value.toFixed(3) : "";
}

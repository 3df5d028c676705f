/**
 * The papers' published numbers (`data/reference/*.csv`, see its README for
 * provenance) and a helper that puts a run's table beside the paper's, cell
 * by cell.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import pl from "npm:nodejs-polars@0.25.2";
import { conditionKeysOf, sortKeyValues } from "./conditions.ts";
import { requireColumns } from "./stats.ts";

/** Names of the reference tables in `data/reference/`. */
export type ReferenceName =
  | "frail_table2"
  | "frail_table2_average"
  | "frail_table8"
  | "frail_table9"
  | "frail_table10"
  | "frail_table11"
  | "frail_table11_average"
  | "frail_table12"
  | "frail_table12_average"
  | "staghunt_table1";

/**
 * All reference table names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { REFERENCE_NAMES } from "./reference.ts";
 *
 * assert.ok(REFERENCE_NAMES.includes("frail_table2"));
 * ```
 */
export const REFERENCE_NAMES: readonly ReferenceName[] = [
  "frail_table2",
  "frail_table2_average",
  "frail_table8",
  "frail_table9",
  "frail_table10",
  "frail_table11",
  "frail_table11_average",
  "frail_table12",
  "frail_table12_average",
  "staghunt_table1",
];

const NUMERIC = new Set(["welfare", "mean", "se", "rate", "lower", "upper", "match_rate"]);
const INTEGER = new Set(["successes", "episodes"]);

/**
 * Reads a published table from `data/reference/`.
 *
 * Numeric columns are Float64 (counts Int32); every other column is a
 * string, with empty cells (such as a missing arrow) as `""`.
 *
 * @param name The table, e.g. `"frail_table2"`.
 * @returns The table as a Polars frame, in the paper's row order.
 * @throws {RangeError} For an unknown name.
 *
 * @example FRAIL Table 2, bank run, M3 average
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { loadReference } from "./reference.ts";
 *
 * const average = loadReference("frail_table2_average");
 * const m3 = average.filter(pl.col("env").eq(pl.lit("bank_run")).and(pl.col("mechanism").eq(pl.lit("M3"))));
 * assert.deepEqual(m3.select("mean", "se").toRecords(), [{ mean: 0.737, se: 0.169 }]);
 * ```
 */
export function loadReference(name: ReferenceName): pl.DataFrame {
  if (!REFERENCE_NAMES.includes(name)) {
    throw new RangeError(
      `Unknown reference table "${name}": expected one of ${
        REFERENCE_NAMES.map((n) => `"${n}"`).join(", ")
      }`,
    );
  }
  const path = fileURLToPath(new URL(`../data/reference/${name}.csv`, import.meta.url));
  const raw = pl.readCSV(path, { inferSchemaLength: 0 });
  return raw.select(
    ...raw.columns.map((column) => {
      if (NUMERIC.has(column)) return pl.col(column).cast(pl.Float64);
      if (INTEGER.has(column)) return pl.col(column).cast(pl.Int32);
      return pl.col(column).fillNull(pl.lit(""));
    }),
  );
}

/** Options for {@linkcode compareWithReference}. */
export interface CompareWithReferenceOptions {
  /** Columns that identify a cell in both tables, e.g. `["env", "mechanism", "model"]`. */
  keys: readonly string[];
  /**
   * Value columns to compare. Each is looked up in both tables; a pair
   * `[runColumn, paperColumn]` compares differently named columns.
   */
  values: readonly (string | readonly [string, string])[];
  /**
   * Decimals the paper prints: a run value matches when it rounds to the
   * paper's value.
   *
   * @default {3}
   */
  decimals?: number;
}

/**
 * Puts a run's table beside the paper's, cell by cell: one row per cell and
 * compared column, with the run's value, the paper's value, their
 * difference and whether the run's value, rounded to the paper's precision,
 * equals it. Cells present in only one table appear with a null on the
 * other side (and `match` false).
 *
 * Conditions are never pooled without a word: every condition key column
 * the run table has (`env`, `mechanism`, `regime`, `overrides_id`, the Stag
 * Hunt's keys; see `CONDITION_KEYS`) stays in the result. One the paper
 * table has too joins the cells even when `keys` omits it (a stable and a
 * contraction run give one row per regime, each against its own published
 * value); one the paper table lacks is carried as a column when it holds one
 * value, and refused when it holds several (each would be compared with the
 * same published value). A table with two rows for one cell is refused,
 * naming the columns they differ in.
 *
 * @param run The run's table, e.g. from `welfareAverage()`.
 * @param paper The published table, e.g. `loadReference("frail_table2_average")`.
 * @param options Key columns, value columns and printed precision.
 * @returns Columns: the keys, the run's other condition keys (those joined,
 * then those carried), `column`, `run`, `paper`, `diff` (run - paper) and
 * `match`, ordered by the paper's row order, then cells only in the run.
 * @throws {RangeError} If a key or value column is missing from either table,
 * a condition key varies in the run but the paper table lacks it, or a table
 * holds two rows for one cell.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { compareWithReference } from "./reference.ts";
 *
 * const run = pl.DataFrame({ mechanism: ["M0", "M3"], mean: [0.2149, 0.75] });
 * const paper = pl.DataFrame({ mechanism: ["M0", "M3"], mean: [0.215, 0.737] });
 * const cells = compareWithReference(run, paper, { keys: ["mechanism"], values: ["mean"] });
 * assert.deepEqual(cells.getColumn("match").toArray(), [true, false]);
 * assert.equal((cells.getColumn("diff").toArray()[1] as number).toFixed(3), "0.013");
 * ```
 *
 * @example Two regimes stay apart, each against its own published value
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { compareWithReference, loadReference } from "./reference.ts";
 *
 * const run = pl.DataFrame({
 *   env: ["bank_run", "bank_run"], regime: ["stable", "contraction"], mechanism: ["M0", "M0"],
 *   mean: [0.215, 0.5],
 * });
 * const paper = pl.concat([loadReference("frail_table2_average"), loadReference("frail_table12_average")]);
 * const cells = compareWithReference(run, paper, { keys: ["env", "mechanism"], values: ["mean"] })
 *   .filter(pl.col("run").isNotNull());
 * assert.deepEqual(cells.select("regime", "run", "paper").toRecords(), [
 *   { regime: "stable", run: 0.215, paper: 0.215 },
 *   { regime: "contraction", run: 0.5, paper: 0 },
 * ]);
 * // Without a regime column in the paper's table, the two regimes are refused.
 * assert.throws(() => compareWithReference(run, paper.drop("regime").head(1), {
 *   keys: ["env", "mechanism"], values: ["mean"],
 * }), /holds 2 regime values \(stable, contraction\)/);
 * ```
 */
export function compareWithReference(
  run: pl.DataFrame,
  paper: pl.DataFrame,
  options: CompareWithReferenceOptions,
): pl.DataFrame {
  const { keys, values, decimals = 3 } = options;
  const pairs = values.map((value) => typeof value === "string" ? [value, value] : value);
  requireColumns(run, [...keys, ...pairs.map(([r]) => r)], "compareWithReference() run table");
  requireColumns(
    paper,
    [...keys, ...pairs.map(([, p]) => p)],
    "compareWithReference() paper table",
  );
  const valueColumns = new Set(pairs.flat());
  const joinedKeys: string[] = [];
  const carried: [string, unknown][] = [];
  for (const key of conditionKeysOf(run)) {
    if (keys.includes(key) || valueColumns.has(key)) continue;
    if (paper.columns.includes(key)) {
      joinedKeys.push(key);
      continue;
    }
    const values = sortKeyValues(key, run.getColumn(key).toArray());
    if (values.length > 1) {
      throw new RangeError(
        `compareWithReference(): the run table holds ${values.length} ${key} values ` +
          `(${values.join(", ")}) but the paper table has no "${key}" column, so each would be ` +
          `compared with the same published value; filter the run to one ${key}, or compare ` +
          `with a paper table that has a "${key}" column`,
      );
    }
    carried.push([key, values[0] ?? null]);
  }
  const cellKeys = [...keys, ...joinedKeys];
  onePerCell(run, cellKeys, "run");
  onePerCell(paper, cellKeys, "paper");
  const keyExprs = cellKeys.map((key) => pl.col(key).cast(pl.Utf8));
  const tolerance = 0.5 * 10 ** -decimals + 1e-9;
  const parts = pairs.map(([runColumn, paperColumn]) => {
    const left = paper.select(
      ...keyExprs,
      pl.col(paperColumn).cast(pl.Float64).alias("paper"),
    ).withRowIndex("__order");
    const right = run.select(...keyExprs, pl.col(runColumn).cast(pl.Float64).alias("run"));
    return left.join(right, { on: cellKeys, how: "full", coalesce: true })
      .withColumns(pl.lit(paperColumn).alias("column"));
  });
  const joined = pl.concat(parts, { how: "vertical" });
  return joined
    .withColumns(
      pl.col("run").sub(pl.col("paper")).alias("diff"),
      pl.col("run").sub(pl.col("paper")).abs().lt(tolerance).fillNull(false).alias("match"),
    )
    .withColumns(pl.col("__order").fillNull(Number.MAX_SAFE_INTEGER))
    .withRowIndex("__position")
    .sort(["__order", "__position"])
    .select(
      ...cellKeys.map((key) => pl.col(key)),
      ...carried.map(([key, value]) => pl.lit(value).alias(key)),
      pl.col("column"),
      pl.col("run"),
      pl.col("paper"),
      pl.col("diff"),
      pl.col("match"),
    );
}

/** Refuses a table with two rows for one cell, naming the columns the first such pair differs in. */
function onePerCell(table: pl.DataFrame, keys: readonly string[], side: "run" | "paper"): void {
  if (keys.length === 0 || table.height < 2) return;
  const cells = table.select(...keys.map((key) => pl.col(key).cast(pl.Utf8)));
  const rows = cells.rows();
  const seen = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) {
    const cell = JSON.stringify(rows[i]);
    const first = seen.get(cell);
    if (first === undefined) {
      seen.set(cell, i);
      continue;
    }
    const a = table.row(first);
    const b = table.row(i);
    const differ = table.columns.filter((_, c) => JSON.stringify(a[c]) !== JSON.stringify(b[c]));
    const where = keys.map((key, k) => `${key} ${JSON.stringify(rows[i][k])}`).join(", ");
    throw new RangeError(
      `compareWithReference(): the ${side} table has two rows for ${where}` +
        ` (they differ in ${differ.length > 0 ? differ.join(", ") : "nothing"}): add the ` +
        `column that tells them apart to keys, or aggregate the table first`,
    );
  }
}

/**
 * The papers' published numbers (`data/reference/*.csv`, see its README for
 * provenance) and a helper that puts a run's table beside the paper's, cell
 * by cell.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import pl from "npm:nodejs-polars@0.25.2";
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
 * @param run The run's table, e.g. from `welfareAverage()`.
 * @param paper The published table, e.g. `loadReference("frail_table2_average")`.
 * @param options Key columns, value columns and printed precision.
 * @returns Columns: the keys, `column`, `run`, `paper`, `diff` (run - paper)
 * and `match`, ordered by the paper's row order, then cells only in the run.
 * @throws {RangeError} If a key or value column is missing from either table.
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
  const keyExprs = keys.map((key) => pl.col(key).cast(pl.Utf8));
  const tolerance = 0.5 * 10 ** -decimals + 1e-9;
  const parts = pairs.map(([runColumn, paperColumn]) => {
    const left = paper.select(
      ...keyExprs,
      pl.col(paperColumn).cast(pl.Float64).alias("paper"),
    ).withRowIndex("__order");
    const right = run.select(...keyExprs, pl.col(runColumn).cast(pl.Float64).alias("run"));
    return left.join(right, { on: [...keys], how: "full", coalesce: true })
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
      ...keys.map((key) => pl.col(key)),
      pl.col("column"),
      pl.col("run"),
      pl.col("paper"),
      pl.col("diff"),
      pl.col("match"),
    );
}

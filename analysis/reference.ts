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
  | "frail_figure3b"
  | "frail_figure4"
  | "frail_figure6"
  | "staghunt_table1"
  | "staghunt_figure1"
  | "staghunt_figure_a5";

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
  "frail_figure3b",
  "frail_figure4",
  "frail_figure6",
  "staghunt_table1",
  "staghunt_figure1",
  "staghunt_figure_a5",
];

const NUMERIC = new Set([
  "welfare",
  "mean",
  "se",
  "rate",
  "lower",
  "upper",
  "match_rate",
  "value",
  "fraction",
  "preflip",
  "public",
  "realised",
  "truthful",
]);
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
   * Decimals the paper prints: a run value rounding to the paper's value is
   * a match (verdict `"printed"`) when neither interval holds it.
   *
   * @default {3}
   */
  decimals?: number;
  /**
   * The run table's columns of the ends of the run's 95% interval, e.g.
   * `["lower", "upper"]`: a published value inside it is a match (verdict
   * `"run"`). Only with one value column.
   *
   * @default {no run interval}
   */
  runInterval?: readonly [string, string];
  /**
   * The paper table's columns of the ends of the published 95% interval
   * (Table 8's Wilson brackets, or mean ± 1.96 SE from `withSeInterval`): a
   * run value inside it is a match (verdict `"paper"`). Only with one value
   * column.
   *
   * @default {no published interval}
   */
  paperInterval?: readonly [string, string];
}

/**
 * How a published cell compares with the run's (the rule of
 * {@linkcode referenceVerdict}, first that holds):
 * - `"run"`: the published value lies inside the run's 95% interval;
 * - `"paper"`: the run's value lies inside the published 95% interval;
 * - `"printed"`: the run's value rounds to the published value at the
 *   paper's printed precision;
 * - `"outside"`: none of these;
 * - `"no_run"`: the run has no value for the cell; `"no_paper"`: the paper
 *   has none (a cell only in the run).
 */
export type ReferenceVerdict = "run" | "paper" | "printed" | "outside" | "no_run" | "no_paper";

/** Verdicts that count as a match (`match` true). */
export const MATCHING_VERDICTS: readonly ReferenceVerdict[] = ["run", "paper", "printed"];

/** One cell's values for {@linkcode referenceVerdict}. */
export interface VerdictCell {
  /** The run's value, or `null` for none. */
  run: number | null;
  /** The published value, or `null` for none. */
  paper: number | null;
  /** The run's 95% interval, or `null` when the run gives none. */
  runInterval?: readonly [number | null, number | null] | null;
  /** The published 95% interval, or `null` when the paper prints none. */
  paperInterval?: readonly [number | null, number | null] | null;
  /** Decimals the paper prints. Default 3. */
  decimals?: number;
}

/** Slack of the interval and rounding comparisons, for floating-point noise. */
const EPS = 1e-9;

/**
 * The verdict of one published cell against the run (see
 * {@linkcode ReferenceVerdict} for the rule). Interval ends are inclusive;
 * an interval with a null end is no interval.
 *
 * @example
 * ```ts
 * import { referenceVerdict } from "./reference.ts";
 *
 * // 0.215 lies inside the run's [0.1, 0.3].
 * if (referenceVerdict({ run: 0.2, paper: 0.215, runInterval: [0.1, 0.3] }) !== "run") throw new Error();
 * // Outside the run's interval, but the run lies in the paper's [0.0, 0.5].
 * if (referenceVerdict({ run: 0.2, paper: 0.4, runInterval: [0.19, 0.21], paperInterval: [0, 0.5] }) !== "paper") throw new Error();
 * // No intervals: 0.2149 prints as 0.215.
 * if (referenceVerdict({ run: 0.2149, paper: 0.215 }) !== "printed") throw new Error();
 * if (referenceVerdict({ run: 0.3, paper: 0.215 }) !== "outside") throw new Error();
 * if (referenceVerdict({ run: null, paper: 0.215 }) !== "no_run") throw new Error();
 * ```
 */
export function referenceVerdict(cell: VerdictCell): ReferenceVerdict {
  const { run, paper, decimals = 3 } = cell;
  if (paper === null || !Number.isFinite(paper)) return "no_paper";
  if (run === null || !Number.isFinite(run)) return "no_run";
  const inside = (x: number, i: readonly [number | null, number | null] | null | undefined) =>
    i != null && i[0] !== null && i[1] !== null && Number.isFinite(i[0]) &&
    Number.isFinite(i[1]) && x >= i[0] - EPS && x <= i[1] + EPS;
  if (inside(paper, cell.runInterval)) return "run";
  if (inside(run, cell.paperInterval)) return "paper";
  if (Math.abs(run - paper) < 0.5 * 10 ** -decimals + EPS) return "printed";
  return "outside";
}

/** Options for {@linkcode withSeInterval}. */
export interface WithSeIntervalOptions {
  /** Column of the estimate. @default {"mean"} */
  mean?: string;
  /** Column of its standard error. @default {"se"} */
  se?: string;
  /** Names of the new columns. @default {["lower", "upper"]} */
  into?: readonly [string, string];
}

/**
 * Adds a normal 95% interval, estimate ± 1.96 SE, to a table with an
 * estimate and its standard error (such as the papers' "mean ± SE" cells or
 * `welfareAverage()`). A null SE (one model) gives null ends: no interval.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { withSeInterval } from "./reference.ts";
 *
 * const t = withSeInterval(pl.DataFrame({ mean: [0.5, 0.2], se: [0.1, null] }));
 * const [a, b] = t.toRecords();
 * if ((a.lower as number).toFixed(3) !== "0.304" || b.upper !== null) throw new Error();
 * ```
 */
export function withSeInterval(
  table: pl.DataFrame,
  options: WithSeIntervalOptions = {},
): pl.DataFrame {
  const { mean = "mean", se = "se", into = ["lower", "upper"] } = options;
  requireColumns(table, [mean, se], "withSeInterval()");
  const m = pl.col(mean).cast(pl.Float64);
  const s = pl.col(se).cast(pl.Float64).mul(1.96);
  return table.withColumns(m.sub(s).alias(into[0]), m.add(s).alias(into[1]));
}

/**
 * Puts a run's table beside the paper's, cell by cell: one row per cell and
 * compared column, with the run's value, the paper's value, their
 * difference, a verdict and whether it is a match. The verdict rule
 * ({@linkcode referenceVerdict}): `"run"` when the published value lies in
 * the run's 95% interval (`runInterval`), else `"paper"` when the run's
 * value lies in the published 95% interval (`paperInterval`), else
 * `"printed"` when the run's value rounds to the published one at
 * `decimals`, else `"outside"`; `match` is true for the first three. Cells
 * present in only one table appear with a null on the other side (verdict
 * `"no_run"` or `"no_paper"`, `match` false).
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
 * then those carried), `column`, `run`, `paper`, `diff` (run - paper),
 * `run_lower` and `run_upper` (with `runInterval`), `paper_lower` and
 * `paper_upper` (with `paperInterval`), `match` and `verdict`, ordered by the
 * paper's row order, then cells only in the run.
 * @throws {RangeError} If a key, value or interval column is missing from either table,
 * an interval is asked for with several value columns,
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
  const { keys, values, decimals = 3, runInterval, paperInterval } = options;
  const pairs = values.map((value) => typeof value === "string" ? [value, value] : value);
  if ((runInterval || paperInterval) && pairs.length !== 1) {
    throw new RangeError(
      `compareWithReference(): an interval applies to one value column, got ${pairs.length} ` +
        `(${pairs.map(([r]) => r).join(", ")}); compare one column at a time`,
    );
  }
  requireColumns(
    run,
    [...keys, ...pairs.map(([r]) => r), ...(runInterval ?? [])],
    "compareWithReference() run table",
  );
  requireColumns(
    paper,
    [...keys, ...pairs.map(([, p]) => p), ...(paperInterval ?? [])],
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
  const ends = (interval: readonly [string, string] | undefined, prefix: string) =>
    interval
      ? [
        pl.col(interval[0]).cast(pl.Float64).alias(`${prefix}_lower`),
        pl.col(interval[1]).cast(pl.Float64).alias(`${prefix}_upper`),
      ]
      : [];
  const parts = pairs.map(([runColumn, paperColumn], part) => {
    const left = paper.select(
      ...keyExprs,
      pl.col(paperColumn).cast(pl.Float64).alias("paper"),
      ...ends(paperInterval, "paper"),
    ).withRowIndex("__order");
    const right = run.select(
      ...keyExprs,
      pl.col(runColumn).cast(pl.Float64).alias("run"),
      ...ends(runInterval, "run"),
    ).withRowIndex("__run");
    // A full join returns unmatched rows in an order of its own, from call to
    // call: the paper's row order, then the value column, then the run's row
    // order set it.
    return left.join(right, { on: cellKeys, how: "full", coalesce: true })
      .withColumns(pl.lit(paperColumn).alias("column"), pl.lit(part).alias("__part"));
  });
  const joined = pl.concat(parts, { how: "vertical" })
    .withColumns(pl.col("__order").fillNull(Number.MAX_SAFE_INTEGER))
    .sort(["__order", "__part", "__run"]);
  const num = (name: string) => joined.getColumn(name).toArray() as (number | null)[];
  const runs = num("run");
  const papers = num("paper");
  const rl = runInterval ? num("run_lower") : null;
  const ru = runInterval ? num("run_upper") : null;
  const plo = paperInterval ? num("paper_lower") : null;
  const pu = paperInterval ? num("paper_upper") : null;
  const verdicts = runs.map((r, i) =>
    referenceVerdict({
      run: r,
      paper: papers[i],
      runInterval: rl && ru ? [rl[i], ru[i]] : null,
      paperInterval: plo && pu ? [plo[i], pu[i]] : null,
      decimals,
    })
  );
  return joined
    .withColumns(
      pl.col("run").sub(pl.col("paper")).alias("diff"),
      pl.Series("match", verdicts.map((v) => MATCHING_VERDICTS.includes(v)), pl.Bool),
      pl.Series("verdict", verdicts, pl.Utf8),
    )
    .select(
      ...cellKeys.map((key) => pl.col(key)),
      ...carried.map(([key, value]) => pl.lit(value).alias(key)),
      pl.col("column"),
      pl.col("run"),
      pl.col("paper"),
      pl.col("diff"),
      ...(runInterval ? [pl.col("run_lower"), pl.col("run_upper")] : []),
      ...(paperInterval ? [pl.col("paper_lower"), pl.col("paper_upper")] : []),
      pl.col("match"),
      pl.col("verdict"),
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

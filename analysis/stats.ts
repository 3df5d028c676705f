/**
 * Statistics used by the paper tables: Wilson score intervals, means with
 * standard errors, normal-approximation confidence intervals across
 * episodes, and the papers' two-stage "mean across model means ± SE"
 * aggregation.
 *
 * Choices where the papers leave a detail open:
 * - Standard deviations are sample standard deviations (divisor n - 1), as
 *   in the papers' "SE = sample sd / sqrt(number of models)"; a single value
 *   has SE 0.
 * - "95% confidence intervals across episodes" (FRAIL Figures 4 and 6) are
 *   normal-approximation intervals, mean ± 1.96 · sd / sqrt(n): the papers
 *   do not name the method, and with the 20-35 episodes behind each point
 *   the t and normal quantiles differ by under 5%.
 *
 * @module
 */

import pl from "npm:nodejs-polars@0.25.2";

/**
 * The two-sided 95% normal quantile used by default.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Z_95 } from "./stats.ts";
 *
 * assert.equal(Z_95, 1.96);
 * ```
 */
export const Z_95 = 1.96;

/** Options for {@linkcode wilson}. */
export interface WilsonOptions {
  /**
   * Normal quantile of the interval; 1.96 gives a 95% interval.
   *
   * @default {1.96}
   */
  z?: number;
}

/** A proportion with its interval. */
export interface ProportionInterval {
  /** The observed proportion k / n. */
  rate: number;
  /** Lower end of the interval. */
  lower: number;
  /** Upper end of the interval. */
  upper: number;
}

/**
 * The Wilson score interval of a proportion: `k` successes out of `n` trials.
 *
 * @param k Successes, an integer from 0 to `n`.
 * @param n Trials, a positive integer.
 * @param options The normal quantile (default 1.96: a 95% interval).
 * @returns The proportion and the interval's ends.
 * @throws {RangeError} If `n` is not a positive integer, `k` is not an
 * integer from 0 to `n`, or `z` is not a positive finite number.
 *
 * @example One success out of five (FRAIL Table 8: 0.20 [0.04, 0.62])
 * ```ts
 * import assert from "node:assert/strict";
 * import { wilson } from "./stats.ts";
 *
 * const { rate, lower, upper } = wilson(1, 5);
 * assert.equal(rate, 0.2);
 * assert.equal(lower.toFixed(2), "0.04");
 * assert.equal(upper.toFixed(2), "0.62");
 * ```
 */
export function wilson(k: number, n: number, options: WilsonOptions = {}): ProportionInterval {
  const { z = Z_95 } = options;
  if (!(Number.isInteger(n) && n > 0)) {
    throw new RangeError(`Wilson interval needs a positive integer n: received ${n}`);
  }
  if (!(Number.isInteger(k) && k >= 0 && k <= n)) {
    throw new RangeError(`Wilson interval needs an integer k from 0 to n (${n}): received ${k}`);
  }
  if (!(Number.isFinite(z) && z > 0)) {
    throw new RangeError(`Wilson interval needs a positive finite z: received ${z}`);
  }
  const p = k / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))) / denominator;
  return { rate: p, lower: Math.max(0, center - half), upper: Math.min(1, center + half) };
}

/** Mean, sample standard deviation and standard error of some values. */
export interface MeanSe {
  /** Arithmetic mean (NaN for no values). */
  mean: number;
  /** Sample standard deviation, divisor n - 1 (0 for one value, NaN for none). */
  sd: number;
  /** Standard error sd / sqrt(n) (0 for one value, NaN for none). */
  se: number;
  /** Number of values. */
  n: number;
}

/**
 * Mean, sample standard deviation and standard error of `values`.
 *
 * @param values Finite numbers.
 * @returns The summary; NaN statistics for an empty list.
 * @throws {TypeError} If a value is not a finite number.
 *
 * @example FRAIL Table 2, bank run M0: 0.215 ± 0.139 across seven models
 * ```ts
 * import assert from "node:assert/strict";
 * import { meanSe } from "./stats.ts";
 *
 * const { mean, se, n } = meanSe([0, 0, 0, 0, 0.174, 1, 0.333]);
 * assert.equal(n, 7);
 * assert.equal(mean.toFixed(3), "0.215");
 * assert.equal(se.toFixed(3), "0.139");
 * ```
 */
export function meanSe(values: readonly number[]): MeanSe {
  values.forEach((value, index) => {
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw new TypeError(`Value ${index} is not a finite number: ${String(value)}`);
    }
  });
  const n = values.length;
  if (n === 0) return { mean: NaN, sd: NaN, se: NaN, n };
  const mean = values.reduce((sum, value) => sum + value, 0) / n;
  if (n === 1) return { mean, sd: 0, se: 0, n };
  const sd = Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1));
  return { mean, sd, se: sd / Math.sqrt(n), n };
}

/** A mean with its cluster-robust standard error. */
export interface ClusteredMeanSe {
  /** Arithmetic mean over every value (NaN for no values). */
  mean: number;
  /** Cluster-robust standard error; `null` with fewer than two clusters. */
  se: number | null;
  /** Number of values. */
  n: number;
  /** Number of clusters. */
  clusters: number;
}

/**
 * The mean of `values` with its cluster-robust (CR1) standard error, for
 * values that are not independent within a cluster (the turns of one
 * episode): with residuals e = x - mean summed per cluster into S_g, over G
 * clusters, se = sqrt(G / (G - 1) · Σ S_g²) / n. Fewer than two clusters
 * have no spread to estimate: `se` is `null`.
 *
 * @param values Finite numbers.
 * @param clusters The cluster of each value, in the same order.
 * @returns The mean, its clustered SE, and the counts.
 * @throws {TypeError} If a value is not a finite number.
 * @throws {RangeError} If the two lists differ in length.
 *
 * @example Two episodes of two turns: residuals sum to -1 and +1
 * ```ts
 * import assert from "node:assert/strict";
 * import { clusteredMeanSe } from "./stats.ts";
 *
 * const r = clusteredMeanSe([0, 1, 1, 2], ["a", "a", "b", "b"]);
 * assert.equal(r.mean, 1);
 * assert.equal(r.se, Math.sqrt(2 * 2) / 4); // sqrt(2/1 · (1 + 1)) / 4 = 0.5
 * assert.equal(clusteredMeanSe([0, 1], ["a", "a"]).se, null);
 * ```
 */
export function clusteredMeanSe(
  values: readonly number[],
  clusters: readonly string[],
): ClusteredMeanSe {
  if (values.length !== clusters.length) {
    throw new RangeError(
      `clusteredMeanSe() needs one cluster per value: got ${values.length} values and ` +
        `${clusters.length} clusters`,
    );
  }
  const { mean, n } = meanSe(values);
  const sums = new Map<string, number>();
  values.forEach((x, i) => sums.set(clusters[i], (sums.get(clusters[i]) ?? 0) + (x - mean)));
  const g = sums.size;
  if (g < 2) return { mean, se: null, n, clusters: g };
  let total = 0;
  for (const s of sums.values()) total += s * s;
  return { mean, se: Math.sqrt(g / (g - 1) * total) / n, n, clusters: g };
}

/** Options for {@linkcode meanCi}. */
export interface MeanCiOptions {
  /**
   * Normal quantile of the interval.
   *
   * @default {1.96}
   */
  z?: number;
}

/** A mean with a confidence interval. */
export interface MeanInterval {
  /** Arithmetic mean. */
  mean: number;
  /** mean - z · se. */
  lower: number;
  /** mean + z · se. */
  upper: number;
  /** Number of values. */
  n: number;
}

/**
 * A normal-approximation confidence interval of a mean: mean ± z · sd /
 * sqrt(n), with the sample standard deviation.
 *
 * @param values Finite numbers.
 * @param options The normal quantile (default 1.96: 95%).
 * @returns The mean and interval; a single value gives a zero-width interval.
 * @throws {TypeError} If a value is not a finite number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { meanCi } from "./stats.ts";
 *
 * const ci = meanCi([1, 2, 3, 4]); // sd = 1.291, se = 0.645
 * assert.equal(ci.mean, 2.5);
 * assert.equal(ci.lower.toFixed(3), "1.235");
 * assert.equal(ci.upper.toFixed(3), "3.765");
 * ```
 */
export function meanCi(values: readonly number[], options: MeanCiOptions = {}): MeanInterval {
  const { z = Z_95 } = options;
  const { mean, se, n } = meanSe(values);
  return { mean, lower: mean - z * se, upper: mean + z * se, n };
}

/** Options for {@linkcode acrossModelMeans}. */
export interface AcrossModelMeansOptions {
  /** Columns that define a table cell, e.g. `["env", "mechanism"]`. */
  by: readonly string[];
  /** The numeric column to average, e.g. `"welfare_realization"`. */
  value: string;
  /**
   * The column naming the model.
   *
   * @default {"model"}
   */
  model?: string;
}

/**
 * The papers' two-stage aggregation: the mean of `value` per model within
 * each cell, then the unweighted mean across those model means with its
 * standard error (sample sd of the model means / sqrt(number of models)).
 *
 * Rows with a null `value` are ignored; a cell with one model has a null
 * `se` (one mean has no spread to estimate). A frame that already holds one row
 * per model and cell (such as a published table) passes through the first
 * stage unchanged. The model means are combined in model order, so the
 * result is the same to the last bit on every call.
 *
 * @param df Rows with the `by` columns, the model column and `value`.
 * @param options The cell columns, the value column and the model column.
 * @returns One row per cell, sorted by the `by` columns, with the `by`
 * columns and `mean`, `se` and `models` (the number of model means).
 * @throws {RangeError} If a named column is missing.
 *
 * @example Two models, two episodes each
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { acrossModelMeans } from "./stats.ts";
 *
 * const episodes = pl.DataFrame({
 *   env: ["bank_run", "bank_run", "bank_run", "bank_run"],
 *   model: ["a", "a", "b", "b"],
 *   w: [0, 1, 1, 1],
 * });
 * const out = acrossModelMeans(episodes, { by: ["env"], value: "w" });
 * // model means 0.5 and 1: mean 0.75, sd 0.354, se 0.25
 * assert.deepEqual(out.toRecords(), [{ env: "bank_run", mean: 0.75, se: 0.25, models: 2 }]);
 * ```
 */
export function acrossModelMeans(df: pl.DataFrame, options: AcrossModelMeansOptions): pl.DataFrame {
  const { by, value, model = "model" } = options;
  requireColumns(df, [...by, model, value], "acrossModelMeans()");
  // Sorted: Polars returns groups in an order that varies from call to call,
  // and the second stage sums the model means in the order it sees them.
  const modelMeans = df.filter(pl.col(value).isNotNull())
    .groupBy([...by, model])
    .agg(pl.col(value).cast(pl.Float64).mean().alias("model_mean"))
    .sort([...by, model]);
  return modelMeans.groupBy([...by]).agg(
    pl.col("model_mean").mean().alias("mean"),
    // One model mean has no spread to estimate: its SE is null, not 0.
    pl.col("model_mean").std().alias("sd"),
    pl.col("model_mean").count().cast(pl.Int32).alias("models"),
  ).select(
    ...by.map((name) => pl.col(name)),
    pl.col("mean"),
    pl.col("sd").div(pl.col("models").cast(pl.Float64).pow(0.5)).alias("se"),
    pl.col("models"),
  ).sort([...by]);
}

/**
 * Polars aggregations for a mean with a normal-approximation confidence
 * interval across rows: `mean`, `lower`, `upper` and `n` (non-null rows).
 *
 * @param column The numeric column to summarize.
 * @param options The normal quantile (default 1.96: 95%).
 * @returns Four aliased expressions for `groupBy(...).agg(...)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { ciAggregations } from "./stats.ts";
 *
 * const df = pl.DataFrame({ g: ["a", "a", "a", "a"], x: [1, 2, 3, 4] });
 * const row = df.groupBy("g").agg(...ciAggregations("x")).toRecords()[0];
 * assert.equal(row.mean, 2.5);
 * assert.equal((row.lower as number).toFixed(3), "1.235");
 * assert.equal(row.n, 4);
 * ```
 */
export function ciAggregations(column: string, options: MeanCiOptions = {}): pl.Expr[] {
  const { z = Z_95 } = options;
  const x = pl.col(column).cast(pl.Float64);
  const n = x.count().cast(pl.Float64);
  const half = x.std().fillNull(0).div(n.pow(0.5)).mul(z);
  return [
    x.mean().alias("mean"),
    x.mean().sub(half).alias("lower"),
    x.mean().add(half).alias("upper"),
    x.count().cast(pl.Int32).alias("n"),
  ];
}

/**
 * Throws a `RangeError` naming the first of `columns` that `df` lacks.
 *
 * @param df The frame to check (eager or lazy).
 * @param columns Column names it must have.
 * @param where The caller, used in the message, e.g. `"welfareTable()"`.
 * @throws {RangeError} If a column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { requireColumns } from "./stats.ts";
 *
 * assert.throws(
 *   () => requireColumns(pl.DataFrame({ a: [1] }), ["a", "b"], "f()"),
 *   /f\(\) needs a column "b"/,
 * );
 * ```
 */
export function requireColumns(
  df: { readonly columns: string[] },
  columns: readonly string[],
  where: string,
): void {
  const present = new Set(df.columns);
  for (const name of columns) {
    if (!present.has(name)) {
      throw new RangeError(
        `${where} needs a column "${name}": the frame has ${
          df.columns.map((c) => `"${c}"`).join(", ") || "no columns"
        }`,
      );
    }
  }
}

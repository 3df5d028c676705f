/**
 * What a run's model calls used and cost, from the `calls` frame of
 * `loadRuns()` (one row per model call, read from the `llm_call` events):
 * calls, cache hits, failures, attempts, tokens and estimated cost, by model
 * and by any condition key, with a totals row.
 *
 * Unknown is never 0: a token sum is null when one of its calls' counts is
 * unknown (the provider sent no valid counts: `usage_warning`), and a cost
 * sum is null when one of its calls has no known cost (a model without a
 * price); `unknown_tokens` and `unpriced` count those calls. Cache hits count
 * their tokens at cost 0 (the log's own accounting, see
 * `engine/agents/llm/accounting.ts`).
 *
 * Costs in different currencies are never summed: the rows are grouped by
 * `currency` too (the calls frame's: the run folder's manifest's; null where
 * none is recorded, and for a frame without the column), and the totals are
 * one row per currency.
 *
 * @module
 */

import pl from "npm:nodejs-polars@0.25.2";
import { sortByConditions } from "./conditions.ts";
import { requireColumns } from "./stats.ts";

/** Options for {@linkcode usageTable}. */
export interface UsageTableOptions {
  /**
   * Columns of the `calls` frame to group by: `model_id` (the model
   * configuration that answered), `provider`, `provider_model`, `role`, and
   * any key column (`env`, `mechanism`, `regime`, `model`: the episode's
   * participants' policy, ...).
   *
   * @default {["model_id"]}
   */
  by?: readonly string[];
  /**
   * Add last rows summing every call, one per currency, with `"total"` in
   * the first `by` column (other than `currency`) and null in the others.
   * Grouped by `currency` alone, the groups are the totals: none is added.
   *
   * @default {true}
   */
  totals?: boolean;
}

/** The columns {@linkcode usageTable} reads from the `calls` frame. */
const USAGE_COLUMNS = [
  "model_id",
  "status",
  "cache",
  "attempts",
  "tokens_in",
  "tokens_out",
  "tokens_reasoning",
  "cost",
  "latency_ms",
] as const;

/** Sums that are null once one of their calls' values is unknown. */
const KNOWN_SUMS = ["tokens_in", "tokens_out", "tokens_reasoning", "cost"] as const;

/**
 * Sums a run's model calls by model and condition.
 *
 * @param frames The frames of `loadRuns(dir, { frames: ["calls"] })`, or the
 * `calls` frame itself. Rows without a model call (rule-based agents' calls)
 * are left out.
 * @param options Columns to group by and whether to add a totals row.
 * @returns One row per group and currency (in the papers' order of
 * conditions, then by value) and the totals rows, one per currency; the `by`
 * columns as strings, `currency` (unless `by` names it), then `calls`,
 * `cache_hits`, `failed` (calls that failed after their last retry),
 * `attempts` (network attempts), `tokens_in`, `tokens_out`,
 * `tokens_reasoning`, `unknown_tokens` (calls whose counts are unknown),
 * `cost`, `unpriced` (calls whose cost is unknown) and `mean_latency_ms`
 * (over calls that went to the network; null without any).
 * @throws {RangeError} If there is no `calls` frame or it lacks a column.
 *
 * @example Two models, one with a price
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { usageTable } from "./usage.ts";
 *
 * const calls = pl.DataFrame({
 *   mechanism: ["M0", "M0", "M3", "M0"],
 *   model_id: ["a", "a", "a", "b"],
 *   status: ["ok", "ok", "ok", "ok"],
 *   cache: ["miss", "hit", "miss", "miss"],
 *   attempts: [1, 0, 2, 1],
 *   tokens_in: [100, 100, 120, 80],
 *   tokens_out: [10, 10, 12, 8],
 *   tokens_reasoning: [0, 0, 0, 4],
 *   cost: [0.5, 0, 0.25, null],
 *   currency: ["USD", "USD", "USD", "USD"],
 *   latency_ms: [30, 0, 50, 20],
 * });
 * const table = usageTable(calls);
 * assert.deepEqual(table.select("model_id", "currency", "calls", "cache_hits", "tokens_in", "cost", "unpriced").toRecords(), [
 *   { model_id: "a", currency: "USD", calls: 3, cache_hits: 1, tokens_in: 320, cost: 0.75, unpriced: 0 },
 *   { model_id: "b", currency: "USD", calls: 1, cache_hits: 0, tokens_in: 80, cost: null, unpriced: 1 },
 *   { model_id: "total", currency: "USD", calls: 4, cache_hits: 1, tokens_in: 400, cost: null, unpriced: 1 },
 * ]);
 * assert.deepEqual(table.getColumn("mean_latency_ms").toArray(), [40, 20, 100 / 3]);
 * const byMechanism = usageTable(calls, { by: ["model_id", "mechanism"], totals: false });
 * assert.deepEqual(byMechanism.select("model_id", "mechanism", "calls").rows(), [
 *   ["a", "M0", 2], ["a", "M3", 1], ["b", "M0", 1],
 * ]);
 * ```
 */
export function usageTable(
  frames: pl.DataFrame | { readonly calls?: pl.DataFrame },
  options: UsageTableOptions = {},
): pl.DataFrame {
  const calls = isFrame(frames) ? frames : frames.calls;
  if (calls === undefined) {
    throw new RangeError(
      `usageTable() needs the calls frame: load it with loadRuns(dir, { frames: ["calls"] })`,
    );
  }
  const { by = ["model_id"], totals = true } = options;
  if (by.length === 0) throw new RangeError("usageTable() needs at least one column in by");
  requireColumns(calls, [...USAGE_COLUMNS, ...by], "usageTable() calls frame");
  const rows = withCurrency(calls.filter(pl.col("model_id").isNotNull()));
  const keys = by.includes("currency") ? [...by] : [...by, "currency"];
  const groups = sortByConditions(finish(rows.groupBy(keys).agg(...aggregations())), keys)
    .select(...keys.map((c) => pl.col(c).cast(pl.Utf8)), ...OUTPUT.map((c) => pl.col(c)));
  // Grouped by currency alone, the groups are the totals.
  const label = keys.find((c) => c !== "currency");
  if (!totals || label === undefined) return groups;
  // One totals row per currency (a single row of zeros without any call).
  const summed = rows.height === 0
    ? rows.select(pl.lit(null).cast(pl.Utf8).alias("currency"), ...aggregations())
    : sortByConditions(rows.groupBy("currency").agg(...aggregations()), ["currency"]);
  const total = finish(summed).select(
    ...keys.map((c) =>
      c === "currency"
        ? pl.col(c).cast(pl.Utf8)
        : pl.lit(c === label ? "total" : null).cast(pl.Utf8).alias(c)
    ),
    ...OUTPUT.map((c) => pl.col(c)),
  );
  return pl.concat([groups, total], { how: "vertical" });
}

/** The calls with a `currency` column: a frame without one records none (null). */
function withCurrency(calls: pl.DataFrame): pl.DataFrame {
  return calls.columns.includes("currency")
    ? calls
    : calls.withColumn(pl.lit(null).cast(pl.Utf8).alias("currency"));
}

function isFrame(value: pl.DataFrame | { readonly calls?: pl.DataFrame }): value is pl.DataFrame {
  return typeof (value as pl.DataFrame).groupBy === "function";
}

const OUTPUT = [
  "calls",
  "cache_hits",
  "failed",
  "attempts",
  "tokens_in",
  "tokens_out",
  "tokens_reasoning",
  "unknown_tokens",
  "cost",
  "unpriced",
  "mean_latency_ms",
] as const;

function aggregations(): pl.Expr[] {
  const count = (expr: pl.Expr, name: string) => expr.cast(pl.Int64).sum().alias(name);
  return [
    pl.col("model_id").count().cast(pl.Int64).alias("calls"),
    count(pl.col("cache").eq(pl.lit("hit")), "cache_hits"),
    count(pl.col("status").eq(pl.lit("error")), "failed"),
    pl.col("attempts").cast(pl.Int64).sum().alias("attempts"),
    ...KNOWN_SUMS.flatMap((c) => [
      pl.col(c).sum().alias(c),
      pl.col(c).isNull().cast(pl.Int64).sum().alias(`__${c}_unknown`),
    ]),
    pl.col("latency_ms").filter(pl.col("cache").neq(pl.lit("hit"))).cast(pl.Float64).sum()
      .alias("__latency"),
    count(pl.col("cache").neq(pl.lit("hit")), "__network"),
  ];
}

/** Nulls the sums with an unknown part and derives the counts of unknowns and the mean latency. */
function finish(df: pl.DataFrame): pl.DataFrame {
  return df.withColumns(
    ...KNOWN_SUMS.map((c) =>
      pl.when(pl.col(`__${c}_unknown`).gt(0)).then(pl.lit(null)).otherwise(pl.col(c))
        .cast(c === "cost" ? pl.Float64 : pl.Int64).alias(c)
    ),
    pl.col("__tokens_in_unknown").alias("unknown_tokens"),
    pl.col("__cost_unknown").alias("unpriced"),
    pl.when(pl.col("__network").gt(0)).then(pl.col("__latency").div(pl.col("__network")))
      .otherwise(pl.lit(null)).cast(pl.Float64).alias("mean_latency_ms"),
  );
}

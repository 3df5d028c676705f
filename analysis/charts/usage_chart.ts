/**
 * What a run's model calls cost and used, as a picture: one horizontal bar
 * per model (and condition, when asked), estimated cost on the left, prompt
 * and completion tokens stacked on the right. A cost or token sum that is
 * unknown (a model without a price, a provider that sent no valid counts) is
 * written as such beside an empty bar, never drawn as 0. The cost axis names
 * its currency (the calls frame's `currency`); calls in more than one
 * currency are refused, never drawn on one axis.
 *
 * @module
 */

import { finishChart } from "./_finish.ts";
import { modelColors } from "./_palette.ts";
import { chartValues, checkSize } from "./interval.ts";
import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from "./spec.ts";
import { usageTable } from "../usage.ts";
import type pl from "npm:nodejs-polars@0.25.2";

/** Options for {@linkcode usageChart}. */
export interface UsageChartOptions {
  /**
   * Condition columns of the `calls` frame to split each model's bar by
   * (`mechanism`, `regime`, `env`, ...), shown after the model in its label.
   *
   * @default {[] (one bar per model)}
   */
  by?: readonly string[];
  /** Chart title. @default {"Model calls: estimated cost and tokens"} */
  title?: string;
  /** Width of each of the two panels in pixels. @default {260} */
  width?: number;
  /** Height of one bar's row in pixels. @default {22} */
  rowHeight?: number;
}

/**
 * Builds the chart of a run's model calls: cost and tokens by model and
 * condition, summed by {@linkcode usageTable}.
 *
 * @param data The frames of `loadRuns(dir, { frames: ["calls"] })`, or the
 * `calls` frame itself.
 * @param options Conditions to split by, title and size.
 * @returns A Vega-Lite v5 spec: two panels side by side sharing the bars'
 * labels.
 * @throws {RangeError} If the frame lacks a column, its calls are in more
 * than one currency (filter it by `currency` first), or a size is not a
 * positive integer.
 *
 * @example Cost and tokens of two models, one without a price
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { renderSvg } from "./render.ts";
 * import { usageChart } from "./usage_chart.ts";
 *
 * const calls = pl.DataFrame({
 *   mechanism: ["M0", "M3", "M0"],
 *   model_id: ["a", "a", "b"],
 *   status: ["ok", "ok", "ok"],
 *   cache: ["miss", "miss", "miss"],
 *   attempts: [1, 1, 1],
 *   tokens_in: [100, 120, 80],
 *   tokens_out: [10, 12, 8],
 *   tokens_reasoning: [0, 0, 0],
 *   cost: [0.5, 0.25, null],
 *   currency: ["USD", "USD", "USD"],
 *   latency_ms: [30, 50, 20],
 * });
 * const spec = usageChart(calls, { by: ["mechanism"] });
 * const svg = await renderSvg(spec);
 * assert.ok(svg.includes(">a · M3</text>") && svg.includes(">no price</text>"));
 * assert.ok(svg.includes(">estimated cost (USD)</text>"));
 * ```
 */
export function usageChart(
  data: pl.DataFrame | { readonly calls?: pl.DataFrame },
  options: UsageChartOptions = {},
): VegaLiteSpec {
  const {
    by = [],
    title = "Model calls: estimated cost and tokens",
    width = 260,
    rowHeight = 22,
  } = options;
  checkSize("width", width);
  checkSize("rowHeight", rowHeight);
  // Only what the chart draws: the mean latency (a wall time) would make the
  // spec differ between two runs of the same grid.
  const table = chartValues(
    usageTable(data, { by: ["model_id", ...by], totals: false }).drop("mean_latency_ms"),
  );
  const currency = oneCurrency(table.map((row) => row.currency as string | null));
  const rows: Record<string, unknown>[] = table.map((row) => ({
    ...row,
    // A game without the condition (a Stag Hunt has no mechanism) says so.
    label: [row.model_id, ...by.map((key) => row[key] ?? `no ${key}`)].map(String).join(" · "),
    cost_text: row.cost === null
      ? "no price"
      : `${formatCost(row.cost as number)}${currency === null ? "" : ` ${currency}`}`,
    tokens_text: row.tokens_in === null || row.tokens_out === null
      ? "unknown"
      : `${(row.tokens_in as number) + (row.tokens_out as number)}`,
  }));
  const labels = rows.map((row) => row.label);
  const tokens = rows.flatMap((row) => [
    { label: row.label, kind: "prompt", tokens: row.tokens_in },
    { label: row.label, kind: "completion", tokens: row.tokens_out },
  ]);
  const colors = modelColors(rows.map((row) => row.model_id));
  const y = {
    field: "label",
    type: "nominal",
    title: null,
    sort: labels,
    axis: { labelLimit: 0 },
  } as const;
  const height = rowHeight * Math.max(1, rows.length);
  const tooltip = [
    { field: "label", title: "model" },
    { field: "calls", type: "quantitative" },
    { field: "cache_hits", type: "quantitative", title: "cache hits" },
    { field: "failed", type: "quantitative" },
    { field: "cost_text", title: "cost" },
    { field: "tokens_text", title: "tokens" },
  ];
  return finishChart({
    $schema: VEGA_LITE_SCHEMA,
    title,
    hconcat: [
      {
        width,
        height,
        data: { values: rows },
        layer: [
          {
            mark: { type: "bar" },
            encoding: {
              y,
              x: {
                field: "cost",
                type: "quantitative",
                title: `estimated cost (${currency ?? "currency not recorded"})`,
              },
              color: {
                field: "model_id",
                type: "nominal",
                scale: colors,
                legend: null,
              },
              tooltip,
            },
          },
          {
            mark: { type: "text", align: "left", dx: 4, fontSize: 10 },
            encoding: {
              y,
              x: { datum: 0, type: "quantitative" },
              text: { field: "cost_text" },
              color: { value: "#333333" },
            },
            transform: [{ filter: "datum.cost === null" }],
          },
        ],
      },
      {
        width,
        height,
        layer: [
          {
            data: { values: tokens },
            mark: { type: "bar" },
            encoding: {
              y: { ...y, axis: null },
              x: { field: "tokens", type: "quantitative", title: "tokens", stack: "zero" },
              color: {
                field: "kind",
                type: "nominal",
                title: "tokens",
                scale: { domain: ["prompt", "completion"], range: ["#9ecae9", "#4c78a8"] },
              },
              order: { field: "kind", sort: "descending" },
            },
          },
          {
            data: { values: rows },
            mark: { type: "text", align: "left", dx: 4, fontSize: 10 },
            encoding: {
              y: { ...y, axis: null },
              x: { datum: 0, type: "quantitative" },
              text: { field: "tokens_text" },
              color: { value: "#333333" },
            },
            transform: [{ filter: "datum.tokens_text === 'unknown'" }],
          },
        ],
      },
    ],
    resolve: { scale: { color: "independent" } },
  } as VegaLiteSpec);
}

/**
 * The one currency of the chart's rows (null: not recorded, or no rows).
 * Rows in two (a known one and an unrecorded one included) cannot share an
 * axis: that is an error naming them.
 */
function oneCurrency(codes: readonly (string | null)[]): string | null {
  const distinct = [...new Set(codes)];
  if (distinct.length <= 1) return distinct[0] ?? null;
  const named = distinct.map((c) => c ?? "not recorded").sort();
  const code = distinct.filter((c) => c !== null).sort()[0];
  throw new RangeError(
    `usageChart(): the calls' costs are in ${distinct.length} currencies (${named.join(", ")}) ` +
      `and are not drawn on one axis: chart each alone, e.g. ` +
      `usageChart(calls.filter(pl.col("currency").eq(pl.lit("${code}"))))`,
  );
}

/** A cost with four significant digits (costs of a few calls are fractions of a cent). */
function formatCost(cost: number): string {
  return cost === 0 ? "0" : cost.toPrecision(4);
}

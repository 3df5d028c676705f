/**
 * Chart builders for the Stag Hunt paper's figures: success by corrupted
 * fraction with the 1 - M/N boundary (Figure 1), benchmark match rates
 * (Table 1), P(Stag) against the benchmark margin (Figure 3), public versus
 * hidden history (Figure A2), realised versus truthful payoff (Figure A5)
 * and calibration.
 *
 * @module
 */

import { type Layer, REFERENCE_COLOR, referenceLayers } from "./_reference.ts";
import { type ChartRows, chartValues, checkSize, intervalChart } from "./interval.ts";
import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from "./spec.ts";

/** Options shared by the Stag Hunt chart builders. */
export interface StagHuntChartOptions {
  /** Chart title. @default {the figure's name} */
  title?: string;
  /** Width of one plot in pixels. @default {320} */
  width?: number;
  /** Height of one plot in pixels. @default {200} */
  height?: number;
}

function sized(options: StagHuntChartOptions): { width: number; height: number } {
  const { width = 320, height = 200 } = options;
  checkSize("width", width);
  checkSize("height", height);
  return { width, height };
}

function verticalRules(values: readonly number[], label: string): Layer[] {
  const rows = [...new Set(values)].map((x) => ({ x, label }));
  return referenceLayers("x", { value: "x", label: "label", fontSize: 9 }).map((layer) => ({
    data: { values: rows },
    ...layer,
  }));
}

/**
 * Figure 1: pre-flip and public success against the corrupted fraction,
 * one line each, with a dashed vertical rule at each boundary 1 - M/N.
 *
 * @param rows Rows with `fraction`, `preflip`, `public` and `boundary` (from
 * `successByCorruption()`, one game setting).
 * @param options Title and size.
 * @returns A Vega-Lite spec: two lines and one rule per distinct boundary.
 * @throws {RangeError} If a size is not a positive integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { successByCorruptionChart } from "./staghunt_charts.ts";
 *
 * const svg = await renderSvg(successByCorruptionChart([
 *   { fraction: 0.2, preflip: 0.972, public: 0.972, boundary: 0.4 },
 *   { fraction: 0.8, preflip: 0.778, public: 0.123, boundary: 0.4 },
 * ]));
 * assert.equal(svg.match(/aria-roledescription="line mark"/g)?.length, 2);
 * assert.equal(svg.match(/aria-roledescription="rule mark"/g)?.length, 1);
 * ```
 */
export function successByCorruptionChart(
  rows: ChartRows,
  options: StagHuntChartOptions = {},
): VegaLiteSpec {
  const values = chartValues(rows).flatMap((row) => [
    { fraction: row.fraction, series: "pre-flip success", value: row.preflip },
    { fraction: row.fraction, series: "public success", value: row.public },
  ]);
  const boundaries = chartValues(rows).map((row) => row.boundary as number);
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: options.title ?? "Pre-flip versus public success by corrupted fraction",
    ...sized(options),
    layer: [
      {
        data: { values },
        mark: { type: "line", point: true },
        encoding: {
          x: { field: "fraction", type: "quantitative", title: "Corrupted fraction F/N" },
          y: {
            field: "value",
            type: "quantitative",
            title: "Success rate",
            scale: { domain: [0, 1] },
          },
          color: { field: "series", type: "nominal", title: null },
        },
      },
      ...verticalRules(boundaries, "1 - M/N"),
    ],
  } as VegaLiteSpec;
}

/**
 * Table 1 as a chart: match rate per rule (per model when the rows have a
 * `model` column) with 95% Wilson intervals.
 *
 * @param rows Rows with `rule`, `rate`, `lower`, `upper` (and `model`)
 * from `matchRateTable()`.
 * @param options Title and size.
 * @returns A Vega-Lite spec: one bar and one rule per row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { matchRateChart } from "./staghunt_charts.ts";
 *
 * const svg = await renderSvg(matchRateChart([
 *   { rule: "naive", rate: 0.829, lower: 0.815, upper: 0.842 },
 *   { rule: "carryover", rate: 0.846, lower: 0.832, upper: 0.859 },
 * ]));
 * assert.equal(svg.match(/aria-roledescription="bar"/g)?.length, 2);
 * ```
 */
export function matchRateChart(rows: ChartRows, options: StagHuntChartOptions = {}): VegaLiteSpec {
  const values = chartValues(rows);
  const byModel = values.some((row) => "model" in row);
  return intervalChart(values, {
    x: "rule",
    y: "rate",
    lower: "lower",
    upper: "upper",
    ...(byModel ? { color: "model" } : {}),
    mark: "bar",
    yDomain: [0, 1],
    title: options.title ?? "Benchmark match rates (95% Wilson intervals)",
    xTitle: "Belief rule",
    yTitle: "Match rate",
    width: options.width ?? 320,
    height: options.height ?? 200,
  });
}

/**
 * Figure 3: P(Stag) against the benchmark margin q-hat - q*, a point with a
 * 95% interval per rule and margin bin, and a dashed rule at margin 0.
 *
 * @param rows Rows with `rule`, `margin`, `rate`, `lower`, `upper` (from
 * `stagByMargin()`).
 * @param options Title and size.
 * @returns A Vega-Lite spec: one point and one interval rule per row, plus
 * the zero rule.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { stagByMarginChart } from "./staghunt_charts.ts";
 *
 * const svg = await renderSvg(stagByMarginChart([
 *   { rule: "naive", margin: -0.25, rate: 0.2, lower: 0.1, upper: 0.3 },
 *   { rule: "naive", margin: 0.35, rate: 0.9, lower: 0.8, upper: 0.95 },
 * ]));
 * assert.equal(svg.match(/aria-roledescription="point"/g)?.length, 2);
 * assert.equal(svg.match(/aria-roledescription="rule mark"/g)?.length, 3);
 * ```
 */
export function stagByMarginChart(
  rows: ChartRows,
  options: StagHuntChartOptions = {},
): VegaLiteSpec {
  const values = chartValues(rows);
  const x = {
    field: "margin",
    type: "quantitative",
    title: "Benchmark margin q-hat - q*",
  } as const;
  const y = {
    field: "rate",
    type: "quantitative",
    title: "P(Stag)",
    scale: { domain: [0, 1] },
  } as const;
  const color = { field: "rule", type: "nominal", title: "Rule" } as const;
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: options.title ?? "P(Stag) against the benchmark margin",
    ...sized(options),
    layer: [
      {
        data: { values },
        mark: { type: "rule" },
        encoding: { x, y: { ...y, field: "lower" }, y2: { field: "upper" }, color },
      },
      {
        data: { values },
        mark: { type: "point", filled: true, size: 40 },
        encoding: { x, y, color },
      },
      ...verticalRules([0], "q-hat = q*"),
    ],
  } as VegaLiteSpec;
}

/**
 * Figure A2: match rate against the corrupted fraction with the public and
 * the hidden original-action history, one column per rule.
 *
 * @param rows Rows with `rule`, `layer`, `fraction`, `rate` (from
 * `historyMatchRates()`).
 * @param options Title and size.
 * @returns A Vega-Lite spec: one line per rule and layer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { historyMatchChart } from "./staghunt_charts.ts";
 *
 * const svg = await renderSvg(historyMatchChart([
 *   { rule: "naive", layer: "public", fraction: 0.2, rate: 0.8 },
 *   { rule: "naive", layer: "public", fraction: 0.6, rate: 0.85 },
 *   { rule: "naive", layer: "original", fraction: 0.2, rate: 0.83 },
 *   { rule: "naive", layer: "original", fraction: 0.6, rate: 0.7 },
 * ]));
 * assert.equal(svg.match(/aria-roledescription="line mark"/g)?.length, 2);
 * ```
 */
export function historyMatchChart(
  rows: ChartRows,
  options: StagHuntChartOptions = {},
): VegaLiteSpec {
  const { width, height } = sized({ width: 220, height: 180, ...options });
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: options.title ?? "Match rate with public versus hidden original history",
    data: { values: chartValues(rows) },
    facet: { column: { field: "rule", type: "nominal", title: null } },
    spec: {
      width,
      height,
      mark: { type: "line", point: true },
      encoding: {
        x: { field: "fraction", type: "quantitative", title: "Corrupted fraction F/N" },
        y: { field: "rate", type: "quantitative", title: "Match rate", scale: { domain: [0, 1] } },
        color: { field: "layer", type: "nominal", title: "History" },
      },
    },
  } as VegaLiteSpec;
}

/**
 * Figure A5: mean realised and truthful-implementation payoff per honest
 * turn against the corrupted fraction.
 *
 * @param rows Rows with `fraction`, `realised`, `truthful` (from
 * `payoffGap()`, one game setting).
 * @param options Title and size.
 * @returns A Vega-Lite spec: two lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { payoffGapChart } from "./staghunt_charts.ts";
 *
 * const svg = await renderSvg(payoffGapChart([
 *   { fraction: 0.6, realised: 1.702, truthful: 3.218 },
 *   { fraction: 0.8, realised: 1.444, truthful: 3.032 },
 * ]));
 * assert.equal(svg.match(/aria-roledescription="line mark"/g)?.length, 2);
 * ```
 */
export function payoffGapChart(rows: ChartRows, options: StagHuntChartOptions = {}): VegaLiteSpec {
  const values = chartValues(rows).flatMap((row) => [
    { fraction: row.fraction, series: "realised", value: row.realised },
    { fraction: row.fraction, series: "truthful implementation", value: row.truthful },
  ]);
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: options.title ?? "Realised versus truthful-implementation payoff",
    ...sized(options),
    data: { values },
    mark: { type: "line", point: true },
    encoding: {
      x: { field: "fraction", type: "quantitative", title: "Corrupted fraction F/N" },
      y: { field: "value", type: "quantitative", title: "Mean payoff per honest turn" },
      color: { field: "series", type: "nominal", title: null },
    },
  } as VegaLiteSpec;
}

/**
 * Calibration plot: mean outcome alignment against mean confidence per
 * bin (point size = units), the diagonal of perfect calibration, and the
 * ECE in the title.
 *
 * @param rows Rows with `confidence`, `alignment`, `units` and `ece` (from
 * `calibrationTable()`); empty bins are left out.
 * @param options Title and size.
 * @returns A Vega-Lite spec: one point per non-empty bin and the diagonal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { calibrationChart } from "./staghunt_charts.ts";
 *
 * const svg = await renderSvg(calibrationChart([
 *   { confidence: 0.35, alignment: 0, units: 2, ece: 0.15 },
 *   { confidence: NaN, alignment: NaN, units: 0, ece: 0.15 },
 *   { confidence: 0.775, alignment: 0.875, units: 8, ece: 0.15 },
 * ]));
 * assert.equal(svg.match(/aria-roledescription="point"/g)?.length, 2);
 * assert.ok(svg.includes("ECE 0.150"));
 * ```
 */
export function calibrationChart(
  rows: ChartRows,
  options: StagHuntChartOptions = {},
): VegaLiteSpec {
  const values = chartValues(rows).filter((row) =>
    typeof row.confidence === "number" && typeof row.alignment === "number" &&
    (row.units as number) > 0
  );
  const ece = values.length > 0 ? Number(values[0].ece) : NaN;
  const axis = { scale: { domain: [0, 1] } };
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: options.title ??
      `Calibration of honest agents' confidence (ECE ${
        Number.isNaN(ece) ? "n/a" : ece.toFixed(3)
      })`,
    ...sized({ width: 240, height: 240, ...options }),
    layer: [
      {
        data: { values: [{ x: 0, y: 0 }, { x: 1, y: 1 }] },
        mark: { type: "line", strokeDash: [6, 4], color: REFERENCE_COLOR },
        encoding: {
          x: { field: "x", type: "quantitative", title: "Mean confidence", ...axis },
          y: { field: "y", type: "quantitative", title: "Outcome alignment", ...axis },
        },
      },
      {
        data: { values },
        mark: { type: "point", filled: true },
        encoding: {
          x: { field: "confidence", type: "quantitative", ...axis },
          y: { field: "alignment", type: "quantitative", ...axis },
          size: { field: "units", type: "quantitative", title: "Units" },
        },
      },
    ],
  } as VegaLiteSpec;
}

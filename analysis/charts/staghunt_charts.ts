/**
 * Chart builders for the Stag Hunt paper's figures: success by corrupted
 * fraction with the 1 - M/N boundary (Figure 1), benchmark match rates
 * (Table 1), P(Stag) against the benchmark margin (Figure 3), public versus
 * hidden history (Figure A2), realised versus truthful payoff (Figure A5)
 * and calibration.
 *
 * Rows of several conditions (game settings, corruption modes,
 * heterogeneity, payoffs, models) are never drawn over one another: each
 * builder facets (or colours) by the condition keys that vary among its
 * rows and that it does not draw already, e.g. one panel per corruption
 * mode from `successByCorruption(records, { by: ["corruption"] })`.
 *
 * @module
 */

import { Z_95 } from "../stats.ts";
import { conditionLabels, layeredChart, splitConditions, withSplit } from "./_condition_facet.ts";
import { finishChart } from "./_finish.ts";
import { lineDashes, modelColors, ruleColors } from "./_palette.ts";
import { agentsOfRows, type ChartAgents } from "./agents.ts";
import { REFERENCE_COLOR, referenceLayers } from "./_reference.ts";
import {
  type ChartRows,
  chartValues,
  checkSize,
  firstAppearance,
  intervalChart,
} from "./interval.ts";
import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from "./spec.ts";

/** Options shared by the Stag Hunt chart builders. */
export interface StagHuntChartOptions {
  /** Chart title. @default {the figure's name} */
  title?: string;
  /** Width of one plot in pixels. @default {320} */
  width?: number;
  /** Height of one plot in pixels. @default {200} */
  height?: number;
  /**
   * The agents behind the rows (`chartAgents(episodes)`): mock agents are
   * named under the title.
   *
   * @default {what the rows' `model` says, else nothing}
   */
  agents?: ChartAgents;
}

/** The chart's agents, from its rows' `model` or `options.agents`. */
function agentsOf(rows: ChartRows, options: StagHuntChartOptions, name: string) {
  return agentsOfRows(chartValues(rows), options.agents, name);
}

/**
 * The x encoding of the corrupted fraction F/N: a share in [0, 1], padded
 * so that no point sits on the y axis or the plot's right edge.
 */
const FRACTION_X = {
  field: "fraction",
  type: "quantitative",
  title: "Corrupted fraction F/N",
  scale: { padding: 14, nice: false, zero: false },
} as const;

/**
 * The colour and dash of two series that may lie on one another (pre-flip
 * and public success at one value): the second dashed, so the first shows
 * through its gaps. The legend is titled `title` and shows both.
 */
function pairedSeries(domain: readonly string[], title: string) {
  const legend = { labelLimit: 0, symbolType: "stroke", symbolStrokeWidth: 2 } as const;
  return {
    color: {
      field: "series",
      type: "nominal",
      title,
      sort: [...domain],
      scale: { domain: [...domain] },
      legend,
    },
    strokeDash: {
      field: "series",
      type: "nominal",
      title,
      sort: [...domain],
      scale: lineDashes(domain),
      legend,
    },
  } as const;
}

function sized(options: StagHuntChartOptions): { width: number; height: number } {
  const { width = 320, height = 200 } = options;
  checkSize("width", width);
  checkSize("height", height);
  return { width, height };
}

/** Dashed vertical rules at the `x` of the rows of `kind`, labelled with their `label`. */
function verticalRules(kind: string) {
  return referenceLayers("x", { value: "x", label: "label", fontSize: 9 }).map((layer) => ({
    transform: [{ filter: `datum.kind === '${kind}'` }],
    ...layer,
  }));
}

/** The facet of labelled rows, if they hold several conditions. */
function facetOf(labels: { field: string | undefined; order: string[] }) {
  return labels.field === undefined ? undefined : { field: labels.field, order: labels.order };
}

/**
 * A tooltip of the `fields` that the rows have: numbers with up to three
 * decimals, the rest as text.
 */
function tooltip(rows: readonly Record<string, unknown>[], fields: readonly string[]) {
  return fields.filter((field) => rows.some((row) => row[field] !== undefined)).map((field) =>
    typeof rows.find((row) => row[field] !== undefined && row[field] !== null)?.[field] ===
        "number"
      ? { field, type: "quantitative", format: ".3~f" } as const
      : { field, type: "nominal" } as const
  );
}

/** One row per distinct (condition, x) of reference rows. */
function distinctRows(rows: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return [...new Map(rows.map((row) => [JSON.stringify(row), row])).values()];
}

/**
 * Figure 1: pre-flip and public success against the corrupted fraction,
 * one line each, with a dashed vertical rule at the boundary 1 - M/N; one
 * panel per condition (setting N, M, horizon T, corruption mode, ...) when
 * the rows hold several.
 *
 * @param rows Rows with `fraction`, `preflip`, `public` and `boundary` (from
 * `successByCorruption()`), and the condition keys.
 * @param options Title and size.
 * @returns A Vega-Lite spec: two lines per panel and one rule per distinct
 * boundary of a panel.
 * @throws {RangeError} If a size is not a positive integer.
 *
 * @example Base and b3 side by side
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { successByCorruptionChart } from "./staghunt_charts.ts";
 *
 * const row = { N: 5, M: 3, boundary: 0.4 };
 * const svg = await renderSvg(successByCorruptionChart([
 *   { ...row, corruption: "base", F: 1, fraction: 0.2, preflip: 0.972, public: 0.972 },
 *   { ...row, corruption: "base", F: 4, fraction: 0.8, preflip: 0.778, public: 0.123 },
 *   { ...row, corruption: "b3", F: 1, fraction: 0.2, preflip: 0.95, public: 0.9 },
 *   { ...row, corruption: "b3", F: 4, fraction: 0.8, preflip: 0.8, public: 0.6 },
 * ]));
 * assert.equal(svg.match(/aria-roledescription="line mark"/g)?.length, 4);
 * assert.equal(svg.match(/aria-roledescription="rule mark"/g)?.length, 2);
 * assert.ok(svg.includes(">base</text>") && svg.includes(">b3</text>"));
 * ```
 */
export function successByCorruptionChart(
  rows: ChartRows,
  options: StagHuntChartOptions = {},
): VegaLiteSpec {
  const labels = conditionLabels(chartValues(rows), ["F"]);
  const field = labels.field;
  const tag = (row: Record<string, unknown>) => field === undefined ? {} : { [field]: row[field] };
  const series = labels.values.flatMap((row) => [
    {
      ...tag(row),
      kind: "series",
      fraction: row.fraction,
      series: "pre-flip success",
      value: row.preflip,
      rounds: row.rounds,
    },
    {
      ...tag(row),
      kind: "series",
      fraction: row.fraction,
      series: "public success",
      value: row.public,
      rounds: row.rounds,
    },
  ]);
  const boundaries = distinctRows(
    labels.values.map((row) => ({
      ...tag(row),
      kind: "boundary",
      x: row.boundary,
      label: "1 - M/N",
    })),
  );
  return layeredChart({
    title: options.title ?? "Pre-flip versus public success by corrupted fraction",
    values: [...series, ...boundaries],
    ...sized(options),
    facet: facetOf(labels),
    layer: [
      {
        transform: [{ filter: "datum.kind === 'series'" }],
        mark: { type: "line", point: true },
        encoding: {
          x: FRACTION_X,
          y: {
            field: "value",
            type: "quantitative",
            title: "Success rate",
            scale: { domain: [0, 1] },
          },
          ...pairedSeries(["pre-flip success", "public success"], "Success measured on"),
          tooltip: tooltip(series, ["series", "fraction", "value", "rounds"]),
        },
      },
      ...verticalRules("boundary"),
    ],
    agents: agentsOf(rows, options, "successByCorruptionChart"),
  });
}

/**
 * Table 1 as a chart: match rate per rule (per model, coloured, when the
 * rows have a `model` column) as a point with its 95% Wilson interval and
 * the rate written above it, one panel per condition when the rows hold
 * several. The y axis is zoomed to the intervals (it does not start at 0)
 * so that rates as close as 0.83 and 0.89 are told apart. Rules keep their
 * colours (the paper's three always the same ones) when not coloured by
 * model.
 *
 * @param rows Rows with `rule`, `rate`, `lower`, `upper` (and `model`,
 * `turns`) from `matchRateTable()`, and the condition keys.
 * @param options Title and size.
 * @returns A Vega-Lite spec: one point, one interval rule and one label per
 * row.
 * @throws {RangeError} If two rows fall on one point.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { matchRateChart } from "./staghunt_charts.ts";
 *
 * const spec = matchRateChart([
 *   { rule: "naive", rate: 0.829, lower: 0.815, upper: 0.842 },
 *   { rule: "carryover", rate: 0.886, lower: 0.873, upper: 0.898 },
 * ]);
 * const svg = await renderSvg(spec);
 * assert.equal(svg.match(/aria-roledescription="point"/g)?.length, 2);
 * assert.ok(svg.includes(">0.829</text>") && svg.includes(">0.886</text>"));
 * ```
 */
export function matchRateChart(rows: ChartRows, options: StagHuntChartOptions = {}): VegaLiteSpec {
  const all = chartValues(rows).map((row) => ({
    ...row,
    rate_label: typeof row.rate === "number" ? row.rate.toFixed(3) : "",
  }));
  const byModel = all.some((row) => "model" in row);
  const { values, options: split } = splitConditions(
    all,
    byModel ? ["model"] : [],
    "column",
  );
  const colors = byModel
    ? { color: "model", colorTitle: "Model", colors: modelColors(values.map((row) => row.model)) }
    : { color: "rule", colors: ruleColors(values.map((row) => row.rule)), legend: false };
  return intervalChart(
    values,
    withSplit({
      x: "rule",
      y: "rate",
      lower: "lower",
      upper: "upper",
      label: "rate_label",
      labelPrefix: "",
      ...colors,
      tooltip: ["matches", "turns"],
      yDomain: zoomedDomain(values),
      title: options.title ?? "Benchmark match rates (95% Wilson intervals)",
      xTitle: "Belief rule",
      yTitle: "Match rate (axis zoomed)",
      width: options.width ?? 320,
      height: options.height ?? 200,
      name: "matchRateChart",
      agents: options.agents,
    }, split),
  );
}

/**
 * A y domain within [0, 1] around the rows' intervals, on steps of 0.02,
 * with room above for the labels.
 */
function zoomedDomain(rows: readonly Record<string, unknown>[]): [number, number] {
  const ends = rows.flatMap((row) => [row.lower, row.upper, row.rate])
    .filter((v): v is number => typeof v === "number");
  if (ends.length === 0) return [0, 1];
  const lo = Math.min(...ends);
  const hi = Math.max(...ends);
  const pad = Math.max(0.02, (hi - lo) * 0.15);
  const step = 0.02;
  return [
    Math.max(0, Math.floor((lo - pad) / step) * step),
    Math.min(1, Math.ceil((hi + 2 * pad) / step) * step),
  ].map((v) => Number(v.toFixed(2))) as [number, number];
}

/**
 * Figure 3: P(Stag) against the benchmark margin q-hat - q*, a point with a
 * 95% interval per rule and margin bin, and a dashed rule at margin 0; one
 * panel per condition (model, corruption mode, ...) when the rows hold
 * several. The rules of one bin sit side by side around the bin's middle
 * (dodged by a fraction of the bin width) instead of on one another; each
 * point's size and tooltip give its number of turns n. Rules keep their
 * colours (the paper's three always the same ones).
 *
 * @param rows Rows with `rule`, `margin`, `rate`, `lower`, `upper` (and
 * `bin_start`, `bin_end`, `turns`) from `stagByMargin()`, and the condition
 * keys.
 * @param options Title and size.
 * @returns A Vega-Lite spec: one point and one interval rule per row, plus
 * the zero rule of each panel.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { stagByMarginChart } from "./staghunt_charts.ts";
 *
 * const svg = await renderSvg(stagByMarginChart([
 *   { rule: "naive", margin: -0.25, rate: 0.2, lower: 0.1, upper: 0.3, turns: 40 },
 *   { rule: "naive", margin: 0.35, rate: 0.9, lower: 0.8, upper: 0.95, turns: 60 },
 * ]));
 * assert.equal(svg.match(/aria-roledescription="point"/g)?.length, 2);
 * assert.equal(svg.match(/aria-roledescription="rule mark"/g)?.length, 3);
 * ```
 */
export function stagByMarginChart(
  rows: ChartRows,
  options: StagHuntChartOptions = {},
): VegaLiteSpec {
  const labels = conditionLabels(chartValues(rows), []);
  const field = labels.field;
  const colors = ruleColors(labels.values.map((row) => row.rule));
  const width = binWidth(labels.values);
  const slots = colors.domain.length;
  const points: Record<string, unknown>[] = labels.values.map((row) => ({
    ...row,
    kind: "point",
    position: (row.margin as number) +
      ((colors.domain.indexOf(String(row.rule)) + 0.5) / slots - 0.5) * 0.6 * width,
  }));
  const zeros = distinctRows(labels.values.map((row) => ({
    ...(field === undefined ? {} : { [field]: row[field] }),
    kind: "zero",
    x: 0,
    label: "q-hat = q*",
  })));
  const x = {
    field: "position",
    type: "quantitative",
    title: "Benchmark margin q-hat - q*",
  } as const;
  const y = {
    field: "rate",
    type: "quantitative",
    title: "P(Stag)",
    scale: { domain: [0, 1] },
  } as const;
  const color = {
    field: "rule",
    type: "nominal",
    title: "Rule",
    scale: { domain: colors.domain, range: colors.range },
  } as const;
  const counts = points.map((row) => row.turns).filter((t): t is number => typeof t === "number");
  // The size legend lists the fewest and the most turns drawn (never a 0
  // that no point has); sizes stay proportional to n.
  const n = counts.length > 0
    ? {
      size: {
        field: "turns",
        type: "quantitative",
        title: "Turns n",
        scale: { range: [8, 140] },
        legend: { values: [...new Set([Math.min(...counts), Math.max(...counts)])] },
      },
    }
    : {};
  // An interval from few turns is long but says little: it is drawn as
  // faint as its point is small, so the widest intervals do not dominate.
  const faint = counts.length > 0
    ? {
      opacity: {
        field: "turns",
        type: "quantitative",
        scale: { type: "sqrt", range: [0.15, 0.9], zero: true },
        legend: null,
      },
    }
    : {};
  const onlyPoints = [{ filter: "datum.kind === 'point'" }];
  return layeredChart({
    title: options.title ?? "P(Stag) against the benchmark margin",
    subtitle: "The rules of a margin bin side by side around its middle; point size: turns n",
    values: [...points, ...zeros],
    ...sized(options),
    facet: facetOf(labels),
    layer: [
      {
        transform: onlyPoints,
        mark: { type: "rule" },
        encoding: { x, y: { ...y, field: "lower" }, y2: { field: "upper" }, color, ...faint },
      },
      {
        transform: onlyPoints,
        mark: { type: "point", filled: true, opacity: 0.9 },
        encoding: {
          x,
          y,
          color,
          ...n,
          tooltip: tooltip(points, [
            "rule",
            "bin_start",
            "bin_end",
            "margin",
            "rate",
            "lower",
            "upper",
            "turns",
          ]),
        },
      },
      ...verticalRules("zero"),
    ],
    agents: agentsOf(rows, options, "stagByMarginChart"),
  });
}

/**
 * The width of the margin bins: that of the rows' `bin_start` and
 * `bin_end`, else the smallest gap between their margins, else 0.1.
 */
function binWidth(rows: readonly Record<string, unknown>[]): number {
  const widths = rows.map((row) => (row.bin_end as number) - (row.bin_start as number))
    .filter((w) => Number.isFinite(w) && w > 0);
  if (widths.length > 0) return Math.min(...widths);
  const margins = [...new Set(rows.map((row) => row.margin as number))].sort((a, b) => a - b);
  const gaps = margins.slice(1).map((m, i) => m - margins[i]).filter((g) => g > 0);
  return gaps.length > 0 ? Math.min(...gaps) : 0.1;
}

/**
 * Figure A2: match rate against the corrupted fraction with the public and
 * the hidden original-action history, one column per rule (in the order
 * of the rows) and one row per condition (setting N, M, corruption mode, ...) when the rows hold several.
 *
 * @param rows Rows with `rule`, `layer`, `fraction`, `rate` (from
 * `historyMatchRates()`), and the condition keys.
 * @param options Title and size.
 * @returns A Vega-Lite spec: one line per rule, condition and layer.
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
  const labels = conditionLabels(chartValues(rows), ["F"]);
  const header = { labelLimit: 0 };
  return finishChart({
    $schema: VEGA_LITE_SCHEMA,
    title: options.title ?? "Match rate with public versus hidden original history",
    data: { values: labels.values },
    facet: {
      column: {
        field: "rule",
        type: "nominal",
        title: null,
        sort: firstAppearance(labels.values, "rule"),
        header,
      },
      ...(labels.field === undefined ? {} : {
        row: { field: labels.field, type: "nominal", title: null, sort: labels.order, header },
      }),
    },
    spec: {
      width,
      height,
      mark: { type: "line", point: true },
      encoding: {
        x: { field: "fraction", type: "quantitative", title: "Corrupted fraction F/N" },
        y: { field: "rate", type: "quantitative", title: "Match rate", scale: { domain: [0, 1] } },
        color: { field: "layer", type: "nominal", title: "History" },
        tooltip: tooltip(labels.values, [
          "rule",
          "layer",
          "fraction",
          "rate",
          "lower",
          "upper",
          "turns",
        ]),
      },
    },
  } as VegaLiteSpec, { agents: agentsOf(rows, options, "historyMatchChart") });
}

/**
 * Figure A5: mean realised and truthful-implementation payoff per honest
 * turn against the corrupted fraction; one panel per condition (setting N,
 * M, corruption mode, model, ...) when the rows hold several.
 *
 * Where the rows carry `realised_se` and `truthful_se` (from `payoffGap()`:
 * episode-clustered), each point has its 95% interval, mean ± 1.96 SE, as
 * a vertical rule; a point whose SE is null (one episode) has none.
 *
 * @param rows Rows with `fraction`, `realised`, `truthful` (from
 * `payoffGap()`), optionally `realised_se` and `truthful_se`, and the
 * condition keys.
 * @param options Title and size.
 * @returns A Vega-Lite spec: two lines per panel, and an interval rule per
 * point with an SE.
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
  const labels = conditionLabels(chartValues(rows), ["F"]);
  const field = labels.field;
  const tag = (row: Record<string, unknown>) => field === undefined ? {} : { [field]: row[field] };
  // mean ± 1.96 SE where the row has an SE; no interval where it is null.
  const interval = (value: unknown, se: unknown) =>
    typeof value === "number" && typeof se === "number" && Number.isFinite(se)
      ? { lower: value - Z_95 * se, upper: value + Z_95 * se }
      : {};
  const values = labels.values.flatMap((row) => [
    {
      ...tag(row),
      fraction: row.fraction,
      series: "realised",
      value: row.realised,
      ...interval(row.realised, row.realised_se),
      turns: row.turns,
    },
    {
      ...tag(row),
      fraction: row.fraction,
      series: "truthful implementation",
      value: row.truthful,
      ...interval(row.truthful, row.truthful_se),
      turns: row.turns,
    },
  ]);
  const withIntervals = values.some((row) => "lower" in row);
  // The boundary 1 - M/N of each panel, where the rows tell it (a
  // `boundary` column, or N and M); none is drawn where they do not.
  const boundaryOf = (row: Record<string, unknown>) =>
    typeof row.boundary === "number"
      ? row.boundary
      : typeof row.N === "number" && typeof row.M === "number"
      ? 1 - row.M / row.N
      : undefined;
  const boundaries = distinctRows(labels.values.flatMap((row) => {
    const x = boundaryOf(row);
    return x === undefined ? [] : [{ ...tag(row), kind: "boundary", x, label: "1 - M/N" }];
  }));
  return layeredChart({
    title: options.title ?? "Realised versus truthful-implementation payoff",
    values: [...values.map((row) => ({ ...row, kind: "series" })), ...boundaries],
    ...sized(options),
    facet: facetOf(labels),
    subtitle: withIntervals ? "Bars: 95% intervals, mean ± 1.96 episode-clustered SE" : undefined,
    layer: [
      ...(withIntervals
        ? [{
          transform: [{ filter: "datum.kind === 'series' && isValid(datum.lower)" }],
          mark: { type: "rule", strokeWidth: 1.5, opacity: 0.6 },
          encoding: {
            x: FRACTION_X,
            y: { field: "lower", type: "quantitative", title: "Mean payoff per honest turn" },
            y2: { field: "upper" },
            color: pairedSeries(["realised", "truthful implementation"], "Payoff").color,
          },
        }]
        : []),
      {
        transform: [{ filter: "datum.kind === 'series'" }],
        mark: { type: "line", point: true },
        encoding: {
          x: FRACTION_X,
          y: { field: "value", type: "quantitative", title: "Mean payoff per honest turn" },
          ...pairedSeries(["realised", "truthful implementation"], "Payoff"),
          tooltip: tooltip(values, ["series", "fraction", "value", "lower", "upper", "turns"]),
        },
      },
      ...verticalRules("boundary"),
    ],
    agents: agentsOf(rows, options, "payoffGapChart"),
  });
}

/**
 * Calibration plot: mean outcome alignment against mean confidence per
 * bin (point size = units), the diagonal of perfect calibration, and the
 * ECE in the title; one panel per condition, its ECE in the panel's label,
 * when the rows hold several.
 *
 * @param rows Rows with `confidence`, `alignment`, `units` and `ece` (from
 * `calibrationTable()`), and the condition keys; empty bins are left out.
 * @param options Title and size.
 * @returns A Vega-Lite spec: one point per non-empty bin and the diagonal
 * of each panel.
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
  const bins = chartValues(rows).filter((row) =>
    typeof row.confidence === "number" && typeof row.alignment === "number" &&
    (row.units as number) > 0
  );
  const labels = conditionLabels(bins, []);
  const field = labels.field;
  const eceText = (value: unknown) =>
    typeof value === "number" ? `ECE ${value.toFixed(3)}` : "ECE n/a";
  // With several conditions each panel's label carries its own ECE.
  const panel = (row: Record<string, unknown>) =>
    field === undefined ? {} : { panel: `${row[field]} · ${eceText(row.ece)}` };
  const points: Record<string, unknown>[] = labels.values.map((row) => ({
    ...row,
    ...panel(row),
    kind: "bin",
  }));
  // Without conditions there is one panel, and rows carry no panel field (JSON has no undefined).
  const panels = field === undefined
    ? [{}]
    : distinctRows(points.map((row) => ({ panel: row.panel })));
  const diagonal = panels.flatMap((p) => [0, 1].map((d) => ({ ...p, kind: "diagonal", d })));
  const order = labels.order.map((label) =>
    String(points.find((row) => field !== undefined && row[field] === label)?.panel)
  );
  const axis = { scale: { domain: [0, 1] } };
  const title = options.title ??
    (field === undefined
      ? `Calibration of honest agents' confidence (${eceText(bins[0]?.ece)})`
      : "Calibration of honest agents' confidence");
  return layeredChart({
    title,
    values: [...diagonal, ...points],
    ...sized({ width: 240, height: 240, ...options }),
    facet: field === undefined ? undefined : { field: "panel", order },
    layer: [
      {
        transform: [{ filter: "datum.kind === 'diagonal'" }],
        mark: { type: "line", strokeDash: [6, 4], color: REFERENCE_COLOR },
        encoding: {
          x: { field: "d", type: "quantitative", title: "Mean confidence", ...axis },
          y: { field: "d", type: "quantitative", title: "Outcome alignment", ...axis },
        },
      },
      {
        transform: [{ filter: "datum.kind === 'bin'" }],
        mark: { type: "point", filled: true },
        encoding: {
          x: { field: "confidence", type: "quantitative", ...axis },
          y: { field: "alignment", type: "quantitative", ...axis },
          size: { field: "units", type: "quantitative", title: "Units" },
          tooltip: tooltip(points, ["confidence", "alignment", "units"]),
        },
      },
    ],
    agents: agentsOf(rows, options, "calibrationChart"),
  });
}

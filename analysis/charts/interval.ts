/**
 * A general chart of estimates with intervals: points (or bars) at `y` with
 * a vertical rule from `lower` to `upper`, grouped by color within each x
 * category and optionally faceted. The FRAIL table charts (Figure 3a, Tables
 * 8-10, Figure 6) are thin wrappers around it.
 *
 * @module
 */

import type pl from "npm:nodejs-polars@0.25.2";
import { CONDITION_KEYS } from "../conditions.ts";
import { facetPlaceholders, SKIP_PLACEHOLDERS, wrapColumns } from "./_condition_facet.ts";
import { finishChart } from "./_finish.ts";
import { agentsOfRows } from "./agents.ts";
import type { ChartRows, IntervalChartOptions } from "./_interval_options.ts";
import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from "./spec.ts";

export type { ChartRows, IntervalChartOptions };

type Layer = Extract<VegaLiteSpec, { layer: unknown }>["layer"][number];

/**
 * Builds a Vega-Lite chart of estimates with intervals.
 *
 * The spec holds a copy of the rows with every value that is not a number,
 * string or boolean converted to a string (or null). Each estimate must
 * have a place of its own: two rows with the same x, colour, column and row
 * would be stacked or drawn over each other, so they are an error naming
 * the columns in which they differ.
 *
 * @param rows The estimates.
 * @param options Fields, grouping, facets, labels and sizes.
 * @returns A Vega-Lite v5 spec.
 * @throws {RangeError} If a size is not a positive integer, or two rows
 * share a place.
 *
 * @example Two estimates with intervals and n labels
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { intervalChart } from "./interval.ts";
 *
 * const spec = intervalChart([
 *   { bin: "0.0-0.2", mean: 0.4, lower: 0.2, upper: 0.6, n: 30 },
 *   { bin: "0.8-1.0", mean: 0.9, lower: 0.8, upper: 1, n: 12 },
 * ], { x: "bin", y: "mean", lower: "lower", upper: "upper", label: "n" });
 * const svg = await renderSvg(spec);
 * assert.equal(svg.match(/aria-roledescription="point"/g)?.length, 2);
 * assert.ok(svg.includes(">n=30</text>"));
 * ```
 */
export function intervalChart(rows: ChartRows, options: IntervalChartOptions): VegaLiteSpec {
  const { x, y, lower, upper, color, column, row, label, title, subtitle } = options;
  const { yTitle = y, independentY = false, width = 240, height = 180 } = options;
  const { name = "intervalChart" } = options;
  checkSize("width", width);
  checkSize("height", height);
  const values = chartValues(rows);
  const agents = agentsOfRows(values, options.agents, name);
  assertOnePerPlace(values, name, {
    place: [x, color, column, row].filter((f) => f !== undefined),
    measures: [y, lower, upper, label].filter((f) => f !== undefined),
  });
  const references = referenceValues(values, options, name);
  // With reference rows, the run's layers skip them.
  const own = options.reference === undefined
    ? [SKIP_PLACEHOLDERS]
    : [SKIP_PLACEHOLDERS, { filter: "datum.__reference !== true" }];
  // Panels side by side, each on its own y scale, would each repeat the y
  // title: it is said once, under the chart title, instead.
  const yOnce = independentY && column !== undefined &&
    firstAppearance(values, column).length > 1;
  const plot = encodings(values, options, yOnce ? null : yTitle);
  const layers = [
    ...estimateLayers(values, options, plot, own),
    ...(options.reference === undefined ? [] : referenceLayers(options, options.reference, plot)),
  ];
  const subtitles = [
    ...(subtitle === undefined ? [] : [subtitle]),
    ...(yOnce ? [`y: ${yTitle}, each panel on its own scale`] : []),
    ...(options.reference === undefined ? [] : [
      lower === undefined
        ? `Black ticks: ${options.reference.label}`
        : `Black ticks: ${options.reference.label}, grey bands its interval`,
    ]),
  ];
  const placeholders = column !== undefined && row !== undefined
    ? facetPlaceholders(values, row, column)
    : [];
  const head = {
    $schema: VEGA_LITE_SCHEMA,
    ...(title === undefined && subtitles.length === 0 ? {} : {
      title: subtitles.length === 0
        ? title
        : { text: title ?? "", subtitle: subtitles.length === 1 ? subtitles[0] : subtitles },
    }),
    data: { values: [...values, ...references, ...placeholders] },
  };
  if (column === undefined && row === undefined) {
    return finishChart({ ...head, width, height, layer: layers } as VegaLiteSpec, { agents });
  }
  return finishChart(facetedChart(head, layers, values, options, plot), { agents });
}

/**
 * The reference rows at places the run has, marked `__reference` (see
 * {@linkcode IntervalChartOptions.reference}); one a place.
 */
function referenceValues(
  values: Record<string, unknown>[],
  options: IntervalChartOptions,
  name: string,
): Record<string, unknown>[] {
  const { x, y, lower, upper, color, column, row } = options;
  const place = [x, color, column, row].filter((f): f is string => f !== undefined);
  const placeOf = (v: Record<string, unknown>) => JSON.stringify(place.map((f) => v[f] ?? null));
  const runPlaces = new Set(values.map(placeOf));
  const references = options.reference === undefined ? [] : chartValues(options.reference.rows)
    .filter((v) => runPlaces.has(placeOf(v)))
    .map((v) => ({ ...v, __reference: true }));
  assertOnePerPlace(references, `${name} reference`, {
    place,
    measures: [y, lower, upper].filter((f) => f !== undefined),
  });
  return references;
}

/** The encodings the layers share (see {@linkcode encodings}). */
type Encodings = ReturnType<typeof encodings>;

/** The filters of the run's own layers (placeholders and reference rows left out). */
type OwnFilters = ({ filter: string } | typeof SKIP_PLACEHOLDERS)[];

/** The x, y, colour and tooltip encodings of a chart's values. */
function encodings(
  values: Record<string, unknown>[],
  options: IntervalChartOptions,
  yAxisTitle: string | null,
) {
  const { x, y, lower, upper, color, column, row, label, colors, yDomain } = options;
  const { legend = true, tooltip = [], sort = {}, showAllX = false, width = 240 } = options;
  const { xTitle = x, colorTitle = color } = options;
  const xOrder = sort.x ?? firstAppearance(values, x);
  const colorOrder = color === undefined
    ? []
    : colors?.domain ?? sort.color ?? firstAppearance(values, color);
  const xEncoding = {
    field: x,
    type: "nominal",
    title: xTitle,
    sort: xOrder,
    axis: xAxis(xOrder, width),
    ...(showAllX ? { scale: { domain: [...xOrder] } } : {}),
  } as const;
  // Rules and labels at the middle of their band, like points and bars.
  const centred = { ...xEncoding, bandPosition: 0.5 } as const;
  const yScale = yDomain === undefined ? {} : { scale: { domain: [...yDomain] } };
  const colorScale = colors === undefined ? {} : {
    scale: { domain: [...colors.domain], range: [...colors.range] },
  };
  // Colours of the x categories themselves need no offset within a band.
  const offset = color === undefined || color === x
    ? {}
    : { xOffset: { field: color, type: "nominal", sort: colorOrder } as const };
  const grouping = color === undefined ? {} : {
    color: {
      field: color,
      type: "nominal",
      title: colorTitle,
      sort: colorOrder,
      ...colorScale,
      legend: legend ? { labelLimit: 0, titleLimit: 0 } : null,
    } as const,
    ...offset,
  };
  // The place, the estimate, its interval, a numeric label (an n) and the extra fields the rows have.
  const sampleOf = (field: string) =>
    values.find((v) => v[field] !== null && v[field] !== undefined)?.[field];
  const numericLabel = label !== undefined && typeof sampleOf(label) === "number"
    ? label
    : undefined;
  const tips = [...new Set([x, color, y, lower, upper, numericLabel, ...tooltip, column, row])]
    .filter((field): field is string => field !== undefined && sampleOf(field) !== undefined)
    .map((field) =>
      typeof sampleOf(field) === "number"
        ? { field, type: "quantitative", format: ".3~f" } as const
        : { field, type: "nominal" } as const
    );
  return { xOrder, colorOrder, xEncoding, centred, yAxisTitle, yScale, offset, grouping, tips };
}

/** The run's layers: the estimates, their intervals (with `lower` and `upper`) and labels (with `label`). */
function estimateLayers(
  values: Record<string, unknown>[],
  options: IntervalChartOptions,
  plot: Encodings,
  own: OwnFilters,
): Layer[] {
  const { y, lower, upper, label, labelPrefix = "n=", mark = "point", width = 240 } = options;
  const { xEncoding, centred, yAxisTitle, yScale, offset } = plot;
  const layers: Layer[] = [{
    transform: own,
    mark: mark === "bar" ? { type: "bar" } : { type: "point", filled: true, size: 50 },
    encoding: {
      x: xEncoding,
      y: { field: y, type: "quantitative", title: yAxisTitle, ...yScale },
      ...plot.grouping,
      tooltip: plot.tips,
    },
  }];
  if (lower !== undefined && upper !== undefined) {
    layers.push({
      // A row without an interval (no SE from one model) draws no rule.
      transform: [
        ...own,
        { filter: `isValid(datum['${lower}']) && isValid(datum['${upper}'])` },
      ],
      mark: { type: "rule", color: "#333333" },
      encoding: {
        x: centred,
        y: { field: lower, type: "quantitative", title: yAxisTitle, ...yScale },
        y2: { field: upper },
        ...offset,
      },
    });
  }
  if (label !== undefined) {
    // Side by side in a band, labels wider than their slot would run into
    // each other: they are written upwards instead.
    const slots = plot.xOrder.length * ("xOffset" in offset ? plot.colorOrder.length : 1);
    const slot = width / Math.max(1, slots);
    const widest = Math.max(
      0,
      ...values.map((v) => v[label] == null ? 0 : `${labelPrefix}${v[label]}`.length),
    );
    const text = widest * LABEL_CHAR_WIDTH > slot
      ? { angle: 270, align: "left", baseline: "middle", dx: 4 } as const
      : { dy: -8 };
    layers.push({
      transform: [
        ...own,
        { calculate: `${JSON.stringify(labelPrefix)} + datum['${label}']`, as: "__label" },
      ],
      mark: { type: "text", ...text, fontSize: 10, color: "#333333" },
      encoding: {
        x: centred,
        y: { field: upper ?? y, type: "quantitative", title: yAxisTitle, ...yScale },
        text: { field: "__label", type: "nominal" },
        ...offset,
      },
    });
  }
  return layers;
}

/** The reference's layers: a grey band over its interval (with `lower` and `upper`) and a black tick. */
function referenceLayers(
  options: IntervalChartOptions,
  reference: { label: string },
  plot: Encodings,
): Layer[] {
  const { y, lower, upper } = options;
  const { xEncoding, yAxisTitle, yScale, offset } = plot;
  const layers: Layer[] = [];
  const mine = { filter: "datum.__reference === true" };
  const refTips = [
    { field: y, type: "quantitative", format: ".3~f", title: reference.label },
    ...[lower, upper].filter((f): f is string => f !== undefined)
      .map((field) => ({ field, type: "quantitative", format: ".3~f" } as const)),
  ] as const;
  if (lower !== undefined && upper !== undefined) {
    layers.push({
      transform: [mine, { filter: `isValid(datum['${lower}']) && isValid(datum['${upper}'])` }],
      mark: { type: "bar", color: "#888888", opacity: 0.35 },
      encoding: {
        x: xEncoding,
        y: { field: lower, type: "quantitative", title: yAxisTitle, ...yScale },
        y2: { field: upper },
        ...offset,
      },
    });
  }
  layers.push({
    transform: [mine],
    mark: { type: "tick", color: "black", thickness: 2 },
    encoding: {
      x: xEncoding,
      y: { field: y, type: "quantitative", title: yAxisTitle, ...yScale },
      ...offset,
      tooltip: [...refTips],
    },
  });
  return layers;
}

/**
 * A faceted chart of the layers: by `column` (wrapped when more than three
 * panels would stand in one row) and/or `row`; each panel offsets only the
 * colours it has, and with `independentY` has its own y scale.
 */
function facetedChart(
  head: { $schema: string; data: { values: Record<string, unknown>[] } },
  layers: Layer[],
  values: Record<string, unknown>[],
  options: IntervalChartOptions,
  plot: Encodings,
): VegaLiteSpec {
  const { column, row, sort = {}, independentY = false, width = 240, height = 180 } = options;
  const header = { labelLimit: 0 };
  const columnOrder = column === undefined ? [] : sort.column ?? firstAppearance(values, column);
  // Each panel offsets only the colours it has, so no panel is full of empty slots.
  const scales = {
    ...(independentY ? { y: "independent" } : {}),
    ...("xOffset" in plot.offset ? { xOffset: "independent" } : {}),
  };
  const resolve = Object.keys(scales).length === 0 ? {} : { resolve: { scale: scales } };
  if (column !== undefined && row === undefined && columnOrder.length > 3) {
    // Many panels in one row are too wide to read: wrap them.
    return {
      ...head,
      facet: { field: column, type: "nominal", title: null, sort: columnOrder, header },
      columns: wrapColumns(columnOrder.length),
      spec: { width, height, layer: layers },
      ...resolve,
    } as VegaLiteSpec;
  }
  const facet: Record<string, unknown> = {};
  if (column !== undefined) {
    facet.column = {
      field: column,
      type: "nominal",
      title: null,
      sort: columnOrder,
      header,
    };
  }
  if (row !== undefined) {
    facet.row = {
      field: row,
      type: "nominal",
      title: null,
      sort: sort.row ?? firstAppearance(values, row),
      header,
    };
  }
  return {
    ...head,
    facet,
    spec: { width, height, layer: layers },
    ...resolve,
  } as VegaLiteSpec;
}

/** About the width of a character of a 10 px label, digits included. */
const LABEL_CHAR_WIDTH = 6.5;

/**
 * The x axis: horizontal labels, long ones one word per line, where the
 * longest word fits its band (`LABEL_CHAR_WIDTH` per character at the axis font
 * size); otherwise slanted labels rather than labels overlapping.
 */
function xAxis(categories: readonly string[], width: number): {
  labelLimit: number;
  labelAngle: number;
  labelExpr?: string;
  labelAlign?: "right";
  labelBaseline?: "top";
} {
  const band = width / Math.max(1, categories.length);
  // An id's underscores are spaces on the axis (`outcome_alignment` as
  // "outcome alignment"), so its words can go one per line.
  const longestWord = Math.max(
    0,
    ...categories.flatMap((c) => String(c).split(/[ _]/).map((word) => word.length)),
  );
  return longestWord * LABEL_CHAR_WIDTH <= band
    ? {
      labelLimit: 240,
      labelAngle: 0,
      labelExpr: "length(datum.label) > 12 ? split(replace(datum.label, /_/g, ' '), ' ') : " +
        "replace(datum.label, /_/g, ' ')",
    }
    : { labelLimit: 240, labelAngle: -40, labelAlign: "right", labelBaseline: "top" };
}

/** Options for {@linkcode assertOnePerPlace}. */
export interface OnePerPlaceOptions {
  /** Fields that together give a mark its place (x, colour, facets). */
  place: readonly string[];
  /** Fields of the estimate itself, left out when naming how rows differ. */
  measures: readonly string[];
}

/**
 * Throws when two rows would be drawn at the same place, which a bar chart
 * would stack and a point chart overplot: the message names the place and
 * the columns in which the rows differ (e.g. a regime the chart was not
 * told to facet by).
 *
 * @param values Chart rows.
 * @param name The chart's name, first in the message.
 * @param options The fields that give a place, and the measures.
 * @throws {RangeError} Naming the place and the differing columns.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { assertOnePerPlace } from "./interval.ts";
 *
 * const rows = [
 *   { env: "Bank run", mechanism: "M0", regime: "stable", mean: 0.4 },
 *   { env: "Bank run", mechanism: "M0", regime: "expansion", mean: 0.9 },
 * ];
 * assert.throws(
 *   () => assertOnePerPlace(rows, "f", { place: ["env", "mechanism"], measures: ["mean"] }),
 *   {
 *     message: 'f: 2 rows share env "Bank run", mechanism "M0" and would be drawn on one ' +
 *       "another; they differ in regime (stable, expansion): pass one row per place",
 *   },
 * );
 * ```
 */
export function assertOnePerPlace(
  values: readonly Record<string, unknown>[],
  name: string,
  options: OnePerPlaceOptions,
): void {
  const { place, measures } = options;
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const value of values) {
    const key = JSON.stringify(place.map((field) => value[field] ?? null));
    const group = groups.get(key) ?? [];
    group.push(value);
    groups.set(key, group);
  }
  const clash = [...groups.values()].find((group) => group.length > 1);
  if (clash === undefined) return;
  const where = place.map((field) => `${field} ${JSON.stringify(clash[0][field] ?? null)}`)
    .join(", ");
  const fields = [...new Set(clash.flatMap((row) => Object.keys(row)))]
    .filter((field) => !place.includes(field) && !measures.includes(field));
  const differing = fields.map((field) => ({
    field,
    values: [...new Set(clash.map((row) => String(row[field] ?? null)))],
  })).filter((d) => d.values.length > 1);
  // Name the condition keys that differ if any do, else the columns of text: the numbers
  // (standard errors, counts) then follow from them.
  const keys = differing.filter((d) => [...CONDITION_KEYS, "model"].includes(d.field));
  const text = differing.filter((d) => clash.some((row) => typeof row[d.field] === "string"));
  const differ = keys.length > 0 ? keys : text.length > 0 ? text : differing;
  const how = differ.length === 0
    ? "they are duplicates"
    : `they differ in ${differ.map((d) => `${d.field} (${d.values.join(", ")})`).join(", ")}`;
  throw new RangeError(
    `${name}: ${clash.length} rows share ${where} and would be drawn on one another; ${how}: ` +
      `pass one row per place`,
  );
}

/**
 * Converts chart rows to plain JSON records: numbers, strings, booleans and
 * nulls stay, bigints become numbers and anything else becomes its string.
 *
 * @param rows A Polars frame or records.
 * @returns New records.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { chartValues } from "./interval.ts";
 *
 * assert.deepEqual(chartValues(pl.DataFrame({ a: [1], b: ["x"] })), [{ a: 1, b: "x" }]);
 * ```
 */
export function chartValues(rows: ChartRows): Record<string, unknown>[] {
  const records = Array.isArray(rows)
    ? rows as readonly Record<string, unknown>[]
    : (rows as pl.DataFrame).toRecords();
  return records.map((record) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) {
      if (value === null || value === undefined) out[key] = null;
      else if (typeof value === "bigint") out[key] = Number(value);
      else if (typeof value === "number") out[key] = Number.isFinite(value) ? value : null;
      else if (typeof value === "string" || typeof value === "boolean") out[key] = value;
      else out[key] = String(value);
    }
    return out;
  });
}

/**
 * Distinct values of a field as strings, in order of first appearance.
 *
 * @param values Records.
 * @param field The field.
 * @returns The distinct values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { firstAppearance } from "./interval.ts";
 *
 * assert.deepEqual(firstAppearance([{ m: "M1" }, { m: "M0" }, { m: "M1" }], "m"), ["M1", "M0"]);
 * ```
 */
export function firstAppearance(
  values: readonly Record<string, unknown>[],
  field: string,
): string[] {
  return [...new Set(values.map((value) => String(value[field])))];
}

/**
 * Throws a `RangeError` unless `size` is a positive integer.
 *
 * @param name What the size is, e.g. `"width"`.
 * @param size The size in pixels.
 * @throws {RangeError} If `size` is not a positive integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkSize } from "./interval.ts";
 *
 * assert.throws(() => checkSize("width", 0), /Chart width must be a positive integer: received 0/);
 * ```
 */
export function checkSize(name: string, size: number): void {
  if (!(Number.isInteger(size) && size > 0)) {
    throw new RangeError(`Chart ${name} must be a positive integer: received ${size}`);
  }
}

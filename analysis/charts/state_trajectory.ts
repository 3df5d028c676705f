/**
 * Line chart of state variables (cash, assets, deposits remaining, ...) over
 * the rounds of an episode.
 *
 * @module
 */

import { finishChart } from "./_finish.ts";
import { lineDashes } from "./_palette.ts";
import { agentsOfRows, type ChartAgents } from "./agents.ts";
import { type Layer, referenceLayers } from "./_reference.ts";
import { checkSize } from "./interval.ts";
import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from "./spec.ts";

/** One point of a trajectory: the value of one series in one round. */
export interface TrajectoryRow {
  /** Round number, drawn on the x axis. */
  round: number;
  /** Name of the state variable, e.g. `"cash"` or `"deposits_remaining"`. */
  series: string;
  /** Value of the series in that round. */
  value: number;
}

/** A horizontal dashed line marking a threshold or a bound. */
export interface ReferenceLine {
  /** Position on the y axis. */
  y: number;
  /** Text drawn just above the line's left end. */
  label: string;
}

/** Options for {@linkcode stateTrajectoryChart}. */
export interface StateTrajectoryChartOptions {
  /**
   * Chart title.
   *
   * @default {no title}
   */
  title?: string;
  /**
   * Horizontal dashed rules, e.g. a run threshold or a welfare bound.
   *
   * @default {[]}
   */
  referenceLines?: readonly ReferenceLine[];
  /**
   * Title of the y axis.
   *
   * @default {"Value"}
   */
  yTitle?: string;
  /**
   * Width of the plotting area in pixels.
   *
   * @default {480}
   */
  width?: number;
  /**
   * Height of the plotting area in pixels.
   *
   * @default {240}
   */
  height?: number;
  /**
   * Title of the legend, what the series are (e.g. `"Regime"`); `null` for
   * none.
   *
   * @default {null}
   */
  legendTitle?: string | null;
  /**
   * The agents behind the rows (`chartAgents(episodes)`): mock agents are
   * named under the title.
   *
   * @default {unknown: nothing said}
   */
  agents?: ChartAgents;
}

/**
 * Builds a Vega-Lite line chart with one colored line (with points) per
 * series, rounds on the x axis and optional dashed reference lines.
 *
 * Series appear in the legend in the order they first occur in `rows`.
 * When two series share a point (one at its cap under another), each
 * series gets its own dash pattern (the first solid), so the one beneath
 * shows through the gaps of the one above. Reference labels have a white
 * halo, so lines pass behind them. The spec holds a copy of the rows, so
 * later changes to `rows` do not affect it.
 *
 * @param rows The points to draw, in any order.
 * @param options Title, reference lines, axis title and size.
 * @returns A Vega-Lite v5 spec; render it with `renderSvg()` or show it with
 * `displayChart()`.
 * @throws {TypeError} If a row's round or value is not a finite number or its
 * series is not a string, or a reference line's y is not a finite number.
 * @throws {RangeError} If the width or height is not a positive integer.
 *
 * @example Cash and assets over three rounds, with a threshold
 * ```ts
 * import assert from "node:assert/strict";
 * import { stateTrajectoryChart } from "./state_trajectory.ts";
 *
 * const spec = stateTrajectoryChart([
 *   { round: 0, series: "cash", value: 10 },
 *   { round: 1, series: "cash", value: 7 },
 *   { round: 2, series: "cash", value: 4 },
 *   { round: 0, series: "assets", value: 90 },
 *   { round: 1, series: "assets", value: 93 },
 *   { round: 2, series: "assets", value: 96 },
 * ], {
 *   title: "Bank state",
 *   referenceLines: [{ y: 5, label: "run threshold" }],
 * });
 * assert.equal(spec.title, "Bank state");
 * assert.ok("layer" in spec && spec.layer.length === 4); // line, rule, label halo, label
 * ```
 */
export function stateTrajectoryChart(
  rows: readonly TrajectoryRow[],
  options: StateTrajectoryChartOptions = {},
): VegaLiteSpec {
  const {
    title,
    referenceLines = [],
    yTitle = "Value",
    width = 480,
    height = 240,
    legendTitle = null,
  } = options;
  checkSize("width", width);
  checkSize("height", height);
  const values = rows.map(checkRow);
  const rules = referenceLines.map(checkReferenceLine);
  const seriesOrder = [...new Set(values.map((row) => row.series))];

  const y = { field: "value", type: "quantitative", title: yTitle } as const;
  const legend = { symbolType: "stroke", symbolStrokeWidth: 2 } as const;
  const layers: Layer[] = [{
    mark: { type: "line", point: true },
    encoding: {
      x: {
        field: "round",
        type: "quantitative",
        title: "Round",
        // Rounds are whole numbers: a tick at every round (Vega's nice ticks put
        // 1.5 between rounds 1 and 2, printed "2"), thinned past 20 rounds.
        axis: { format: "d", tickMinStep: 1, values: roundTicks(values) },
      },
      y,
      color: {
        field: "series",
        type: "nominal",
        title: legendTitle,
        sort: seriesOrder,
        scale: { domain: seriesOrder },
        legend,
      },
      ...(overlapping(values)
        ? {
          strokeDash: {
            field: "series",
            type: "nominal",
            title: legendTitle,
            sort: seriesOrder,
            scale: lineDashes(seriesOrder),
            legend,
          },
        }
        : {}),
    },
  }];
  if (rules.length > 0) {
    for (const layer of referenceLayers("y", { value: "y", label: "label", title: yTitle })) {
      layers.push({ data: { values: rules }, ...layer });
    }
  }
  return finishChart({
    $schema: VEGA_LITE_SCHEMA,
    ...(title === undefined ? {} : { title }),
    width,
    height,
    data: { values },
    layer: layers,
  }, { agents: agentsOfRows([], options.agents, "stateTrajectoryChart") });
}

/** Whether two series have a point at the same round and value. */
function overlapping(values: readonly TrajectoryRow[]): boolean {
  const seen = new Map<string, string>();
  for (const { round, series, value } of values) {
    const key = `${round}|${value}`;
    const other = seen.get(key);
    if (other !== undefined && other !== series) return true;
    seen.set(key, series);
  }
  return false;
}

function checkRow(row: TrajectoryRow, index: number): TrajectoryRow {
  const { round, series, value } = row;
  if (typeof round !== "number" || !Number.isFinite(round)) {
    throw new TypeError(`Row ${index} has a round that is not a finite number: ${show(round)}`);
  }
  if (typeof series !== "string") {
    throw new TypeError(`Row ${index} has a series that is not a string: ${show(series)}`);
  }
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new TypeError(`Row ${index} has a value that is not a finite number: ${show(value)}`);
  }
  return { round, series, value };
}

function checkReferenceLine(line: ReferenceLine, index: number): ReferenceLine {
  const { y, label } = line;
  if (typeof y !== "number" || !Number.isFinite(y)) {
    throw new TypeError(`Reference line ${index} has a y that is not a finite number: ${show(y)}`);
  }
  return { y, label: String(label) };
}

function show(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** Whole-number ticks from the first to the last round: every round up to 20, else every k-th. */
function roundTicks(rows: readonly TrajectoryRow[]): number[] {
  if (rows.length === 0) return [];
  let first = Infinity, last = -Infinity;
  for (const r of rows) {
    first = Math.min(first, Math.ceil(r.round));
    last = Math.max(last, Math.floor(r.round));
  }
  const step = Math.max(1, Math.ceil((last - first + 1) / 20));
  const ticks: number[] = [];
  for (let t = first; t <= last; t += step) ticks.push(t);
  return ticks;
}

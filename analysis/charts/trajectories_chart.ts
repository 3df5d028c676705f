/**
 * FRAIL Figure 4 as a chart: a grid with the three layers as rows
 * (financial state, committed amount, defensive intent or share not yet
 * launched) and the environments as columns; one line per mechanism with
 * its episode means, shaded 95% bands in the top and middle rows, and the
 * dashed critical-boundary reference lines (8.48 units, round 4, goal 14).
 *
 * @module
 */

import type { TrajectoryReference } from "../frail/trajectories.ts";
import { envFacet, envName, MECHANISM_ORDER } from "./_frail_labels.ts";
import { referenceLayers } from "./_reference.ts";
import { type ChartRows, chartValues, checkSize } from "./interval.ts";
import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from "./spec.ts";

/** Options for {@linkcode trajectoriesChart}. */
export interface TrajectoriesChartOptions {
  /** Chart title. @default {"Round-by-round dynamics"} */
  title?: string;
  /**
   * Reference lines, one per environment and condition, as logged by the
   * engine (pass `trajectoryReferences(episodes)`).
   *
   * @default {none}
   */
  references?: readonly TrajectoryReference[];
  /** Width of one panel in pixels. @default {220} */
  width?: number;
  /** Height of one panel in pixels. @default {140} */
  height?: number;
}

const ROW_LABELS: Record<string, string> = {
  financial: "Financial state",
  committed: "Committed amount",
  intent: "Defensive intent / not launched",
  not_launched: "Defensive intent / not launched",
};
const ROW_ORDER = ["Financial state", "Committed amount", "Defensive intent / not launched"];

/**
 * Builds the Figure 4 grid.
 *
 * @param rows Rows with `env`, `mechanism`, `panel`, `round`, `mean`,
 * `lower`, `upper` (from `trajectories()`, one regime).
 * @param options Title, reference lines and panel size.
 * @returns A Vega-Lite spec: one line per environment, panel and mechanism,
 * one band per line of the top and middle rows, and dashed reference rules:
 * a level (bank run, crowdfunding) in the environment's top-row panel, a
 * round (debt rollover) in all three of its panels.
 * @throws {RangeError} If a size is not a positive integer.
 *
 * @example Two mechanisms in the bank run
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { trajectoriesChart } from "./trajectories_chart.ts";
 *
 * const rows = ["M0", "M3"].flatMap((mechanism) =>
 *   [1, 2].map((round) => ({
 *     env: "bank_run", mechanism, panel: "financial", round,
 *     mean: round * 2, lower: round, upper: round * 3,
 *   }))
 * );
 * const svg = await renderSvg(trajectoriesChart(rows, {
 *   references: [{ env: "bank_run", regime: "stable", overrides_id: "none", axis: "y",
 *     value: 8.48, label: "insolvency boundary" }],
 * }));
 * assert.equal(svg.match(/aria-roledescription="line mark"/g)?.length, 2);
 * assert.equal(svg.match(/aria-roledescription="area mark"/g)?.length, 2);
 * assert.ok(svg.includes(">insolvency boundary</text>"));
 * ```
 */
export function trajectoriesChart(
  rows: ChartRows,
  options: TrajectoriesChartOptions = {},
): VegaLiteSpec {
  const { title = "Round-by-round dynamics", width = 220, height = 140 } = options;
  checkSize("width", width);
  checkSize("height", height);
  const series = chartValues(rows).map((row) => ({
    ...row,
    kind: "series",
    env: envName(row.env),
    layer: ROW_LABELS[String(row.panel)] ?? String(row.panel),
    band: row.panel === "financial" || row.panel === "committed",
  }));
  const references = options.references ?? [];
  // A horizontal boundary belongs to the financial state; a round boundary
  // is drawn in every row of its environment, labelled in the top one.
  const referenceRows = references.flatMap((reference) =>
    (reference.axis === "y" ? ROW_ORDER.slice(0, 1) : ROW_ORDER).map((layer, index) => ({
      kind: `reference_${reference.axis}`,
      env: envName(reference.env),
      layer,
      ref_value: reference.value,
      ref_label: index === 0 ? reference.label : "",
    }))
  );
  const x = {
    field: "round",
    type: "quantitative",
    title: "Round",
    axis: { format: "d", tickMinStep: 1 },
  } as const;
  const color = {
    field: "mechanism",
    type: "nominal",
    title: "Mechanism",
    sort: [...MECHANISM_ORDER],
  } as const;
  const [[ruleY, labelY], [ruleX, labelX]] = (["y", "x"] as const).map((axis) =>
    referenceLayers(axis, { value: "ref_value", label: "ref_label", fontSize: 9 }).map((layer) => ({
      transform: [{ filter: `datum.kind === 'reference_${axis}'` }],
      ...layer,
    }))
  );
  return {
    $schema: VEGA_LITE_SCHEMA,
    title,
    data: { values: [...series, ...referenceRows] },
    facet: {
      row: { field: "layer", type: "nominal", title: null, sort: ROW_ORDER },
      column: envFacet(),
    },
    spec: {
      width,
      height,
      layer: [
        {
          transform: [{ filter: "datum.kind === 'series' && datum.band" }],
          mark: { type: "area", opacity: 0.2 },
          encoding: {
            x,
            y: { field: "lower", type: "quantitative", title: "Mean across episodes" },
            y2: { field: "upper" },
            color,
          },
        },
        {
          transform: [{ filter: "datum.kind === 'series'" }],
          mark: { type: "line" },
          encoding: {
            x,
            y: { field: "mean", type: "quantitative", title: "Mean across episodes" },
            color,
          },
        },
        ruleY,
        ruleX,
        labelY,
        labelX,
      ],
    },
    resolve: { scale: { y: "independent" } },
  } as VegaLiteSpec;
}

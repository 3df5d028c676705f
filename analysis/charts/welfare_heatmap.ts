/**
 * FRAIL Table 2 as a picture: a heatmap of welfare realization per model and
 * mechanism (greener is larger, as in the paper), each cell labelled with
 * its value, successes out of n and the arrow against M0; one row of panels
 * per environment, and one column of panels per condition (regime,
 * parameter override set) when the cells hold several.
 *
 * @module
 */

import { conditionLabels, facetPlaceholders, SKIP_PLACEHOLDERS } from "./_condition_facet.ts";
import { finishChart } from "./_finish.ts";
import { agentsOfRows, type ChartAgents } from "./agents.ts";
import { envFacet, envName, MECHANISM_ORDER } from "./_frail_labels.ts";
import {
  assertOnePerPlace,
  type ChartRows,
  chartValues,
  checkSize,
  firstAppearance,
} from "./interval.ts";
import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from "./spec.ts";

/** Options for {@linkcode welfareHeatmapChart}. */
export interface WelfareHeatmapChartOptions {
  /** Chart title. @default {"Welfare realization W~"} */
  title?: string;
  /** Model columns, in order. @default {order of first appearance} */
  models?: readonly string[];
  /** Width of one panel in pixels. @default {95 per model} */
  width?: number;
  /** Height of one panel in pixels. @default {120} */
  height?: number;
  /**
   * The agents behind the cells (`chartAgents(episodes)`): mock agents are
   * named under the title.
   *
   * @default {what the cells' `model` says, else nothing}
   */
  agents?: ChartAgents;
}

/**
 * Builds the heatmap of per-model welfare cells.
 *
 * @param cells Rows with `env`, `mechanism`, `model`, `welfare`,
 * `successes`, `episodes` and `mark` (from `welfareTable()`), and the
 * condition keys.
 * @param options Title, model order and size.
 * @returns A Vega-Lite spec: one rect and one text label per cell.
 * @throws {RangeError} If a size is not a positive integer, or two rows
 * fall on one cell.
 *
 * @example Two regimes side by side
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { welfareHeatmapChart } from "./welfare_heatmap.ts";
 *
 * const cell = { env: "bank_run", model: "Qwen", successes: 3, episodes: 5 };
 * const svg = await renderSvg(welfareHeatmapChart([
 *   { ...cell, regime: "stable", mechanism: "M0", welfare: 0.174, mark: "" },
 *   { ...cell, regime: "stable", mechanism: "M1", welfare: 0.488, mark: "up" },
 *   { ...cell, regime: "expansion", mechanism: "M0", welfare: 0.9, mark: "" },
 * ]));
 * assert.ok(svg.includes(">0.488 (3/5) ↑</text>"));
 * assert.ok(svg.includes(">Expansion</text>") && svg.includes(">Stable</text>"));
 * ```
 */
export function welfareHeatmapChart(
  cells: ChartRows,
  options: WelfareHeatmapChartOptions = {},
): VegaLiteSpec {
  const labelled = chartValues(cells).map((row) => {
    const arrow = row.mark === "up" ? " ↑" : row.mark === "down" ? " ↓" : "";
    return {
      ...row,
      env: envName(row.env),
      label: `${(row.welfare as number).toFixed(3)} (${row.successes}/${row.episodes})${arrow}`,
    };
  });
  const condition = conditionLabels(labelled, ["env", "mechanism", "model"]);
  const values = condition.values;
  const column = condition.field === undefined ? {} : {
    column: {
      field: condition.field,
      type: "nominal",
      title: null,
      sort: condition.order,
      header: { labelLimit: 0 },
    },
  };
  assertOnePerPlace(values, "welfareHeatmapChart", {
    place: ["env", "mechanism", "model", ...(condition.field ? [condition.field] : [])],
    measures: ["welfare", "label"],
  });
  const models = options.models ?? firstAppearance(values, "model");
  const {
    title = "Welfare realization W~",
    width = 95 * Math.max(1, models.length),
    height = 120,
  } = options;
  checkSize("width", width);
  checkSize("height", height);
  const x = { field: "model", type: "nominal", title: null, sort: [...models] } as const;
  const y = {
    field: "mechanism",
    type: "nominal",
    title: null,
    sort: [...MECHANISM_ORDER],
  } as const;
  return finishChart({
    $schema: VEGA_LITE_SCHEMA,
    title,
    data: {
      values: condition.field === undefined
        ? values
        : [...values, ...facetPlaceholders(values, "env", condition.field)],
    },
    facet: { row: envFacet(), ...column },
    spec: {
      width,
      height,
      layer: [
        {
          transform: [SKIP_PLACEHOLDERS],
          mark: { type: "rect" },
          encoding: {
            x,
            y,
            color: {
              field: "welfare",
              type: "quantitative",
              title: "W~",
              scale: { scheme: "greens", domain: [0, 1] },
            },
          },
        },
        {
          transform: [SKIP_PLACEHOLDERS],
          mark: { type: "text", fontSize: 9 },
          encoding: {
            x,
            y,
            text: { field: "label", type: "nominal" },
            color: {
              condition: { test: "datum.welfare > 0.6", value: "white" },
              value: "black",
            },
          },
        },
      ],
    },
  } as VegaLiteSpec, { agents: agentsOfRows(values, options.agents, "welfareHeatmapChart") });
}

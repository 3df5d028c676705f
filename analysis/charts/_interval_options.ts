/**
 * The options of `intervalChart` (in `interval.ts`), apart so that the facet
 * helpers (`_condition_facet.ts`) read them without importing the chart that
 * uses those helpers.
 *
 * @module
 */

import type pl from "npm:nodejs-polars@0.25.2";
import type { ChartAgents } from "./agents.ts";
import type { ColorScale } from "./_palette.ts";

/** Rows of a chart: a Polars frame or plain records. */
export type ChartRows = pl.DataFrame | readonly Record<string, unknown>[];

/** Options for `intervalChart`. */
export interface IntervalChartOptions {
  /** Field on the x axis (a category). */
  x: string;
  /** Field of the estimate. */
  y: string;
  /**
   * Fields of the interval's ends; no rules are drawn without them.
   *
   * @default {no interval}
   */
  lower?: string;
  /** Upper end of the interval (with `lower`). */
  upper?: string;
  /**
   * Field that colors and offsets the marks within an x category.
   *
   * @default {no color grouping}
   */
  color?: string;
  /**
   * Field that splits the chart into columns.
   *
   * @default {no columns}
   */
  column?: string;
  /**
   * Field that splits the chart into rows.
   *
   * @default {no rows}
   */
  row?: string;
  /**
   * Field drawn as a text label above each interval (e.g. `n`).
   *
   * @default {no labels}
   */
  label?: string;
  /**
   * Text put before each label.
   *
   * @default {"n="}
   */
  labelPrefix?: string;
  /**
   * Fixed colours of the `color` categories (see `analysis/charts/_palette.ts`):
   * the domain is also the colour order, and overrides `sort.color`.
   *
   * @default {Vega's default scheme, in `sort.color` order}
   */
  colors?: ColorScale;
  /**
   * Show the colour legend. Leave it on unless the colour repeats the x
   * axis.
   *
   * @default {true}
   */
  legend?: boolean;
  /**
   * Fields shown in each estimate's tooltip besides its place, estimate,
   * interval and label, e.g. the `n` behind an average.
   *
   * @default {[]}
   */
  tooltip?: readonly string[];
  /**
   * Mark of the estimate.
   *
   * @default {"point"}
   */
  mark?: "point" | "bar";
  /**
   * Orders of the categories of `x`, `color`, `column` and `row`.
   *
   * @default {order of first appearance}
   */
  sort?: {
    x?: readonly string[];
    color?: readonly string[];
    column?: readonly string[];
    row?: readonly string[];
  };
  /**
   * Title of the colour legend.
   *
   * @default {the color field}
   */
  colorTitle?: string;
  /**
   * The chart's name in error messages, e.g. `"welfareBarsChart"`.
   *
   * @default {"intervalChart"}
   */
  name?: string;
  /**
   * Show every category of `sort.x` on the x axis, even those without data.
   *
   * @default {false}
   */
  showAllX?: boolean;
  /** Chart title. @default {no title} */
  title?: string;
  /** A line under the title (with `title`). @default {none} */
  subtitle?: string;
  /** X axis title. @default {the x field} */
  xTitle?: string;
  /** Y axis title. @default {the y field} */
  yTitle?: string;
  /**
   * Fixed y domain, e.g. `[0, 1]`.
   *
   * @default {fitted to the data}
   */
  yDomain?: readonly [number, number];
  /**
   * Give each facet its own y scale.
   *
   * @default {false}
   */
  independentY?: boolean;
  /** Width of one plot in pixels. @default {240} */
  width?: number;
  /** Height of one plot in pixels. @default {180} */
  height?: number;
  /**
   * Published values drawn in the run's places (e.g. the paper's Table 10
   * beside a run's): rows with the same place fields and `y` (and `lower`,
   * `upper`); each is a black tick at its `y` over a grey band from its
   * `lower` to its `upper`, and `label` says so in the subtitle. Rows at
   * places the run has not are left out.
   *
   * @default {none}
   */
  reference?: { rows: ChartRows; label: string };
  /**
   * The agents behind the rows (`chartAgents(episodes)`): mock agents are
   * named under the title. Rows whose `model` names mock policies say so
   * themselves.
   *
   * @default {what the rows' `model` says, else nothing}
   */
  agents?: ChartAgents;
}

/**
 * The run's values and the paper's on one chart: each compared cell of
 * `compareWithReference()` as two points side by side, the run's with its
 * 95% interval and the paper's with its published one, coloured by source.
 *
 * @module
 */

import type pl from "npm:nodejs-polars@0.25.2";
import { intervalChart } from "../charts/interval.ts";
import type { VegaLiteSpec } from "../charts/spec.ts";

/** Options for {@linkcode paperVsRunChart}. */
export interface PaperVsRunChartOptions {
  /** Column of the cells on the x axis, e.g. `"mechanism"`. */
  x: string;
  /** Column that splits the chart into columns. @default {none} */
  column?: string;
  /** Column that splits the chart into rows. @default {none} */
  row?: string;
  /** What the run's agents are, shown in the legend and the subtitle, e.g. `"mock agents"`. */
  runLabel: string;
  /** Chart title. */
  title: string;
  /** A line under the title. @default {"<runLabel> beside the published values"} */
  subtitle?: string;
  /** Y axis title. @default {"value"} */
  yTitle?: string;
  /** Give each facet its own y scale. @default {false} */
  independentY?: boolean;
}

/** Legend entry of the published values. */
export const PAPER_SOURCE = "paper (published)";

/**
 * Builds a chart of a comparison from `compareWithReference()`: for every
 * cell, a point for the run (with `run_lower`..`run_upper` when the frame
 * has them) and one for the paper (with `paper_lower`..`paper_upper`), in
 * two colours, the run's labelled `"run: <runLabel>"`. Cells with a value
 * on one side only show that side's point.
 *
 * @param cells A comparison frame (`column`, `run`, `paper` and the keys).
 * @param options Fields, facets, labels.
 * @returns A Vega-Lite spec.
 * @throws {RangeError} If two cells share a place on the chart.
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { renderSvg } from "../charts/render.ts";
 * import { paperVsRunChart } from "./paper_vs_run_chart.ts";
 *
 * const cells = pl.DataFrame({ mechanism: ["M0", "M1"], column: ["mean", "mean"], run: [0.2, 0.5], paper: [0.215, null] });
 * const svg = await renderSvg(paperVsRunChart(cells, { x: "mechanism", runLabel: "mock agents", title: "W" }));
 * if (svg.match(/aria-roledescription="point"/g)?.length !== 3) throw new Error("three points");
 * if (!svg.includes("run: mock agents")) throw new Error("the run's label");
 * ```
 */
export function paperVsRunChart(
  cells: pl.DataFrame,
  options: PaperVsRunChartOptions,
): VegaLiteSpec {
  const { x, column, row, runLabel, title } = options;
  const runSource = `run: ${runLabel}`;
  const has = (name: string) => cells.columns.includes(name);
  const rows: Record<string, unknown>[] = [];
  for (const r of cells.toRecords()) {
    const place: Record<string, unknown> = { [x]: String(r[x]) };
    if (column) place[column] = String(r[column]);
    if (row) place[row] = String(r[row]);
    if (r.run !== null && r.run !== undefined) {
      rows.push({
        ...place,
        source: runSource,
        value: r.run,
        lower: has("run_lower") ? r.run_lower : null,
        upper: has("run_upper") ? r.run_upper : null,
      });
    }
    if (r.paper !== null && r.paper !== undefined) {
      rows.push({
        ...place,
        source: PAPER_SOURCE,
        value: r.paper,
        lower: has("paper_lower") ? r.paper_lower : null,
        upper: has("paper_upper") ? r.paper_upper : null,
      });
    }
  }
  return intervalChart(rows, {
    x,
    y: "value",
    lower: "lower",
    upper: "upper",
    color: "source",
    colorTitle: "source",
    sort: { color: [runSource, PAPER_SOURCE] },
    ...(column ? { column } : {}),
    ...(row ? { row } : {}),
    title,
    subtitle: options.subtitle ?? `${runLabel} beside the published values`,
    yTitle: options.yTitle ?? "value",
    independentY: options.independentY ?? false,
    name: "paperVsRunChart",
  });
}

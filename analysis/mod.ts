/**
 * Analysis of coordlab runs: loaders that turn event logs into Polars
 * frames, the statistics and the tables and figures of the FRAIL paper,
 * the papers' published numbers for comparison, chart builders, headless
 * chart rendering and notebook display.
 *
 * Analysis reads only event logs (never the engine's in-memory summaries):
 * `loadRuns()` gives tidy frames, every table function is `DataFrame ->
 * DataFrame`, chart builders are pure `(data, options) -> VegaLiteSpec`
 * functions, the renderers turn a spec into SVG or PNG without a browser or
 * system fonts, and the display functions wrap charts and Polars frames into
 * Jupyter MIME bundles for the Deno kernel.
 *
 * @example Welfare table of two episodes, compared with FRAIL Table 2
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import {
 *   compareWithReference,
 *   loadReference,
 *   welfareAverage,
 *   welfareTable,
 * } from "./mod.ts";
 *
 * const episodes = pl.DataFrame({
 *   env: ["bank_run", "bank_run"], regime: ["stable", "stable"], mechanism: ["M3", "M3"],
 *   model: ["a", "b"], status: ["ok", "ok"], success: [true, true],
 *   welfare_realization: [0.6, 0.874],
 * });
 * const average = welfareAverage(welfareTable(episodes));
 * const cells = compareWithReference(average, loadReference("frail_table2_average"), {
 *   keys: ["env", "regime", "mechanism"],
 *   values: ["mean"],
 * }).filter(pl.col("run").isNotNull());
 * assert.deepEqual(cells.select("mechanism", "paper", "match").toRecords(), [
 *   { mechanism: "M3", paper: 0.737, match: true },
 * ]);
 * ```
 *
 * @example Build, render and display a state trajectory
 * ```ts
 * import assert from "node:assert/strict";
 * import { displayChart, renderSvg, stateTrajectoryChart } from "./mod.ts";
 *
 * const spec = stateTrajectoryChart([
 *   { round: 0, series: "cash", value: 10 },
 *   { round: 1, series: "cash", value: 6 },
 * ], { title: "Cash", referenceLines: [{ y: 5, label: "threshold" }] });
 * assert.ok((await renderSvg(spec)).includes("threshold"));
 * const bundle = await displayChart(spec); // undefined inside Jupyter
 * assert.equal(bundle?.["text/plain"], "Vega-Lite chart: Cash");
 * ```
 *
 * @module
 */

export * from "./charts/spec.ts";
export * from "./charts/render.ts";
export * from "./charts/state_trajectory.ts";
export { type ChartAgents, chartAgents } from "./charts/agents.ts";
export { type ChartRows, intervalChart, type IntervalChartOptions } from "./charts/interval.ts";
export * from "./charts/frail_estimates.ts";
export * from "./charts/welfare_heatmap.ts";
export * from "./charts/trajectories_chart.ts";
export * from "./display.ts";
export * from "./progress.ts";
export * from "./stats.ts";
export * from "./reference.ts";
export * from "./load/load_runs.ts";
export * from "./load/compact.ts";
export * from "./conditions.ts";
export * from "./frail/env_profiles.ts";
export * from "./frail/episode_measures.ts";
export * from "./frail/welfare_table.ts";
export * from "./frail/success_table.ts";
export * from "./frail/action_measures.ts";
export * from "./frail/regime_table.ts";
export * from "./frail/scorecard.ts";
export * from "./frail/trajectories.ts";
export * from "./frail/early_commitment.ts";
export * from "./staghunt/turn_records.ts";
export * from "./transcript.ts";
export * from "./staghunt/figures.ts";
export * from "./charts/staghunt_charts.ts";
export * from "./usage.ts";
export * from "./charts/usage_chart.ts";
export {
  PAPER_TITLES,
  REPORT_PAPERS,
  type ReportChart,
  type ReportFrames,
  type ReportPaper,
  type ReportSection,
  type ReportTable,
  type ReproductionReport,
  reproductionReport,
  type ReproductionReportOptions,
  type VerdictCounts,
} from "./report/reproduction.ts";
export { reportHtml, reportMarkdown, VERDICT_TEXT, writeReport } from "./report/render.ts";
export {
  PAPER_SOURCE,
  paperVsRunChart,
  type PaperVsRunChartOptions,
} from "./report/paper_vs_run_chart.ts";
export * from "./branch_effects.ts";

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

// Everything of mod.ts that is analysis: loading logs, the papers' tables and figures, displays.
export { FRAME_NAMES, loadRuns, loadRunsLazy, writeRunsParquet } from "./load/load_runs.ts";
export { FRAIL_CONDITION_KEYS, STAGHUNT_CONDITION_KEYS } from "./conditions.ts";
export { welfareAverage, welfareTable, welfareTableDisplay } from "./frail/welfare_table.ts";
export { successTable } from "./frail/success_table.ts";
export { actionMeasuresTable } from "./frail/action_measures.ts";
export { regimeTable } from "./frail/regime_table.ts";
export { scorecard } from "./frail/scorecard.ts";
export {
  earlyCommitment,
  earlyCommitmentBins,
  earlyCommitmentContrast,
} from "./frail/early_commitment.ts";
export { trajectories, trajectoryReferences } from "./frail/trajectories.ts";
export {
  actionMeasuresChart,
  earlyCommitmentChart,
  regimeChart,
  scorecardChart,
  successChart,
  welfareBarsChart,
} from "./charts/frail_estimates.ts";
export { trajectoriesChart } from "./charts/trajectories_chart.ts";
export { chartAgents } from "./charts/agents.ts";
export { welfareHeatmapChart } from "./charts/welfare_heatmap.ts";
export { compareWithReference, loadReference } from "./reference.ts";
export { reproductionReport } from "./report/reproduction.ts";
export { usageTable } from "./usage.ts";
export { usageChart } from "./charts/usage_chart.ts";
export { stagHuntTurnRecords } from "./staghunt/turn_records.ts";
export {
  calibrationTable,
  historyMatchRates,
  honestStagRates,
  matchRateTable,
  payoffGap,
  stagByMargin,
  successByCorruption,
} from "./staghunt/figures.ts";
export {
  calibrationChart,
  historyMatchChart,
  matchRateChart,
  payoffGapChart,
  stagByMarginChart,
  successByCorruptionChart,
} from "./charts/staghunt_charts.ts";
export { meanCi, wilson } from "./stats.ts";
export { stateTrajectoryChart } from "./charts/state_trajectory.ts";
export { roundMeasuresChart, roundMeasuresTable } from "./games/round_measures.ts";
export { renderPng, renderSvg } from "./charts/render.ts";
export { displayChart, displayTable, saveChart, settle } from "./display.ts";
export { progressDisplay } from "./progress.ts";
export { episodeEvents, showEpisode } from "./viewer/show_episode.ts";
export { episodeTranscript } from "./transcript.ts";
export { writeRunSite } from "./viewer/run_site.ts";

// The option and result types the notebook API's analysis functions take and give.
export type { LoadRunsOptions, RunFrames } from "./load/load_runs.ts";
export type { ReproductionReport } from "./report/reproduction.ts";
export type { CallTranscript } from "./transcript.ts";
export type { ChartAgents } from "./charts/agents.ts";
export type { VegaLiteSpec } from "./charts/spec.ts";

// Beyond mod.ts: branch effects, the general interval chart, compaction, standard errors.
export { branchEffects, type BranchEffectsOptions } from "./branch_effects.ts";
export { intervalChart, type IntervalChartOptions } from "./charts/interval.ts";
export { compactRun } from "./load/compact.ts";
export { meanSe } from "./stats.ts";

/**
 * coordlab: run, replay and analyse multi-agent coordination experiments
 * with LLM agents (FRAIL's bank run, debt rollover and reward crowdfunding
 * with mechanisms M0-M3, and the iterated N-player Stag Hunt under corrupted
 * public reports) on a seeded, pure engine with NDJSON event logs,
 * checkpoints, state hashes and exact replay.
 *
 * This module is what a notebook needs: run and replay episodes and grids,
 * load logs into Polars frames (`pl` is nodejs-polars itself, the instance
 * the frames come from), the papers' tables and figures, and the displays. Everything else has its own entry point: `engine/mod.ts`
 * (environments, descriptors, the round loop, events), `engine/games/staghunt/mod.ts`
 * (the Stag Hunt's game, belief rules and metrics), `engine/agents/llm/mod.ts`
 * (LLM agents through OpenAI-compatible APIs), `engine/grid/mod.ts` (the grid
 * runner's parts), `analysis/mod.ts` (every analysis helper) and
 * `engine/testing.ts` (the local OpenAI-compatible server).
 *
 * @example Run, replay, load and tabulate
 * ```ts
 * import { loadRuns, replayEpisode, runEpisode, welfareTable } from "./mod.ts";
 * const dir = await Deno.makeTempDir();
 * for (const mechanism of ["M0", "M3"] as const) {
 *   const r = await runEpisode({ env: "bank_run", mechanism, seed: 7, outDir: dir });
 *   if (!(await replayEpisode(r.events)).ok) throw new Error("replay");
 * }
 * const { episodes } = await loadRuns(dir);
 * const table = welfareTable(episodes);
 * if (table.height !== 2) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */

// Polars (nodejs-polars 0.25.2) as `pl`: the same instance the frames come from.
export { default as pl } from "npm:nodejs-polars@0.25.2";

// Run and replay. The option and result types of these functions are in the
// entry point of their part: engine/mod.ts, engine/games/staghunt/mod.ts,
// engine/grid/mod.ts and analysis/mod.ts.
export {
  type EpisodeConfig,
  type EpisodeResult,
  replayEpisode,
  runEpisode,
} from "./engine/run_episode.ts";
export { runStagHuntEpisode } from "./engine/run_staghunt_episode.ts";
// A game of your own (docs/adding-a-game.md); its types are in engine/mod.ts.
export { registerGame } from "./engine/games/registry.ts";
// Counterfactual branches and episode diffs (their option and result types are in
// engine/mod.ts, `branchEffects` in analysis/mod.ts).
export { branchEpisode } from "./engine/branch_episode.ts";
export { diffEpisodes } from "./engine/core/episode_diff.ts";
export { runGrid } from "./engine/grid/run_grid.ts";
export { parseGridSpec } from "./engine/grid/spec.ts";
export { readGridSpec } from "./engine/grid/spec_file.ts";
export { estimateUsage } from "./engine/grid/estimate.ts";
export { resolveParams, welfareBounds } from "./engine/frail/registry.ts";
export { qStar } from "./engine/games/staghunt/q_star.ts";

// Agents.
export { mockPopulation } from "./engine/agents/mock/population.ts";
export { mockStagHuntPlayers, thresholdPlayer } from "./engine/games/staghunt/mock.ts";
export { carryoverRule } from "./engine/games/staghunt/beliefs/carryover.ts";
export { naiveRule } from "./engine/games/staghunt/beliefs/naive.ts";
export { outcomeAlignmentRule } from "./engine/games/staghunt/beliefs/outcome_alignment.ts";
export { paperRules } from "./engine/games/staghunt/beliefs/paper_rules.ts";
export type { BeliefRule } from "./engine/games/staghunt/beliefs/rule.ts";

// Loading logs.
export {
  FRAME_NAMES,
  loadRuns,
  loadRunsLazy,
  writeRunsParquet,
} from "./analysis/load/load_runs.ts";
export { FRAIL_CONDITION_KEYS, STAGHUNT_CONDITION_KEYS } from "./analysis/conditions.ts";

// FRAIL tables and figures.
export {
  welfareAverage,
  welfareTable,
  welfareTableDisplay,
} from "./analysis/frail/welfare_table.ts";
export { successTable } from "./analysis/frail/success_table.ts";
export { actionMeasuresTable } from "./analysis/frail/action_measures.ts";
export { regimeTable } from "./analysis/frail/regime_table.ts";
export { scorecard } from "./analysis/frail/scorecard.ts";
export {
  earlyCommitment,
  earlyCommitmentBins,
  earlyCommitmentContrast,
} from "./analysis/frail/early_commitment.ts";
export { trajectories, trajectoryReferences } from "./analysis/frail/trajectories.ts";
export {
  actionMeasuresChart,
  earlyCommitmentChart,
  regimeChart,
  scorecardChart,
  successChart,
  welfareBarsChart,
} from "./analysis/charts/frail_estimates.ts";
export { trajectoriesChart } from "./analysis/charts/trajectories_chart.ts";
export { chartAgents } from "./analysis/charts/agents.ts";
export { welfareHeatmapChart } from "./analysis/charts/welfare_heatmap.ts";
export { compareWithReference, loadReference } from "./analysis/reference.ts";
// A paper's every table and figure beside the published values, with verdicts
// (its renderers and the verdict rule: the "./analysis" entry point).
export { reproductionReport } from "./analysis/report/reproduction.ts";

// Model calls: usage and cost.
export { usageTable } from "./analysis/usage.ts";
export { usageChart } from "./analysis/charts/usage_chart.ts";

// Stag Hunt tables and figures.
export { stagHuntTurnRecords } from "./analysis/staghunt/turn_records.ts";
export {
  calibrationTable,
  historyMatchRates,
  honestStagRates,
  matchRateTable,
  payoffGap,
  stagByMargin,
  successByCorruption,
} from "./analysis/staghunt/figures.ts";
export {
  calibrationChart,
  historyMatchChart,
  matchRateChart,
  payoffGapChart,
  stagByMarginChart,
  successByCorruptionChart,
} from "./analysis/charts/staghunt_charts.ts";

// Statistics.
export { meanCi, wilson } from "./analysis/stats.ts";

// Charts, displays and the episode viewer.
export { stateTrajectoryChart } from "./analysis/charts/state_trajectory.ts";
export { roundMeasuresChart, roundMeasuresTable } from "./analysis/games/round_measures.ts";
export { renderPng, renderSvg } from "./analysis/charts/render.ts";
export { displayChart, displayTable, saveChart, settle } from "./analysis/display.ts";
export { progressDisplay } from "./analysis/progress.ts";
export { episodeEvents, showEpisode } from "./analysis/viewer/show_episode.ts";
export { episodeTranscript } from "./analysis/transcript.ts";
export { writeRunSite } from "./analysis/viewer/run_site.ts";

/**
 * The grid runner, for rule-based and LLM agents alike: running a grid
 * (resumable, sharded, on Web Workers, with budgets), its spec and plan,
 * dry-run estimates (`estimateUsage`), a game's episode runner, and reading
 * the logs of a run folder. Its parts (cells, seeds, shards, the manifest,
 * segment logs, locks, workers, the pilot run) are imported by path from
 * their modules (`engine/grid/`); compaction is `compactRun` in
 * `analysis/mod.ts`.
 *
 * @module
 */

// Running a grid (also in mod.ts), and its options and result.
export { runGrid, type RunGridOptions } from "./run_grid.ts";
export type { GridResult } from "./grid_result.ts";
export { readGridSpec } from "./spec_file.ts";
export { type GridSpecInput, parseGridSpec } from "./spec.ts";
export { estimateUsage, type UsageEstimate } from "./estimate.ts";

// Specs, plans, a game's episode runner, and the logs of a run folder.
export type { GridBlock, GridSpec } from "./spec.ts";
export { type GridPlan, planGrid } from "./plan.ts";
export type { EpisodeRunner } from "./episode_runner.ts";
export { readLogEpisodes, readRunEpisodes } from "./segments.ts";

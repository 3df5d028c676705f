/**
 * The grid runner, for rule-based and LLM agents alike: experiment specs,
 * deterministic cells and seeds, shards, resumable runs with a manifest and
 * append-only segment logs, one writer per folder, Web Workers, LLM runs
 * with budgets and preflight, progress, dry-run estimates (`estimateUsage`,
 * measured by a pilot run: `runPilot`),
 * and Parquet compaction.
 *
 * @module
 */
export * from "./cells.ts";
export * from "./estimate.ts";
export * from "./execute.ts";
export * from "./labels.ts";
export * from "./lock.ts";
export * from "./llm_agents.ts";
export * from "./manifest.ts";
export * from "./pilot.ts";
export * from "./plan.ts";
export * from "./progress.ts";
export * from "./resume.ts";
export * from "./run_grid.ts";
export * from "./runners.ts";
export * from "./segments.ts";
export * from "./seeds.ts";
export * from "./shard.ts";
export * from "./spec.ts";
export * from "./spec_file.ts";
export * from "./worker_pool.ts";
export * from "./write_error.ts";

/**
 * LLM agents through OpenAI-compatible APIs: model configuration, prompt
 * templates per (environment, role, call), the runtime (SDK clients,
 * per-provider limits, retries, response cache, accounting and budgets),
 * preflight checks (the local OpenAI-compatible server that tests use is in
 * `engine/testing.ts`). Grids of LLM episodes (budgets, preflight,
 * resume, progress, dry runs) run with the grid runner: `runGrid(spec, {
 * runtime })` and `estimateUsage`.
 *
 * @example
 * ```ts
 * import { LlmRuntime, llmPopulation } from "./mod.ts";
 * import { serveLocalModel } from "../../testing.ts";
 * import { runEpisode } from "../../run_episode.ts";
 * const server = serveLocalModel();
 * try {
 *   const runtime = new LlmRuntime({ models: [{ id: "local", baseURL: server.url, model: "coordlab-stay", testDouble: true }] });
 *   const r = await runEpisode({ env: "bank_run", mechanism: "M3", seed: 1,
 *     agents: llmPopulation({ runtime, env: "bank_run", models: "local", sample: 1 }) });
 *   if (!r.outcome.success || runtime.ledger.run().calls !== server.stats().chat) throw new Error();
 * } finally {
 *   await server.close();
 * }
 * ```
 *
 * @module
 */

// LLM agents: the runtime, its budget and usage, and the models file.
export { LlmRuntime, type LlmRuntimeOptions } from "./runtime.ts";
export { LlmPreflightError } from "./preflight.ts";
export { llmPopulation, type LlmPopulationOptions } from "./llm_agent.ts";
export { loadModelsFile, type ModelConfig } from "./model_config.ts";
export type { Budget, UsageTotals } from "./accounting.ts";
export type { PromptSet } from "./prompts/template.ts";

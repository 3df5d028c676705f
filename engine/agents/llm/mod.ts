/**
 * LLM agents through OpenAI-compatible APIs: model configuration, prompt
 * templates per (environment, role, call), the runtime (SDK clients,
 * per-provider limits, retries, response cache, accounting), preflight
 * checks, grid runs with budgets and progress, dry runs, and a local
 * OpenAI-compatible server with rule-based policies and fault injection.
 *
 * @example
 * ```ts
 * import { LlmRuntime, runLlmGrid, serveLocalModel } from "./mod.ts";
 * const server = serveLocalModel();
 * try {
 *   const runtime = new LlmRuntime({ models: [{ id: "local", baseURL: server.url, model: "coordlab-stay" }] });
 *   const r = await runLlmGrid([{ env: "bank_run", mechanism: "M3", seed: 1 }], { runtime, models: "local" });
 *   if (!r.episodes[0].outcome?.success) throw new Error();
 * } finally {
 *   await server.close();
 * }
 * ```
 *
 * @module
 */
export {
  addCall,
  type Budget,
  budgetExhausted,
  callCost,
  emptyTotals,
  usageFromEvents,
  UsageLedger,
  type UsageTotals,
} from "./accounting.ts";
export {
  type CachedResponse,
  cacheKey,
  cacheKeyOf,
  type CacheKeyParts,
  type CacheStats,
  promptHash,
  ResponseCache,
} from "./cache.ts";
export {
  dryRunGrid,
  type DryRunModelCounts,
  type DryRunOptions,
  type DryRunPlan,
} from "./dry_run.ts";
export { Limiter, type LimiterOptions, limitersByProvider, type LimiterStatus } from "./limiter.ts";
export {
  llmAgent,
  type LlmAgentOptions,
  llmPopulation,
  type LlmPopulationOptions,
} from "./llm_agent.ts";
export { assignedModels, type ModelAssignment, modelFor } from "./model_assignment.ts";
export {
  loadModelConfigs,
  type ModelConfig,
  type ModelConfigInput,
  ModelConfigSchema,
  type ModelPrice,
  parseModelConfig,
  parseModelConfigs,
} from "./model_config.ts";
export { denoPermissionFlags, type PermissionOptions } from "./permissions.ts";
export {
  LlmPreflightError,
  preflight,
  type PreflightOptions,
  type PreflightProblem,
} from "./preflight.ts";
export { formatProgress, type GridProgress } from "./progress.ts";
export { missingTemplates, promptEnvironments, promptSet } from "./prompts/registry.ts";
export {
  type ChatMessage,
  definePrompt,
  findTemplate,
  type PromptSet,
  type PromptSpec,
  type PromptTemplate,
} from "./prompts/template.ts";
export { REDACTED, redactSecrets } from "./redact.ts";
export {
  type BackoffOptions,
  classifyFailure,
  type FailureInfo,
  retryAfter,
  retryDelay,
} from "./retry.ts";
export {
  gridEpisodeId,
  type GridEpisodeResult,
  type GridEpisodeSpec,
  type LlmGridOptions,
  type LlmGridResult,
  runLlmGrid,
} from "./run_grid.ts";
export type { LlmAttemptFailure, LlmCallRecord } from "../../core/events.ts";
export {
  type CompleteOptions,
  type CompletionLike,
  LlmRuntime,
  type LlmRuntimeOptions,
  readCompletion,
  type RetryNotice,
  type RuntimeStatus,
  samplingParams,
} from "./runtime.ts";
export { type FaultKind, type FaultRates } from "./server/faults.ts";
export {
  type LocalServer,
  type LocalServerOptions,
  serveLocalModel,
  type ServerStats,
} from "./server/local_server.ts";
export { LOCAL_MODELS, type ServedPolicy } from "./server/policies.ts";

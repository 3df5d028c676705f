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
export {
  addCall,
  addSpend,
  addTotals,
  billedUsage,
  type Budget,
  budgetExhausted,
  type BudgetTally,
  callCost,
  checkBudget,
  copySpend,
  emptySpend,
  emptySpendTotals,
  emptyTotals,
  promptBytes,
  type Reservation,
  reservationOf,
  reservationRefusal,
  type Spend,
  spendExhausted,
  spendLeft,
  type SpendLine,
  type SpendTotals,
  type SpendUsage,
  totalsSince,
  usageFromEvents,
  UsageLedger,
  type UsageTotals,
} from "./accounting.ts";
export {
  readSpendLedger,
  SPEND_LEDGER_FILE,
  SpendLedger,
  type SpendLedgerReading,
} from "./spend_ledger.ts";
export {
  type CachedResponse,
  CachedResponseSchema,
  cacheKey,
  cacheKeyOf,
  type CacheKeyParts,
  type CacheStats,
  promptHash,
  ResponseCache,
  type ResponseCacheOptions,
} from "./cache.ts";
export { Limiter, type LimiterOptions, limitersByProvider, type LimiterStatus } from "./limiter.ts";
export {
  llmAgent,
  type LlmAgentOptions,
  llmPopulation,
  type LlmPopulationOptions,
  renderCall,
  type RenderCallOptions,
} from "./llm_agent.ts";
export { assignedModels, type ModelAssignment, modelFor } from "./model_assignment.ts";
export {
  checkCurrency,
  CLIENT_REQUEST_FIELDS,
  loadModelConfigs,
  loadModelsFile,
  MAX_COMPLETION_TOKENS,
  MAX_PRICE_PER_MILLION,
  MAX_TIMER_MS,
  type ModelConfig,
  type ModelConfigInput,
  ModelConfigSchema,
  type ModelPrice,
  modelsCurrency,
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
export { missingTemplates, promptEnvironments, promptSet } from "./prompts/registry.ts";
export {
  type ChatMessage,
  definePrompt,
  findTemplate,
  type PromptSet,
  type PromptSpec,
  type PromptTemplate,
} from "./prompts/template.ts";
export {
  looksLikeToken,
  REDACTED,
  redactSecrets,
  safeUrl,
  secretForms,
  SHORT_SECRET_CHARS,
  urlSecrets,
} from "./redact.ts";
export { type BoundedReply, boundReplyForLog, type BoundReplyOptions } from "./reply_bounds.ts";
export {
  type BackoffOptions,
  classifyFailure,
  DEFAULT_MAX_RETRY_AFTER_MS,
  type FailureInfo,
  retryAfter,
  retryDelay,
} from "./retry.ts";
export type {
  Degradation,
  LlmAttemptFailure,
  LlmCallRecord,
  LoggedMessage,
} from "../../core/events.ts";
export { type CompletionReading, type CompletionUsage, parseCompletion } from "./completion.ts";
export {
  type BudgetStatus,
  type CompleteOptions,
  DEFAULT_MAX_CONSECUTIVE_FAILURES,
  DEFAULT_MAX_LOGGED_REPLY_CHARS,
  type HaltCause,
  LlmRuntime,
  type LlmRuntimeOptions,
  PROBE_EPISODE,
  PROBE_MESSAGES,
  type RetryNotice,
  type RuntimeHalt,
  type RuntimeStatus,
  samplingParams,
  type UseBudgetOptions,
} from "./runtime.ts";

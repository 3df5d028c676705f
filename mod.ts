/**
 * coordlab: run, replay and analyse multi-agent coordination experiments
 * (FRAIL's bank run, debt rollover and reward crowdfunding with mechanisms M0-M3) on a seeded, pure engine with
 * NDJSON event logs, checkpoints, state hashes and exact replay.
 *
 * @example
 * ```ts
 * import { replayEpisode, runEpisode, welfareBounds } from "./mod.ts";
 * const { worst, best } = welfareBounds("bank_run", "stable");
 * const r = await runEpisode({ env: "bank_run", mechanism: "M3", seed: 7 });
 * if (r.outcome.welfare < worst - 1e-9 || r.outcome.welfare > best + 1e-9) throw new Error();
 * if (!(await replayEpisode(r.events)).ok) throw new Error("replay");
 * ```
 *
 * @module
 */
export {
  type EpisodeConfig,
  type EpisodeResult,
  replayEpisode,
  runEpisode,
} from "./engine/run_episode.ts";
export {
  type AnyEnvironment,
  availableEnvironments,
  environment,
  resolveParams,
  welfareBounds,
} from "./engine/frail/registry.ts";
export { type EnvId, type MechanismId, MECHANISMS, type Message } from "./engine/frail/types.ts";
export { type RegimeId, REGIMES } from "./engine/frail/params.ts";
export {
  BANK_RUN_REGIMES,
  bankRunBounds,
  type BankRunParams,
  BankRunParamsSchema,
  parseBankRunParams,
} from "./engine/frail/bank_run/params.ts";
export { bankRun } from "./engine/frail/bank_run/environment.ts";
export { debtRollover } from "./engine/frail/debt_rollover/environment.ts";
export {
  type AssetTranche,
  claimAt,
  DEBT_ROLLOVER_REGIMES,
  type DebtRolloverParams,
  DebtRolloverParamsSchema,
  parseDebtRolloverParams,
  waveAssignment,
} from "./engine/frail/debt_rollover/params.ts";
export {
  bestRepaymentSchedule,
  type BestSchedule,
  debtRolloverBounds,
} from "./engine/frail/debt_rollover/bounds.ts";
export type { DebtRolloverState } from "./engine/frail/debt_rollover/state.ts";
export type { BorrowerView, CreditorView } from "./engine/frail/debt_rollover/views.ts";
export { crowdfunding } from "./engine/frail/crowdfunding/environment.ts";
export {
  CROWDFUNDING_REGIMES,
  crowdfundingBounds,
  type CrowdfundingParams,
  CrowdfundingParamsSchema,
  parseCrowdfundingParams,
} from "./engine/frail/crowdfunding/params.ts";
export type { CrowdfundingState } from "./engine/frail/crowdfunding/state.ts";
export type { BackerView, FounderView } from "./engine/frail/crowdfunding/views.ts";
export type {
  BankRunDisclosure,
  BankRunState,
  Depositor,
  PendingDecision,
} from "./engine/frail/bank_run/state.ts";
export type { AgreementState, Signer } from "./engine/frail/mechanisms/agreement.ts";
export type { CoalitionState, Member, Vote } from "./engine/frail/mechanisms/coalition.ts";
export type { ExitRitual } from "./engine/frail/mechanisms/exit_ritual.ts";
export type { Offer, PaidOffersState } from "./engine/frail/mechanisms/paid_offers.ts";
export { insolvencyBoundary, isInsolvent } from "./engine/frail/bank_run/settlement.ts";
export type {
  BankView,
  CommitmentView,
  DepositorParameters,
  DepositorView,
} from "./engine/frail/bank_run/views.ts";
export {
  EpisodeError,
  eventsHash,
  type PlayedEpisode,
  playEpisode,
  type PlayOptions,
  TOOLKIT_VERSION,
} from "./engine/core/episode.ts";
export type {
  CallRequest,
  Environment,
  Reports,
  SetupOptions,
  Step,
  StepContext,
  Transition,
} from "./engine/core/environment.ts";
export {
  type AgentInfo,
  type EngineEvent,
  type EpisodeOutcome,
  EVENT_SCHEMA_VERSION,
  type EventBase,
  type EventBody,
} from "./engine/core/events.ts";
export {
  type Contract,
  type Correction,
  defineContract,
  type FieldSpec,
} from "./engine/core/contract.ts";
export { extractJsonObject } from "./engine/core/reply_json.ts";
export { canonicalJson } from "./engine/core/canonical_json.ts";
export { sha256Hex, stateHash } from "./engine/core/hash.ts";
export { openStream, shuffled, type Stream, type StreamKey } from "./engine/core/rng.ts";
export { parseEpisodeLog, readEpisodeLog, writeEpisodeLog } from "./engine/core/log_file.ts";
export { type ReplayMismatch, type ReplayResult, replayWith } from "./engine/core/replay.ts";
export { type Difference, firstDifference } from "./engine/core/diff.ts";
export type { Agent, AgentFactory } from "./engine/agents/agent.ts";
export { mockPopulation, type MockPopulationOptions } from "./engine/agents/mock/population.ts";
export {
  type BankPolicy,
  type DepositorPolicy,
  mockBank,
  mockDepositor,
} from "./engine/agents/mock/bank_run.ts";
export {
  type BorrowerPolicy,
  type CreditorPolicy,
  type DebtRolloverMockOptions,
  debtRolloverMockPopulation,
  mockBorrower,
  mockCreditor,
} from "./engine/agents/mock/debt_rollover.ts";
export {
  type BackerPolicy,
  type CrowdfundingMockOptions,
  crowdfundingMockPopulation,
  type FounderPolicy,
  mockBacker,
  mockFounder,
} from "./engine/agents/mock/crowdfunding.ts";

/**
 * coordlab: run, replay and analyse multi-agent coordination experiments
 * (FRAIL's bank run, debt rollover and reward crowdfunding with mechanisms
 * M0-M3, and the iterated N-player Stag Hunt under corrupted public reports) on a seeded, pure engine with
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
export {
  type EnvId,
  MECHANISM_INFO,
  type MechanismId,
  MECHANISMS,
  type Message,
} from "./engine/frail/types.ts";
export { REGIME_INFO, type RegimeId, REGIMES } from "./engine/frail/params.ts";
export { FRAIL_ENV_IDS, FRAIL_GAMES, frailGame } from "./engine/frail/registry.ts";
export {
  FRAIL_CONDITION_KEYS,
  type FrailConditionInput,
  type FrailDerived,
  type FrailGameDescriptor,
  type FrailSetup,
  frailSetup,
  overridesId,
  type ReferenceLine,
} from "./engine/frail/descriptor.ts";
export { bankRunGame } from "./engine/frail/bank_run/descriptor.ts";
export { debtRolloverGame } from "./engine/frail/debt_rollover/descriptor.ts";
export { crowdfundingGame } from "./engine/frail/crowdfunding/descriptor.ts";
export { gameDescriptor, GAMES } from "./engine/games.ts";
export type {
  DerivedQuantities,
  EpisodeCondition,
  GameDescriptor,
  MockPolicyInfo,
  RoleInfo,
} from "./engine/core/game.ts";
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
export type {
  Creditor,
  DebtRolloverDisclosure,
  DebtRolloverState,
  RolloverOutcome,
  RoundActivity,
} from "./engine/frail/debt_rollover/state.ts";
export type { HeldTranche } from "./engine/frail/debt_rollover/balance_sheet.ts";
export type {
  BorrowerView,
  CreditorCommitmentView,
  CreditorView,
  RolloverParameters,
} from "./engine/frail/debt_rollover/views.ts";
export { crowdfunding } from "./engine/frail/crowdfunding/environment.ts";
export {
  CROWDFUNDING_REGIMES,
  crowdfundingBounds,
  type CrowdfundingParams,
  CrowdfundingParamsSchema,
  parseCrowdfundingParams,
} from "./engine/frail/crowdfunding/params.ts";
export type {
  Backer,
  BackerCall,
  BackerCoalition,
  BackerDecision,
  CrowdfundingDisclosure,
  CrowdfundingLedger,
  CrowdfundingState,
} from "./engine/frail/crowdfunding/state.ts";
export type {
  BackerCommitmentView,
  BackerView,
  CrowdfundingParameters,
  FounderView,
} from "./engine/frail/crowdfunding/views.ts";
export type { BankRunDisclosure, BankRunState, Depositor } from "./engine/frail/bank_run/state.ts";
export type { FinancialDecision, PendingDecision } from "./engine/frail/financial_decision.ts";
export type { AgreementState, Signer } from "./engine/frail/mechanisms/agreement.ts";
export type { CoalitionState, Member, Vote } from "./engine/frail/mechanisms/coalition.ts";
export type { ExitRitual } from "./engine/frail/mechanisms/exit_ritual.ts";
export type { Offer, PaidOffersState } from "./engine/frail/mechanisms/paid_offers.ts";
export type {
  CoalitionProfile,
  MechanismProfile,
  PaidOffersProfile,
  TermsRecipients,
} from "./engine/frail/mechanisms/profile.ts";
export type { InRoundExit } from "./engine/frail/mechanisms/in_round_exit.ts";
export type { DisclosureBallot } from "./engine/frail/mechanisms/majority_disclosure.ts";
export { insolvencyBoundary, isInsolvent } from "./engine/frail/bank_run/settlement.ts";
export type {
  BankAcceptedOffer,
  BankView,
  CommitmentView,
  DepositorParameters,
  DepositorView,
} from "./engine/frail/bank_run/views.ts";
export type { CapacityRule } from "./engine/frail/capacity.ts";
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
  type LlmAttemptFailure,
  type LlmCallRecord,
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

/**
 * The iterated N-player Stag Hunt under corrupted public reports, as one
 * namespace (game, corruption, heterogeneity, belief rules, q*, metrics,
 * grid, runner, mock players). The most used names are also exported at the
 * top level.
 *
 * @example
 * ```ts
 * import { staghunt } from "./mod.ts";
 * const q = staghunt.qStar({ N: 5, M: 3, payoffs: staghunt.DEFAULT_PAYOFFS });
 * if (Math.abs(q - 0.3857275681323895) > 1e-12) throw new Error(String(q));
 * ```
 */
export * as staghunt from "./engine/staghunt/mod.ts";
export { qStar, type QStarGame, type QStarOptions } from "./engine/staghunt/q_star.ts";
export type { PayoffsInput, StagHuntAction, StagHuntPayoffs } from "./engine/staghunt/payoffs.ts";
export type { CorruptionMode, StagHuntParams } from "./engine/staghunt/params.ts";
export type {
  RoundOutcome,
  RoundRecord,
  StagHuntState,
  TurnEntry,
} from "./engine/staghunt/state.ts";
export type { HeterogeneityId, ModelPolicy } from "./engine/staghunt/heterogeneity.ts";
export type { CalibrationOptions } from "./engine/staghunt/metrics/calibration.ts";
export type { StagHuntAgentFactory, StagHuntPlayer } from "./engine/staghunt/players.ts";
export type {
  AlwaysPlayerOptions,
  MockStagHuntOptions,
  StagHuntMockPolicy,
  ThresholdPlayerOptions,
} from "./engine/agents/mock/staghunt.ts";
export type { HistoryReport, HistoryRound, TurnHistory } from "./engine/staghunt/history.ts";
export { stagHunt } from "./engine/staghunt/environment.ts";
export {
  runStagHuntEpisode,
  type StagHuntRunConfig,
  type StagHuntRunResult,
} from "./engine/staghunt/run.ts";
export { type StagHuntTurn, turnsFromEvents } from "./engine/staghunt/turns.ts";
export type { BeliefRule } from "./engine/staghunt/beliefs/rule.ts";
export { paperRules } from "./engine/staghunt/beliefs/paper_rules.ts";

export * from "./analysis/mod.ts";
export * from "./engine/agents/llm/mod.ts";
export * from "./engine/grid/mod.ts";
export * from "./engine/core/progress.ts";
export * from "./engine/core/jupyter.ts";

// Viewer
export * from "./analysis/viewer/mod.ts";

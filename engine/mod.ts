/**
 * coordlab's engine, for authors of environments and tools: the game
 * descriptors and set-up functions, the FRAIL environments with their
 * parameters, regimes, states and views, the round loop (`playEpisode`) and
 * replay, the event types, seeded streams, and the Stag Hunt's game types.
 * Notebooks need only `mod.ts`; the Stag Hunt's full surface is
 * `engine/games/staghunt/mod.ts`, the LLM layer `engine/agents/llm/mod.ts`, the grid
 * runner `engine/grid/mod.ts`.
 *
 * @example Play an episode through the descriptor of its game
 * ```ts
 * import { bankRunGame, frailSetup, mockPopulation, playEpisode, replayWith } from "./mod.ts";
 * const setup = frailSetup(bankRunGame, { mechanism: "M2", regime: "contraction" });
 * const played = await playEpisode(bankRunGame.environment, {
 *   ...setup, seed: 4, agents: mockPopulation({ seed: 4 }), hashes: true,
 * });
 * if (!(await replayWith(bankRunGame.environment, played.events)).ok) throw new Error();
 * ```
 *
 * @module
 */
export {
  type EpisodeConfig,
  type EpisodeResult,
  type GameEpisodeConfig,
  replayEpisode,
  runEpisode,
} from "./run_episode.ts";
export {
  type AnyEnvironment,
  availableEnvironments,
  environment,
  resolveParams,
  welfareBounds,
} from "./frail/registry.ts";
export {
  type EnvId,
  MECHANISM_INFO,
  type MechanismId,
  MECHANISMS,
  type Message,
} from "./frail/types.ts";
export { REGIME_INFO, type RegimeId, REGIMES } from "./frail/params.ts";
export { FRAIL_ENV_IDS, FRAIL_GAMES, frailGame } from "./frail/registry.ts";
export {
  FRAIL_CONDITION_KEYS,
  type FrailConditionInput,
  type FrailDerived,
  type FrailGameDescriptor,
  type FrailSetup,
  frailSetup,
  overridesId,
  type ReferenceLine,
} from "./frail/descriptor.ts";
export { bankRunGame } from "./games/bank_run/descriptor.ts";
export { debtRolloverGame } from "./games/debt_rollover/descriptor.ts";
export { crowdfundingGame } from "./games/crowdfunding/descriptor.ts";
export { type FrailGame, frailGameDescriptor, type FrailGameSpec } from "./frail/game.ts";
export { gameDescriptor, GAMES, registerGame, type RegisterGameOptions } from "./games/registry.ts";
export type { Game } from "./games/game.ts";
export type {
  DerivedQuantities,
  EpisodeCondition,
  EpisodePlayers,
  GameDescriptor,
  GameSetup,
  MockPolicyInfo,
  PlayerAgentFactory,
  PlayerHook,
  PlayerInfo,
  RoleInfo,
} from "./core/game.ts";
export {
  BANK_RUN_REGIMES,
  bankRunBounds,
  type BankRunParams,
  BankRunParamsSchema,
  parseBankRunParams,
} from "./games/bank_run/params.ts";
export { bankRun } from "./games/bank_run/environment.ts";
export { debtRollover } from "./games/debt_rollover/environment.ts";
export {
  type AssetTranche,
  claimAt,
  DEBT_ROLLOVER_REGIMES,
  type DebtRolloverParams,
  DebtRolloverParamsSchema,
  parseDebtRolloverParams,
  waveAssignment,
} from "./games/debt_rollover/params.ts";
export {
  bestRepaymentSchedule,
  type BestSchedule,
  debtRolloverBounds,
} from "./games/debt_rollover/bounds.ts";
export type {
  Creditor,
  DebtRolloverDisclosure,
  DebtRolloverState,
  RolloverOutcome,
  RoundActivity,
} from "./games/debt_rollover/state.ts";
export type { HeldTranche } from "./games/debt_rollover/balance_sheet.ts";
export type {
  BorrowerView,
  CreditorCommitmentView,
  CreditorView,
  RolloverParameters,
} from "./games/debt_rollover/views.ts";
export { crowdfunding } from "./games/crowdfunding/environment.ts";
export {
  CROWDFUNDING_REGIMES,
  crowdfundingBounds,
  type CrowdfundingParams,
  CrowdfundingParamsSchema,
  parseCrowdfundingParams,
} from "./games/crowdfunding/params.ts";
export type {
  Backer,
  BackerCall,
  BackerCoalition,
  BackerDecision,
  CrowdfundingDisclosure,
  CrowdfundingLedger,
  CrowdfundingState,
} from "./games/crowdfunding/state.ts";
export type {
  BackerCommitmentView,
  BackerView,
  CrowdfundingParameters,
  FounderView,
} from "./games/crowdfunding/views.ts";
export type { BankRunDisclosure, BankRunState, Depositor } from "./games/bank_run/state.ts";
export type { FinancialDecision, PendingDecision } from "./frail/financial_decision.ts";
export type { AgreementState, Signer } from "./frail/mechanisms/agreement.ts";
export type { CoalitionState, Member, Vote } from "./frail/mechanisms/coalition.ts";
export type { ExitRitual } from "./frail/mechanisms/exit_ritual.ts";
export type { Offer, PaidOffersState } from "./frail/mechanisms/paid_offers.ts";
export type {
  CoalitionProfile,
  MechanismProfile,
  PaidOffersProfile,
  TermsRecipients,
} from "./frail/mechanisms/profile.ts";
export type { InRoundExit } from "./frail/mechanisms/in_round_exit.ts";
export type { DisclosureBallot } from "./frail/mechanisms/majority_disclosure.ts";
export { insolvencyBoundary, isInsolvent } from "./games/bank_run/settlement.ts";
export type {
  BankAcceptedOffer,
  BankView,
  CommitmentView,
  DepositorParameters,
  DepositorView,
} from "./games/bank_run/views.ts";
export type { CapacityRule } from "./frail/capacity.ts";
export {
  EpisodeError,
  eventsHash,
  type PlayedEpisode,
  playEpisode,
  type PlayOptions,
  TOOLKIT_VERSION,
} from "./core/episode.ts";
export type {
  CallRequest,
  Environment,
  Reports,
  SetupOptions,
  Step,
  StepContext,
  Transition,
} from "./core/environment.ts";
export {
  type AgentInfo,
  type EngineEvent,
  type EpisodeOutcome,
  EVENT_SCHEMA_VERSION,
  type EventBase,
  type EventBody,
  type LlmAttemptFailure,
  type LlmCallRecord,
  type LoggedMessage,
} from "./core/events.ts";
export { type Contract, type Correction, defineContract, type FieldSpec } from "./core/contract.ts";
export { extractJsonObject } from "./core/reply_json.ts";
export { canonicalJson } from "./core/canonical_json.ts";
export { sha256Hex, stateHash } from "./core/hash.ts";
export { openStream, shuffled, type Stream, type StreamKey } from "./core/rng.ts";
export { parseEpisodeLog, readEpisodeLog, writeEpisodeLog } from "./core/log_file.ts";
export {
  describeMismatch,
  recordedAnswers,
  type ReplayMismatch,
  type ReplayResult,
  replayWith,
} from "./core/replay.ts";
export {
  type BranchChange,
  branchEpisode,
  type BranchEpisodeOptions,
  branchLabel,
} from "./branch_episode.ts";
export {
  type AgentDiff,
  diffEpisodes,
  type DiffValue,
  type EpisodeDiff,
  type RoundDiff,
} from "./core/episode_diff.ts";
export type { BranchOf } from "./core/events.ts";
export { type Difference, firstDifference } from "./core/diff.ts";
export type { Agent, AgentFactory } from "./core/agent.ts";
export { mockPopulation, type MockPopulationOptions } from "./agents/mock/population.ts";
export {
  type BankPolicy,
  type DepositorPolicy,
  mockBank,
  mockDepositor,
} from "./games/bank_run/mock.ts";
export {
  type BorrowerPolicy,
  type CreditorPolicy,
  type DebtRolloverMockOptions,
  debtRolloverMockPopulation,
  mockBorrower,
  mockCreditor,
} from "./games/debt_rollover/mock.ts";
export {
  type BackerPolicy,
  type CrowdfundingMockOptions,
  crowdfundingMockPopulation,
  type FounderPolicy,
  mockBacker,
  mockFounder,
} from "./games/crowdfunding/mock.ts";

export { qStar, type QStarGame, type QStarOptions } from "./games/staghunt/q_star.ts";
export type { PayoffsInput, StagHuntAction, StagHuntPayoffs } from "./games/staghunt/payoffs.ts";
export type { CorruptionMode, StagHuntParams } from "./games/staghunt/params.ts";
export type {
  RoundOutcome,
  RoundRecord,
  StagHuntState,
  TurnEntry,
} from "./games/staghunt/state.ts";
export type { HeterogeneityId, ModelPolicy } from "./games/staghunt/heterogeneity.ts";
export type { CalibrationOptions } from "./games/staghunt/metrics/calibration.ts";
export type { StagHuntAgentFactory, StagHuntPlayer } from "./games/staghunt/players.ts";
export type {
  AlwaysPlayerOptions,
  MockStagHuntOptions,
  StagHuntMockPolicy,
  ThresholdPlayerOptions,
} from "./games/staghunt/mock.ts";
export type { HistoryReport, HistoryRound, TurnHistory } from "./games/staghunt/history.ts";
export { stagHunt } from "./games/staghunt/environment.ts";
export {
  runStagHuntEpisode,
  type StagHuntRunConfig,
  type StagHuntRunResult,
} from "./games/staghunt/run.ts";
export { type StagHuntTurn, turnsFromEvents } from "./games/staghunt/turns.ts";
export type { BeliefRule } from "./games/staghunt/beliefs/rule.ts";
export { paperRules } from "./games/staghunt/beliefs/paper_rules.ts";

export * from "./core/progress.ts";
export * from "./core/jupyter.ts";

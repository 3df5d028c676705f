/**
 * coordlab's engine, for authors of games and tools: the contract of a game
 * (its environment, agents, descriptor and events), the games' registry, the
 * round loop (`playEpisode`), replay and logs, the FRAIL ids, and the option
 * and result types of the notebook API's engine functions. Notebooks need
 * only `mod.ts`; the Stag Hunt is `engine/games/staghunt/mod.ts`, the LLM
 * layer `engine/agents/llm/mod.ts`, the grid runner `engine/grid/mod.ts`.
 * Everything else (a game's states, views and parameters, the mechanisms)
 * is imported by path from its module.
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

// The contract of a game: its environment, agents, descriptor and events.
export type {
  CheckpointState,
  Environment,
  Step,
  StepContext,
  Transition,
} from "./core/environment.ts";
export type { Agent, AgentFactory } from "./core/agent.ts";
export type {
  BatchedPlay,
  DerivedQuantities,
  EpisodeCondition,
  GameDescriptor,
  GameSetup,
  GameView,
  RoleInfo,
} from "./core/game.ts";
export type { BatchedEpisode, EpisodePath } from "./core/batched.ts";
export type { EngineEvent } from "./core/events.ts";
export type { HashingVersion } from "./core/events_hash.ts";
export { defineContract } from "./core/contract.ts";
export type { Game } from "./games/game.ts";
export { gameDescriptor, GAMES, registerGame, type RegisterGameOptions } from "./games/registry.ts";

// The round loop, replay and logs.
export { EpisodeError, type PlayedEpisode, playEpisode } from "./core/episode.ts";
export { type ReplayResult, replayWith } from "./core/replay.ts";
export { stateHash } from "./core/hash.ts";
export { readEpisodeLog } from "./core/log_file.ts";
export { canonicalJson } from "./core/canonical_json.ts";

// The FRAIL games' ids, and the options and results of the notebook API's engine functions (mod.ts).
export { type EnvId, type MechanismId, MECHANISMS } from "./frail/types.ts";
export { type RegimeId, REGIMES } from "./frail/params.ts";
export { FRAIL_ENV_IDS } from "./frail/registry.ts";
export type { EpisodeConfig, EpisodeResult, GameEpisodeConfig } from "./run_episode.ts";
export { mockPopulation, type MockPopulationOptions } from "./agents/mock/population.ts";
export type { BranchEpisodeOptions } from "./branch_episode.ts";
export type { EpisodeDiff } from "./core/episode_diff.ts";

// A FRAIL game's descriptor and its set-up (the bank run's; the others are in GAMES).
export { bankRunGame } from "./games/bank_run/descriptor.ts";
export { frailSetup } from "./frail/descriptor.ts";

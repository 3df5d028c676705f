/**
 * The iterated N-player Stag Hunt under corrupted public reports: running
 * an episode, its players and belief rules, q*, the game's parameters and
 * its turns. The metrics, the paper's grid and the game's state and views
 * are imported by path from their modules (`engine/games/staghunt/`).
 *
 * @module
 */

// Running an episode, its players and belief rules (also in mod.ts).
export {
  runStagHuntEpisode,
  type StagHuntRunConfig,
  type StagHuntRunResult,
} from "../../run_staghunt_episode.ts";
export { type MockStagHuntOptions, mockStagHuntPlayers, thresholdPlayer } from "./mock.ts";
export type { BeliefRule } from "./beliefs/rule.ts";
export { naiveRule } from "./beliefs/naive.ts";
export { carryoverRule } from "./beliefs/carryover.ts";
export { outcomeAlignmentRule } from "./beliefs/outcome_alignment.ts";
export { paperRules } from "./beliefs/paper_rules.ts";
export { qStar } from "./q_star.ts";

// The game's parameters and turns.
export type { CorruptionMode, StagHuntParams } from "./params.ts";
export { DEFAULT_PAYOFFS, type StagHuntPayoffs } from "./payoffs.ts";
export type { HeterogeneityId } from "./heterogeneity.ts";
export { type StagHuntTurn, turnsFromEvents } from "./turns.ts";

/**
 * The minimum-effort coordination game (Van Huyck, Battalio and Beil 1990)
 * as one package: its descriptor and the factory pieces that build an
 * episode from a condition (`minEffortSetup`, `minEffortMockAgents`), its
 * environment, parameters, welfare bounds and round measures. The prompt
 * set is in `prompts/mod.ts` (`minEffortPrompts`).
 *
 * @example
 * ```ts
 * import { playEpisode } from "../../core/episode.ts";
 * import { minEffortGame, minEffortMockAgents, minEffortSetup } from "./mod.ts";
 * const played = await playEpisode(minEffortGame.environment, {
 *   ...minEffortSetup({ N: 4, T: 3 }), seed: 7, agents: minEffortMockAgents({ seed: 7 }),
 * });
 * if (played.outcome.rounds !== 3 || played.outcome.bounds.best <= played.outcome.bounds.worst) throw new Error();
 * ```
 *
 * @module
 */
export { minEffortBounds, minEffortDerived } from "./bounds.ts";
export { EFFORT_CALL, effortContract, type EffortReply } from "./contracts.ts";
export {
  MIN_EFFORT_CONDITION_KEYS,
  minEffortGame,
  type MinEffortSetup,
  minEffortSetup,
} from "./descriptor.ts";
export { minEffort, PLAYER_ROLE } from "./environment.ts";
export {
  effortCountColumns,
  ROUND_MEASURE_COLUMNS,
  type RoundMeasureColumn,
  type RoundMeasureRow,
  roundMeasureRows,
  roundMeasures,
} from "./measures.ts";
export {
  MIN_EFFORT_POLICIES,
  minEffortMockAgents,
  type MinEffortMockOptions,
  type MinEffortPolicy,
} from "./mock.ts";
export {
  MIN_EFFORT_DEFAULTS,
  MIN_EFFORT_ID,
  type MinEffortParams,
  parseMinEffortParams,
  payoffOf,
} from "./params.ts";
export type { MinEffortState, MinEffortView, OwnRound } from "./state.ts";

/**
 * Reward crowdfunding's per-episode measures (FRAIL Table 9): the
 * first-launch round, the first round whose `launched` metric is 1; an
 * episode never launched has none.
 *
 * @module
 */
import type { GameMeasure } from "../../core/game.ts";
import { firstRoundAtLeast } from "../../frail/measures.ts";

/**
 * Crowdfunding's measures.
 *
 * @example
 * ```ts
 * import { CROWDFUNDING_MEASURES } from "./measures.ts";
 * const [launch] = CROWDFUNDING_MEASURES;
 * if (launch.value({ derived: {}, rounds: [{ round: 1, launched: 0 }, { round: 2, launched: 1 }] }) !== 2) {
 *   throw new Error();
 * }
 * ```
 */
export const CROWDFUNDING_MEASURES: readonly GameMeasure[] = [
  firstRoundAtLeast("first_launch_round", "launched", 1),
];

/**
 * The bank run's per-episode measures (FRAIL Table 9): the withdrawal rate,
 * the cumulative paid withdrawals in the last disclosed round over the total
 * deposits (`derived.funding`).
 *
 * @module
 */
import type { GameMeasure } from "../../core/game.ts";
import { finalShare } from "../../frail/measures.ts";

/**
 * The bank run's measures.
 *
 * @example
 * ```ts
 * import { BANK_RUN_MEASURES } from "./measures.ts";
 * const [rate] = BANK_RUN_MEASURES;
 * if (rate.value({ derived: { funding: 15 }, rounds: [{ round: 3, cumulative_withdrawn: 6 }] }) !== 0.4) {
 *   throw new Error();
 * }
 * ```
 */
export const BANK_RUN_MEASURES: readonly GameMeasure[] = [
  finalShare("withdrawal_rate", "cumulative_withdrawn", "funding"),
];

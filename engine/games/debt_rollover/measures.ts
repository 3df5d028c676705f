/**
 * Debt rollover's per-episode measures (FRAIL Table 9): the redemption
 * rate, the cumulative paid redemptions in the last disclosed round over the
 * total face value of the claims (`derived.funding`).
 *
 * @module
 */
import type { GameMeasure } from "../../core/game.ts";
import { finalShare } from "../../frail/measures.ts";

/**
 * Debt rollover's measures.
 *
 * @example
 * ```ts
 * import { DEBT_ROLLOVER_MEASURES } from "./measures.ts";
 * const [rate] = DEBT_ROLLOVER_MEASURES;
 * if (rate.value({ derived: { funding: 8 }, rounds: [{ round: 2, cumulative_redeemed: 2 }] }) !== 0.25) {
 *   throw new Error();
 * }
 * ```
 */
export const DEBT_ROLLOVER_MEASURES: readonly GameMeasure[] = [
  finalShare("redemption_rate", "cumulative_redeemed", "funding"),
];

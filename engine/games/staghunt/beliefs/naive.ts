/**
 * Naive aggregation (Section 3.1): q-hat = K / n over the reports of the
 * current round made before the turn; undefined for the first speaker of
 * every round (n = 0).
 *
 * @module
 */
import { naiveEstimate } from "./_naive.ts";
import type { BeliefRule } from "./rule.ts";

/**
 * The naive rule.
 *
 * @example
 * ```ts
 * import { naiveRule } from "./naive.ts";
 * const r = (action: "Stag" | "Hare") => ({ agent: "x", position: 1, action, confidence: 1 });
 * const h = { current: [r("Stag"), r("Hare"), r("Stag")], past: [] };
 * if (naiveRule().estimate(h as never) !== 2 / 3) throw new Error();
 * if (naiveRule().estimate({ current: [], past: [] } as never) !== undefined) throw new Error();
 * ```
 */
export function naiveRule(): BeliefRule {
  // One estimate function for every naive rule (`_naive.ts`).
  return { id: "naive", estimate: naiveEstimate };
}

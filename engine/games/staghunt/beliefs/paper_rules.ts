/**
 * The paper's three benchmark rules, with the defaults of Section 4.6.
 *
 * @module
 */
import type { BeliefRule } from "./rule.ts";
import { naiveRule } from "./naive.ts";
import { carryoverRule } from "./carryover.ts";
import { outcomeAlignmentRule } from "./outcome_alignment.ts";

/**
 * Naive, carryover and outcome-alignment rules with lambda = 0.5, q0 = 0.5,
 * tau = 2 and counts (1, 0).
 *
 * @example
 * ```ts
 * import { paperRules } from "./paper_rules.ts";
 * if (paperRules().map((r) => r.id).join() !== "naive,carryover,outcome_alignment") throw new Error();
 * ```
 */
export function paperRules(): BeliefRule[] {
  return [naiveRule(), carryoverRule(), outcomeAlignmentRule()];
}

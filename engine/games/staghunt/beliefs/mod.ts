/**
 * Belief rules: the plug-in interface and the paper's three rules.
 *
 * @module
 */
export * from "./rule.ts";
export * from "./naive.ts";
export * from "./carryover.ts";
export * from "./outcome_alignment.ts";
export * from "./paper_rules.ts";

/**
 * The belief rules a spec can name, with the schema of their parameters: the
 * paper's three (Section 4.6). A spec writes a rule by id (`"carryover"`), by
 * id with parameters (`{ "carryover": { "lambda": 0.7 } }`, checked against
 * the rule's own schema), or, in a TypeScript spec, as a `BeliefRule` object.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { strictObject } from "../../../core/strict_input.ts";
import { carryoverRule } from "./carryover.ts";
import { naiveRule } from "./naive.ts";
import { outcomeAlignmentRule } from "./outcome_alignment.ts";
import type { BeliefRule } from "./rule.ts";

/** A rule a spec can name: its id, the schema of its parameters, and how to build it. */
export interface CatalogueRule {
  /** Rule id (the key of the parameter form). */
  readonly id: string;
  /** What the rule is, in one line (the spec's documentation shows it). */
  readonly description: string;
  /** Schema of the parameters (a strict object: unknown keys are refused). */
  readonly params: z.ZodType<Record<string, number>>;
  /** The rule with these (validated) parameters. */
  make(params: Record<string, number>): BeliefRule;
}

const unit = (what: string) => z.number().min(0).max(1).optional().describe(what);
const tau = () =>
  z.number().positive().finite().optional().describe("Prior strength tau > 0. Default 2.");

/**
 * The paper's rules with their parameter schemas, in the paper's order.
 *
 * @example
 * ```ts
 * import { BELIEF_RULES } from "./catalogue.ts";
 * const carryover = BELIEF_RULES.find((r) => r.id === "carryover")!;
 * if (carryover.make(carryover.params.parse({ lambda: 0.7 })).id !== "carryover(lambda=0.7)") throw new Error();
 * ```
 */
export const BELIEF_RULES: readonly CatalogueRule[] = [
  {
    id: "naive",
    description: "Share of Stag reports seen this round (no parameters).",
    params: z.strictObject({}, {
      error: (i) =>
        i.code === "unrecognized_keys" ? "the naive rule takes no parameters" : undefined,
    }) as unknown as z.ZodType<Record<string, number>>,
    make: () => naiveRule(),
  },
  {
    id: "carryover",
    description:
      "Last round's posterior carried over with weight lambda, pooled with this round's reports.",
    params: strictObject({
      lambda: unit("Carryover strength lambda in [0, 1]. Default 0.5."),
      q0: unit("Baseline prior q0 in [0, 1]. Default 0.5."),
      tau: tau(),
    }) as unknown as z.ZodType<Record<string, number>>,
    make: (p) => carryoverRule(p),
  },
  {
    id: "outcome_alignment",
    description:
      "Carryover with each player's reports weighted by how often they matched outcomes.",
    params: strictObject({
      lambda: unit("Carryover strength lambda in [0, 1]. Default 0.5."),
      q0: unit("Baseline prior q0 in [0, 1]. Default 0.5."),
      tau: tau(),
      a0: z.number().min(0).finite().optional().describe(
        "Initial aligned count a0 >= 0. Default 1.",
      ),
      b0: z.number().min(0).finite().optional().describe(
        "Initial misaligned count b0 >= 0 (a0 + b0 > 0). Default 0.",
      ),
    }).refine((p) => (p.a0 ?? 1) + (p.b0 ?? 0) > 0, {
      message: "a0 and b0 must not both be 0",
      path: ["a0"],
    }) as unknown as z.ZodType<Record<string, number>>,
    make: (p) => outcomeAlignmentRule(p),
  },
];

/**
 * The catalogue rule of an id, or `undefined`.
 *
 * @example
 * ```ts
 * import { catalogueRule } from "./catalogue.ts";
 * if (catalogueRule("naive")?.id !== "naive" || catalogueRule("recency") !== undefined) throw new Error();
 * ```
 */
export function catalogueRule(id: string): CatalogueRule | undefined {
  return BELIEF_RULES.find((r) => r.id === id);
}

/**
 * Whether a value is a belief rule object (an `id` string and an `estimate` function).
 *
 * @example
 * ```ts
 * import { isBeliefRule } from "./catalogue.ts";
 * if (!isBeliefRule({ id: "r", estimate: () => 0.5 }) || isBeliefRule({ id: "r" })) throw new Error();
 * ```
 */
export function isBeliefRule(value: unknown): value is BeliefRule {
  return typeof value === "object" && value !== null &&
    typeof (value as BeliefRule).id === "string" &&
    typeof (value as BeliefRule).estimate === "function";
}

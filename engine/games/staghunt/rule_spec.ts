// The belief rule of a Stag Hunt mock entry (`RuleSpec`): its schema, which
// names the bad field, its id, and the rule it builds.
import { z } from "npm:zod@4.6.7";
import { isPlainObject } from "../../core/strict_input.ts";
import { BELIEF_RULES, catalogueRule, isBeliefRule } from "./beliefs/catalogue.ts";
import type { BeliefRule } from "./beliefs/rule.ts";

/**
 * A belief rule in a spec:
 * - an id of the paper's rules (`"naive"`, `"carryover"`, `"outcome_alignment"`);
 * - an id with parameters, `{ "carryover": { "lambda": 0.7 } }` (one key,
 *   checked against the rule's own parameters, `BELIEF_RULES`);
 * - in a TypeScript spec, a `BeliefRule` object (its `id` names it in cell
 *   ids, logs and the manifest, so it must be stable; episodes with one play
 *   in-process: a function cannot cross to a Web Worker);
 * - `{ "id": "<id>" }`: how the manifest records a rule object (it cannot
 *   be played from JSON).
 */
export type RuleSpec =
  | string
  | Readonly<Record<string, Readonly<Record<string, number>>>>
  | BeliefRule
  | { readonly id: string };

const IDS = BELIEF_RULES.map((r) => `"${r.id}"`).join(", ");
const FORMS = `one of ${IDS}, { "<id>": { <parameters> } } or, in a TypeScript spec, ` +
  `a BeliefRule object`;

type Ctx = z.core.$RefinementCtx<unknown>;

function checkRule(v: unknown, ctx: Ctx, at: PropertyKey[]): void {
  const issue = (message: string, path: PropertyKey[] = []) =>
    ctx.addIssue({ code: "custom", message, path: [...at, ...path], input: v });
  if (typeof v === "string") {
    if (!catalogueRule(v)) issue(`unknown belief rule: expected ${FORMS}`);
    return;
  }
  if (isBeliefRule(v)) {
    if (v.id.length === 0 || v.id.length > 80) {
      issue("a BeliefRule object needs an id of 1 to 80 characters", ["id"]);
    }
    return;
  }
  if (!isPlainObject(v)) {
    issue(`expected ${FORMS}`);
    return;
  }
  const keys = Object.keys(v);
  if (keys.length === 1 && keys[0] === "id" && typeof v.id === "string" && v.id.length > 0) {
    return; // A rule object as the manifest records it.
  }
  if (keys.length !== 1) {
    issue(
      `a rule with parameters has one key, its id, e.g. { "carryover": { "lambda": 0.7 } } ` +
        `(got ${keys.length} keys)`,
    );
    return;
  }
  const rule = catalogueRule(keys[0]);
  if (!rule) {
    issue(`unknown belief rule "${keys[0]}": expected one of ${IDS}`, [keys[0]]);
    return;
  }
  const r = rule.params.safeParse(v[keys[0]]);
  if (!r.success) {
    for (const i of r.error.issues) {
      ctx.addIssue({ ...i, path: [...at, keys[0], ...i.path] } as never);
    }
  }
}

/**
 * Schema of a belief rule, or (`list`) of a rule or a non-empty list of rules.
 * A rule object is kept (its members reached through the prototype) with a
 * `toJSON` that writes `{ "id": <id> }`: what the manifest records.
 */
export function ruleSchema(list: boolean): z.ZodType<RuleSpec | RuleSpec[]> {
  return z.custom<RuleSpec | RuleSpec[]>(() => true).superRefine((v, ctx) => {
    if (list && Array.isArray(v)) {
      if (v.length === 0) {
        ctx.addIssue({ code: "custom", message: "must list at least 1 rule", input: v });
      }
      v.forEach((r, i) => checkRule(r, ctx, [i]));
    } else checkRule(v, ctx, []);
  }).transform((v) => (Array.isArray(v) ? v.map(recorded) : recorded(v))).meta({
    accepts: `a rule (belief rules, below)${list ? ", or a non-empty list of rules" : ""}`,
  }) as never;
}

function recorded(rule: RuleSpec): RuleSpec {
  if (!isBeliefRule(rule) || Object.hasOwn(rule, "toJSON")) return rule;
  const id = rule.id;
  return Object.create(rule, { toJSON: { value: () => ({ id }) } }) as BeliefRule;
}

/**
 * The id of a rule: a paper rule's id, the id a parameterised rule gets
 * (`carryover(lambda=0.7)`), or the object's `id`.
 */
export function ruleIdOf(rule: RuleSpec): string {
  if (typeof rule === "string") return rule;
  if (typeof (rule as { id?: unknown }).id === "string") return (rule as { id: string }).id;
  return beliefRuleOf(rule).id;
}

/**
 * The rule a (validated) rule spec names.
 *
 * @throws {RangeError} For an unknown id, bad parameters, or a rule object recorded by its id only.
 */
export function beliefRuleOf(rule: RuleSpec): BeliefRule {
  if (isBeliefRule(rule)) return rule;
  if (typeof rule === "string") {
    const r = catalogueRule(rule);
    if (!r) throw new RangeError(`Unknown belief rule "${rule}": expected one of ${IDS}`);
    return r.make({});
  }
  const keys = Object.keys(rule);
  if (keys.length === 1 && keys[0] === "id") {
    throw new RangeError(
      `Belief rule "${(rule as { id: string }).id}" is a rule object recorded by its id only: ` +
        `run the TypeScript spec that defines it to play it`,
    );
  }
  const r = keys.length === 1 ? catalogueRule(keys[0]) : undefined;
  if (!r) throw new RangeError(`Unknown belief rule ${JSON.stringify(rule)}: expected ${FORMS}`);
  const params = (rule as Record<string, Record<string, number>>)[keys[0]];
  return r.make(r.params.parse(params));
}

/** Whether a value holds a function anywhere (a rule object): it cannot cross to a Web Worker. */
export function holdsFunction(value: unknown): boolean {
  if (typeof value === "function") return true;
  if (typeof value !== "object" || value === null) return false;
  if (isBeliefRule(value)) return true;
  for (const k in value) {
    if (holdsFunction((value as Record<string, unknown>)[k])) return true;
  }
  return false;
}

/**
 * Readable, file-name-safe labels for cells: ids are made of letters, digits,
 * `_`, `-` and `.` only (the episode id is the log's file name), and a part
 * that would be long is cut and suffixed with a hash so it stays unique.
 *
 * @module
 */
import { shortHash } from "../core/hash.ts";
import { frailGame } from "../frail/registry.ts";
import type { EnvId } from "../frail/types.ts";
import type { AgentsSpec, RuleSpec } from "./_agents_spec.ts";
import { ruleIdOf } from "../games/staghunt/rule_spec.ts";

/** Longest label part before it is cut and hashed. */
const MAX_PART = 48;

/**
 * A file-name-safe version of a free-form part: other characters become
 * `-`; a part longer than 48 characters keeps 39 and gets a hash.
 *
 * @example
 * ```ts
 * import { safePart } from "./labels.ts";
 * if (safePart("meta/llama-3.1 8b") !== "meta-llama-3.1-8b") throw new Error(safePart("meta/llama-3.1 8b"));
 * if (safePart("x".repeat(60)).length !== 48) throw new Error();
 * ```
 */
export function safePart(text: string): string {
  const clean = text.replace(/[^\w.-]+/g, "-").replace(/^-+|-+$/g, "") || "x";
  return clean.length <= MAX_PART ? clean : `${clean.slice(0, MAX_PART - 9)}-${shortHash(text)}`;
}

/**
 * The label of an agents entry: its `label`, else `mock` with the policies
 * it sets (for a FRAIL cell, only the roles of `env`), else the model id(s).
 * A Stag Hunt mock entry is `mock[-<players>][-<hash of its other options>]`;
 * one whose rule has parameters or is an object is
 * `mock[-<players>]-<rule id>[-<hash of its other options>]`, so a sweep of
 * rules reads in cell ids (a rule given by its bare id keeps the hash).
 *
 * @example
 * ```ts
 * import { agentsLabel } from "./labels.ts";
 * const mock = { kind: "mock", mock: { depositors: "always_stay", creditors: "always_roll" } } as const;
 * if (agentsLabel(mock, "bank_run") !== "mock-always_stay") throw new Error();
 * if (agentsLabel({ kind: "model", model: "gpt-5.2" }) !== "gpt-5.2") throw new Error();
 * const h2 = { kind: "models", models: { kind: "h2", pool: ["a", "b"] } } as const;
 * if (agentsLabel(h2) !== "a_b") throw new Error();
 * const swept = { kind: "mock", mock: { players: "threshold", rule: { carryover: { lambda: 0.7 } } } } as const;
 * if (agentsLabel(swept) !== "mock-threshold-carryover-lambda-0.7") throw new Error(agentsLabel(swept));
 * ```
 */
export function agentsLabel(agents: AgentsSpec, env?: EnvId): string {
  if (agents.label) return agents.label;
  switch (agents.kind) {
    case "mock":
      return mockLabel(agents.mock as Record<string, unknown>, env);
    case "model":
      return typeof agents.model === "string"
        ? safePart(agents.model)
        : `${safePart(agents.model.default)}-mixed-${shortHash(agents.model)}`;
    case "models": {
      const m = agents.models;
      const models = m.kind === "h1"
        ? safePart(m.model)
        : m.kind === "h2"
        ? safePart(m.pool.join("_"))
        : `${safePart(`${m.strong}_${m.weak}`)}${m.corrupted === "weak" ? "-cw" : ""}`;
      return agents.mock
        ? `${mockLabel(agents.mock as Record<string, unknown>)}-${models}`
        : models;
    }
  }
}

function mockLabel(mock: Record<string, unknown>, env?: EnvId): string {
  if (env) {
    // Only the options of this environment's roles, in its descriptor's order.
    const parts = frailGame(env).mockPolicies.map((m) => mock[m.option]).filter((v) =>
      v !== undefined
    );
    return ["mock", ...parts.map(String)].join("-");
  }
  const { players, ...rest } = mock;
  const parts = ["mock"];
  if (players !== undefined) parts.push(String(players));
  if (rest.rule !== undefined && typeof rest.rule !== "string") {
    const { rule, ...others } = rest;
    parts.push(safePart(ruleIdOf(rule as RuleSpec)));
    if (Object.keys(others).length > 0) parts.push(shortHash(others));
    return parts.join("-");
  }
  if (Object.keys(rest).length > 0) parts.push(shortHash(rest));
  return parts.join("-");
}

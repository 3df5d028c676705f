// One zod issue of a grid spec as one sentence naming the field and, where
// there is a list of them, the allowed values.
import type { z } from "npm:zod@4.6.7";

/** The allowed forms of the fields that take more than one. */
const FORMS: Readonly<Record<string, string>> = {
  model: 'a model id, or { "default", "roles", "agents" } naming model ids',
  M: '"all" or a list of integers >= 1',
  F: "a list of integers >= 0, or a record from N to such a list",
  payoffs: '[R_S, H_S, R_F, H_F] or { "RS", "HS", "RF", "HF" }',
};

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

const list = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(", ");

function valueAt(input: unknown, path: Path): unknown {
  let v = input as Record<PropertyKey, unknown> | undefined;
  for (const k of path) {
    if (typeof v !== "object" || v === null) return undefined;
    v = v[k] as Record<PropertyKey, unknown> | undefined;
  }
  return v;
}

/** The issue as `Invalid grid spec "<field>": <what is wrong>`. */
export function describeIssue(issue: Issue, input: unknown): string {
  let path: Path = issue.path;
  let detail: string;
  switch (issue.code) {
    case "invalid_value":
      detail = `expected ${issue.values.length === 1 ? "" : "one of "}${list(issue.values)}`;
      break;
    case "unrecognized_keys":
      // The message names the key and suggests the closest allowed one (see strictObject).
      return `Invalid grid spec "${[...path, issue.keys[0]].join(".")}": ${issue.message}`;
    case "invalid_union": {
      const note = issue as unknown as { discriminator?: string; options?: unknown[] };
      if (note.discriminator === "kind" && path.length === 5 && path[2] === "agents") {
        path = path.slice(0, -1);
        const keys = (note.options ?? []).map(String);
        detail = `an agents entry needs one of the fields ${list(keys)}`;
      } else if (note.discriminator) {
        detail = `expected one of ${list(note.options ?? [])}`;
      } else if (FORMS[String(path.at(-1))]) {
        const got = valueAt(input, path);
        // A list of payoff matrices (its first item not a number) is told the list form too.
        const list = path.at(-1) === "payoffs" && Array.isArray(got) && typeof got[0] === "object";
        detail = `expected ${FORMS[String(path.at(-1))]}${list ? ", or a list of them" : ""}`;
      } else {
        const branches = (issue.errors ?? []).map((b) => b[0]?.message).filter(Boolean);
        detail = branches.length
          ? `does not match any allowed form (${branches.join("; or ")})`
          : issue.message;
      }
      break;
    }
    case "too_small":
      detail = issue.origin === "array"
        ? `must list at least ${issue.minimum} value${Number(issue.minimum) === 1 ? "" : "s"}`
        : `must be ${issue.inclusive ? ">=" : ">"} ${issue.minimum}`;
      break;
    case "too_big":
      detail = issue.origin === "array"
        ? `must list at most ${issue.maximum} values`
        : issue.origin === "string"
        ? `must be at most ${issue.maximum} characters`
        : `must be ${issue.inclusive ? "<=" : "<"} ${issue.maximum}`;
      break;
    case "invalid_type":
      detail = `expected ${issue.expected === "int" ? "an integer" : issue.expected}`;
      break;
    default:
      detail = issue.message;
  }
  const got = valueAt(input, path);
  const shown = got === undefined ? "" : JSON.stringify(got);
  const suffix = got === undefined
    ? (issue.code === "invalid_type" ? " (missing)" : "")
    : shown.length <= 60
    ? ` (got ${shown})`
    : "";
  return `Invalid grid spec "${path.length ? path.join(".") : "(spec)"}": ${detail}${suffix}`;
}

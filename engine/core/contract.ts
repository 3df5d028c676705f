/**
 * Reply contracts: the fixed output contract of each agent call, with the
 * repair rules that turn an invalid report into a valid one. Every repair is
 * returned as a {@linkcode Correction}, which the runner logs as an event.
 *
 * Repair rules (fixed, in the order applied):
 * 1. A string reply is parsed with {@linkcode extractJsonObject}; a reply with
 *    no JSON object gets every field's neutral default.
 * 2. `probability` (integer 0-100): numbers are rounded and clamped; numeric
 *    strings such as `"35"` or `"35%"` are read; anything else becomes 0.
 * 3. `text`: strings are kept, numbers and booleans are stringified, anything
 *    else becomes `""`.
 * 4. `boolean`: `true`/`false` and the strings `"true"`/`"false"` are read;
 *    anything else becomes the field's default.
 * 5. `list`: a non-array becomes `[]`; items that fail the item schema are dropped.
 * 6. `value`: checked with its zod schema; a failure becomes the default. A
 *    missing value takes the default silently, or with a correction when the
 *    field is `required`.
 * Unknown fields are ignored (not a correction).
 *
 * @module
 */
import type { z } from "npm:zod@4.6.7";
import { extractJsonObject } from "./reply_json.ts";

/** One repaired field of one report. */
export interface Correction {
  /** The field repaired, or `"*"` for the whole reply. */
  field: string;
  /** Why it was repaired, in one sentence. */
  reason: string;
  /** The value as received (may be `undefined`). */
  raw: unknown;
  /** The value used instead. */
  applied: unknown;
}

/** How one field of a report is read. */
export type FieldSpec =
  | { kind: "probability" }
  | { kind: "text" }
  | { kind: "boolean"; default?: boolean }
  | { kind: "list"; item: z.ZodType }
  | { kind: "value"; schema: z.ZodType; default: unknown; required?: boolean };

/** A call's output contract. */
export interface Contract<R> {
  /** The call this contract belongs to, e.g. `"withdrawal"`. */
  call: string;
  /** The fields, in order. */
  fields: Record<string, FieldSpec>;
  /** Validates and repairs a raw reply (object or text). */
  parse(raw: unknown): { value: R; corrections: Correction[] };
}

/**
 * Builds a contract from field specifications.
 *
 * @example
 * ```ts
 * import { defineContract } from "./contract.ts";
 * const c = defineContract<{ withdraw_probability: number; reasoning: string }>("withdrawal", {
 *   withdraw_probability: { kind: "probability" },
 *   reasoning: { kind: "text" },
 * });
 * const { value, corrections } = c.parse({ withdraw_probability: "40%", reasoning: "ok" });
 * if (value.withdraw_probability !== 40 || corrections.length !== 1) throw new Error();
 * ```
 */
export function defineContract<R>(call: string, fields: Record<string, FieldSpec>): Contract<R> {
  return {
    call,
    fields,
    parse(raw: unknown) {
      const corrections: Correction[] = [];
      let obj: Record<string, unknown> | undefined;
      if (typeof raw === "string") obj = extractJsonObject(raw);
      else if (raw !== null && typeof raw === "object" && !Array.isArray(raw)) {
        obj = raw as Record<string, unknown>;
      }
      if (obj === undefined) {
        const value = Object.fromEntries(
          Object.entries(fields).map(([k, spec]) => [k, neutral(spec)]),
        );
        corrections.push({
          field: "*",
          reason: "The reply holds no JSON object, so every field takes its neutral default",
          raw,
          applied: value,
        });
        return { value: value as R, corrections };
      }
      const out: Record<string, unknown> = {};
      for (const [name, spec] of Object.entries(fields)) {
        const got = obj[name];
        const [value, reason] = repair(spec, got);
        out[name] = value;
        if (reason) corrections.push({ field: name, reason, raw: got, applied: value });
      }
      return { value: out as R, corrections };
    },
  };
}

function neutral(spec: FieldSpec): unknown {
  switch (spec.kind) {
    case "probability":
      return 0;
    case "text":
      return "";
    case "boolean":
      return spec.default ?? false;
    case "list":
      return [];
    case "value":
      return spec.default;
  }
}

function repair(spec: FieldSpec, got: unknown): [unknown, string | undefined] {
  switch (spec.kind) {
    case "probability":
      return repairProbability(got);
    case "text":
      if (typeof got === "string") return [got, undefined];
      if (typeof got === "number" || typeof got === "boolean") {
        return [String(got), "Text field was not a string; it was stringified"];
      }
      return ["", got === undefined ? "Text field is missing" : "Text field was not a string"];
    case "boolean":
      if (typeof got === "boolean") return [got, undefined];
      if (got === "true" || got === "false") return [got === "true", "Boolean given as a string"];
      return [spec.default ?? false, "Boolean field is missing or not true/false"];
    case "list": {
      if (got === undefined) return [[], undefined];
      if (!Array.isArray(got)) return [[], "List field was not an array"];
      const kept = got.filter((item) => spec.item.safeParse(item).success)
        .map((item) => spec.item.parse(item));
      return [
        kept,
        kept.length < got.length
          ? `${got.length - kept.length} of ${got.length} list items were invalid and dropped`
          : undefined,
      ];
    }
    case "value": {
      if (got === undefined) {
        return [
          spec.default,
          spec.required ? "Required field is missing; default used" : undefined,
        ];
      }
      const r = spec.schema.safeParse(got);
      return r.success ? [r.data, undefined] : [spec.default, "Value failed its schema"];
    }
  }
}

function repairProbability(got: unknown): [number, string | undefined] {
  let n: number | undefined;
  if (typeof got === "number") n = got;
  else if (typeof got === "string" && /^\s*-?\d+(\.\d+)?\s*%?\s*$/.test(got)) {
    n = Number(got.replace("%", "").trim());
  }
  if (n === undefined || !Number.isFinite(n)) {
    return [
      0,
      got === undefined ? "Probability is missing; 0 used" : "Probability is unparseable; 0 used",
    ];
  }
  const fixed = Math.min(100, Math.max(0, Math.round(n)));
  if (typeof got === "string") return [fixed, "Probability given as a string"];
  if (fixed !== n) return [fixed, "Probability was not an integer in 0-100; rounded and clamped"];
  return [fixed, undefined];
}

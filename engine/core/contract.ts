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
 * Where a schema has a hand-written check registered (`value_check.ts`), the
 * check stands in for the schema's `safeParse`: it gives the same values, so
 * the same repairs and corrections.
 *
 * @module
 */
import type { z } from "npm:zod@4.6.7";
import { extractJsonObject } from "./reply_json.ts";
import { checkOf, INVALID, type ValueCheck } from "./value_check.ts";

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
  /**
   * Whether `raw` already is what `parse` would make of it: a plain object
   * with exactly the contract's fields, in order, each valid as it is (so
   * `parse(raw)` is an equal value with no corrections). Fields that `parse`
   * copies or rebuilds (lists, values whose check does not return the value
   * itself) make it false. Contracts built by {@linkcode defineContract} have
   * it; the engine uses it only for replies of its own mock agents.
   */
  isExact?(raw: unknown): raw is R;
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
  const names = Object.keys(fields);
  const specs = names.map((k) => fields[k]);
  const checks = specs.map((f) =>
    f.kind === "list" ? checkOf(f.item) : f.kind === "value" ? checkOf(f.schema) : undefined
  );
  // A list field is always copied by parse, so such a reply is never exact.
  const exactable = specs.every((f) => f.kind !== "list");
  return {
    call,
    fields,
    isExact(raw: unknown): raw is R {
      if (
        !exactable || typeof raw !== "object" || raw === null ||
        Object.getPrototypeOf(raw) !== Object.prototype
      ) {
        return false;
      }
      const obj = raw as Record<string, unknown>;
      let i = 0;
      for (const name in obj) {
        if (name !== names[i]) return false;
        const got = obj[name];
        const spec = specs[i];
        switch (spec.kind) {
          case "probability":
            // -0 is read as 0 by parse.
            if (
              typeof got !== "number" || !Number.isInteger(got) || got < 0 || got > 100 ||
              Object.is(got, -0)
            ) {
              return false;
            }
            break;
          case "text":
            if (typeof got !== "string") return false;
            break;
          case "boolean":
            if (typeof got !== "boolean") return false;
            break;
          case "value":
            if (got === undefined || checks[i]!(got) !== got) return false;
            break;
          default:
            return false;
        }
        i++;
      }
      return i === names.length;
    },
    parse(raw: unknown) {
      let obj: Record<string, unknown> | undefined;
      if (typeof raw === "string") obj = extractJsonObject(raw);
      else if (raw !== null && typeof raw === "object" && !Array.isArray(raw)) {
        obj = raw as Record<string, unknown>;
      }
      if (obj === undefined) {
        const value: Record<string, unknown> = {};
        for (let i = 0; i < names.length; i++) value[names[i]] = neutral(specs[i]);
        return {
          value: value as R,
          corrections: [{
            field: "*",
            reason: "The reply holds no JSON object, so every field takes its neutral default",
            raw,
            applied: value,
          }],
        };
      }
      const out: Record<string, unknown> = {};
      let corrections: Correction[] | undefined;
      for (let i = 0; i < names.length; i++) {
        const name = names[i];
        const got = obj[name];
        const value = repair(specs[i], got, checks[i]);
        out[name] = value;
        if (reason !== undefined) {
          (corrections ??= []).push({ field: name, reason, raw: got, applied: value });
        }
      }
      return { value: out as R, corrections: corrections ?? [] };
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

// Why the last `repair` changed its value (undefined when it kept it): a
// module variable rather than a returned pair, so a report allocates nothing
// beyond its own value.
let reason: string | undefined;

function repair(spec: FieldSpec, got: unknown, check: ValueCheck | undefined): unknown {
  reason = undefined;
  switch (spec.kind) {
    case "probability":
      return repairProbability(got);
    case "text":
      if (typeof got === "string") return got;
      if (typeof got === "number" || typeof got === "boolean") {
        reason = "Text field was not a string; it was stringified";
        return String(got);
      }
      reason = got === undefined ? "Text field is missing" : "Text field was not a string";
      return "";
    case "boolean":
      if (typeof got === "boolean") return got;
      if (got === "true" || got === "false") {
        reason = "Boolean given as a string";
        return got === "true";
      }
      reason = "Boolean field is missing or not true/false";
      return spec.default ?? false;
    case "list": {
      if (got === undefined) return [];
      if (!Array.isArray(got)) {
        reason = "List field was not an array";
        return [];
      }
      const kept: unknown[] = [];
      for (const item of got) {
        const v = check!(item);
        if (v !== INVALID) kept.push(v);
      }
      if (kept.length < got.length) {
        reason = `${got.length - kept.length} of ${got.length} list items were invalid and dropped`;
      }
      return kept;
    }
    case "value": {
      if (got === undefined) {
        if (spec.required) reason = "Required field is missing; default used";
        return spec.default;
      }
      const v = check!(got);
      if (v !== INVALID) return v;
      reason = "Value failed its schema";
      return spec.default;
    }
  }
}

function repairProbability(got: unknown): number {
  let n: number | undefined;
  if (typeof got === "number") n = got;
  else if (typeof got === "string" && /^\s*-?\d+(\.\d+)?\s*%?\s*$/.test(got)) {
    n = Number(got.replace("%", "").trim());
  }
  if (n === undefined || !Number.isFinite(n)) {
    reason = got === undefined
      ? "Probability is missing; 0 used"
      : "Probability is unparseable; 0 used";
    return 0;
  }
  const fixed = Math.min(100, Math.max(0, Math.round(n)));
  if (typeof got === "string") reason = "Probability given as a string";
  else if (fixed !== n) reason = "Probability was not an integer in 0-100; rounded and clamped";
  return fixed;
}

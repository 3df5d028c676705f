/**
 * Hand-written checks of reply values that give what their zod schemas give,
 * without zod's cost on the hot path (a contract checks every item of every
 * list field of every reply). A check is registered with its schema
 * ({@linkcode withCheck}); a contract then uses it in place of
 * `schema.safeParse` ({@linkcode checkOf}), so the repair rules and the logged
 * corrections are the schema's. A schema without a check is parsed by zod.
 *
 * A check must accept exactly what its schema accepts and return the same
 * value (a new object in the schema's key order, unknown keys dropped, an
 * optional key present when the input has it, defaults filled in); every
 * registered check is compared with its schema on a seeded fuzz of values
 * (tests/engine/core/value_check_test.ts).
 *
 * @module
 */
import type { z } from "npm:zod@4.6.7";

/**
 * What a check returns for a value its schema rejects.
 *
 * @example
 * ```ts
 * import { INVALID } from "./value_check.ts";
 * if (typeof INVALID !== "symbol") throw new Error();
 * ```
 */
export const INVALID: unique symbol = Symbol("invalid value");

/** A value check: the parsed value, or {@linkcode INVALID}. */
export type ValueCheck = (value: unknown) => unknown;

const checks = new WeakMap<object, ValueCheck>();

/**
 * Registers the hand-written check of a schema and returns the schema.
 *
 * @example
 * ```ts
 * import { z } from "npm:zod@4.6.7";
 * import { checkOf, INVALID, withCheck } from "./value_check.ts";
 * const Flag = withCheck(z.boolean(), (v) => typeof v === "boolean" ? v : INVALID);
 * if (checkOf(Flag)(true) !== true || checkOf(Flag)("true") !== INVALID) throw new Error();
 * ```
 */
export function withCheck<S extends z.ZodType>(schema: S, check: ValueCheck): S {
  checks.set(schema, check);
  return schema;
}

/**
 * The check of a schema: its hand-written one, or its `safeParse`.
 *
 * @example
 * ```ts
 * import { z } from "npm:zod@4.6.7";
 * import { checkOf, INVALID } from "./value_check.ts";
 * const check = checkOf(z.number().min(0));
 * if (check(2) !== 2 || check(-1) !== INVALID) throw new Error();
 * ```
 */
export function checkOf(schema: z.ZodType): ValueCheck {
  return checks.get(schema) ?? ((value) => {
    const r = schema.safeParse(value);
    return r.success ? r.data : INVALID;
  });
}

/**
 * Whether zod's object schemas read a value as an object: any non-null
 * object that is not an array (class instances and dates included; their
 * keys are read as properties, inherited ones too).
 *
 * @example
 * ```ts
 * import { isObjectInput } from "./value_check.ts";
 * if (!isObjectInput({}) || isObjectInput([]) || isObjectInput(null)) throw new Error();
 * ```
 */
export function isObjectInput(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The check of `z.string()`.
 *
 * @example
 * ```ts
 * import { checkString, INVALID } from "./value_check.ts";
 * if (checkString("a") !== "a" || checkString(1) !== INVALID) throw new Error();
 * ```
 */
export function checkString(value: unknown): unknown {
  return typeof value === "string" ? value : INVALID;
}

/**
 * The check of `z.array(z.string())`: a new array of the strings.
 *
 * @example
 * ```ts
 * import { checkStringArray, INVALID } from "./value_check.ts";
 * const a = ["x"];
 * const got = checkStringArray(a) as string[];
 * if (got === a || got[0] !== "x" || checkStringArray(["x", 1]) !== INVALID) throw new Error();
 * ```
 */
export function checkStringArray(value: unknown): unknown {
  if (!Array.isArray(value)) return INVALID;
  const out: string[] = [];
  for (let i = 0; i < value.length; i++) {
    const s = value[i];
    if (typeof s !== "string") return INVALID;
    out.push(s);
  }
  return out;
}

/**
 * Whether a value passes `z.number()`: a finite number.
 *
 * @example
 * ```ts
 * import { isFiniteNumber } from "./value_check.ts";
 * if (!isFiniteNumber(0.5) || isFiniteNumber(Infinity) || isFiniteNumber("1")) throw new Error();
 * ```
 */
export function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/**
 * Strict inputs: every config object a user writes (episode and Stag Hunt
 * configs, grid specs, model configs, mock options, parameters) rejects keys
 * it does not know, echoes the bad key and suggests the closest valid one,
 * e.g. `unknown field "mechansim"; did you mean "mechanism"?`.
 *
 * A suggestion is the valid name at the smallest Damerau-Levenshtein distance
 * (case-insensitive), offered only when that distance is at most a third of
 * the name's length (and at least 1 edit, at most 3), so a typo gets a hint
 * and an unrelated word gets the list of allowed names instead.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";

/**
 * The closest valid name to a misspelled one, or `undefined` when none is
 * close enough to be a likely typo.
 *
 * @example
 * ```ts
 * import { closestName } from "./strict_input.ts";
 * if (closestName("mechansim", ["env", "mechanism", "regime"]) !== "mechanism") throw new Error();
 * if (closestName("colour", ["env", "mechanism"]) !== undefined) throw new Error();
 * ```
 */
export function closestName(name: string, valid: readonly string[]): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of valid) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** Optimal-string-alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => {
    const row = new Array<number>(cols).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j < cols; j++) d[0][j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[rows - 1][cols - 1];
}

/**
 * The message for an unknown key: a suggestion when one is close, else the
 * allowed names.
 *
 * @example
 * ```ts
 * import { unknownFieldMessage } from "./strict_input.ts";
 * const m = unknownFieldMessage("mechansim", ["env", "mechanism"]);
 * if (m !== 'unknown field "mechansim"; did you mean "mechanism"?') throw new Error(m);
 * ```
 */
export function unknownFieldMessage(key: string, valid: readonly string[]): string {
  const near = closestName(key, valid);
  return near !== undefined
    ? `unknown field "${key}"; did you mean "${near}"?`
    : `unknown field "${key}" (allowed: ${valid.map((v) => `"${v}"`).join(", ")})`;
}

/**
 * Throws a `RangeError` for the first key of `input` that is not in `valid`:
 * `Invalid <what>: unknown field "x"; did you mean "y"?`. For option objects
 * that are not zod schemas (functions allowed as values).
 *
 * @example
 * ```ts
 * import { assertKnownKeys } from "./strict_input.ts";
 * try {
 *   assertKnownKeys({ depositor: "always_stay" }, ["depositors", "bank"], "mock options");
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e as Error).message.includes('did you mean "depositors"?')) throw e;
 * }
 * ```
 * @throws {RangeError} Naming the first unknown key.
 */
export function assertKnownKeys(input: object, valid: readonly string[], what: string): void {
  for (const key of Object.keys(input)) {
    if (!valid.includes(key)) {
      throw new RangeError(`Invalid ${what}: ${unknownFieldMessage(key, valid)}`);
    }
  }
}

/**
 * A zod object that rejects unknown keys with {@linkcode unknownFieldMessage}
 * (the message of its `unrecognized_keys` issue).
 *
 * @example
 * ```ts
 * import { z } from "npm:zod@4.6.7";
 * import { strictObject } from "./strict_input.ts";
 * const s = strictObject({ seed: z.number() });
 * const r = s.safeParse({ seed: 1, sed: 1 });
 * if (r.success || r.error.issues[0].message !== 'unknown field "sed"; did you mean "seed"?') throw new Error();
 * ```
 */
export function strictObject<T extends z.ZodRawShape>(shape: T): z.ZodObject<T, z.core.$strict> {
  const keys = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? unknownFieldMessage(String(issue.keys[0]), keys)
        : undefined,
  });
}

/**
 * One zod issue as one sentence: `Invalid <what> "<field>": <detail> (got <value>)`.
 * An unknown key names the key itself as the field.
 *
 * @example
 * ```ts
 * import { z } from "npm:zod@4.6.7";
 * import { describeInputIssue, strictObject } from "./strict_input.ts";
 * const input = { mechanism: "M9" };
 * const r = strictObject({ mechanism: z.enum(["M0", "M1"]) }).safeParse(input);
 * const m = describeInputIssue(r.error!.issues[0], input, "episode config");
 * if (m !== 'Invalid episode config "mechanism": expected one of "M0", "M1" (got "M9")') throw new Error(m);
 * ```
 */
export function describeInputIssue(issue: z.core.$ZodIssue, input: unknown, what: string): string {
  if (issue.code === "unrecognized_keys") {
    const field = [...issue.path, issue.keys[0]].join(".");
    return `Invalid ${what} "${field}": ${issue.message}`;
  }
  const field = issue.path.length ? issue.path.join(".") : "(root)";
  const detail = issue.code === "invalid_value"
    ? `expected ${issue.values.length === 1 ? "" : "one of "}${
      issue.values.map((v) => JSON.stringify(v)).join(", ")
    }`
    : issue.message;
  const got = valueAt(input, issue.path);
  const shown = got === undefined || typeof got === "function" ? undefined : JSON.stringify(got);
  const suffix = shown === undefined
    ? (issue.code === "invalid_type" ? " (missing)" : "")
    : shown.length <= 60
    ? ` (got ${shown})`
    : "";
  return `Invalid ${what} "${field}": ${detail}${suffix}`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input as Record<PropertyKey, unknown> | undefined;
  for (const k of path) {
    if (typeof v !== "object" || v === null) return undefined;
    v = v[k] as Record<PropertyKey, unknown> | undefined;
  }
  return v;
}

/**
 * Whether a value is a plain object: prototype `Object.prototype` or `null`
 * (not an array, a class instance or a function).
 *
 * @example
 * ```ts
 * import { isPlainObject } from "./strict_input.ts";
 * if (!isPlainObject({}) || !isPlainObject(Object.create(null)) || isPlainObject([]) || isPlainObject(new Date())) {
 *   throw new Error();
 * }
 * ```
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Parses an input: `quick` first (a check by hand of the usual shape, giving
 * what the schema would, or `undefined`), else the schema, whose first issue
 * becomes a `RangeError` naming the field (see {@linkcode describeInputIssue}).
 *
 * @param schema The schema, the authority on what is valid.
 * @param quick The hand check.
 * @param input The input.
 * @param what What the input is, for the error (e.g. `"episode config"`).
 * @returns The parsed input.
 *
 * @example
 * ```ts
 * import { z } from "npm:zod@4.6.7";
 * import { parseQuickly } from "./strict_input.ts";
 * const schema = z.object({ n: z.number() });
 * const quick = (v: unknown) => (typeof (v as { n?: unknown })?.n === "number" ? v as { n: number } : undefined);
 * if (parseQuickly(schema, quick, { n: 1 }, "thing").n !== 1) throw new Error();
 * try {
 *   parseQuickly(schema, quick, { n: "1" }, "thing");
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e instanceof RangeError) || !e.message.startsWith('Invalid thing "n"')) throw e;
 * }
 * ```
 * @throws {RangeError} For an input the schema rejects.
 */
export function parseQuickly<T>(
  schema: z.ZodType<T>,
  quick: (input: unknown) => T | undefined,
  input: unknown,
  what: string,
): T {
  const fast = quick(input);
  if (fast !== undefined) return fast;
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw new RangeError(describeInputIssue(parsed.error.issues[0], input, what));
  }
  return parsed.data;
}

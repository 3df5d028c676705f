/**
 * Pieces for an environment's own state writer (`Environment.stateJson`):
 * canonical JSON of a state of a known shape, written field by field in
 * sorted key order without the generic writer's work per object (listing,
 * checking and sorting its keys, choosing by type). A checkpoint serialises
 * its state every round, and with the generic writer that was the largest
 * cost of a logged episode.
 *
 * A writer built from these pieces must give exactly `canonicalJson(state)`
 * or nothing: every piece checks what it writes (a number is finite, a
 * boolean is a boolean, an object has exactly the keys the writer names), and
 * throws {@linkcode NOT_THIS_SHAPE} otherwise, which {@linkcode shapedJson}
 * turns into `undefined` so the caller falls back to `canonicalJson` (which
 * then writes the state, or names the value it cannot write). Each
 * environment's writer is tested against `canonicalJson` on seeded states.
 *
 * @module
 */
import { canonicalJson } from "./canonical_json.ts";

/**
 * Thrown by the pieces when a value is not of the shape the writer expects.
 *
 * @example
 * ```ts
 * import { NOT_THIS_SHAPE, num } from "./state_json.ts";
 * try {
 *   num(Infinity);
 * } catch (e) {
 *   if (e !== NOT_THIS_SHAPE) throw e;
 * }
 * ```
 */
export const NOT_THIS_SHAPE: Error = new Error("The state is not of the shape this writer knows");

/**
 * Runs a writer: its text, or `undefined` when the state is not of its shape.
 *
 * @example
 * ```ts
 * import { num, shapedJson } from "./state_json.ts";
 * if (shapedJson({ a: 1 }, (s) => `{"a":${num(s.a)}}`) !== '{"a":1}') throw new Error();
 * if (shapedJson({ a: NaN }, (s) => `{"a":${num(s.a)}}`) !== undefined) throw new Error();
 * ```
 */
export function shapedJson<S>(state: S, write: (state: S) => string): string | undefined {
  try {
    return write(state);
  } catch (err) {
    if (err === NOT_THIS_SHAPE) return undefined;
    throw err;
  }
}

/**
 * A finite number as canonical JSON writes it (`-0` as `0`).
 *
 * @example
 * ```ts
 * import { num } from "./state_json.ts";
 * if (num(-0) !== "0" || num(0.1) !== "0.1" || num(1e21) !== "1e+21") throw new Error();
 * ```
 * @throws {Error} {@linkcode NOT_THIS_SHAPE} for anything else.
 */
export function num(x: unknown): string {
  if (typeof x !== "number" || x - x !== 0) throw NOT_THIS_SHAPE;
  return "" + x;
}

/**
 * A boolean.
 *
 * @example
 * ```ts
 * import { bool } from "./state_json.ts";
 * if (bool(true) !== "true") throw new Error();
 * ```
 * @throws {Error} {@linkcode NOT_THIS_SHAPE} for anything else.
 */
export function bool(x: unknown): string {
  if (x === true) return "true";
  if (x === false) return "false";
  throw NOT_THIS_SHAPE;
}

/**
 * A string, quoted.
 *
 * @example
 * ```ts
 * import { str } from "./state_json.ts";
 * if (str('a"b') !== '"a\\"b"') throw new Error();
 * ```
 * @throws {Error} {@linkcode NOT_THIS_SHAPE} for anything else.
 */
export function str(x: unknown): string {
  if (typeof x !== "string") throw NOT_THIS_SHAPE;
  return JSON.stringify(x);
}

/**
 * Any JSON value, by the generic canonical writer (for the rarely filled
 * parts of a state).
 *
 * @example
 * ```ts
 * import { any } from "./state_json.ts";
 * if (any({ b: 1, a: null }) !== '{"a":null,"b":1}') throw new Error();
 * ```
 * @throws {Error} {@linkcode NOT_THIS_SHAPE} where the generic writer cannot write the value.
 */
export function any(x: unknown): string {
  try {
    return canonicalJson(x);
  } catch {
    throw NOT_THIS_SHAPE;
  }
}

/**
 * Checks that a value is a plain object with exactly `n` enumerable keys
 * (the writer then reads the keys it names: one missing would be read as
 * `undefined`, which no piece writes) and returns it.
 *
 * @example
 * ```ts
 * import { fields } from "./state_json.ts";
 * const o = fields({ a: 1, b: 2 }, 2);
 * if (o.a !== 1) throw new Error();
 * ```
 * @throws {Error} {@linkcode NOT_THIS_SHAPE} otherwise.
 */
export function fields(x: unknown, n: number): Record<string, unknown> {
  if (typeof x !== "object" || x === null || Array.isArray(x)) throw NOT_THIS_SHAPE;
  const proto = Object.getPrototypeOf(x);
  if (proto !== Object.prototype && proto !== null) throw NOT_THIS_SHAPE;
  let count = 0;
  for (const _ in x) count++;
  if (count !== n) throw NOT_THIS_SHAPE;
  return x as Record<string, unknown>;
}

/**
 * An array, each item written by `write`.
 *
 * @example
 * ```ts
 * import { list, num } from "./state_json.ts";
 * if (list([1, 2], num) !== "[1,2]" || list([], num) !== "[]") throw new Error();
 * ```
 * @throws {Error} {@linkcode NOT_THIS_SHAPE} for a value that is not an array.
 */
export function list<T>(x: unknown, write: (item: T) => string): string {
  if (!Array.isArray(x)) throw NOT_THIS_SHAPE;
  if (x.length === 0) return "[]";
  let out = "[" + write(x[0]);
  for (let i = 1; i < x.length; i++) out += "," + write(x[i]);
  return out + "]";
}

/**
 * Deep copy of plain JSON data (objects, arrays, strings, numbers, booleans,
 * null), several times faster than `structuredClone` for engine states.
 *
 * @module
 */

/**
 * Copies JSON data deeply. `undefined` members are kept as `undefined`.
 *
 * @example
 * ```ts
 * import { cloneJson } from "./clone.ts";
 * const a = { x: [1, { y: 2 }] };
 * const b = cloneJson(a);
 * b.x[0] = 9;
 * if (a.x[0] !== 1) throw new Error();
 * ```
 */
export function cloneJson<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const k in value) out[k] = cloneJson((value as Record<string, unknown>)[k]);
  return out as T;
}

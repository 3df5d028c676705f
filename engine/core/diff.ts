/**
 * First difference between two JSON values, as a path.
 *
 * @module
 */

/** Where two values first differ. */
export interface Difference {
  /** Path such as `depositors[3].balance`; `""` for the root. */
  path: string;
  /** Value on the left (`undefined` when absent). */
  left: unknown;
  /** Value on the right (`undefined` when absent). */
  right: unknown;
}

/**
 * Finds the first difference (depth first, keys in sorted order), or `undefined`.
 *
 * @example
 * ```ts
 * import { firstDifference } from "./diff.ts";
 * const d = firstDifference({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] });
 * if (d?.path !== "a[1].b") throw new Error(d?.path);
 * ```
 */
export function firstDifference(left: unknown, right: unknown, path = ""): Difference | undefined {
  if (Object.is(left, right)) return undefined;
  if (
    typeof left !== "object" || typeof right !== "object" || left === null || right === null ||
    Array.isArray(left) !== Array.isArray(right)
  ) {
    return left === right ? undefined : { path, left, right };
  }
  if (Array.isArray(left) && Array.isArray(right)) {
    const n = Math.max(left.length, right.length);
    for (let i = 0; i < n; i++) {
      const d = firstDifference(left[i], right[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  const l = left as Record<string, unknown>;
  const r = right as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(l), ...Object.keys(r)])].sort();
  for (const k of keys) {
    const d = firstDifference(l[k], r[k], path ? `${path}.${k}` : k);
    if (d) return d;
  }
  return undefined;
}

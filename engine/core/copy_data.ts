/**
 * Deep copies of plain data (validated parameters, derived quantities): what
 * a cache hands out, so that no two episodes share an object a caller could
 * change.
 *
 * @module
 */

/**
 * A deep copy of plain data: arrays and plain objects (prototype `Object` or
 * `null`) are copied, with their keys in order; anything else (numbers,
 * strings, class instances, functions) is kept as it is.
 *
 * @example
 * ```ts
 * import { copyData } from "./copy_data.ts";
 * const a = { n: 1, list: [{ x: 2 }], label: "p" };
 * const b = copyData(a);
 * if (b === a || b.list === a.list || b.list[0] === a.list[0]) throw new Error("shared");
 * if (JSON.stringify(b) !== JSON.stringify(a)) throw new Error("differs");
 * ```
 */
export function copyData<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyData(value[i]);
    return out as T;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = proto === null ? Object.create(null) : {};
  // A plain object inherits no enumerable key, so `for...in` sees its own keys, in order.
  for (const k in value) {
    const v = copyData((value as Record<string, unknown>)[k]);
    if (k === "__proto__") {
      Object.defineProperty(out, k, {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[k] = v;
  }
  return out as T;
}

/**
 * Canonical JSON: object keys sorted, `undefined` members dropped, `-0` written
 * as `0`, and non-finite numbers rejected. Two values that are deep-equal give
 * the same text, which is what state hashes need.
 *
 * @module
 */

/**
 * Serialises a JSON-compatible value canonically.
 *
 * @example
 * ```ts
 * import { canonicalJson } from "./canonical_json.ts";
 * if (canonicalJson({ b: 1, a: [2, -0] }) !== '{"a":[2,0],"b":1}') throw new Error();
 * ```
 * @throws {TypeError} When a number is NaN or infinite, or a value is not JSON data.
 */
export function canonicalJson(value: unknown): string {
  return write(value, "$");
}

function write(value: unknown, path: string): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "number":
      if (!Number.isFinite(value)) {
        throw new TypeError(`Cannot hash ${path}: ${value} is not a finite number`);
      }
      return Object.is(value, -0) ? "0" : String(value);
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "object": {
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) {
          if (i) out += ",";
          const v = value[i];
          out += v === undefined ? "null" : write(v, path);
        }
        return out + "]";
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj).sort();
      let out = "{";
      let first = true;
      for (const k of keys) {
        const v = obj[k];
        if (v === undefined) continue;
        if (!first) out += ",";
        first = false;
        out += JSON.stringify(k) + ":" + write(v, path + "." + k);
      }
      return out + "}";
    }
    default:
      throw new TypeError(`Cannot hash ${path}: a ${typeof value} is not JSON data`);
  }
}

/**
 * Canonical JSON: object keys sorted, `undefined` members dropped, `-0` written
 * as `0`, and non-finite numbers rejected. Two values that are deep-equal give
 * the same text, which is what state hashes need.
 *
 * The writer is on the engine's hot path (one state per checkpoint), so it
 * tracks no path while writing: quoted keys are cached, key lists already in
 * order are not sorted again, and only when a value cannot be written is the
 * value walked a second time to name the bad field.
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
  try {
    return write(value);
  } catch (err) {
    if (err !== NOT_JSON) throw err;
    throw new TypeError(explain(value, "$") ?? "Cannot hash $: not JSON data");
  }
}

const NOT_JSON = new Error("not JSON data");
const quoted = new Map<string, string>();

function key(k: string): string {
  let q = quoted.get(k);
  if (q === undefined) {
    q = JSON.stringify(k) + ":";
    if (quoted.size >= 8192) quoted.clear();
    quoted.set(k, q);
  }
  return q;
}

function write(value: unknown): string {
  switch (typeof value) {
    case "number":
      if (value - value !== 0) throw NOT_JSON;
      return value === 0 ? "0" : "" + value;
    case "string":
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) {
        const n = value.length;
        if (n === 0) return "[]";
        let out = "[";
        for (let i = 0; i < n; i++) {
          const v = value[i];
          if (i) out += ",";
          out += v === undefined ? "null" : write(v);
        }
        return out + "]";
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj);
      const n = keys.length;
      for (let i = 1; i < n; i++) {
        if (keys[i - 1] > keys[i]) {
          keys.sort();
          break;
        }
      }
      let out = "{";
      let first = true;
      for (let i = 0; i < n; i++) {
        const k = keys[i];
        const v = obj[k];
        if (v === undefined) continue;
        if (!first) out += ",";
        first = false;
        out += key(k) + write(v);
      }
      return out + "}";
    }
    default:
      throw NOT_JSON;
  }
}

/** The message naming the first value that cannot be written, or undefined. */
function explain(value: unknown, path: string): string | undefined {
  switch (typeof value) {
    case "number":
      return Number.isFinite(value)
        ? undefined
        : `Cannot hash ${path}: ${value} is not a finite number`;
    case "string":
    case "boolean":
      return undefined;
    case "object": {
      if (value === null) return undefined;
      if (Array.isArray(value)) {
        for (const v of value) {
          const got = v === undefined ? undefined : explain(v, path);
          if (got) return got;
        }
        return undefined;
      }
      const obj = value as Record<string, unknown>;
      for (const k of Object.keys(obj).sort()) {
        const got = obj[k] === undefined ? undefined : explain(obj[k], path + "." + k);
        if (got) return got;
      }
      return undefined;
    }
    default:
      return `Cannot hash ${path}: a ${typeof value} is not JSON data`;
  }
}

/**
 * SHA-256 fingerprints of canonical JSON.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "./canonical_json.ts";

/**
 * Hex SHA-256 of a UTF-8 string.
 *
 * @example
 * ```ts
 * import { sha256Hex } from "./hash.ts";
 * if (sha256Hex("abc").slice(0, 8) !== "ba7816bf") throw new Error();
 * ```
 */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * Hex SHA-256 over the canonical JSON of a value: the state hash of a checkpoint.
 *
 * @example
 * ```ts
 * import { stateHash } from "./hash.ts";
 * if (stateHash({ a: 1, b: 2 }) !== stateHash({ b: 2, a: 1 })) throw new Error();
 * ```
 */
export function stateHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

/**
 * The first 8 hex digits of the SHA-256 of a value's canonical JSON: a short,
 * stable label of an object (key order does not matter).
 *
 * @example
 * ```ts
 * import { shortHash } from "./hash.ts";
 * if (shortHash({ b: 1, a: 2 }) !== shortHash({ a: 2, b: 1 }) || shortHash({}).length !== 8) throw new Error();
 * ```
 */
export function shortHash(value: unknown): string {
  return sha256Hex(canonicalJson(value)).slice(0, 8);
}

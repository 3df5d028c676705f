/**
 * Episode seeds: a pure function of the base seed, the cell's condition and
 * the episode's replicate number, so adding or removing other cells never
 * changes a seed and any single episode can be re-run alone.
 *
 * The seed is the first 13 hex digits (52 bits) of the SHA-256 of the
 * canonical JSON of `{ base, key, replicate }`: a non-negative safe integer.
 *
 * @module
 */
import { canonicalJson } from "../core/canonical_json.ts";
import { sha256Hex } from "../core/hash.ts";

/** Options of {@linkcode episodeSeed}. */
export interface EpisodeSeedOptions {
  /** Base seed of the spec. */
  base: number;
  /** Replicate number within the cell, from 0. */
  replicate: number;
}

/**
 * The seed of one episode.
 *
 * @example
 * ```ts
 * import { episodeSeed } from "./seeds.ts";
 * const key = { game: "frail", env: "bank_run", mechanism: "M0", regime: "stable", params: {} };
 * const s = episodeSeed(key, { base: 0, replicate: 0 });
 * if (s !== episodeSeed({ ...key }, { base: 0, replicate: 0 })) throw new Error();
 * if (s === episodeSeed(key, { base: 0, replicate: 1 }) || !Number.isSafeInteger(s)) throw new Error();
 * ```
 * @throws {RangeError} When the base seed or replicate is not a non-negative safe integer.
 */
export function episodeSeed(key: unknown, options: EpisodeSeedOptions): number {
  for (const name of ["base", "replicate"] as const) {
    const v = options[name];
    if (!Number.isSafeInteger(v) || v < 0) {
      throw new RangeError(`Seed option "${name}" must be a non-negative safe integer, got ${v}`);
    }
  }
  const digest = sha256Hex(
    canonicalJson({ base: options.base, key, replicate: options.replicate }),
  );
  return parseInt(digest.slice(0, 13), 16);
}

/**
 * Sharding across machines: `i/n` selects a deterministic, disjoint slice of
 * a grid's episodes, and slices 0..n-1 together cover it exactly once.
 *
 * Choice: episodes are dealt round-robin over the shards in a seeded shuffle
 * of the grid's order (the stream (base seed, 0, `"grid"`, `"shard_order"`)),
 * so shard sizes differ by at most one and no shard gets a whole family of
 * cells (plain round-robin over the grid's order would give every M0 cell to
 * one shard when there are four mechanisms and four shards). Within a shard,
 * episodes keep the grid's order. Shards are numbered from 0, like
 * `SLURM_ARRAY_TASK_ID` with `--array=0-<n-1>` and a Kubernetes Indexed Job's
 * `JOB_COMPLETION_INDEX`.
 *
 * @module
 */
import { sha256Hex } from "../core/hash.ts";
import { openStream, shuffled } from "../core/rng.ts";

/** One shard of `count`: `index` in 0..count-1. */
export interface Shard {
  /** Shard number, from 0. */
  index: number;
  /** Number of shards. */
  count: number;
}

/**
 * Reads `"i/n"`.
 *
 * @example
 * ```ts
 * import { parseShard } from "./shard.ts";
 * const s = parseShard("2/8");
 * if (s.index !== 2 || s.count !== 8) throw new Error();
 * try {
 *   parseShard("8/8");
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e instanceof RangeError)) throw e;
 * }
 * ```
 * @throws {RangeError} Unless it reads `i/n` with integers 0 <= i < n.
 */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m) {
    throw new RangeError(`Invalid shard "${text}": expected "i/n" with 0 <= i < n, e.g. "0/4"`);
  }
  return checkShard({ index: Number(m[1]), count: Number(m[2]) });
}

/**
 * Checks a shard.
 *
 * @example
 * ```ts
 * import { checkShard } from "./shard.ts";
 * checkShard({ index: 0, count: 1 });
 * ```
 * @throws {RangeError} Unless 0 <= index < count, both integers.
 */
export function checkShard(shard: Shard): Shard {
  const { index, count } = shard;
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new RangeError(`Invalid shard count ${count}: expected an integer >= 1`);
  }
  if (!Number.isSafeInteger(index) || index < 0 || index >= count) {
    throw new RangeError(
      `Invalid shard index ${index}: expected an integer in 0..${count - 1} ` +
        `(shards are numbered from 0: a Slurm array of ${count} shards is ` +
        `"#SBATCH --array=0-${count - 1}" with "--shard $SLURM_ARRAY_TASK_ID/${count}", ` +
        `the count written out, never $SLURM_ARRAY_TASK_COUNT)`,
    );
  }
  return shard;
}

/** Options of {@linkcode shardOf}. */
export interface ShardOptions {
  /** Base seed of the spec (seeds the deal). */
  seed: number;
  /** The shard to select. */
  shard: Shard;
}

/**
 * The items of one shard, in their original order.
 *
 * @example
 * ```ts
 * import { shardOf } from "./shard.ts";
 * const items = Array.from({ length: 10 }, (_, i) => i);
 * const parts = [0, 1, 2].map((index) => shardOf(items, { seed: 1, shard: { index, count: 3 } }));
 * if (parts.flat().sort((a, b) => a - b).join() !== items.join()) throw new Error();
 * if (parts.some((p) => p.length < 3 || p.length > 4)) throw new Error();
 * ```
 */
export function shardOf<T>(items: readonly T[], options: ShardOptions): T[] {
  const { index, count } = checkShard(options.shard);
  if (count === 1) return [...items];
  const stream = openStream({
    seed: options.seed,
    round: 0,
    agent: "grid",
    purpose: "shard_order",
  });
  const order = shuffled(stream, items.map((_, i) => i));
  const mine: number[] = [];
  for (let k = index; k < order.length; k += count) mine.push(order[k]);
  mine.sort((a, b) => a - b);
  return mine.map((i) => items[i]);
}

/**
 * The folder name of a shard, e.g. `"shard-2-of-8"` (the index zero-padded to
 * the width of the count, so folders sort).
 *
 * @example
 * ```ts
 * import { shardFolderName } from "./shard.ts";
 * if (shardFolderName({ index: 2, count: 8 }) !== "shard-2-of-8") throw new Error();
 * if (shardFolderName({ index: 2, count: 16 }) !== "shard-02-of-16") throw new Error();
 * ```
 */
export function shardFolderName(shard: Shard): string {
  const width = String(shard.count).length;
  return `shard-${String(shard.index).padStart(width, "0")}-of-${shard.count}`;
}

/**
 * The hash a shard folder's manifest records of the episodes it owns
 * (`episodes_hash`): SHA-256 of their ids, sorted (by UTF-16 code units) and
 * joined by newlines, so it does not depend on the order they are listed in.
 * Loaders compare it with the episodes a shard folder holds.
 *
 * @example
 * ```ts
 * import { episodesHash } from "./shard.ts";
 * if (episodesHash(["b", "a"]) !== episodesHash(["a", "b"])) throw new Error();
 * if (episodesHash(["a"]) === episodesHash(["a", "b"])) throw new Error();
 * ```
 */
export function episodesHash(ids: Iterable<string>): string {
  const sorted = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sha256Hex(sorted.join("\n"));
}

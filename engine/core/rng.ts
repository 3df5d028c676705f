/**
 * Seeded random streams. Every draw the engine makes comes from a stream keyed
 * by (episode seed, round, agent, purpose), so the order in which agents answer,
 * or adding an agent, never changes another agent's draw.
 *
 * @module
 */
import prand from "npm:pure-rand@7.0.1";
import { sha256Hex } from "./hash.ts";

/** Identifies one independent random stream. */
export interface StreamKey {
  /** The episode seed (a non-negative safe integer). */
  seed: number;
  /** Round number (0 for draws made before round 1). */
  round: number;
  /** Agent id, or a name such as `"engine"` for draws that belong to no agent. */
  agent: string;
  /** What the draws are for, e.g. `"withdraw"` or `"processing_order"`. */
  purpose: string;
}

/** A stream of uniform draws. */
export interface Stream {
  /** A float uniform on [0, 1) with 53 random bits. */
  uniform(): number;
  /** An integer uniform on [0, n). */
  int(n: number): number;
}

/**
 * Opens the stream for a key. The same key always gives the same draws.
 *
 * @example
 * ```ts
 * import { openStream } from "./rng.ts";
 * const a = openStream({ seed: 7, round: 1, agent: "dep_01", purpose: "withdraw" });
 * const b = openStream({ seed: 7, round: 1, agent: "dep_01", purpose: "withdraw" });
 * if (a.uniform() !== b.uniform()) throw new Error("streams differ");
 * ```
 * @throws {RangeError} When the seed is not a non-negative safe integer.
 */
export function openStream(key: StreamKey): Stream {
  if (!Number.isSafeInteger(key.seed) || key.seed < 0) {
    throw new RangeError(`Seed must be a non-negative safe integer, got ${key.seed}`);
  }
  const digest = sha256Hex(`${key.seed}|${key.round}|${key.agent}|${key.purpose}`);
  const gen = prand.xoroshiro128plus(parseInt(digest.slice(0, 8), 16) | 0);
  // Discard the first outputs: xoroshiro's first words are weakly mixed for small seeds.
  prand.unsafeSkipN(gen, 4);
  const uniform = () => {
    const hi = gen.unsafeNext() >>> 5;
    const lo = gen.unsafeNext() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  };
  return {
    uniform,
    int(n: number) {
      if (!Number.isInteger(n) || n <= 0) {
        throw new RangeError(`Stream.int() needs a positive integer, got ${n}`);
      }
      return Math.floor(uniform() * n);
    },
  };
}

/**
 * Shuffles a copy of an array with a stream (Fisher-Yates).
 *
 * @example
 * ```ts
 * import { openStream, shuffled } from "./rng.ts";
 * const s = openStream({ seed: 1, round: 1, agent: "engine", purpose: "order" });
 * if (shuffled(s, [1, 2, 3]).length !== 3) throw new Error();
 * ```
 */
export function shuffled<T>(stream: Stream, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = stream.int(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

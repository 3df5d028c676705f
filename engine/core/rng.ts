/**
 * Seeded random streams. Every draw the engine makes comes from a stream keyed
 * by (episode seed, round, agent, purpose), so the order in which agents answer,
 * or adding an agent, never changes another agent's draw.
 *
 * ## Derivation `"murmur3-xoshiro128ss-v2"` ({@linkcode RNG_VERSION})
 *
 * Every log names its derivation (`rng` in `episode_start`) and replay
 * refuses a derivation it does not know. (The first one, SHA-256 of the key
 * into pure-rand's xoroshiro128+, was used only by event schema 1 logs,
 * which this version refuses by name.)
 *
 * 1. Each of agent and purpose is hashed twice with 32-bit MurmurHash3 over its
 *    UTF-16 code units (lane seeds `0x9747b28c` and `0x2f8a53c1`, the length
 *    mixed in by MurmurHash3's finalisation).
 * 2. Two MurmurHash3 chains, one per lane, absorb five 32-bit words each: the
 *    seed's low and high words, the round, and that lane's agent and purpose
 *    hashes; each is finalised with `fmix32`, giving a 64-bit stream id `(a, b)`.
 * 3. The generator is xoshiro128** (Blackman and Vigna; 128-bit state,
 *    period 2^128 - 1) seeded with `fmix32` of `a`, `b` and two combinations
 *    of them; a uniform takes the top 27 and 26 bits of two outputs (53 bits).
 *
 * Nothing here is cryptographic, and nothing needs to be: the log records the
 * seed, so a replay re-derives every stream. What matters is that two keys of
 * one episode do not share a stream.
 *
 * Collision argument. Every MurmurHash3 step (the word mixed by
 * multiply-rotate-multiply, then `h ^= k; h = rotl(h, 13) * 5 + c`) and
 * `fmix32` are bijections of 32-bit words, so two word sequences of equal
 * length that differ in exactly one word never end in the same value. Hence
 * keys that differ only in the round, only in a seed below 2^32, or only in one
 * character of an agent or purpose of the same length (`dep_01` and `dep_02`)
 * are guaranteed distinct streams: their lane-a chains differ in exactly one
 * word. Any other pair of keys collides in both 64 bits of `(a, b)` with
 * probability about 2^-64 when the hash is modelled as random, which is the
 * right model for non-adversarial ids; an episode opens at most about 10^4
 * streams, so the chance that two of them coincide is below 10^8 / 2^65, about
 * 3e-12 per episode, and below 1e-2 over 10^9 episodes (the only effect would
 * be two repeated draws in that episode). The seeding of xoshiro is injective
 * in `(a, b)` (its first two words are bijections of `a` and of `b`), so
 * distinct ids give distinct generator states.
 *
 * Speed: agent and purpose hashes are cached (bounded), and the engine opens
 * streams through {@linkcode roundStreams}, which absorbs the seed and round
 * once per round, so opening a stream costs a few dozen integer operations.
 *
 * @module
 */

/**
 * The stream derivation this toolkit writes (recorded as `rng` in `episode_start`).
 *
 * @example
 * ```ts
 * import { RNG_VERSION } from "./rng.ts";
 * if (RNG_VERSION !== "murmur3-xoshiro128ss-v2") throw new Error();
 * ```
 */
export const RNG_VERSION = "murmur3-xoshiro128ss-v2";

/** A stream derivation this toolkit can open. */
export type RngVersion = typeof RNG_VERSION;

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

/** Options of {@linkcode openStream}. */
export interface OpenStreamOptions {
  /** The derivation. Default {@linkcode RNG_VERSION}. */
  rng?: RngVersion;
}

/**
 * Opens the stream of (agent, purpose) within one round of one episode. The
 * openers {@linkcode roundStreams} makes also give `first(agent, purpose)`:
 * the first uniform of that stream (`open(agent, purpose).uniform()`) without
 * building the stream, for the one draw most keys get; openers written by
 * hand may leave it out, so callers use {@linkcode firstUniform}.
 */
export interface RoundStreams {
  /** The stream of (agent, purpose). */
  (agent: string, purpose: string): Stream;
  /** The first uniform of the stream of (agent, purpose), which is not built. */
  first?(agent: string, purpose: string): number;
}

/**
 * The first uniform of the stream of (agent, purpose):
 * `open(agent, purpose).uniform()`, without building the stream when the
 * opener can say it directly.
 *
 * @example
 * ```ts
 * import { firstUniform, roundStreams } from "./rng.ts";
 * const open = roundStreams(7, 2);
 * if (firstUniform(open, "dep_01", "withdraw") !== open("dep_01", "withdraw").uniform()) throw new Error();
 * ```
 */
export function firstUniform(open: RoundStreams, agent: string, purpose: string): number {
  return open.first ? open.first(agent, purpose) : open(agent, purpose).uniform();
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
 * @throws {RangeError} When the seed is not a non-negative safe integer, or the round not one.
 */
export function openStream(key: StreamKey, options: OpenStreamOptions = {}): Stream {
  return roundStreams(key.seed, key.round, options)(key.agent, key.purpose);
}

/**
 * The stream opener of one round of one episode: `(agent, purpose) => Stream`,
 * the same streams as {@linkcode openStream} with this seed and round, with
 * the seed and round checked and absorbed once.
 *
 * @example
 * ```ts
 * import { openStream, roundStreams } from "./rng.ts";
 * const open = roundStreams(7, 2);
 * const u = openStream({ seed: 7, round: 2, agent: "a", purpose: "p" }).uniform();
 * if (open("a", "p").uniform() !== u) throw new Error();
 * ```
 * @throws {RangeError} When the seed is not a non-negative safe integer, or the round not one,
 * or the derivation is unknown.
 */
export function roundStreams(
  seed: number,
  round: number,
  options: OpenStreamOptions = {},
): RoundStreams {
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new RangeError(`Seed must be a non-negative safe integer, got ${seed}`);
  }
  if (!Number.isSafeInteger(round) || round < 0) {
    throw new RangeError(`Round must be a non-negative safe integer, got ${round}`);
  }
  const rng = options.rng ?? RNG_VERSION;
  if (rng !== RNG_VERSION) {
    throw new RangeError(`Unknown stream derivation "${rng}": this build opens "${RNG_VERSION}"`);
  }
  const lo = seed >>> 0;
  const hi = Math.floor(seed / 4294967296) >>> 0;
  const a = absorb(absorb(absorb(LANE_A, lo), hi), round >>> 0);
  const b = absorb(absorb(absorb(LANE_B, lo), hi), round >>> 0);
  // Streams of a round are mostly opened for one purpose after another agent's.
  let lastPurpose: string | undefined;
  let hp: readonly [number, number] = [0, 0];
  // The stream id's second word, set by idA beside the first it returns.
  let idB = 0;
  const idA = (agent: string, purpose: string): number => {
    const ha = stringHash(agent);
    if (purpose !== lastPurpose) {
      hp = stringHash(purpose);
      lastPurpose = purpose;
    }
    idB = fmix32(absorb(absorb(b, ha[1]), hp[1]) ^ 20);
    return fmix32(absorb(absorb(a, ha[0]), hp[0]) ^ 20);
  };
  const open: RoundStreams = (agent, purpose) => {
    const ia = idA(agent, purpose);
    return new Xoshiro128ss(ia, idB);
  };
  open.first = (agent, purpose) => {
    const ia = idA(agent, purpose);
    return firstOf(ia, idB);
  };
  return open;
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

const LANE_A = 0x9747b28c | 0;
const LANE_B = 0x2f8a53c1 | 0;
const C1 = 0xcc9e2d51 | 0;
const C2 = 0x1b873593 | 0;

/** One MurmurHash3 (x86, 32-bit) block step: mixes word `k` into chain value `h`. */
function absorb(h: number, k: number): number {
  k = Math.imul(k, C1);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, C2);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** MurmurHash3's finaliser: a bijection of 32-bit words with full avalanche. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

const hashCache = new Map<string, readonly [number, number]>();
const CACHE_LIMIT = 4096;

/** Two MurmurHash3 hashes of a string's UTF-16 code units (one word each), cached for short strings. */
function stringHash(s: string): readonly [number, number] {
  let h = hashCache.get(s);
  if (h !== undefined) return h;
  let a = LANE_A;
  let b = LANE_B;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = absorb(a, c);
    b = absorb(b, c);
  }
  h = [fmix32(a ^ s.length), fmix32(b ^ s.length)];
  if (s.length <= 64) {
    if (hashCache.size >= CACHE_LIMIT) hashCache.clear();
    hashCache.set(s, h);
  }
  return h;
}

/** xoshiro128** over a 128-bit state seeded from a 64-bit stream id. */
class Xoshiro128ss implements Stream {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  constructor(a: number, b: number) {
    this.s0 = fmix32(a ^ 0x243f6a88);
    this.s1 = fmix32(b ^ 0x85a308d3);
    this.s2 = fmix32((a + 0x13198a2e) ^ ((b << 16) | (b >>> 16)));
    this.s3 = fmix32((b + 0x03707344) ^ ((a << 8) | (a >>> 24)));
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }
  private next(): number {
    const s1 = this.s1;
    let r = Math.imul(s1, 5);
    r = Math.imul((r << 7) | (r >>> 25), 9);
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = (this.s3 << 11) | (this.s3 >>> 21);
    return r >>> 0;
  }
  uniform(): number {
    const hi = this.next() >>> 5;
    const lo = this.next() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }
  int(n: number): number {
    if (!Number.isInteger(n) || n <= 0) {
      throw new RangeError(`Stream.int() needs a positive integer, got ${n}`);
    }
    return Math.floor(this.uniform() * n);
  }
}

/**
 * The first `uniform()` of `new Xoshiro128ss(a, b)`, in local variables: the
 * same seeding and two steps of the generator, with no object built.
 */
function firstOf(a: number, b: number): number {
  let s0 = fmix32(a ^ 0x243f6a88);
  let s1 = fmix32(b ^ 0x85a308d3);
  let s2 = fmix32((a + 0x13198a2e) ^ ((b << 16) | (b >>> 16)));
  let s3 = fmix32((b + 0x03707344) ^ ((a << 8) | (a >>> 24)));
  if ((s0 | s1 | s2 | s3) === 0) s0 = 1;
  // First output.
  let r = Math.imul(s1, 5);
  r = Math.imul((r << 7) | (r >>> 25), 9);
  const t = s1 << 9;
  s2 ^= s0;
  s3 ^= s1;
  s1 ^= s2;
  s0 ^= s3;
  s2 ^= t;
  s3 = (s3 << 11) | (s3 >>> 21);
  const hi = (r >>> 0) >>> 5;
  // Second output (only s1 is read for it).
  r = Math.imul(s1, 5);
  r = Math.imul((r << 7) | (r >>> 25), 9);
  const lo = (r >>> 0) >>> 6;
  return (hi * 67108864 + lo) / 9007199254740992;
}

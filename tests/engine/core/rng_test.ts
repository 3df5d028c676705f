import { assertEquals, assertNotEquals, assertThrows } from "../../_assert.ts";
import { firstUniform, openStream, roundStreams, shuffled } from "../../../engine/core/rng.ts";

Deno.test("openStream() gives the same draws for the same key", () => {
  const key = { seed: 42, round: 3, agent: "dep_07", purpose: "withdraw" };
  const a = openStream(key);
  const b = openStream(key);
  for (let i = 0; i < 5; i++) assertEquals(a.uniform(), b.uniform());
});

Deno.test("openStream() pins its first draw for a known key", () => {
  // Seeded exact value: changing the stream derivation changes every log, so it must be deliberate.
  const u = openStream({ seed: 1, round: 1, agent: "dep_01", purpose: "withdraw" }).uniform();
  assertEquals(u, PINNED_FIRST_DRAW);
});

Deno.test("roundStreams() opens the same streams as openStream() with that seed and round", () => {
  const open = roundStreams(2 ** 40 + 7, 3);
  for (const agent of ["engine", "dep_01", "p05"]) {
    const a = open(agent, "withdraw");
    const b = openStream({ seed: 2 ** 40 + 7, round: 3, agent, purpose: "withdraw" });
    for (let i = 0; i < 4; i++) assertEquals(a.uniform(), b.uniform());
  }
});

Deno.test("roundStreams() gives distinct first draws to keys that differ in one word", () => {
  // Keys differing only in the round, a seed below 2^32, or one character of an
  // equal-length id never share a stream (see the collision argument in rng.ts).
  const draws = new Set<number>();
  let n = 0;
  for (let seed = 0; seed < 20; seed++) {
    for (let round = 0; round < 13; round++) {
      const open = roundStreams(seed, round);
      for (let i = 1; i <= 15; i++) {
        draws.add(open(`dep_${String(i).padStart(2, "0")}`, "withdraw").uniform());
        n++;
      }
    }
  }
  assertEquals(draws.size, n);
});

Deno.test("roundStreams() refuses an unknown derivation and a bad round, naming them", () => {
  assertThrows(
    () => roundStreams(1, 0, { rng: "splitmix-v9" as never }),
    RangeError,
    'Unknown stream derivation "splitmix-v9"',
  );
  assertThrows(
    () => roundStreams(1, -1),
    RangeError,
    "Round must be a non-negative safe integer, got -1",
  );
});

Deno.test("openStream() gives independent streams for different keys", () => {
  const draws = new Set<number>();
  for (const agent of ["a", "b"]) {
    for (const purpose of ["x", "y"]) {
      for (const round of [1, 2]) {
        draws.add(openStream({ seed: 9, round, agent, purpose }).uniform());
      }
    }
  }
  assertEquals(draws.size, 8);
  assertNotEquals(
    openStream({ seed: 1, round: 1, agent: "a", purpose: "p" }).uniform(),
    openStream({ seed: 2, round: 1, agent: "a", purpose: "p" }).uniform(),
  );
});

Deno.test("openStream() draws are uniform on [0, 1) in mean and range", () => {
  const s = openStream({ seed: 5, round: 0, agent: "engine", purpose: "check" });
  let sum = 0;
  let min = 1;
  let max = 0;
  const n = 20000;
  for (let i = 0; i < n; i++) {
    const u = s.uniform();
    sum += u;
    min = Math.min(min, u);
    max = Math.max(max, u);
  }
  if (Math.abs(sum / n - 0.5) > 0.01 || min < 0 || max >= 1) {
    throw new Error(`mean ${sum / n}, min ${min}, max ${max}`);
  }
});

Deno.test("openStream() rejects a negative or fractional seed", () => {
  assertThrows(
    () => openStream({ seed: -1, round: 0, agent: "a", purpose: "p" }),
    RangeError,
    "Seed must be a non-negative safe integer, got -1",
  );
  assertThrows(() => openStream({ seed: 1.5, round: 0, agent: "a", purpose: "p" }), RangeError);
});

Deno.test("shuffled() permutes without losing items", () => {
  const s = openStream({ seed: 3, round: 1, agent: "engine", purpose: "order" });
  const out = shuffled(s, [1, 2, 3, 4, 5, 6]);
  assertEquals([...out].sort(), [1, 2, 3, 4, 5, 6]);
});

const PINNED_FIRST_DRAW = 0.5400910322307051;

Deno.test("firstUniform() gives a stream's first uniform, whether the opener says it or not", () => {
  const keys = ["dep_01", "dep_15", "engine", "p03", "a", "", "é"];
  const purposes = ["withdraw", "redeem", "pledge", "processing_order", "p"];
  let n = 0;
  for (const seed of [0, 1, 7, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER]) {
    for (const round of [0, 1, 12, 4095]) {
      const open = roundStreams(seed, round);
      const plain = (agent: string, purpose: string) => open(agent, purpose);
      for (const agent of keys) {
        for (const purpose of purposes) {
          const u = openStream({ seed, round, agent, purpose }).uniform();
          assertEquals(firstUniform(open, agent, purpose), u);
          assertEquals(firstUniform(plain, agent, purpose), u);
          n++;
        }
      }
    }
  }
  assertEquals(n, 700);
});

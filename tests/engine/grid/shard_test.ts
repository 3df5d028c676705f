import { assert, assertEquals, assertThrows } from "../../_assert.ts";
import { planGrid } from "../../../engine/grid/plan.ts";
import { episodesHash, parseShard, shardFolderName, shardOf } from "../../../engine/grid/shard.ts";
import { assertSameRun } from "../../../engine/grid/manifest.ts";
import { parseGridSpec, specHash } from "../../../engine/grid/spec.ts";
import { sha256Hex } from "../../../engine/core/hash.ts";

const SPEC = {
  name: "shards",
  seed: 5,
  episodes: 5,
  blocks: [
    { game: "frail", envs: ["bank_run"], regimes: ["stable", "contraction"] },
    { game: "staghunt", N: [3, 5], M: [2], F: [1, 2], corruption: ["base", "b3"] },
  ],
};

Deno.test("planGrid() shards 0..n-1 cover the grid exactly once, for several n", () => {
  const whole = planGrid(SPEC);
  assertEquals(whole.total, (8 + 8) * 5);
  const ids = whole.episodes.map((e) => e.id);
  for (const n of [1, 2, 3, 4, 7, 16, 79, 80, 81, 200]) {
    const parts = Array.from({ length: n }, (_, i) => planGrid(SPEC, { shard: `${i}/${n}` }));
    const all = parts.flatMap((p) => p.episodes.map((e) => e.id));
    assertEquals(all.length, ids.length, `n = ${n}: no episode twice`);
    assertEquals([...all].sort(), [...ids].sort(), `n = ${n}: every episode once`);
    const sizes = parts.map((p) => p.episodes.length);
    assert(Math.max(...sizes) - Math.min(...sizes) <= 1, `n = ${n}: sizes ${sizes}`);
    for (const p of parts) {
      const idx = p.episodes.map((e) => e.index);
      assertEquals(idx, [...idx].sort((a, b) => a - b), `n = ${n}: grid order kept`);
      assertEquals(p.total, 80);
    }
  }
});

Deno.test("shardOf() is deterministic and mixes cells instead of dealing in grid order", () => {
  const items = Array.from({ length: 40 }, (_, i) => i);
  const a = shardOf(items, { seed: 1, shard: { index: 0, count: 4 } });
  assertEquals(a, shardOf(items, { seed: 1, shard: { index: 0, count: 4 } }));
  assert(a.join() !== shardOf(items, { seed: 2, shard: { index: 0, count: 4 } }).join());
  // Plain round-robin would give shard 0 exactly the multiples of 4 (every M0 cell of a 4-mechanism grid).
  assert(a.some((i) => i % 4 !== 0), a.join());
  assertEquals(a.length, 10);
});

Deno.test("parseShard() reads i/n and refuses anything else with a RangeError", () => {
  assertEquals(parseShard(" 3 / 8 "), { index: 3, count: 8 });
  for (const bad of ["8/8", "-1/4", "1/0", "a/b", "3", "1/2/3"]) {
    assertThrows(() => parseShard(bad), RangeError);
  }
  assertThrows(
    () => parseShard("4/4"),
    RangeError,
    "Invalid shard index 4: expected an integer in 0..3",
  );
  assertEquals(shardFolderName({ index: 3, count: 12 }), "shard-03-of-12");
});

Deno.test("parseShard() refuses an index outside 0..n-1 with the Slurm array line to use", () => {
  assertThrows(
    () => parseShard("4/4"),
    RangeError,
    "Invalid shard index 4: expected an integer in 0..3 (shards are numbered from 0: a Slurm " +
      'array of 4 shards is "#SBATCH --array=0-3" with "--shard $SLURM_ARRAY_TASK_ID/4", the ' +
      "count written out, never $SLURM_ARRAY_TASK_COUNT)",
  );
});

Deno.test("episodesHash() hashes the sorted ids, so a plan's hash does not depend on their order", () => {
  assertEquals(episodesHash(["b", "a"]), sha256Hex("a\nb"));
  assertEquals(episodesHash([]), sha256Hex(""));
});

Deno.test("assertSameRun() refuses to resume a shard folder whose plan (episode ids) differs", () => {
  const spec = parseGridSpec(SPEC);
  const hash = specHash(spec);
  const shard = { index: 1, count: 4 };
  const m = { spec, spec_hash: hash, shard, episodes_hash: "a".repeat(64) };
  assertSameRun(m, { spec, hash, shard, episodesHash: "a".repeat(64) }, "runs/x");
  assertSameRun(
    { spec, spec_hash: hash, shard },
    { spec, hash, shard, episodesHash: "b" },
    "runs/x",
  );
  assertThrows(
    () => assertSameRun(m, { spec, hash, shard, episodesHash: "b".repeat(64) }, "runs/x"),
    RangeError,
    'Run folder "runs/x" holds shard 1/4 of this spec with other episodes (plan aaaaaaaaaaaa, ' +
      "this one bbbbbbbbbbbb): a toolkit that deals shards differently; finish it with the " +
      "toolkit that started it",
  );
});

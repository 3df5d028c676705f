import { createHash } from "node:crypto";
import { assert, assertEquals, assertThrows } from "../../_assert.ts";
import { expandGrid } from "../../../engine/grid/cells.ts";
import { episodeSeed } from "../../../engine/grid/seeds.ts";
import { parseGridSpec } from "../../../engine/grid/spec.ts";
import { stagHuntGrid } from "../../../engine/games/staghunt/grid.ts";

const expand = (spec: unknown) => expandGrid(parseGridSpec(spec));

Deno.test("expandGrid() gives the product of a FRAIL block's factors in nested order", () => {
  const { cells, episodes } = expand({
    name: "x",
    episodes: 3,
    blocks: [{
      game: "frail",
      envs: ["bank_run", "debt_rollover"],
      mechanisms: ["M0", "M3"],
      regimes: ["stable", "contraction"],
      params: [{}, { horizon: 6 }],
      agents: [{ mock: {} }, { model: "meta/llama-3.1 8b" }],
    }],
  });
  assertEquals(cells.length, 2 * 2 * 2 * 2 * 2);
  assertEquals(episodes.length, 32 * 3);
  const p = "_p" + createHash("sha256").update('{"horizon":6}').digest("hex").slice(0, 8);
  assertEquals(cells.slice(0, 5).map((c) => c.id), [
    "bank_run_M0_stable_mock",
    "bank_run_M0_stable_meta-llama-3.1-8b",
    `bank_run_M0_stable${p}_mock`,
    `bank_run_M0_stable${p}_meta-llama-3.1-8b`,
    "bank_run_M0_contraction_mock",
  ]);
  assertEquals(cells[16].id, "debt_rollover_M0_stable_mock");
});

Deno.test("expandGrid() orders episodes replicate-major with ids ending in the replicate", () => {
  const { cells, episodes } = expand({
    episodes: 2,
    blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0", "M1"] }, {
      game: "frail",
      envs: ["bank_run"],
      mechanisms: ["M2"],
      episodes: 3,
    }],
  });
  assertEquals(cells.map((c) => c.episodes), [2, 2, 3]);
  assertEquals(episodes.map((e) => e.id), [
    "bank_run_M0_stable_mock_e0",
    "bank_run_M1_stable_mock_e0",
    "bank_run_M2_stable_mock_e0",
    "bank_run_M0_stable_mock_e1",
    "bank_run_M1_stable_mock_e1",
    "bank_run_M2_stable_mock_e1",
    "bank_run_M2_stable_mock_e2",
  ]);
  assertEquals(episodes.map((e) => e.index), [0, 1, 2, 3, 4, 5, 6]);
  assertEquals(episodes.every((e) => e.run === "grid"), true);
});

Deno.test("episodeSeed() is the first 52 bits of SHA-256 over the canonical key", () => {
  const key = { game: "frail", env: "bank_run", mechanism: "M0", regime: "stable", params: {} };
  const text =
    '{"base":7,"key":{"env":"bank_run","game":"frail","mechanism":"M0","params":{},"regime":"stable"},"replicate":2}';
  const expected = parseInt(createHash("sha256").update(text).digest("hex").slice(0, 13), 16);
  assertEquals(episodeSeed(key, { base: 7, replicate: 2 }), expected);
  assertThrows(() => episodeSeed(key, { base: -1, replicate: 0 }), RangeError, '"base"');
});

Deno.test("expandGrid() keeps every seed when other cells are added around a cell", () => {
  const block = { game: "frail", envs: ["bank_run"], mechanisms: ["M1", "M2"] };
  const alone = expand({ seed: 11, blocks: [block] }).episodes;
  const grown = expand({
    seed: 11,
    episodes: 9,
    blocks: [
      { game: "staghunt", F: [1, 2] },
      { ...block, episodes: 5 },
      { game: "frail", envs: ["bank_run"], mechanisms: ["M0", "M3"] },
    ],
  }).episodes;
  const seeds = new Map(grown.map((e) => [e.id, e.seed]));
  assertEquals(alone.length, 10);
  for (const e of alone) assertEquals(seeds.get(e.id), e.seed, e.id);
  assert(new Set(grown.map((e) => e.seed)).size === grown.length, "distinct cells, distinct seeds");
});

Deno.test("expandGrid() pairs seeds across agents unless pairSeeds is false", () => {
  const spec = (pairSeeds: boolean) => ({
    pairSeeds,
    episodes: 2,
    blocks: [{
      game: "frail",
      envs: ["bank_run"],
      mechanisms: ["M0"],
      agents: [{ mock: {} }, { model: "a" }, { model: "b", label: "b-run" }],
    }],
  });
  const paired = expand(spec(true)).episodes;
  assertEquals(paired.filter((e) => e.replicate === 0).map((e) => e.seed).length, 3);
  assertEquals(new Set(paired.filter((e) => e.replicate === 0).map((e) => e.seed)).size, 1);
  assertEquals(new Set(paired.map((e) => e.seed)).size, 2);
  const unpaired = expand(spec(false)).episodes;
  assertEquals(new Set(unpaired.map((e) => e.seed)).size, 6);
  assertEquals(unpaired.map((e) => e.id).slice(0, 3), [
    "bank_run_M0_stable_mock_e0",
    "bank_run_M0_stable_a_e0",
    "bank_run_M0_stable_b-run_e0",
  ]);
});

Deno.test("expandGrid() gives the paper's 90 Stag Hunt base points from M all and F by N", () => {
  const { cells } = expand({
    blocks: [{
      game: "staghunt",
      N: [2, 3, 5],
      M: "all",
      T: [1, 2, 4],
      F: { "2": [0, 1], "3": [1, 2], "5": [1, 2, 3, 4] },
    }],
  });
  assertEquals(cells.length, 90);
  const ours = cells.map((c) => c.condition).map((c) =>
    c.game === "staghunt" ? `N${c.N}_M${c.M}_T${c.T}_F${c.F}` : ""
  ).sort();
  const paper = stagHuntGrid().filter((c) => c.condition === "base").map((c) => c.point).sort();
  assertEquals(ours, paper);
  assertEquals(cells[0].id, "staghunt_N2_M1_T1_F0_base_h1_mock");
});

Deno.test("expandGrid() matches the paper grid's conditions to the agents entries that implement them", () => {
  const { cells } = expand({
    blocks: [{
      game: "staghunt",
      paper: { seed: 3 },
      agents: [
        { model: "gpt-5-mini" },
        { models: { kind: "h2", pool: ["gpt-5-mini", "llama"] } },
        { models: { kind: "h3", strong: "gpt-5.2", weak: "llama" } },
      ],
    }],
  });
  assertEquals(cells.length, 90 + 50 * 3);
  const byKind = (h: string, c: string) =>
    cells.filter((x) =>
      x.condition.game === "staghunt" && x.condition.heterogeneity === h &&
      x.condition.corruption === c
    ).length;
  assertEquals([
    byKind("h1", "base"),
    byKind("h1", "b3"),
    byKind("h2", "base"),
    byKind("h3", "base"),
  ], [
    90,
    50,
    50,
    50,
  ]);
  const h3 = cells.find((c) =>
    c.condition.game === "staghunt" && c.condition.heterogeneity === "h3"
  )!;
  assert(h3.id.endsWith("_base_h3_gpt-5.2_llama"), h3.id);
});

Deno.test("expandGrid() refuses a heterogeneity without agents and thresholds above N, naming the field", () => {
  assertThrows(
    () => expand({ blocks: [{ game: "staghunt", heterogeneity: ["h1", "h2"] }] }),
    RangeError,
    'Invalid grid spec "blocks.0.heterogeneity": "h2" has no agents entry that implements it',
  );
  assertThrows(
    () => expand({ blocks: [{ game: "staghunt", paper: {} }] }),
    RangeError,
    'Invalid grid spec "blocks.0.paper.include": "h2" has no agents entry',
  );
  assertThrows(
    () => expand({ blocks: [{ game: "staghunt", N: [2, 3], M: [3] }] }),
    RangeError,
    'Invalid grid spec "blocks.0.M": 3 is not in 1..N = 1..2 for N = 2',
  );
  assertThrows(
    () => expand({ blocks: [{ game: "staghunt", N: [3], F: [4] }] }),
    RangeError,
    'Invalid grid spec "blocks.0.F": 4 is not in 0..N = 0..3 for N = 3',
  );
  assertThrows(
    () => expand({ blocks: [{ game: "staghunt", N: [3, 5], F: { "3": [1] } }] }),
    RangeError,
    'Invalid grid spec "blocks.0.F": no list of corrupted-player counts for N = 5',
  );
  assertThrows(
    () => expand({ blocks: [{ game: "staghunt", payoffs: [2, 2, 0, 2] }] }),
    RangeError,
    'Invalid grid spec "blocks.0.payoffs": Invalid staghunt parameter "payoffs"',
  );
});

Deno.test("expandGrid() refuses two cells with one id and accepts them with distinct labels", () => {
  const block = { game: "frail", envs: ["bank_run"], mechanisms: ["M0"] };
  assertThrows(
    () => expand({ blocks: [block, block] }),
    RangeError,
    'Invalid grid spec "blocks.1": cell "bank_run_M0_stable_mock" also comes from blocks.0',
  );
  const { cells } = expand({
    blocks: [block, { ...block, agents: [{ mock: {}, label: "again" }] }],
  });
  assertEquals(cells.map((c) => c.id), ["bank_run_M0_stable_mock", "bank_run_M0_stable_again"]);
});

import { assert, assertEquals, assertThrows } from "../../_assert.ts";
import { estimateCalls, estimateUsage } from "../../../engine/grid/estimate.ts";
import { formatPlan, planGrid } from "../../../engine/grid/plan.ts";

const ROOT = new URL("../../../", import.meta.url).pathname;
const CLI = new URL("../../../engine/cli/grid.ts", import.meta.url).pathname;

Deno.test("planGrid() refuses a cell this build cannot run, naming the block, cell and field", () => {
  assertThrows(
    () =>
      planGrid({
        blocks: [{ game: "frail", envs: ["bank_run"], params: [{ capacity: -1 }] }],
      }),
    RangeError,
    'Invalid grid spec "blocks.0": cell "bank_run_M0_stable_p',
  );
  assertThrows(
    () => planGrid({ blocks: [{ game: "frail", envs: ["bank_run"], params: [{ capacity: -1 }] }] }),
    RangeError,
    'Invalid bank_run parameter "capacity"',
  );
  assertThrows(
    () => planGrid({ blocks: [{ game: "frail", envs: ["bank_run"] }] }, { shard: "2/2" }),
    RangeError,
    "Invalid shard index 2",
  );
});

Deno.test("estimateCalls() counts T (N + F) Stag Hunt calls under base and T (N + F/2) under b3", async () => {
  const c = {
    game: "staghunt",
    N: 5,
    M: 3,
    T: 4,
    F: 3,
    heterogeneity: "h1",
    payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 },
  } as const;
  assertEquals(await estimateCalls({ ...c, corruption: "base" }), 32);
  assertEquals(await estimateCalls({ ...c, corruption: "b3" }), 26);
});

Deno.test("estimateCalls() counts a neutral FRAIL episode's calls: 15 a round under M0, 31 under M1", async () => {
  const c = { game: "frail", env: "bank_run", regime: "stable", params: {} } as const;
  assertEquals(await estimateCalls({ ...c, mechanism: "M0" }), 12 * 15);
  assertEquals(await estimateCalls({ ...c, mechanism: "M1" }), 12 * 31);
});

Deno.test("estimateUsage() prices LLM cells at their models' mean price and leaves mock cells out", async () => {
  const plan = planGrid({
    episodes: 5,
    blocks: [{
      game: "staghunt",
      N: [5],
      F: [2],
      agents: [{ mock: {} }, { model: "a" }, { models: { kind: "h2", pool: ["a", "b"] } }],
      heterogeneity: ["h1", "h2"],
    }],
  });
  const u = await estimateUsage(plan.cells, {
    tokensInPerCall: 1000,
    tokensOutPerCall: 100,
    prices: { a: { inputPerMillion: 2, outputPerMillion: 10 } },
  });
  // 28 calls an episode, 5 episodes, 3 cells; two of them LLM.
  assertEquals([u.calls, u.llmEpisodes, u.llmCalls], [420, 10, 280]);
  assertEquals([u.tokensIn, u.tokensOut], [280_000, 28_000]);
  // a: 1000 x 2 + 100 x 10 = 3000 per million calls; b has no price, so the h2 cell is priced at a's.
  assertEquals(u.cost, 280 * 3000 / 1e6);
  assertEquals(u.unpriced, ["b"]);
});

Deno.test("formatPlan() lists cells with their shard counts and every episode with its seed", () => {
  const plan = planGrid({
    name: "tiny",
    seed: 9,
    episodes: 2,
    blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0", "M1"] }],
  }, { shard: "0/2" });
  const text = formatPlan(plan);
  const lines = text.split("\n");
  assertEquals(
    lines[0],
    `Grid "tiny": 2 cells, 4 episodes, base seed 9, spec ${
      plan.hash.slice(0, 12)
    }; shard 0/2: 2 episodes of 1 cell`,
  );
  assertEquals(lines.slice(-3), [
    "episode  seed",
    ...plan.episodes.map((e) => `${e.id}  ${e.seed}`),
  ]);
});

Deno.test("the grid command's --dry-run lists cells, episodes and LLM estimates", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/spec.json`,
    JSON.stringify({
      name: "dry",
      episodes: 2,
      blocks: [{ game: "staghunt", N: [3], M: [2], T: [2], F: [1], agents: [{ model: "x" }] }],
    }),
  );
  await Deno.writeTextFile(
    `${dir}/models.json`,
    JSON.stringify({
      models: [{
        id: "x",
        baseURL: "http://127.0.0.1:9/v1",
        model: "x",
        price: { inputPerMillion: 1, outputPerMillion: 2 },
      }],
    }),
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      CLI,
      "--spec",
      `${dir}/spec.json`,
      "--dry-run",
      "--models",
      `${dir}/models.json`,
    ],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  assert(text.startsWith('Grid "dry": 1 cell, 2 episodes, base seed 0'), text);
  assert(text.includes("staghunt_N3_M2_T2_F1_base_h1_x  staghunt  x       2         8"), text);
  // 8 calls x 2 episodes; 2000 in at 1/M and 500 out at 2/M: 16 x 0.003 = 0.048.
  assert(
    text.includes(
      "LLM: 2 episodes, 16 calls, ~32,000 prompt and ~8,000 completion tokens (assuming 2,000 in / 500 out per call), estimated cost 0.05",
    ),
    text,
  );
  assert(text.includes("staghunt_N3_M2_T2_F1_base_h1_x_e1  "), text);
  const bad = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "--spec", `${dir}/spec.json`, "--shard", "3/2"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(bad.code, 2);
  assert(new TextDecoder().decode(bad.stderr).includes("Invalid shard index 3"));
});

Deno.test("planGrid() expands the paper's stable-regime grid to 84 cells and 420 LLM episodes", async () => {
  const models = ["gpt-terra", "sonnet", "deepseek", "glm", "qwen", "minimax", "gpt-mini"];
  const plan = planGrid({
    name: "paper",
    blocks: [{
      game: "frail",
      envs: ["bank_run", "debt_rollover", "crowdfunding"],
      agents: models.map((model) => ({ model })),
    }],
  });
  assertEquals([plan.cells.length, plan.total, plan.llm], [84, 420, true]);
  const u = await estimateUsage(plan.cells);
  assertEquals([u.llmEpisodes, u.llmCalls === u.calls], [420, true]);
  // Five paired seeds per condition: the seven models of a cell share them.
  assertEquals(new Set(plan.episodes.map((e) => e.seed)).size, 12 * 5);
});

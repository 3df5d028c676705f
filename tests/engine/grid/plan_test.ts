import { assert, assertEquals, assertRejects, assertThrows } from "../../_assert.ts";
import { countGridEpisodes, expandGrid } from "../../../engine/grid/cells.ts";
import { estimateUsage } from "../../../engine/grid/estimate.ts";
import { planGrid, streamPlan } from "../../../engine/grid/plan.ts";
import { formatPlan } from "../../../engine/grid/plan_text.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { parseGridSpec } from "../../../engine/grid/spec.ts";
import { GRID_CLI as CLI, ROOT } from "./_grid_fixture.ts";
import { makeTempDir } from "../../_temp.ts";

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

Deno.test("estimateUsage() counts T (N + F) Stag Hunt calls under base, and the seeded draws under b3", async () => {
  const block = { game: "staghunt", N: [5], M: [3], T: [4], F: [3], corruption: ["base", "b3"] };
  const plan = planGrid({ seed: 1, episodes: 3, blocks: [block] });
  const u = await estimateUsage(plan.episodes);
  const [base, b3] = plan.cells.map((c) => u.callsPerEpisode[c.id]);
  // Every corrupted turn needs a re-justification under base: 4 x (5 + 3).
  assertEquals(base, 32);
  // Under b3 only the turns whose drawn action differs do (T (N + F/2) = 26 in expectation).
  assertEquals(b3 * 3, 76);
  assertEquals([u.calls, u.llmCalls, u.tokensIn, u.cost], [3 * 32 + 76, 0, 0, null]);
});

Deno.test("estimateUsage() counts a FRAIL episode's calls: 15 a round under M0, 31 under M1 when nobody withdraws", async () => {
  const plan = planGrid({
    episodes: 1,
    blocks: [{
      game: "frail",
      envs: ["bank_run"],
      mechanisms: ["M0", "M1"],
      agents: [{ mock: { depositors: "always_stay" } }],
    }],
  });
  const u = await estimateUsage(plan.episodes);
  assertEquals(Object.values(u.callsPerEpisode), [12 * 15, 12 * 31]);
});

Deno.test("estimateUsage() prices each player's calls at the model that plays it and leaves mock cells out", async () => {
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
  const u = await estimateUsage(plan.episodes, {
    models: [
      {
        id: "a",
        baseURL: "http://127.0.0.1:9/v1",
        model: "a",
        maxTokens: 300,
        price: { inputPerMillion: 2, outputPerMillion: 10 },
      },
      { id: "b", baseURL: "http://127.0.0.1:9/v1", model: "b", maxTokens: 700 },
    ],
    tokensOutPerCall: 100,
    countTokens: () => 1000,
  });
  // 4 x (5 + 2) = 28 calls an episode, 5 episodes, 3 cells; two of them LLM.
  assertEquals([u.calls, u.llmEpisodes, u.llmCalls], [420, 10, 280]);
  assertEquals([u.tokensIn, u.tokensOut], [280_000, 28_000]);
  const { a, b } = u.byModel;
  // h1 plays a for everyone; h2 alternates a, b, a, b, a over the speaking order.
  assertEquals(a.calls + b.calls, 280);
  assert(a.calls > 140 && b.calls > 0);
  assertEquals(u.maxTokensOut, a.calls * 300 + b.calls * 700);
  // Only a has a price: 1000 in at 2/M and 100 out at 10/M per call.
  assertEquals(u.cost, a.calls * (1000 * 2 + 100 * 10) / 1e6);
  assertEquals(u.minCost, a.calls * 1000 * 2 / 1e6);
  assertEquals(u.maxCost, a.calls * (1000 * 2 + 300 * 10) / 1e6);
  assertEquals([b.cost, u.unpriced], [null, ["b"]]);
});

Deno.test("estimateUsage() of a spec counts every episode runGrid would play, as its plan's episodes do", async () => {
  const spec = {
    seed: 4,
    episodes: 3,
    blocks: [{
      game: "staghunt",
      N: [5],
      M: [3],
      T: [4],
      F: [1, 3],
      corruption: ["base", "b3"],
      agents: [{ model: "a" }],
    }],
  };
  const models = [{
    id: "a",
    baseURL: "http://127.0.0.1:9/v1",
    model: "a",
    price: { inputPerMillion: 2, outputPerMillion: 10 },
  }];
  const fromSpec = await estimateUsage(spec, { models, countTokens: () => 100 });
  const fromPlan = await estimateUsage(planGrid(spec).episodes, { models, countTokens: () => 100 });
  assertEquals(fromSpec, fromPlan);
  // Under base every corrupted turn is re-justified: 3 episodes of 4 x (5 + 1) and of 4 x (5 + 3).
  const base = planGrid(spec).cells.filter((c) => c.id.includes("_base_")).map((c) => c.id);
  assertEquals(base.map((id) => fromSpec.callsPerEpisode[id]), [24, 32]);
  assertEquals(fromSpec.episodes, 12);
  assertEquals(fromSpec.cost, fromSpec.llmCalls * (100 * 2 + 500 * 10) / 1e6);
  await assertRejects(
    () => estimateUsage({ blocks: [{ game: "staghunt", N: [0] }] }),
    RangeError,
    "Invalid grid spec",
  );
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
    }; shard 0/2: 2 episodes of 2 cells`,
  );
  assertEquals(lines.slice(-3), [
    "episode  seed",
    ...plan.episodes.map((e) => `${e.id}  ${e.seed}`),
  ]);
});

Deno.test("the grid command's --dry-run shows cells, and by model calls, tokens and cost in the file's currency; --list adds the seeds", async () => {
  const dir = await makeTempDir();
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
      currency: "EUR",
      models: [{
        id: "x",
        baseURL: "http://127.0.0.1:9/v1",
        model: "x",
        price: { inputPerMillion: 1, outputPerMillion: 2 },
      }],
    }),
  );
  const dry = (...more: string[]) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CLI, "--spec", `${dir}/spec.json`, "--dry-run", ...more],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
  const out = await dry("--models", `${dir}/models.json`);
  const text = new TextDecoder().decode(out.stdout);
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  // 8 calls x 2 episodes; prompt tokens counted, 500 completion tokens a call assumed, caps 8192.
  const u = await estimateUsage(
    planGrid(JSON.parse(await Deno.readTextFile(`${dir}/spec.json`))).episodes,
  );
  const tokens = u.tokensIn.toLocaleString("en-US");
  const cost = (n: number) => n.toFixed(4);
  const [low, mid, high] = [u.tokensIn, u.tokensIn + 2 * 8000, u.tokensIn + 2 * 131_072]
    .map((n) => cost(n / 1e6));
  const pad = (cells: string[], widths: number[]) =>
    cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  const widths = [5, 5, 13, 17, 21, mid.length + 4, low.length + high.length + 1];
  assertEquals(text.split("\n"), [
    `Grid "dry": 1 cell, 2 episodes, base seed 0, spec ${
      planGrid(JSON.parse(await Deno.readTextFile(`${dir}/spec.json`))).hash.slice(0, 12)
    }`,
    "",
    "cell                            game      agents  episodes  calls per episode (mean)",
    "------------------------------  --------  ------  --------  ------------------------",
    "staghunt_N3_M2_T2_F1_base_h1_x  staghunt  x       2         8",
    "",
    "Agent calls: 16 (played with rule-based stand-ins), of which LLM calls: 16 in 2 episodes.",
    "",
    pad(
      [
        "model",
        "calls",
        "prompt tokens",
        "completion tokens",
        "per call (mean), from",
        "cost",
        "low-high EUR",
      ],
      widths,
    ),
    pad(widths.map((w) => "-".repeat(w)), widths),
    pad(["x", "16", tokens, "8,000", "500 assumed", `${mid} EUR`, `${low}-${high}`], widths),
    pad(["total", "16", tokens, "8,000", "", `${mid} EUR`, `${low}-${high}`], widths),
    "",
    "Completion tokens per call (mean): assumed 500 (--tokens-out) for every model.",
    "Cost: prompts plus mean completions; low-high: prompts alone to every completion at its cap",
    "  (maxTokens).",
    "",
  ]);
  assert(!text.includes("_e1"), text);
  const listed = new TextDecoder().decode((await dry("--list")).stdout).split("\n");
  assertEquals(listed.slice(-4), [
    "episode  seed",
    ...planGrid(JSON.parse(await Deno.readTextFile(`${dir}/spec.json`))).episodes.map((e) =>
      `${e.id}  ${e.seed}`
    ),
    "",
  ]);
  await Deno.writeTextFile(
    `${dir}/models.json`,
    JSON.stringify({ currency: "euro", models: [] }),
  );
  const badCurrency = await dry("--models", `${dir}/models.json`);
  assertEquals(badCurrency.code, 2);
  assertEquals(
    new TextDecoder().decode(badCurrency.stderr),
    `${dir}/models.json: Invalid currency: the models file's "currency" must be an ISO 4217 code ` +
      `of three capital letters such as "USD" or "CNY", got "euro"\n`,
  );
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
  const u = await estimateUsage(plan.episodes);
  assertEquals([u.llmEpisodes, u.llmCalls === u.calls], [420, true]);
  // Paired seeds: the seven models of a condition play the same calls.
  assertEquals(new Set(Object.values(u.byModel).map((m) => m.calls)).size, 1);
  // Five paired seeds per condition: the seven models of a cell share them.
  assertEquals(new Set(plan.episodes.map((e) => e.seed)).size, 12 * 5);
});

Deno.test("countGridEpisodes() counts exactly what expandGrid() expands, without expanding", () => {
  const specs = [
    {
      episodes: 3,
      blocks: [
        { game: "frail", envs: ["bank_run", "crowdfunding"], regimes: ["stable", "expansion"] },
        { game: "frail", envs: ["debt_rollover"], params: [{}, { T: 8 }], episodes: 2 },
      ],
    },
    { episodes: 2, blocks: [{ game: "staghunt", N: [2, 3, 5], M: "all", T: [1, 4], F: [0, 1] }] },
    {
      blocks: [{
        game: "staghunt",
        N: [3, 5],
        F: { "3": [0, 1], "5": [0, 2, 3] },
        corruption: ["base", "b3"],
        heterogeneity: ["h1", "h2"],
        agents: [
          { mock: {} },
          { mock: { players: "always_stag" } },
          { models: { kind: "h2", pool: ["a", "b"] }, mock: {} },
        ],
      }],
    },
    {
      episodes: 1,
      blocks: [{
        game: "staghunt",
        paper: { ablationPoints: 5 },
        agents: [
          { mock: {} },
          { models: { kind: "h2", pool: ["a", "b"] }, mock: {} },
          { models: { kind: "h3", strong: "a", weak: "b" }, mock: {} },
        ],
      }],
    },
  ];
  for (const input of specs) {
    const spec = parseGridSpec(input);
    assertEquals(countGridEpisodes(spec), expandGrid(spec).episodes.length, JSON.stringify(input));
  }
});

const HUGE = {
  name: "huge",
  episodes: 1_000_000,
  blocks: [{
    game: "frail",
    envs: ["bank_run", "debt_rollover", "crowdfunding"],
    regimes: ["expansion", "stable", "contraction"],
  }],
};

Deno.test("a 36M-episode grid is refused with its count before anything is expanded", async () => {
  const message = 'Grid "huge" has 36,000,000 episodes, more than the limit of 1,000,000: ' +
    "split it into several specs, or raise the limit (maxEpisodes, --max-episodes)";
  assertThrows(() => planGrid(HUGE), RangeError, message);
  assertThrows(() => streamPlan(HUGE, { shard: "0/8" }), RangeError, message);
  await assertRejects(() => runGrid(HUGE, { out: "/nonexistent/never" }), RangeError, message);
  assertThrows(
    () => planGrid({ ...HUGE, episodes: 5 }, { maxEpisodes: 179 }),
    RangeError,
    'Grid "huge" has 180 episodes, more than the limit of 179',
  );
  assertEquals(planGrid({ ...HUGE, episodes: 5 }, { maxEpisodes: 180 }).total, 180);
  const dir = await makeTempDir();
  await Deno.writeTextFile(`${dir}/spec.json`, JSON.stringify(HUGE));
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, "--spec", `${dir}/spec.json`, "--dry-run"],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 2);
  assertEquals(new TextDecoder().decode(out.stderr).trim(), message);
});

Deno.test("streamPlan() generates the episodes planGrid() holds, for the grid and each shard", () => {
  const spec = {
    name: "streamed",
    seed: 3,
    episodes: 4,
    blocks: [
      { game: "frail", envs: ["bank_run"], agents: [{ mock: {} }, { model: "m" }] },
      { game: "staghunt", N: [3], M: [1, 2], T: [2], F: [1], episodes: 2 },
    ],
  };
  for (const shard of [undefined, "0/3", "1/3", "2/3"]) {
    const held = planGrid(spec, { shard });
    const streamed = streamPlan(spec, { shard });
    assertEquals([...streamed.episodes], held.episodes);
    assertEquals([...streamed.episodes], held.episodes, "iterable twice");
    assertEquals(
      [streamed.count, streamed.total, streamed.llm, streamed.cells, streamed.hash],
      [held.episodes.length, held.total, held.llm, held.cells, held.hash],
    );
    assertEquals(formatPlan(streamed), formatPlan(held));
  }
});

// The dry run says where each figure comes from, counts what the cache
// already holds, and shows itself as a table in a notebook. The paper grid's
// one screen: reproduce_test.ts (the same screen, by reproduce --dry-run) and,
// by the grid command, estimate_long_test.ts.
import { assert, assertEquals, assertRejects } from "../../_assert.ts";
import { serveLocalModel } from "../../../engine/agents/llm/server/local_server.ts";
import { LlmRuntime } from "../../../engine/agents/llm/runtime.ts";
import { mockPopulation } from "../../../engine/agents/mock/population.ts";
import { JUPYTER_DISPLAY } from "../../../engine/core/jupyter.ts";
import { estimateUsage } from "../../../engine/grid/estimate.ts";
import { planGrid } from "../../../engine/grid/plan.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { makeTempDir } from "../../_temp.ts";

Deno.test("estimateUsage() counts the calls a cache holds at no cost and measures completions from their replies", async () => {
  const server = serveLocalModel({ seed: 6 });
  const cache = await makeTempDir();
  try {
    const models = [{
      id: "local",
      baseURL: server.url,
      model: "coordlab-defensive",
      testDouble: true,
      maxTokens: 1000,
      price: { inputPerMillion: 2, outputPerMillion: 8 },
    }];
    const spec = {
      name: "cached",
      seed: 6,
      episodes: 2,
      blocks: [{
        game: "frail",
        envs: ["bank_run"],
        mechanisms: ["M1"],
        agents: [{ model: "local" }],
      }],
    };
    const standIn = () => mockPopulation({ seed: 6 });
    const before = await estimateUsage(spec, { models, cache, standIn });
    assertEquals([before.cachedCalls, before.byModel.local.tokensOutSource], [0, "assumed"]);
    assertEquals(before.byModel.local.tokensOutPerCall, 500);
    const real = await runGrid(spec, {
      out: await makeTempDir(),
      runtime: new LlmRuntime({ models, cacheDir: cache }),
      preflight: false,
      progress: false,
    });
    assertEquals(real.failed.length, 0);
    const after = await estimateUsage(spec, { models, cache, standIn });
    // The served model plays the stand-ins' rules with their seed: every call is found.
    assertEquals(after.llmCalls, real.usage.calls);
    assertEquals(after.cachedCalls, real.usage.calls);
    const m = after.byModel.local;
    assertEquals([m.tokensOutSource, m.tokensOutSamples], ["cache", real.usage.calls]);
    assertEquals(m.tokensOutPerCall, real.usage.tokensOut / real.usage.calls);
    assertEquals([after.minCost, after.cost, after.maxCost], [0, 0, 0]);
    // A pilot's measure comes first; the assumption only where nothing was measured.
    const piloted = await estimateUsage(spec, {
      models,
      standIn,
      pilot: { local: { calls: 4, tokensOut: 100 } },
    });
    assertEquals(
      [piloted.byModel.local.tokensOutSource, piloted.byModel.local.tokensOutPerCall],
      ["pilot", 25],
    );
    assertEquals(piloted.cost, (piloted.tokensIn * 2 + piloted.llmCalls * 25 * 8) / 1e6);
    await assertRejects(
      () => estimateUsage(spec, { cache }),
      RangeError,
      'Estimate option "cache" needs "models"',
    );
  } finally {
    await server.close();
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("estimateUsage()'s result shows a table with rounded money in a notebook, and stays a plain object", async () => {
  const v = await estimateUsage({
    episodes: 1,
    blocks: [{ game: "staghunt", N: [3], M: [2], T: [1], F: [1], agents: [{ model: "m" }] }],
  }, {
    models: [{
      id: "m",
      baseURL: "http://127.0.0.1:9/v1",
      model: "x",
      maxTokens: 100,
      price: { inputPerMillion: 0.3, outputPerMillion: 1.2 },
    }],
    countTokens: () => 1000,
    tokensOutPerCall: 7,
    currency: "CNY",
  });
  // 4 calls (3 players + 1 corrupted re-justification) of 1,000 prompt tokens and 7 completion tokens.
  assertEquals([v.llmCalls, v.tokensIn, v.tokensOut], [4, 4000, 28]);
  assertEquals(v.cost, (4000 * 0.3 + 28 * 1.2) / 1e6);
  assert(!JSON.stringify(v).includes("Jupyter"));
  const bundle = v[JUPYTER_DISPLAY]() as Record<string, string>;
  assertEquals(bundle["text/plain"].split("\n"), [
    "Estimate: 1 episodes, 4 agent calls, 4 LLM calls",
    "model  calls  prompt tokens  completion tokens  per call (mean), from  cost        low-high CNY",
    "-----  -----  -------------  -----------------  ---------------------  ----------  -------------",
    "m      4      4,000          28                 7 assumed              0.0012 CNY  0.0012-0.0017",
    "total  4      4,000          28                                        0.0012 CNY  0.0012-0.0017",
    "",
    "Completion tokens per call (mean): assumed 7 (--tokens-out) for every model.",
    "Cost: prompts plus mean completions; low-high: prompts alone to every completion at its cap",
    "  (maxTokens).",
  ]);
  const html = bundle["text/html"];
  assert(html.startsWith('<table class="coordlab-estimate">'), html);
  assert(html.includes("<tr><td>m</td><td>4</td><td>4,000</td><td>28</td>"), html);
  assert(html.includes("<td>0.0012 CNY</td>"), html);
  assert(!html.includes("0.0012336"), html);
});

Deno.test("estimateUsage() cuts an assumed completion above the model's cap to the cap, so the cost stays within its range", async () => {
  const spec = {
    episodes: 1,
    blocks: [{
      game: "frail",
      envs: ["bank_run"],
      mechanisms: ["M0"],
      params: [{ horizon: 1 }],
      agents: [{ model: "m" }],
    }],
  };
  const u = await estimateUsage(spec, {
    models: [{
      id: "m",
      baseURL: "http://127.0.0.1:9/v1",
      model: "x",
      maxTokens: 200,
      price: { inputPerMillion: 300, outputPerMillion: 600 },
    }],
    tokensOutPerCall: 500,
  });
  const m = u.byModel.m;
  // 15 depositors, one withdrawal call each.
  assertEquals([m.calls, m.tokensOutPerCall, m.tokensOutCapped, m.tokensOut], [
    15,
    200,
    true,
    3000,
  ]);
  assert(m.cost! <= m.maxCost! && m.cost! >= m.minCost!, JSON.stringify(m));
  assertEquals(m.cost, m.maxCost);
});

Deno.test("estimateUsage() counts every call of a replayed episode (a pilot's, through the cache) as cached, at no cost", async () => {
  const spec = {
    episodes: 2,
    blocks: [{
      game: "frail",
      envs: ["bank_run"],
      mechanisms: ["M0"],
      params: [{ horizon: 1 }],
      agents: [{ model: "m" }],
    }],
  };
  const models = [{
    id: "m",
    baseURL: "http://127.0.0.1:9/v1",
    model: "x",
    maxTokens: 100,
    price: { inputPerMillion: 300, outputPerMillion: 600 },
  }];
  const cache = await makeTempDir();
  try {
    const [first] = planGrid(spec).episodes;
    const all = await estimateUsage(spec, { models, cache, tokensOutPerCall: 50 });
    const some = await estimateUsage(spec, {
      models,
      cache,
      tokensOutPerCall: 50,
      replayed: new Set([first.id]),
    });
    // 15 depositors, one call each, in each of the 2 episodes.
    assertEquals([all.byModel.m.calls, all.byModel.m.cachedCalls], [30, 0]);
    assertEquals([some.byModel.m.calls, some.byModel.m.cachedCalls], [30, 15]);
    // The replayed episode's calls cost nothing: about half the cost is left.
    assert(
      some.cost! < all.cost! * 0.6 && some.cost! > all.cost! * 0.4,
      `${some.cost} ${all.cost}`,
    );
    assertEquals(some.byModel.m.tokensOutSource, "assumed");
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

// usageTable() and usageChart() on a grid played against the local model
// server: sums by model and condition against the runtime's own ledger and
// the configured price.
import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import { serveLocalModel } from "../../engine/agents/llm/server/local_server.ts";
import { LlmRuntime } from "../../engine/agents/llm/runtime.ts";
import { runGrid } from "../../engine/grid/run_grid.ts";
import { loadRuns, renderPng, renderSvg, usageChart, usageTable } from "../../analysis/mod.ts";
import * as root from "../../mod.ts";
import { tempDirRunner } from "./_temp_dir.ts";

const server = serveLocalModel();
const runtime = new LlmRuntime({
  models: [
    {
      id: "priced",
      baseURL: server.url,
      model: "coordlab-stay",
      testDouble: true,
      price: { inputPerMillion: 1_000, outputPerMillion: 2_000 },
    },
    { id: "free", baseURL: server.url, model: "coordlab-stay", testDouble: true },
  ],
});
let frames: Awaited<ReturnType<typeof loadRuns<"calls">>> | undefined;
let result: Awaited<ReturnType<typeof runGrid>> | undefined;
try {
  await tempDirRunner("coordlab_usage_")(async (out) => {
    result = await runGrid({
      episodes: 1,
      blocks: [{
        game: "frail",
        envs: ["bank_run"],
        mechanisms: ["M0", "M3"],
        params: [{ horizon: 2 }],
        agents: [{ model: "priced" }, { model: "free" }],
      }],
    }, { out, runtime, progress: false });
    frames = await loadRuns(out, { frames: ["calls"] });
  });
} finally {
  await server.close();
}
/** Costs are compared at 1e-9 (prices per thousand tokens are not exact in binary). */
function round9(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}

/** The runtime's own totals of a model's episodes (its ledger also holds preflight's probes). */
function ledgerOf(id: string) {
  const episodes = frames!.episodes.filter(pl.col("model").eq(pl.lit(`llm:${id}`)));
  const totals = (episodes.getColumn("episode").toArray() as string[]).map((e) =>
    runtime.ledger.episode(e)
  );
  const add = (k: "calls" | "tokensIn" | "tokensOut" | "tokensReasoning" | "cost") =>
    totals.reduce((n, t) => n + t[k], 0);
  return {
    calls: add("calls"),
    tokensIn: add("tokensIn"),
    tokensOut: add("tokensOut"),
    tokensReasoning: add("tokensReasoning"),
    cost: add("cost"),
  };
}

Deno.test("usageTable() sums calls, tokens and cost by model as the runtime's ledger does", () => {
  const table = usageTable(frames!);
  assert.deepEqual(table.columns, [
    "model_id",
    "currency",
    "calls",
    "cache_hits",
    "failed",
    "attempts",
    "tokens_in",
    "tokens_out",
    "tokens_reasoning",
    "unknown_tokens",
    "cost",
    "unpriced",
    "mean_latency_ms",
  ]);
  const rows = table.drop("mean_latency_ms").toRecords().map((r) => ({
    ...r,
    cost: r.cost === null ? null : round9(r.cost as number),
  }));
  const row = (id: string) => {
    const t = ledgerOf(id);
    return {
      model_id: id,
      currency: "USD",
      calls: t.calls,
      cache_hits: 0,
      failed: 0,
      attempts: t.calls,
      tokens_in: t.tokensIn,
      tokens_out: t.tokensOut,
      tokens_reasoning: t.tokensReasoning,
      unknown_tokens: 0,
    };
  };
  const priced = ledgerOf("priced");
  assert.deepEqual(rows, [
    { ...row("free"), cost: null, unpriced: 90 },
    { ...row("priced"), cost: (priced.tokensIn + 2 * priced.tokensOut) / 1000, unpriced: 0 },
    {
      ...row("priced"),
      model_id: "total",
      calls: result!.usage.calls,
      attempts: result!.usage.calls,
      tokens_in: result!.usage.tokensIn,
      tokens_out: result!.usage.tokensOut,
      tokens_reasoning: result!.usage.tokensReasoning,
      cost: null,
      unpriced: 90,
    },
  ]);
  assert.equal(round9(priced.cost), (priced.tokensIn + 2 * priced.tokensOut) / 1000);
  assert.deepEqual([priced.calls, priced.tokensIn, priced.tokensOut], [90, 80775, 2430]);
  assert.equal(round9(priced.cost), 85.635);
  assert.equal(table.getColumn("mean_latency_ms").nullCount(), 0);
});

Deno.test("usageTable() splits by condition keys, in the papers' order", () => {
  const table = usageTable(frames!, { by: ["model_id", "mechanism"] });
  const rounded = table.withColumns(pl.col("cost").round(9));
  assert.deepEqual(rounded.select("model_id", "mechanism", "calls", "tokens_in", "cost").rows(), [
    ["free", "M0", 30, 21210, null],
    ["free", "M3", 60, 59565, null],
    ["priced", "M0", 30, 21210, (21210 + 2 * 780) / 1000],
    ["priced", "M3", 60, 59565, (59565 + 2 * 1650) / 1000],
    ["total", null, 180, 2 * 80775, null],
  ]);
  const episodes = usageTable(frames!, { by: ["model", "mechanism"], totals: false });
  assert.deepEqual(episodes.select("model", "mechanism", "calls").rows(), [
    ["llm:free", "M0", 30],
    ["llm:free", "M3", 60],
    ["llm:priced", "M0", 30],
    ["llm:priced", "M3", 60],
  ]);
});

Deno.test("usageTable() names what it needs", () => {
  assert.throws(() => usageTable({}), {
    name: "RangeError",
    message:
      'usageTable() needs the calls frame: load it with loadRuns(dir, { frames: ["calls"] })',
  });
  assert.throws(() => usageTable(frames!, { by: ["seat"] }), {
    name: "RangeError",
    message: /^usageTable\(\) calls frame needs a column "seat"/,
  });
  assert.throws(() => usageTable(pl.DataFrame({ model_id: ["a"] })), {
    name: "RangeError",
    message: /^usageTable\(\) calls frame needs a column "status"/,
  });
});

Deno.test("usageChart() draws cost and tokens by model and mechanism, unknown cost as no price", async () => {
  const spec = usageChart(frames!, { by: ["mechanism"] });
  const svg = await renderSvg(spec);
  for (const label of ["free · M0", "free · M3", "priced · M0", "priced · M3"]) {
    assert.ok(svg.includes(`>${label}</text>`), label);
  }
  assert.equal(svg.split(">no price</text>").length - 1, 2);
  assert.ok(svg.includes(">estimated cost (USD)</text>") && svg.includes(">completion</text>"));
  const png = await renderPng(spec);
  assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]); // "PNG"
  assert.equal(root.usageChart, usageChart);
  assert.equal(root.usageTable, usageTable);
});

Deno.test("usageChart() labels a row without the condition (a game without a mechanism) as no mechanism, not null", async () => {
  const calls = pl.DataFrame({
    mechanism: ["M1", null],
    model_id: ["a", "a"],
    status: ["ok", "ok"],
    cache: ["miss", "miss"],
    attempts: [1, 1],
    tokens_in: [100, 80],
    tokens_out: [10, 8],
    tokens_reasoning: [0, 0],
    cost: [0.5, 0.25],
    latency_ms: [30, 20],
  });
  const svg = await renderSvg(usageChart(calls, { by: ["mechanism"] }));
  assert.ok(svg.includes(">a · M1</text>") && svg.includes(">a · no mechanism</text>"), svg);
  assert.ok(!svg.includes("null"));
  // A frame without a currency column records none, and the axis says so.
  assert.ok(svg.includes(">estimated cost (currency not recorded)</text>"));
});

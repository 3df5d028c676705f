// Costs carry their currency: two grids priced in different currencies
// (USD and CNY) under one folder load with a `currency` column on episodes
// and calls, taken from each grid's manifest; usageTable() sums each
// currency apart and usageChart() refuses to draw two on one axis. The
// column is kept through compaction and loads as null ("not recorded") from
// a log outside a grid and from a set compacted before it existed.
import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import { serveLocalModel } from "../../engine/agents/llm/server/local_server.ts";
import { LlmRuntime } from "../../engine/agents/llm/runtime.ts";
import { runGrid } from "../../engine/grid/run_grid.ts";
import { runEpisode } from "../../engine/run_episode.ts";
import { compactRun } from "../../analysis/load/compact.ts";
import {
  loadRuns,
  loadRunsLazy,
  renderSvg,
  usageChart,
  usageTable,
  writeRunsParquet,
} from "../../analysis/mod.ts";
import { makeTempDir } from "../_temp.ts";

const server = serveLocalModel();
const root = await makeTempDir({ prefix: "coordlab_currency_" });
const costs: Record<string, number> = {};
try {
  for (const currency of ["USD", "CNY"]) {
    const runtime = new LlmRuntime({
      currency,
      models: [{
        id: "priced",
        baseURL: server.url,
        model: "coordlab-stay",
        testDouble: true,
        price: { inputPerMillion: 1_000, outputPerMillion: 2_000 },
      }],
    });
    const result = await runGrid({
      name: currency.toLowerCase(),
      episodes: 1,
      blocks: [{
        game: "frail",
        envs: ["bank_run"],
        mechanisms: ["M0"],
        params: [{ horizon: 2 }],
        agents: [{ model: "priced" }],
      }],
    }, { out: `${root}/grids/${currency.toLowerCase()}`, runtime, progress: false });
    costs[currency] = result.usage.cost;
  }
} finally {
  await server.close();
}
const frames = await loadRuns(`${root}/grids`, { frames: ["calls"] });

/** Costs are compared at 1e-9 (prices per million tokens are not exact in binary). */
const round9 = (x: unknown) => x === null ? null : Math.round((x as number) * 1e9) / 1e9;

Deno.test("loadRuns() gives each episode and model call its grid's currency, after cost", () => {
  const { episodes, calls } = frames;
  const at = (df: pl.DataFrame) => df.columns.indexOf("currency") - df.columns.indexOf("cost");
  assert.equal(at(episodes), 1);
  assert.equal(at(calls), 1);
  const byRun = Object.fromEntries(
    episodes.select("run", "currency").rows().map(([run, code]) => [run, code]),
  );
  assert.deepEqual(Object.values(byRun).sort(), ["CNY", "USD"]);
  for (const [run, code] of Object.entries(byRun)) {
    const mine = calls.filter(pl.col("run").eq(pl.lit(run)));
    assert.ok(mine.height > 0);
    assert.deepEqual([...new Set(mine.getColumn("currency").toArray())], [code]);
  }
});

Deno.test("usageTable() sums each currency apart, with one totals row per currency", () => {
  const table = usageTable(frames);
  assert.ok(costs.USD > 0 && costs.CNY > 0);
  assert.deepEqual(
    table.select("model_id", "currency", "cost").rows().map(([m, c, x]) => [m, c, round9(x)]),
    [
      ["priced", "CNY", round9(costs.CNY)],
      ["priced", "USD", round9(costs.USD)],
      ["total", "CNY", round9(costs.CNY)],
      ["total", "USD", round9(costs.USD)],
    ],
  );
  // Grouped by currency alone, the groups are the totals.
  assert.deepEqual(usageTable(frames, { by: ["currency"] }).getColumn("currency").toArray(), [
    "CNY",
    "USD",
  ]);
});

Deno.test("usageChart() refuses calls in two currencies and names the axis's one", async () => {
  assert.throws(() => usageChart(frames), {
    name: "RangeError",
    message: /^usageChart\(\): the calls' costs are in 2 currencies \(CNY, USD\)/,
  });
  const cny = frames.calls.filter(pl.col("currency").eq(pl.lit("CNY")));
  const svg = await renderSvg(usageChart(cny));
  assert.ok(svg.includes(">estimated cost (CNY)</text>"), svg);
  // An unrecorded currency beside a known one is two currencies, not one.
  const mixed = pl.concat([
    cny,
    cny.withColumn(pl.lit(null).cast(pl.Utf8).alias("currency")),
  ]);
  assert.throws(() => usageChart(mixed), { message: /\(CNY, not recorded\)/ });
});

Deno.test("the currency is kept through compaction, eager and lazy", async () => {
  const r = await compactRun(`${root}/grids`, { out: `${root}/compacted` });
  for (const back of [await loadRuns(r.out), await loadRunsLazy(r.out)]) {
    const collect = (df: pl.DataFrame | pl.LazyDataFrame) =>
      "collectSync" in df ? df.collectSync() : df;
    const episodes = collect(back.episodes).sort("run");
    const calls = collect(back.calls!).sort("run");
    assert.deepEqual(episodes.getColumn("currency").toArray(), ["CNY", "USD"]);
    assert.deepEqual(
      [...new Set(calls.getColumn("currency").toArray())].sort(),
      ["CNY", "USD"],
    );
  }
});

Deno.test("a set compacted before costs carried a currency loads it as null, not a guess", async () => {
  const old = `${root}/old-set`;
  await writeRunsParquet({
    episodes: frames.episodes.drop("currency"),
    calls: frames.calls.drop("currency"),
  }, old);
  const eager = await loadRuns(old, { frames: ["calls"] });
  const lazy = await loadRunsLazy(old, { frames: ["calls"] });
  for (
    const df of [
      eager.episodes,
      eager.calls,
      lazy.episodes.collectSync(),
      lazy.calls!.collectSync(),
    ]
  ) {
    assert.equal(df.columns.indexOf("currency") - df.columns.indexOf("cost"), 1);
    assert.equal(df.getColumn("currency").nullCount(), df.height);
  }
  const table = usageTable(eager);
  assert.deepEqual(table.select("model_id", "currency").rows(), [["priced", null], [
    "total",
    null,
  ]]);
  assert.equal(round9(table.getColumn("cost").get(1)), round9(costs.USD + costs.CNY));
});

Deno.test("a log outside a grid's folder records no currency", async () => {
  const dir = `${root}/episode`;
  await runEpisode({ env: "bank_run", mechanism: "M0", seed: 1, run: "solo", outDir: dir });
  const { episodes, calls } = await loadRuns(dir, { frames: ["calls"] });
  assert.deepEqual(episodes.getColumn("currency").toArray(), [null]);
  assert.equal(calls.getColumn("currency").nullCount(), calls.height);
});

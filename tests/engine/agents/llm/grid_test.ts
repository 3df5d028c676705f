import { assert, assertEquals } from "../../../_assert.ts";
import { serveLocalModel } from "../../../../engine/agents/llm/server/local_server.ts";
import { LlmRuntime, PROBE_EPISODE } from "../../../../engine/agents/llm/runtime.ts";
import { mockPopulation } from "../../../../engine/agents/mock/population.ts";
import { mockStagHuntPlayers } from "../../../../engine/games/staghunt/mock.ts";
import { estimateUsage } from "../../../../engine/grid/estimate.ts";
import { readManifest } from "../../../../engine/grid/manifest.ts";
import { planGrid } from "../../../../engine/grid/plan.ts";
import { formatProgress, type GridProgress } from "../../../../engine/grid/progress.ts";
import { runGrid } from "../../../../engine/grid/run_grid.ts";
import { childSpec } from "./_helpers.ts";
import { makeTempDir } from "../../../_temp.ts";

Deno.test("runGrid() sends no request past its token budget, abandons the episode that needed one, says so, and resumes", async () => {
  const server = serveLocalModel();
  try {
    const runtime = new LlmRuntime({
      models: [{
        id: "local",
        baseURL: server.url,
        model: "coordlab-stay",
        testDouble: true,
        maxTokens: 50,
      }],
    });
    const out = await makeTempDir();
    const lines: string[] = [];
    let closing: string | undefined;
    const result = await runGrid(childSpec(1), {
      out,
      runtime,
      concurrency: 1,
      budget: { maxTokens: 10_000 },
      progress: {
        update: (p) => lines.push(formatProgress(p)),
        finish: (p, m) => (lines.push(formatProgress(p)), closing = m),
      },
    });
    // The first episode needs more than 10,000 tokens: the request that would
    // pass the limit is not sent, and the episode is abandoned (no log).
    assertEquals([result.played, result.remaining, result.interrupted], [0, 4, true]);
    assertEquals(result.stoppedBy, "budget");
    assert(
      result.stopped!.startsWith(
        'Token budget reached: the next request to model "local" may bill up to ',
      ),
      result.stopped!,
    );
    const spent = result.spend!.spent.total;
    assert(spent.tokens <= 10_000 && spent.tokens > 0, String(spent.tokens));
    // The spend counts preflight's request too.
    const probe = runtime.ledger.episode(PROBE_EPISODE).billedTokens;
    assertEquals(result.usage.billedTokens + probe, spent.tokens);
    assert(lines.at(-1)!.includes("STOPPED: Token budget reached"), lines.at(-1)!);
    assert(closing!.startsWith(`Stopped: Token budget reached: `), closing);
    assert(
      closing!.endsWith(
        `0 of 4 episodes finished in ${out}; run the same spec on the same folder to resume.`,
      ),
    );
    // The network saw the grid's requests and preflight's one test request.
    assertEquals(spent.requests, server.stats().chat);
    assertEquals(result.usage.calls + 1, server.stats().chat);
    const manifest = (await readManifest(out))!;
    assertEquals([manifest.status, manifest.sessions[0].stopped], ["interrupted", result.stopped]);
    // Run again without a budget (the same runtime: its budget halt was lifted): all 4 are played.
    const rest = await runGrid(childSpec(1), { out, runtime, progress: false });
    assertEquals([rest.skipped, rest.played, rest.stopped, rest.remaining], [0, 4, null, 0]);
    assertEquals((await readManifest(out))!.status, "complete");
  } finally {
    await server.close();
  }
});

Deno.test("runGrid() progress says when LLM calls wait on a rate limit or for a retry", async () => {
  const server = serveLocalModel({ faults: { rateLimit: 0.3 }, retryAfterMs: 1 });
  try {
    const runtime = new LlmRuntime({
      models: [{
        id: "local",
        baseURL: server.url,
        model: "coordlab-stay",
        testDouble: true,
        requestsPerMinute: 20,
      }],
      // A minute-long rate-limit wait passes in 2 ms here.
      sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 2))),
    });
    const lines = new Set<string>();
    const seen: GridProgress[] = [];
    await runGrid({
      episodes: 1,
      blocks: [{
        game: "frail",
        envs: ["bank_run"],
        mechanisms: ["M0"],
        params: [{ horizon: 2 }],
        agents: [{ model: "local" }],
      }],
    }, {
      out: await makeTempDir(),
      runtime,
      progress: {
        update: (p) => (lines.add(formatProgress(p)), seen.push(p)),
        finish: (p) => lines.add(formatProgress(p)),
      },
    });
    const all = [...lines].join("\n");
    assert(all.includes("waiting on rate limit: "), all);
    assert(/retrying: \d+ \(last: 429 from "local"/.test(all), all);
    assert(seen.some((p) => p.running === 1 && p.runtime !== null && p.runtime.inFlight > 0));
  } finally {
    await server.close();
  }
});

Deno.test("estimateUsage() counts the same calls and prompt tokens a real run sends, with no request", async () => {
  const server = serveLocalModel({ seed: 6 });
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
      name: "dry",
      seed: 6,
      episodes: 1,
      blocks: [
        {
          game: "frail",
          envs: ["bank_run", "crowdfunding"],
          mechanisms: ["M1", "M3"],
          agents: [{ model: "local" }],
        },
        { game: "staghunt", N: [5], M: [3], T: [2], F: [2], agents: [{ model: "local" }] },
      ],
    };
    // The served model plays the mock rules with the server's seed (6); so do the stand-ins.
    const plan = await estimateUsage(planGrid(spec).episodes, {
      models,
      standIn: (ep) =>
        ep.condition.game === "frail"
          ? mockPopulation({ seed: 6 })
          : mockStagHuntPlayers({ seed: 6 }),
    });
    assertEquals(server.stats().requests, 0);
    const runtime = new LlmRuntime({ models });
    const real = await runGrid(spec, {
      out: await makeTempDir(),
      runtime,
      preflight: false,
      progress: false,
    });
    assertEquals([plan.llmEpisodes, real.played, real.failed.length], [5, 5, 0]);
    assertEquals(plan.llmCalls, real.usage.calls);
    assertEquals(plan.tokensIn, real.usage.tokensIn);
    assertEquals(plan.maxTokensOut, plan.llmCalls * 1000);
    assertEquals(plan.minCost, plan.tokensIn * 2 / 1e6);
    assertEquals(plan.maxCost, (plan.tokensIn * 2 + plan.llmCalls * 1000 * 8) / 1e6);
    assert(real.usage.cost > plan.minCost! && real.usage.cost < plan.maxCost!);
  } finally {
    await server.close();
  }
});

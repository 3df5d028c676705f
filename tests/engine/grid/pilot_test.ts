// A pilot plays a few episodes for real, spread over the models, measures
// their completions, and never spends past --max-cost.
import { assert, assertEquals, assertRejects } from "../../_assert.ts";
import { LlmRuntime } from "../../../engine/agents/llm/runtime.ts";
import { serveLocalModel } from "../../../engine/agents/llm/server/local_server.ts";
import { estimateUsage } from "../../../engine/grid/estimate.ts";
import { pilotEpisodes, runPilot } from "../../../engine/grid/pilot.ts";
import { planGrid } from "../../../engine/grid/plan.ts";
import { readRunEpisodes } from "../../../engine/grid/segments.ts";
import { ROOT } from "./_grid_fixture.ts";
import { makeTempDir } from "../../_temp.ts";

const SPEC = {
  name: "pilot",
  episodes: 3,
  blocks: [{
    game: "frail",
    envs: ["bank_run"],
    mechanisms: ["M0", "M1"],
    agents: [{ model: "a" }, { model: "b" }],
  }],
};

const models = (url: string) => [
  {
    id: "a",
    baseURL: url,
    model: "coordlab-defensive",
    testDouble: true,
    maxTokens: 300,
    price: { inputPerMillion: 1, outputPerMillion: 4 },
  },
  {
    id: "b",
    baseURL: url,
    model: "coordlab-stay",
    testDouble: true,
    maxTokens: 300,
    price: { inputPerMillion: 2, outputPerMillion: 8 },
  },
];

Deno.test("pilotEpisodes() takes each model's first episode before any model's second", () => {
  const episodes = planGrid(SPEC).episodes;
  const of = (model: string) =>
    episodes.filter((e) => e.agents.kind === "model" && e.agents.model === model).map((e) => e.id);
  const ids = pilotEpisodes(episodes, 3).map((e) => e.id);
  assertEquals(ids, [of("a")[0], of("b")[0], of("a")[1]]);
  assertEquals(ids[0], "bank_run_M0_stable_a_e0");
  assertEquals(pilotEpisodes(planGrid(SPEC).episodes, 99).length, 12);
});

Deno.test("runPilot() plays its episodes for real and measures each model's completions from the replies", async () => {
  const server = serveLocalModel();
  const dir = await makeTempDir();
  try {
    const runtime = new LlmRuntime({ models: models(server.url) });
    const r = await runPilot(planGrid(SPEC).episodes, { runtime, count: 2, dir });
    assertEquals(r.episodes, ["bank_run_M0_stable_a_e0", "bank_run_M0_stable_b_e0"]);
    assertEquals(r.stopped, null);
    const logged = await readRunEpisodes(dir);
    assertEquals(logged.size, 2);
    // The measure is the logged calls' completion tokens, by model.
    const events = [...logged.values()].flat()
      .filter((e) => e.type === "llm_call") as unknown as Record<string, number & string>[];
    const sum = (model: string, f: string) =>
      events.filter((e) => e.model === model).reduce((n, e) => n + e[f], 0);
    const count = (model: string) => events.filter((e) => e.model === model).length;
    assertEquals(r.byModel, {
      a: { calls: count("a"), tokensOut: sum("a", "tokens_out") },
      b: { calls: count("b"), tokensOut: sum("b", "tokens_out") },
    });
    assertEquals([r.calls, r.finishedCalls], [events.length, events.length]);
    assertEquals(r.spent, events.reduce((n, e) => n + e.cost, 0));
    assertEquals(server.stats().chat, events.length);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runPilot() stops before a call --max-cost cannot cover, having counted every reply", async () => {
  const server = serveLocalModel();
  const dir = await makeTempDir();
  try {
    const runtime = new LlmRuntime({ models: models(server.url) });
    const r = await runPilot(planGrid(SPEC).episodes, { runtime, count: 4, dir, maxCost: 0.02 });
    assert(r.stopped !== null && r.stopped.startsWith("Pilot stopped in episode "), r.stopped!);
    assert(r.stopped.includes("of --max-cost 0.02 is spent or reserved"), r.stopped);
    assert(r.spent <= 0.02 && r.spent > 0, String(r.spent));
    assert(r.calls > 0);
    // Every call sent was answered and counted; the stopped episode left no log.
    assertEquals(r.calls, server.stats().chat);
    assertEquals((await readRunEpisodes(dir)).size, r.episodes.length);
    await assertRejects(
      () =>
        runPilot(planGrid(SPEC).episodes, {
          runtime: new LlmRuntime({
            models: models(server.url).map((m) => ({ ...m, price: null })),
          }),
          count: 1,
          dir,
          maxCost: 1,
        }),
      RangeError,
      'A pilot with --max-cost needs a price for every model, and model "a" has none',
    );
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task grid --dry-run --pilot prints what the pilot spent and prices completions from it", async () => {
  const key = "sk-pilot";
  const server = serveLocalModel({ apiKey: key });
  const dir = await makeTempDir({ prefix: "coordlab-pilot-test-" });
  try {
    await Deno.writeTextFile(`${dir}/spec.json`, JSON.stringify(SPEC));
    await Deno.writeTextFile(
      `${dir}/models.json`,
      JSON.stringify({
        currency: "EUR",
        models: models(server.url).map((m) => ({ ...m, apiKeyEnv: "PILOT_TEST_KEY" })),
      }),
    );
    const ran = await new Deno.Command(Deno.execPath(), {
      args: [
        "task",
        "--quiet",
        "grid",
        "--spec",
        `${dir}/spec.json`,
        "--models",
        `${dir}/models.json`,
        "--cache",
        `${dir}/cache`,
        "--dry-run",
        "--pilot",
        "2",
        "--max-cost",
        "5",
      ],
      cwd: ROOT,
      // TMPDIR: the pilot's logs (kept: they were paid for) go in the test's folder.
      env: { PILOT_TEST_KEY: key, NO_COLOR: "1", TMPDIR: dir },
      stdout: "piped",
      stderr: "piped",
    }).output();
    // Long lines are wrapped at spaces, with an indent.
    const out = new TextDecoder().decode(ran.stdout).replaceAll("\n  ", " ");
    assertEquals(ran.code, 0, out + new TextDecoder().decode(ran.stderr));
    const calls = server.stats().chat;
    assert(
      out.startsWith(
        `Pilot: 2 of 2 episodes played for real, ${calls} model calls (0 from the cache), spent `,
      ),
      out,
    );
    assert(/ spent \d+\.\d+ EUR; their logs are in /.test(out), out);
    assert(out.includes(`their logs are in ${dir}/coordlab-pilot-`), out);
    assert(/\n\s*a\s.* pilot \(\d+\)/.test(out), out);
    assert(/\n\s*b\s.* pilot \(\d+\)/.test(out), out);
    assert(out.includes("Completion tokens per call (mean): measured by the pilot for a, b"), out);
    const stood = await estimateUsage(pilotEpisodes(planGrid(SPEC).episodes, 2));
    assert(
      out.includes(
        `The pilot's 2 finished episodes made ${calls} model calls, where the stand-ins below ` +
          `count ${stood.llmCalls}: the real run's calls may differ from the estimate as much.`,
      ),
      out,
    );
    // Its replies are in the cache: their first-round calls count as held.
    assert(/Cache .*cache: holds [1-9]/.test(out), out);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

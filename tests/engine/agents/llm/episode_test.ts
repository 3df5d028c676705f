import { assert, assertEquals } from "../../../_assert.ts";
import { serveLocalModel } from "../../../../engine/agents/llm/server/local_server.ts";
import { LlmRuntime } from "../../../../engine/agents/llm/runtime.ts";
import { llmPopulation } from "../../../../engine/agents/llm/llm_agent.ts";
import { playEpisode } from "../../../../engine/core/episode.ts";
import { replayWith } from "../../../../engine/core/replay.ts";
import { bankRunGame } from "../../../../engine/games/bank_run/descriptor.ts";
import { frailSetup } from "../../../../engine/frail/descriptor.ts";
import { bankRun } from "../../../../engine/games/bank_run/environment.ts";
import { mockPopulation } from "../../../../engine/agents/mock/population.ts";
import { MECHANISMS } from "../../../../engine/frail/types.ts";
import { GAMES } from "./_games.ts";

Deno.test("bank-run episodes under M0-M3 through the openai SDK reproduce the mock agents' state hashes and replay", async () => {
  const seed = 3;
  const server = serveLocalModel({ seed });
  try {
    const runtime = new LlmRuntime({
      models: [{
        id: "local",
        baseURL: server.url,
        model: "coordlab-defensive",
        testDouble: true,
        concurrency: 32,
      }],
    });
    for (const mechanism of MECHANISMS) {
      const options = {
        ...frailSetup(bankRunGame, { mechanism, regime: "stable" }),
        seed,
        hashes: true,
      };
      const llm = await playEpisode(bankRun, {
        ...options,
        agents: llmPopulation({ runtime, env: "bank_run", models: "local", sample: seed }),
      });
      const mock = await playEpisode(bankRun, { ...options, agents: mockPopulation({ seed }) });
      assertEquals(llm.hashes, mock.hashes, mechanism);
      assertEquals(llm.outcome, mock.outcome, mechanism);
      const replay = await replayWith(bankRun, llm.events);
      assertEquals([replay.ok, replay.hashes], [true, llm.hashes], mechanism);
      const calls = llm.events.filter((e) => e.type === "llm_call");
      const reports = llm.events.filter((e) => e.type === "report");
      assertEquals(calls.length, reports.length, mechanism);
      assert(
        calls.every((c) => c.type === "llm_call" && c.status === "ok" && c.reasoning !== null),
      );
      const start = llm.events[0];
      assert(start.type === "episode_start" && start.agents.every((a) => a.policy === "llm:local"));
    }
    // M0 (seed 3) fails in round 6; M1-M3 survive all 12 rounds: 78 + 372 + 372 + 344 calls.
    assertEquals(server.stats().chat, 78 + 372 + 372 + 344);
    assertEquals(runtime.ledger.run().calls, server.stats().chat);
  } finally {
    await server.close();
  }
});

Deno.test("debt-rollover and crowdfunding episodes under M0-M3 and a Stag Hunt episode through the openai SDK match the mocks and replay", async () => {
  for (const game of GAMES.filter((g) => g.id !== "bank_run")) {
    for (const seed of [1, 2]) {
      const server = serveLocalModel({ seed });
      try {
        const runtime = new LlmRuntime({
          models: [{
            id: "local",
            baseURL: server.url,
            model: "coordlab-defensive",
            testDouble: true,
            concurrency: 32,
          }],
        });
        for (const setup of game.setups) {
          const options = { ...setup, seed, hashes: true };
          const mechanism = setup.condition.id;
          const llm = await playEpisode(game.env, {
            ...options,
            agents: llmPopulation({ runtime, env: game.id, models: "local", sample: seed }),
          });
          const mock = await playEpisode(game.env, { ...options, agents: game.mocks(seed) });
          const label = `${game.id} ${mechanism} seed ${seed}`;
          assertEquals(llm.hashes, mock.hashes, label);
          assertEquals(llm.outcome, mock.outcome, label);
          assertEquals((await replayWith(game.env, llm.events)).ok, true, label);
          assertEquals(llm.events.filter((e) => e.type === "correction").length, 0, label);
        }
        assertEquals(runtime.ledger.run().calls, server.stats().chat);
      } finally {
        await server.close();
      }
    }
  }
});

Deno.test("llmPopulation() plays a heterogeneous episode with one model per role", async () => {
  const server = serveLocalModel();
  try {
    const runtime = new LlmRuntime({
      models: [
        { id: "stay", baseURL: server.url, model: "coordlab-stay", testDouble: true },
        { id: "defensive", baseURL: server.url, model: "coordlab-defensive", testDouble: true },
      ],
    });
    const played = await playEpisode(bankRun, {
      ...frailSetup(bankRunGame, { mechanism: "M1", regime: "stable" }),
      seed: 2,
      agents: llmPopulation({
        runtime,
        env: "bank_run",
        models: { default: "stay", roles: { bank: "defensive" }, agents: { dep_15: "defensive" } },
      }),
    });
    const start = played.events[0];
    assert(start.type === "episode_start");
    const policies = Object.fromEntries(start.agents.map((a) => [a.id, a.policy]));
    assertEquals([policies.bank, policies.dep_01, policies.dep_15], [
      "llm:defensive",
      "llm:stay",
      "llm:defensive",
    ]);
    const byModel = runtime.ledger.models();
    assertEquals(byModel.get("defensive")!.calls, 12 + 24); // the bank's 12 offer calls, dep_15's 24 calls
    assert(played.outcome.success);
  } finally {
    await server.close();
  }
});

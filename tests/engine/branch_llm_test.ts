// A branch of an LLM episode against the local OpenAI-compatible server:
// the rounds before the branch round are taken from the parent's log (no
// request reaches the server for them), the rounds after it go through the
// response cache, so an empty change with the same models replays the parent
// from the cache, request for request.
import assert from "node:assert/strict";
import { llmPopulation } from "../../engine/agents/llm/llm_agent.ts";
import { LlmRuntime } from "../../engine/agents/llm/runtime.ts";
import { serveLocalModel } from "../../engine/agents/llm/server/local_server.ts";
import { branchEpisode } from "../../engine/branch_episode.ts";
import { replayEpisode, runEpisode } from "../../engine/run_episode.ts";
import { makeTempDir } from "../_temp.ts";

Deno.test({
  name:
    "a branch of an LLM episode asks the model nothing before its round and hits the cache after it",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = serveLocalModel({ seed: 1 });
    let requests = 0;
    const proxy = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      const body = req.method === "POST" ? await req.text() : undefined;
      if (body !== undefined) requests++;
      const res = await fetch(`${new URL(server.url).origin}${new URL(req.url).pathname}`, {
        method: req.method,
        headers: { "content-type": "application/json" },
        body,
      });
      return new Response(await res.text(), {
        status: res.status,
        headers: { "content-type": "application/json" },
      });
    });
    const cacheDir = await makeTempDir({ prefix: "branch_llm_" });
    try {
      const runtime = new LlmRuntime({
        cacheDir,
        models: [{
          id: "local",
          baseURL: `http://127.0.0.1:${proxy.addr.port}/v1`,
          model: "coordlab-defensive",
          testDouble: true,
          concurrency: 4,
        }],
      });
      const agents = () => llmPopulation({ runtime, env: "bank_run", models: "local", sample: 1 });
      const parent = await runEpisode({
        env: "bank_run",
        mechanism: "M0",
        seed: 1,
        agents: agents(),
        ndjson: true,
        episode: "parent",
      });
      const calls = (events: typeof parent.events, from = 1) =>
        events.filter((e) => e.type === "llm_call" && e.round >= from) as {
          cache: string;
          round: number;
        }[];
      const paid = requests;
      assert.equal(paid, calls(parent.events).length);
      assert.ok(paid > 0);
      const b = await branchEpisode(parent.events, {
        atRound: 3,
        change: {},
        agents: agents(),
        episode: "branch",
      });
      // Nothing reached the server: rounds 1-2 come from the log, the rest from the cache.
      assert.equal(requests, paid);
      assert.deepEqual(b.hashes, parent.hashes);
      const own = calls(b.events);
      assert.equal(own.length, calls(parent.events, 3).length);
      assert.equal(Math.min(...own.map((c) => c.round)), 3);
      assert.ok(own.every((c) => c.cache === "hit"));
      assert.equal((await replayEpisode(b.events)).ok, true);
    } finally {
      await proxy.shutdown();
      await server.close();
      await Deno.remove(cacheDir, { recursive: true });
    }
  },
});

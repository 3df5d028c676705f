import { assert, assertEquals, assertRejects } from "../../../_assert.ts";
import { serveLocalModel } from "../../../../engine/agents/llm/server/local_server.ts";
import { LlmRuntime } from "../../../../engine/agents/llm/runtime.ts";
import { LlmPreflightError, preflight } from "../../../../engine/agents/llm/preflight.ts";
import { runGrid } from "../../../../engine/grid/run_grid.ts";
import { filesUnder } from "./_helpers.ts";
import { makeTempDir } from "../../../_temp.ts";

async function closedPort(): Promise<number> {
  const s = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response(),
  );
  const port = s.addr.port;
  await s.shutdown();
  return port;
}

Deno.test("preflight() names a missing key, an unreachable base URL, an unknown model and a rejected key in one error", async () => {
  const server = serveLocalModel({ apiKey: "sk-good-1111" });
  const port = await closedPort();
  try {
    const env: Record<string, string> = { GOOD: "sk-good-1111", BAD: "sk-bad-2222" };
    const runtime = new LlmRuntime({
      models: [
        {
          id: "ok",
          baseURL: server.url,
          model: "coordlab-stay",
          testDouble: true,
          apiKeyEnv: "GOOD",
        },
        {
          id: "nokey",
          baseURL: server.url,
          model: "coordlab-stay",
          testDouble: true,
          apiKeyEnv: "MISSING",
        },
        { id: "down", baseURL: `http://127.0.0.1:${port}/v1`, model: "x" },
        { id: "typo", baseURL: server.url, model: "coordlab-stya", apiKeyEnv: "GOOD" },
        {
          id: "badkey",
          baseURL: server.url,
          model: "coordlab-stay",
          testDouble: true,
          apiKeyEnv: "BAD",
        },
      ],
      readEnv: (name) => env[name],
    });
    const err = await assertRejects(
      () => preflight(runtime),
      LlmPreflightError,
    ) as LlmPreflightError;
    assertEquals(err.problems.map((p) => [p.model, p.kind]), [
      ["nokey", "missing_key"],
      ["down", "unreachable"],
      ["typo", "unknown_model"],
      ["badkey", "rejected_key"],
    ]);
    assert(
      err.message.startsWith("LLM preflight failed, so no episode was started:\n- "),
      err.message,
    );
    const provider = `127.0.0.1:${server.port}`;
    assert(
      err.message.includes(
        `Model "nokey" (provider "${provider}"): the API key variable MISSING is not set`,
      ),
      err.message,
    );
    assert(
      err.message.includes(
        `Model "down" (provider "127.0.0.1:${port}"): cannot reach http://127.0.0.1:${port}/v1`,
      ),
      err.message,
    );
    assert(
      err.message.includes(
        'does not serve "coordlab-stya" (it serves "coordlab-defensive", "coordlab-stay", "coordlab-run")',
      ),
      err.message,
    );
    assert(
      !err.message.includes("sk-bad-2222") && !err.message.includes("sk-good-1111"),
      err.message,
    );
    // Only the model that passed every other check was sent its test chat request.
    assertEquals(server.stats().chat, 1);
    await preflight(runtime, { models: ["ok"] });
    assertEquals(server.stats().chat, 2);
  } finally {
    await server.close();
  }
});

Deno.test("runGrid() fails before any episode starts, or any file is written, when preflight finds a problem", async () => {
  const server = serveLocalModel();
  try {
    const runtime = new LlmRuntime({
      models: [{ id: "x", baseURL: server.url, model: "gpt-nope" }],
    });
    const outDir = await makeTempDir();
    await assertRejects(
      () =>
        runGrid({
          episodes: 1,
          blocks: [{
            game: "frail",
            envs: ["bank_run"],
            mechanisms: ["M0"],
            agents: [{ model: "x" }],
          }],
        }, { out: outDir, runtime, progress: false }),
      LlmPreflightError,
      'does not serve "gpt-nope"',
    );
    assertEquals([server.stats().chat, (await filesUnder(outDir)).length], [0, 0]);
  } finally {
    await server.close();
  }
});

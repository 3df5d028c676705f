import { assert, assertEquals } from "../../../_assert.ts";
import { bankRunGame } from "../../../../engine/games/bank_run/descriptor.ts";
import { frailSetup } from "../../../../engine/frail/descriptor.ts";
import { LlmRuntime } from "../../../../engine/agents/llm/runtime.ts";
import { llmAgent } from "../../../../engine/agents/llm/llm_agent.ts";
import type { ChatMessage } from "../../../../engine/agents/llm/prompts/template.ts";
import { AgentReply, playEpisode } from "../../../../engine/core/episode.ts";
import type { CallRequest } from "../../../../engine/core/environment.ts";
import type { LlmCallRecord } from "../../../../engine/core/events.ts";
import { replayWith } from "../../../../engine/core/replay.ts";
import { bankRun } from "../../../../engine/games/bank_run/environment.ts";
import { depositorView } from "../../../../engine/games/bank_run/views.ts";
import { initialBankRunState } from "../../../../engine/games/bank_run/state.ts";
import { parseBankRunParams } from "../../../../engine/games/bank_run/params.ts";
import { openStream } from "../../../../engine/core/rng.ts";
import { filesUnder, scriptedServer } from "./_helpers.ts";
import { makeTempDir } from "../../../_temp.ts";

const messages: ChatMessage[] = [{ role: "user", content: "decide" }];
const good = '{"withdraw_probability": 15, "reasoning": "calm"}';

function runtimeFor(
  url: string,
  over: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) {
  const waits: number[] = [];
  const runtime = new LlmRuntime({
    models: [{
      id: "m",
      baseURL: url,
      model: "m",
      backoffMs: 100,
      maxBackoffMs: 1000,
      timeoutMs: 2000,
      ...over,
    }],
    random: () => 0,
    sleep: (ms) => (waits.push(ms), Promise.resolve()),
    ...extra,
  });
  return { runtime, waits };
}

Deno.test("LlmRuntime.complete() retries 429 and 5xx, honouring Retry-After, and records every failed attempt", async () => {
  const server = scriptedServer([
    { status: 429, headers: { "retry-after-ms": "750" } },
    { status: 500 },
    { status: 503 },
    { status: 200, content: good, reasoning: "thinking" },
  ]);
  try {
    const { runtime, waits } = runtimeFor(server.url);
    const r = await runtime.complete("m", messages);
    assertEquals([r.status, r.attempts, r.content, r.reasoning], ["ok", 4, good, "thinking"]);
    assertEquals(r.failures.map((f) => [f.kind, f.status, f.wait_ms]), [
      ["rate_limit", 429, 750],
      ["server_error", 500, 100], // retry 2: 100 x 2^1 x 0.5
      ["server_error", 503, 200],
    ]);
    assertEquals(waits, [750, 100, 200]);
    assertEquals([r.tokens_in, r.tokens_out, r.tokens_reasoning], [11, 7, 3]);
    assertEquals(server.requests(), 4);
  } finally {
    await server.close();
  }
});

Deno.test("LlmRuntime.complete() gives up after maxRetries timeouts with an error record, never a throw", async () => {
  const server = scriptedServer([{ hang: true }]);
  try {
    const { runtime } = runtimeFor(server.url, { timeoutMs: 60, maxRetries: 1 });
    const r = await runtime.complete("m", messages);
    assertEquals([r.status, r.attempts, r.content], ["error", 2, null]);
    assertEquals(r.failures.map((f) => [f.kind, f.wait_ms === null]), [["timeout", false], [
      "timeout",
      true,
    ]]);
    assert(r.error!.startsWith("timeout after 2 attempts"), r.error!);
    assertEquals(runtime.ledger.run().failedCalls, 1);
  } finally {
    await server.close();
  }
});

Deno.test("LlmRuntime.complete() does not retry a 400 and reports it", async () => {
  const server = scriptedServer([{ status: 400 }, { status: 200, content: good }]);
  try {
    const { runtime } = runtimeFor(server.url);
    const r = await runtime.complete("m", messages);
    assertEquals([r.status, r.attempts, server.requests()], ["error", 1, 1]);
    assertEquals(r.error, "client_error 400: 400 scripted 400");
  } finally {
    await server.close();
  }
});

Deno.test("LlmRuntime.complete() answers a repeated request from the cache without a network call", async () => {
  const server = scriptedServer([{ status: 200, content: good }]);
  try {
    const dir = await makeTempDir();
    const first = runtimeFor(server.url, {}, { cacheDir: dir }).runtime;
    const a = await first.complete("m", messages, { sample: 2 });
    const second = runtimeFor(server.url, {}, { cacheDir: dir }).runtime;
    const b = await second.complete("m", messages, { sample: 2 });
    assertEquals([a.cache, b.cache, b.attempts, b.content, b.cost], ["miss", "hit", 0, good, 0]);
    assertEquals(server.requests(), 1);
    const c = await second.complete("m", messages, { sample: 3 });
    assertEquals([c.cache, server.requests()], ["miss", 2]);
    assertEquals(second.cache!.stats(), { hits: 1, misses: 1, writes: 1, mismatched: 0 });
    assertEquals((await filesUnder(dir)).length, 2);
  } finally {
    await server.close();
  }
});

Deno.test("LlmRuntime.complete() redacts the key from errors a provider echoes and marks the run fatal", async () => {
  const key = "sk-test-REDACT-ME-9876";
  const echo = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    await req.body?.cancel();
    const message = `Incorrect API key provided: ${req.headers.get("authorization")}`;
    return Response.json({ error: { message } }, { status: 401 });
  });
  try {
    const url = `http://127.0.0.1:${echo.addr.port}/v1`;
    const { runtime } = runtimeFor(url, { apiKeyEnv: "K" }, { readEnv: () => key });
    const r = await runtime.complete("m", messages);
    assertEquals(r.status, "error");
    assert(!JSON.stringify(r).includes(key), JSON.stringify(r));
    assert(r.error!.includes("Bearer [redacted]"), r.error!);
    assert(runtime.status().fatal!.includes("[redacted]"));
  } finally {
    await echo.shutdown();
  }
});

Deno.test("LlmRuntime.complete() records a missing key as a failed call without any request", async () => {
  const server = scriptedServer([{ status: 200, content: good }]);
  try {
    const { runtime } = runtimeFor(server.url, { apiKeyEnv: "NOT_SET" }, {
      readEnv: () => undefined,
    });
    const r = await runtime.complete("m", messages);
    assertEquals([r.status, r.attempts, server.requests()], ["error", 0, 0]);
    assertEquals(r.error, 'The API key variable NOT_SET of model "m" is not set');
  } finally {
    await server.close();
  }
});

class CapturingRuntime extends LlmRuntime {
  sent: ChatMessage[][] = [];
  override complete(_model: string, m: readonly ChatMessage[]): Promise<LlmCallRecord> {
    this.sent.push([...m]);
    return Promise.resolve({ content: good, status: "ok", error: null } as LlmCallRecord);
  }
}

Deno.test("llmAgent() sends what the template renders from the view, whatever else the request carries", async () => {
  const runtime = new CapturingRuntime({
    models: [{ id: "m", baseURL: "http://127.0.0.1:9/v1", model: "m" }],
  });
  const agent = llmAgent({ runtime, model: "m", env: "bank_run" });
  const s = initialBankRunState(
    parseBankRunParams({}),
    "M0",
    openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }),
  );
  const view = depositorView(s, "dep_01");
  const base = {
    agent: "dep_01",
    role: "depositor",
    call: "withdrawal",
    round: 1,
    step: "financial",
    view,
  };
  const reply = await agent.decide(base as CallRequest) as AgentReply;
  await agent.decide({ ...base, round: 9, agent: "dep_09", step: "other" } as CallRequest);
  assertEquals(runtime.sent[0], runtime.sent[1]);
  assert(reply instanceof AgentReply && reply.raw === good && reply.calls.length === 1);
  assert(!JSON.stringify(runtime.sent[0]).includes("dep_09"));
});

Deno.test("an episode whose calls all fail completes degraded, with neutral defaults, logged errors and corrections, and replays", async () => {
  const server = scriptedServer([{ status: 500 }]);
  try {
    const { runtime } = runtimeFor(server.url, { maxRetries: 1 });
    const played = await playEpisode(bankRun, {
      ...frailSetup(bankRunGame, {
        mechanism: "M0",
        regime: "stable",
        overrides: { depositors: 3, totalDeposits: 3, horizon: 2 },
      }),
      seed: 1,
      agents: (p) => llmAgent({ runtime, model: "m", env: "bank_run", episode: p.id }),
    });
    const types = (t: string) => played.events.filter((e) => e.type === t);
    assertEquals([
      types("llm_call").length,
      types("agent_error").length,
      types("correction").length,
    ], [6, 6, 6]);
    assertEquals(
      types("report").map((e) =>
        (e as unknown as { report: { withdraw_probability: number } }).report.withdraw_probability
      ),
      [0, 0, 0, 0, 0, 0],
    );
    const first = played.events.findIndex((e) => e.type === "llm_call");
    assertEquals(played.events.slice(first, first + 4).map((e) => e.type), [
      "llm_call",
      "agent_error",
      "correction",
      "report",
    ]);
    assertEquals(server.requests(), 12);
    assert(played.outcome.success);
    // Not "ok": every decision is a default for want of a reply.
    const end = played.events.at(-1)!;
    assert(end.type === "episode_end");
    assertEquals([end.status, end.degraded, end.outcome], [
      "degraded",
      { defaults: 6, agent_errors: 6, failed_calls: 6 },
      played.outcome,
    ]);
    assertEquals((await replayWith(bankRun, played.events)).ok, true);
  } finally {
    await server.close();
  }
});

// What the runtime sends the local test double, and what it never sends a real provider:
// the structured call goes only to a model configured with `testDouble: true`, in one
// field, outside the prompt's hash, cache key, token counts and reservation.
import { assert, assertEquals, assertThrows } from "../../../_assert.ts";
import { LlmRuntime } from "../../../../engine/agents/llm/runtime.ts";
import { llmAgent } from "../../../../engine/agents/llm/llm_agent.ts";
import { parseModelConfig } from "../../../../engine/agents/llm/model_config.ts";
import type { SpendLine } from "../../../../engine/agents/llm/accounting.ts";
import { serveLocalModel } from "../../../../engine/agents/llm/server/local_server.ts";
import type { AgentReply } from "../../../../engine/core/episode.ts";
import { playEpisode } from "../../../../engine/core/episode.ts";
import type { CallRequest } from "../../../../engine/core/environment.ts";
import type { LlmCallRecord } from "../../../../engine/core/events.ts";
import { frailSetup } from "../../../../engine/frail/descriptor.ts";
import { bankRunGame } from "../../../../engine/games/bank_run/descriptor.ts";

/** A provider that records every chat body and answers each with one fixed reply. */
function recordingProvider() {
  const bodies: Record<string, unknown>[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    bodies.push(await req.json());
    return Response.json({
      id: "x",
      object: "chat.completion",
      created: 0,
      model: "m",
      choices: [{
        index: 0,
        finish_reason: "stop",
        message: { role: "assistant", content: '{"withdraw_probability": 0, "reasoning": "x"}' },
      }],
      usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
    });
  });
  return { url: `http://127.0.0.1:${server.addr.port}/v1`, bodies, close: () => server.shutdown() };
}

/** The first call of a bank-run M1 episode (the bank's retention offer in round 1). */
async function firstCall(): Promise<CallRequest> {
  let first: CallRequest | undefined;
  await playEpisode(bankRunGame.environment, {
    ...frailSetup(bankRunGame, { mechanism: "M1", regime: "stable", overrides: { horizon: 1 } }),
    seed: 1,
    agents: () => ({
      policy: "t",
      decide: (req) => {
        first ??= req;
        return req.call === "withdrawal" ? { withdraw_probability: 0 } : { offers: [] };
      },
    }),
  });
  return first!;
}

const recordOf = (reply: unknown) => (reply as AgentReply).calls[0] as LlmCallRecord;

Deno.test("an LLM agent sends the structured call only to a model configured with testDouble, outside the prompt's hash, cache key, counts and reservation", async () => {
  const provider = recordingProvider();
  try {
    const price = { inputPerMillion: 1, outputPerMillion: 2 };
    const runtime = new LlmRuntime({
      models: [
        { id: "real", baseURL: provider.url, model: "m", price },
        { id: "double", baseURL: provider.url, model: "m", price, testDouble: true },
      ],
    });
    const lines: SpendLine[] = [];
    runtime.useBudget({ limit: { maxCost: 10 }, record: (l) => lines.push(l) });
    const req = await firstCall();
    const real = recordOf(await llmAgent({ runtime, model: "real", env: "bank_run" }).decide(req));
    const double = recordOf(
      await llmAgent({ runtime, model: "double", env: "bank_run" }).decide(req),
    );
    const [toReal, toDouble] = provider.bodies;
    // The real provider gets the OpenAI fields and nothing else.
    assertEquals(Object.keys(toReal), ["model", "messages", "temperature", "max_tokens"]);
    // The double gets the same request plus one field: the call, as JSON.
    const { coordlab_call, ...rest } = toDouble;
    assertEquals(rest, toReal);
    assertEquals(coordlab_call, JSON.parse(JSON.stringify({ game: "bank_run", ...req })));
    assertEquals((coordlab_call as CallRequest).call, "retention_offer");
    // The field is in no prompt hash, cache key, token count or reservation.
    assertEquals([double.prompt_hash, double.cache_key], [real.prompt_hash, real.cache_key]);
    assertEquals([double.tokens_in, double.cost], [real.tokens_in, real.cost]);
    const reserved = lines.filter((l) => l.type === "reserve").map(({ id: _, model: __, ...r }) =>
      r
    );
    assertEquals(reserved.length, 2);
    assertEquals(reserved[1], reserved[0]);
    // A probe tells the double it plays no game, and tells a real provider nothing.
    await runtime.probe("real");
    await runtime.probe("double");
    const [probeReal, probeDouble] = provider.bodies.slice(2);
    assertEquals(Object.keys(probeReal), ["model", "messages", "temperature", "max_tokens"]);
    assertEquals(probeDouble, { ...probeReal, coordlab_call: { probe: true } });
  } finally {
    await provider.close();
  }
});

Deno.test("an LLM agent of a model without testDouble gets the double's 400 naming the field", async () => {
  const server = serveLocalModel();
  try {
    const runtime = new LlmRuntime({
      models: [{ id: "m", baseURL: server.url, model: "coordlab-stay" }],
    });
    const reply = await llmAgent({ runtime, model: "m", env: "bank_run" }).decide(
      await firstCall(),
    );
    const record = recordOf(reply);
    assertEquals([record.status, record.attempts, server.stats().byStatus], [
      "error",
      1,
      { 400: 1 },
    ]);
    assertEquals(
      record.error,
      'client_error 400: 400 The request has no "coordlab_call" field: the local test double ' +
        "answers only requests that carry the structured call (configure the model with " +
        '"testDouble": true)',
    );
  } finally {
    await server.close();
  }
});

Deno.test("parseModelConfig() leaves testDouble off by default and refuses a value that is not a boolean", () => {
  const base = { id: "a", baseURL: "http://127.0.0.1:1/v1", model: "m" };
  assertEquals(parseModelConfig(base).testDouble, false);
  assertEquals(parseModelConfig({ ...base, testDouble: true }).testDouble, true);
  const err = assertThrows(
    () => parseModelConfig({ ...base, testDouble: "yes" }),
    RangeError,
  ) as RangeError;
  assert(err.message.includes('"testDouble"'), err.message);
});

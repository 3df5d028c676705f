import OpenAI, { AuthenticationError, BadRequestError, NotFoundError } from "npm:openai@7.59.0";
import { assert, assertEquals, assertRejects } from "../../../_assert.ts";
import { serveLocalModel } from "../../../../engine/agents/llm/server/local_server.ts";
import { servedModels } from "../../../../engine/agents/llm/server/answer.ts";
import { breakReply, drawFault } from "../../../../engine/agents/llm/server/faults.ts";
import type { GameDescriptor } from "../../../../engine/core/game.ts";
import { extractJsonObject } from "../../../../engine/core/reply_json.ts";
import { GAMES } from "../../../../engine/games/registry.ts";
import { assertServedAsMocks } from "./_served_as_mocks.ts";

const ask = { role: "user" as const, content: "hello" };
/** The structured field of a request that plays no game (a preflight probe's). */
const probe = { coordlab_call: { probe: true } };

Deno.test("serveLocalModel() lists its models and answers chat completions through the openai SDK", async () => {
  const server = serveLocalModel();
  try {
    const client = new OpenAI({ baseURL: server.url, apiKey: "none", maxRetries: 0 });
    const ids = (await client.models.list()).data.map((m) => m.id);
    assertEquals(ids, ["coordlab-defensive", "coordlab-stay", "coordlab-run"]);
    assertEquals(servedModels(GAMES), ids);
    const c = await client.chat.completions.create(
      { model: "coordlab-stay", messages: [ask], ...probe } as never,
    ) as OpenAI.ChatCompletion;
    assertEquals(c.choices[0].finish_reason, "stop");
    // A probe's reply: 62 characters (16 tokens) and a reasoning of 44 (11 tokens).
    assertEquals(c.usage, {
      prompt_tokens: 2,
      completion_tokens: 27,
      total_tokens: 29,
      completion_tokens_details: { reasoning_tokens: 11 },
    } as never);
    assertEquals(server.stats().chat, 1);
    assertEquals(server.stats().ok, 1);
  } finally {
    await server.close();
  }
});

Deno.test("serveLocalModel() answers 404 model_not_found for a model it does not serve", async () => {
  const server = serveLocalModel();
  try {
    const client = new OpenAI({ baseURL: server.url, apiKey: "none", maxRetries: 0 });
    const err = await assertRejects(
      () => client.chat.completions.create({ model: "gpt-9", messages: [ask] }),
      NotFoundError,
    ) as NotFoundError;
    assertEquals(err.code, "model_not_found");
  } finally {
    await server.close();
  }
});

Deno.test("serveLocalModel() refuses a wrong key with 401 and echoes it, as some providers do", async () => {
  const server = serveLocalModel({ apiKey: "sk-right-0001" });
  try {
    const wrong = new OpenAI({ baseURL: server.url, apiKey: "sk-wrong-0002", maxRetries: 0 });
    await assertRejects(() => wrong.models.list(), AuthenticationError, "sk-wrong-0002");
    const right = new OpenAI({ baseURL: server.url, apiKey: "sk-right-0001", maxRetries: 0 });
    assertEquals((await right.models.list()).data.length, 3);
    assertEquals(server.stats().byStatus, { 401: 1, 200: 1 });
  } finally {
    await server.close();
  }
});

Deno.test("serveLocalModel() injects faults by seeded draws on (body, attempt), independent of arrival order", async () => {
  const faults = { rateLimit: 0.2, serverError: 0.2, malformed: 0.2 };
  const kinds = (seed: number) =>
    Array.from(
      { length: 50 },
      (_, i) => drawFault(faults, { seed, body: `b${i % 10}`, attempt: 1 + Math.floor(i / 10) }),
    );
  assertEquals(kinds(4), kinds(4));
  const counts = kinds(4).reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map());
  assert(counts.get(null) > 10 && counts.get("rate_limit") > 3, JSON.stringify([...counts]));
  const server = serveLocalModel({ faults: { rateLimit: 1 }, retryAfterMs: 1234 });
  try {
    const res = await fetch(`${server.url}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "coordlab-stay", messages: [ask], ...probe }),
    });
    await res.body?.cancel();
    assertEquals([res.status, res.headers.get("retry-after-ms"), res.headers.get("retry-after")], [
      429,
      "1234",
      "2",
    ]);
    assertEquals(server.stats().faults.rate_limit, 1);
  } finally {
    await server.close();
  }
});

Deno.test("breakReply() leaves no parseable JSON object in a malformed or truncated reply", () => {
  const replies = [
    '{"withdraw_probability":20,"reasoning":"calm"}',
    '{"proposal_actions":[{"action":"join"},{"action":"vote","vote_id":"v2_dep_01","support":true}],"reasoning":"x"}',
  ];
  for (const r of replies) {
    for (const kind of ["malformed", "truncated"] as const) {
      assertEquals(
        extractJsonObject(breakReply(r, kind)),
        undefined,
        `${kind}: ${breakReply(r, kind)}`,
      );
    }
  }
});

// Each scene under one preset, in turn (under each preset: a game of fewer
// scenes than presets, and a scene that scripts a call no mock makes): every
// game, scene, preset and contract in about 1,800 of the 4,900 calls; every scene
// under every preset is server_long_test.ts (the long group).
Deno.test("serveLocalModel() answers every call of every registered game, from its structured field, as the game's mock agents of the served preset", async () => {
  await assertServedAsMocks((scene, scenes, presets) =>
    scenes.length < presets.length || scenes[scene].script
      ? presets
      : [presets[scene % presets.length]]
  );
});

Deno.test("serveLocalModel() answers a request without the structured field with a 400 naming it", async () => {
  const server = serveLocalModel();
  try {
    const client = new OpenAI({ baseURL: server.url, apiKey: "none", maxRetries: 0 });
    const err = await assertRejects(
      () => client.chat.completions.create({ model: "coordlab-stay", messages: [ask] }),
      BadRequestError,
    ) as BadRequestError;
    assertEquals(
      err.message,
      '400 The request has no "coordlab_call" field: the local test double answers only ' +
        'requests that carry the structured call (configure the model with "testDouble": true)',
    );
    const bad = async (field: unknown) => {
      const res = await fetch(`${server.url}/chat/completions`, {
        method: "POST",
        body: JSON.stringify({ model: "coordlab-stay", messages: [ask], coordlab_call: field }),
      });
      return [res.status, (await res.json()).error.message];
    };
    const call = {
      game: "bank_run",
      agent: "dep_01",
      role: "depositor",
      call: "withdrawal",
      round: 1,
      step: "withdrawal",
      view: {},
    };
    assertEquals(await bad("x"), [400, '"coordlab_call" must be an object, got "x"']);
    assertEquals(await bad({ ...call, agent: 1 }), [
      400,
      '"coordlab_call.agent" must be a string, got 1',
    ]);
    assertEquals(await bad({ ...call, round: 1.5 }), [
      400,
      '"coordlab_call.round" must be an integer, got 1.5',
    ]);
    assertEquals(await bad({ ...call, view: undefined }), [400, '"coordlab_call.view" is missing']);
    assertEquals(await bad({ ...call, game: "chess" }), [
      400,
      'Unknown game "chess" in "coordlab_call.game": the local test double serves "bank_run", ' +
      '"debt_rollover", "crowdfunding", "staghunt", "min_effort"',
    ]);
    assertEquals(await bad({ ...call, role: "creditor" }), [
      400,
      '"coordlab_call.role" of game "bank_run": No bank-run mock policy for role "creditor"',
    ]);
    // Refused before any fault is drawn or any answer is counted.
    assertEquals(server.stats().byStatus, { 400: 7 });
    assertEquals([server.stats().ok, server.stats().chat], [0, 7]);
  } finally {
    await server.close();
  }
});

Deno.test("serveLocalModel() refuses a call of a game that declares no preset of the model asked for", async () => {
  const [bankRun] = GAMES;
  const game = { ...bankRun, mockPresets: { "only-this": { depositors: "always_run" } } };
  const server = serveLocalModel({ games: [game as GameDescriptor] });
  try {
    const models = await (await fetch(`${server.url}/models`)).json();
    assertEquals(models.data.map((m: { id: string }) => m.id), ["only-this"]);
    const send = (model: string) =>
      fetch(`${server.url}/chat/completions`, {
        method: "POST",
        body: JSON.stringify({
          model,
          messages: [ask],
          coordlab_call: {
            game: "bank_run",
            agent: "dep_01",
            role: "depositor",
            call: "withdrawal",
            round: 1,
            step: "withdrawal",
            view: {},
          },
        }),
      }).then(async (r) => [r.status, await r.json()]);
    const [status, body] = await send("only-this");
    assertEquals([status, JSON.parse(body.choices[0].message.content)], [200, {
      withdraw_probability: 100,
      reasoning: "I always run.",
    }]);
    assertEquals(
      body.choices[0].message.reasoning_content,
      "Rule-based always_run dep_01 read the prompt.",
    );
    const [missing, error] = await send("coordlab-stay");
    assertEquals([missing, error.error.code], [404, "model_not_found"]);
  } finally {
    await server.close();
  }
});

Deno.test("serveLocalModel() listens on the port asked for, as the models file's local entry expects", async () => {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const server = serveLocalModel({ port });
  try {
    assertEquals(server.url, `http://127.0.0.1:${port}/v1`);
    const r = await fetch(`${server.url}/models`);
    assertEquals(r.status, 200);
    await r.body?.cancel();
  } finally {
    await server.close();
  }
});

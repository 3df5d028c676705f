import OpenAI, { AuthenticationError, NotFoundError } from "npm:openai@7.59.0";
import { assert, assertEquals, assertRejects } from "../../../_assert.ts";
import { serveLocalModel } from "../../../../engine/agents/llm/server/local_server.ts";
import { answerPrompt, LOCAL_MODELS } from "../../../../engine/agents/llm/server/policies.ts";
import { breakReply, drawFault } from "../../../../engine/agents/llm/server/faults.ts";
import { findTemplate } from "../../../../engine/agents/llm/prompts/template.ts";
import { promptSet } from "../../../../engine/agents/llm/prompts/registry.ts";
import { playEpisode } from "../../../../engine/core/episode.ts";
import type { CallRequest } from "../../../../engine/core/environment.ts";
import { extractJsonObject } from "../../../../engine/core/reply_json.ts";
import { GAMES } from "./_games.ts";

const ask = { role: "user" as const, content: "hello" };

Deno.test("serveLocalModel() lists its models and answers chat completions through the openai SDK", async () => {
  const server = serveLocalModel();
  try {
    const client = new OpenAI({ baseURL: server.url, apiKey: "none", maxRetries: 0 });
    const ids = (await client.models.list()).data.map((m) => m.id);
    assertEquals(ids, Object.keys(LOCAL_MODELS));
    const c = await client.chat.completions.create({ model: "coordlab-stay", messages: [ask] });
    assertEquals(c.choices[0].finish_reason, "stop");
    assert(c.usage!.prompt_tokens === 2 && c.usage!.completion_tokens > 0);
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
      body: JSON.stringify({ model: "coordlab-stay", messages: [ask] }),
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

Deno.test("answerPrompt() reads every prompt of the four games back and answers as the mock agent would on the true view", async () => {
  for (const game of GAMES) {
    let compared = 0;
    for (const setup of game.setups) {
      for (const seed of [5, 6]) {
        await playEpisode(game.env, {
          ...setup,
          seed,
          agents: (p) => {
            const mock = game.mocks(seed)(p);
            return {
              policy: mock.policy,
              async decide(req: CallRequest) {
                const expected = await mock.decide(req);
                const messages = findTemplate(promptSet(game.id), req.role, req.call)!.render(
                  req.view as never,
                );
                const answer = await answerPrompt(
                  LOCAL_MODELS["coordlab-defensive"],
                  messages,
                  seed,
                );
                assertEquals(
                  JSON.parse(answer.content),
                  expected,
                  `${setup.condition.id} ${req.agent} ${req.call} round ${req.round}`,
                );
                compared++;
                return expected;
              },
            };
          },
        });
      }
    }
    assert(compared > 50, `${game.id}: only ${compared} calls compared`);
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

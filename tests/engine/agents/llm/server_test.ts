import OpenAI, { AuthenticationError, BadRequestError, NotFoundError } from "npm:openai@7.59.0";
import { assert, assertEquals, assertRejects } from "../../../_assert.ts";
import { serveLocalModel } from "../../../../engine/agents/llm/server/local_server.ts";
import { servedModels } from "../../../../engine/agents/llm/server/answer.ts";
import { breakReply, drawFault } from "../../../../engine/agents/llm/server/faults.ts";
import { LlmRuntime } from "../../../../engine/agents/llm/runtime.ts";
import { llmPopulation } from "../../../../engine/agents/llm/llm_agent.ts";
import { playEpisode } from "../../../../engine/core/episode.ts";
import type { AgentFactory } from "../../../../engine/core/agent.ts";
import type { CallRequest } from "../../../../engine/core/environment.ts";
import type { GameDescriptor } from "../../../../engine/core/game.ts";
import { extractJsonObject } from "../../../../engine/core/reply_json.ts";
import { GAMES } from "../../../../engine/games/registry.ts";
import { conditionSetup } from "../../../../engine/run_episode.ts";

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

/** A condition to play, and the replies of some calls scripted (the rest go to the agents under test). */
interface Scene {
  fields: Record<string, unknown>;
  script?: (req: CallRequest) => unknown;
}

// Conditions that together make every call of a game: each mechanism of a FRAIL game, a
// Stag Hunt with corrupted players (whose reports are re-justified), and the default
// condition of any other game; plus, for crowdfunding, an M3 coalition whose first member
// asks to exit in round 2 (no mock backer ever asks, so no mock meets an exit
// confirmation otherwise).
function scenesOf(game: GameDescriptor): Scene[] {
  const mechanisms = (game as { mechanisms?: readonly string[] }).mechanisms;
  if (game.id === "crowdfunding") {
    const coalition = (req: CallRequest) => {
      if (req.call !== "coalition_response") return undefined;
      const i = Number(req.agent.replace(/^\D+/, ""));
      const join = req.round === 1 && i <= 4;
      return { join, exit_request: req.round === 2 && i === 1, vote: null, reasoning: "" };
    };
    return [
      ...mechanisms!.map((mechanism) => ({ fields: { mechanism, regime: "stable" } })),
      { fields: { mechanism: "M3", regime: "stable" }, script: coalition },
    ];
  }
  if (mechanisms) {
    return mechanisms.map((mechanism) => ({ fields: { mechanism, regime: "stable" } }));
  }
  if (game.id === "staghunt") return [{ fields: { N: 5, M: 3, T: 4, F: 2, corruption: "base" } }];
  return [{ fields: {} }];
}

/** The agents of `make`, but for the calls `script` answers. */
function scripted(make: AgentFactory, script: Scene["script"]): AgentFactory {
  if (!script) return make;
  return (player) => {
    const agent = make(player);
    return { policy: agent.policy, decide: (req) => script(req) ?? agent.decide(req) };
  };
}

Deno.test("serveLocalModel() answers every call of every registered game, from its structured field, as the game's mock agents of the served preset", async () => {
  const seed = 5;
  const server = serveLocalModel({ seed });
  try {
    for (const game of GAMES) {
      const presets = Object.keys(game.mockPresets ?? {});
      assertEquals(presets, ["coordlab-defensive", "coordlab-stay", "coordlab-run"], game.id);
      const runtime = new LlmRuntime({
        models: presets.map((model) => ({
          id: model,
          baseURL: server.url,
          model,
          testDouble: true,
          concurrency: 32,
        })),
      });
      const calls = new Set<string>();
      for (const model of presets) {
        for (const { fields, script } of scenesOf(game)) {
          const setup = conditionSetup(game.game, game.id, fields);
          const label = `${game.id} ${setup.condition.id} ${model}`;
          const mocks: AgentFactory = game.mockAgents({ ...game.mockPresets![model], seed });
          const options = { ...setup, seed, hashes: true };
          const before = server.stats().ok;
          const llm = await playEpisode(game.environment, {
            ...options,
            agents: scripted(
              llmPopulation({ runtime, env: game.id, models: model, sample: seed }),
              script,
            ),
          });
          const mock = await playEpisode(game.environment, {
            ...options,
            agents: scripted(mocks, script),
          });
          assertEquals(llm.hashes, mock.hashes, label);
          assertEquals(llm.outcome, mock.outcome, label);
          const answered = llm.events.filter((e) => e.type === "llm_call" && e.status === "ok");
          assertEquals(server.stats().ok - before, answered.length, label);
          assertEquals(llm.events.filter((e) => e.type === "correction").length, 0, label);
          for (const e of llm.events) if (e.type === "report") calls.add(e.call);
        }
      }
      assertEquals([...calls].sort(), Object.keys(game.environment.contracts).sort(), game.id);
    }
  } finally {
    await server.close();
  }
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

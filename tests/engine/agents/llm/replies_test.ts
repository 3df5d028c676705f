// Money-safe replies (issue 18, items 3 and 6): a paid reply is never thrown
// away, a reply without text is a failed call, a cache entry serves only its
// own key, and secrets are redacted from what is written, not what is parsed.
import { bankRunGame } from "../../../../engine/games/bank_run/descriptor.ts";
import { frailSetup } from "../../../../engine/frail/descriptor.ts";
import { assert, assertEquals, assertThrows } from "../../../_assert.ts";
import { ResponseCache } from "../../../../engine/agents/llm/cache.ts";
import { llmPopulation } from "../../../../engine/agents/llm/llm_agent.ts";
import { LlmRuntime } from "../../../../engine/agents/llm/runtime.ts";
import type { ChatMessage } from "../../../../engine/agents/llm/prompts/template.ts";
import { isEpisodeAbandoned } from "../../../../engine/core/abandon.ts";
import { playEpisode } from "../../../../engine/core/episode.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { writeEpisodeLog } from "../../../../engine/core/log_file.ts";
import { bankRun } from "../../../../engine/games/bank_run/environment.ts";
import { readManifest } from "../../../../engine/grid/manifest.ts";
import { runGrid } from "../../../../engine/grid/run_grid.ts";
import { childSpec, DEPOSITOR_CALL, filesUnder, scriptedServer, withServer } from "./_helpers.ts";
import { makeTempDir } from "../../../_temp.ts";

const messages: ChatMessage[] = [{ role: "user", content: "decide" }];
const good = '{"withdraw_probability": 15, "reasoning": "calm"}';

function runtimeOn(url: string, model: Record<string, unknown> = {}, extra = {}) {
  return new LlmRuntime({
    models: [{
      id: "m",
      baseURL: url,
      model: "coordlab-stay",
      testDouble: true,
      backoffMs: 1,
      ...model,
    }],
    sleep: () => Promise.resolve(),
    random: () => 0,
    ...extra,
  });
}

/** A one-round bank-run episode of three depositors played by model "m" (3 calls). */
function playSmall(runtime: LlmRuntime, seed = 1) {
  return playEpisode(bankRun, {
    ...frailSetup(bankRunGame, {
      mechanism: "M0",
      regime: "stable",
      overrides: { depositors: 3, totalDeposits: 3, horizon: 1 },
    }),
    seed,
    agents: llmPopulation({ runtime, env: "bank_run", models: "m" }),
  });
}

/** A chat completion body with the given message content and finish reason. */
function completion(content: unknown, finish: string | null) {
  return JSON.stringify({
    choices: [{ index: 0, finish_reason: finish, message: { role: "assistant", content } }],
    usage: { prompt_tokens: 40, completion_tokens: 9 },
  });
}

const endStatus = (events: readonly EngineEvent[]) => {
  const end = events.at(-1)!;
  return end.type === "episode_end" ? end.status : null;
};

Deno.test("LlmRuntime() refuses a cache path that is a regular file before any call, naming it", async () => {
  const dir = await makeTempDir();
  const file = `${dir}/cache`;
  await Deno.writeTextFile(file, "not a folder");
  const err = assertThrows(
    () => runtimeOn("http://127.0.0.1:9/v1", {}, { cacheDir: file }),
    RangeError,
    `The response cache folder "${file}" cannot be used: `,
  );
  assert(err.message.length > `The response cache folder "${file}" cannot be used: `.length);
  assertEquals(await Deno.readTextFile(file), "not a folder");
});

Deno.test("runGrid() stops with stoppedBy cache when an entry cannot be written, using and counting the paid replies", async () => {
  await withServer({}, async (server) => {
    const models = [{ id: "local", baseURL: server.url, model: "coordlab-stay", testDouble: true }];
    // Two episodes (the stop comes at the first step of the first): a first run
    // fills a cache; a second cache gets a folder at every entry's path.
    const block = { game: "frail", envs: ["bank_run"], mechanisms: ["M0", "M3"] };
    const spec = {
      name: "child",
      episodes: 1,
      blocks: [{ ...block, agents: [{ model: "local" }] }],
    };
    const filled = await makeTempDir();
    const first = await runGrid(spec, {
      out: await makeTempDir(),
      runtime: new LlmRuntime({ models, cacheDir: filled }),
      progress: false,
      preflight: false,
    });
    assertEquals([first.played, first.stoppedBy], [2, null]);
    const blocked = await makeTempDir();
    const entries = (await filesUnder(filled)).map((f) => f.slice(filled.length));
    for (const e of entries) await Deno.mkdir(`${blocked}${e}`, { recursive: true });
    const before = server.stats().chat;
    const out = await makeTempDir();
    const runtime = new LlmRuntime({ models, cacheDir: blocked });
    const r = await runGrid(spec, {
      out,
      runtime,
      concurrency: 1,
      progress: false,
      preflight: false,
    });
    assertEquals(r.stoppedBy, "cache");
    const prefix = "The response cache cannot be written, so no further call is sent (the reply " +
      "just received was used and counted): Cannot write the cache entry ";
    assert(r.stopped!.startsWith(prefix), r.stopped!);
    const path = r.stopped!.slice(prefix.length).split(": ")[0];
    assert(entries.some((e) => path === `${blocked}${e}`), path);
    assertEquals(runtime.status().halt, { reason: r.stopped!, by: "cache" });
    // The first step's calls were sent together, paid, used (no failed call) and counted;
    // the episode then stopped unlogged instead of taking defaults.
    assertEquals([r.played, r.degraded, r.failed, r.remaining], [0, [], [], 2]);
    assert(r.usage.calls > 0);
    assertEquals([r.usage.failedCalls, r.usage.calls], [0, server.stats().chat - before]);
    assertEquals((await readManifest(out))!.status, "interrupted");
    // With a cache that works, the same folder resumes and finishes.
    const rest = await runGrid(spec, {
      out,
      runtime: new LlmRuntime({ models, cacheDir: filled }),
      progress: false,
      preflight: false,
    });
    assertEquals([rest.played, rest.remaining, rest.stoppedBy], [2, 0, null]);
  });
});

for (
  const [name, body, problem] of [
    ["content null", completion(null, "stop"), 'content null, finish_reason "stop"'],
    [
      "content null and finish_reason content_filter",
      completion(null, "content_filter"),
      'content null, finish_reason "content_filter"',
    ],
    [
      "empty content cut by length",
      completion("", "length"),
      'content empty, finish_reason "length"',
    ],
    ["no content field", completion(undefined, "stop"), 'content missing, finish_reason "stop"'],
  ] as const
) {
  Deno.test(`LlmRuntime.complete() retries a reply with ${name} as a failed attempt and never caches it`, async () => {
    const server = scriptedServer([
      { raw: body, contentType: "application/json" },
      { status: 200, content: good },
    ]);
    try {
      const cacheDir = await makeTempDir();
      const runtime = runtimeOn(server.url, { maxRetries: 2 }, { cacheDir });
      const r = await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
      assertEquals([r.status, r.attempts, r.content, server.requests()], ["ok", 2, good, 2]);
      assertEquals(r.failures.map((f) => [f.kind, f.status, f.message]), [
        ["invalid_response", 200, `The reply has no text (${problem})`],
      ]);
      // Only the good reply is stored.
      const files = await filesUnder(cacheDir);
      assertEquals(files.length, 1);
      assert((await Deno.readTextFile(files[0])).includes("withdraw_probability"));
    } finally {
      await server.close();
    }
  });
}

Deno.test("an episode whose replies are all filtered out takes defaults and ends degraded, nothing cached", async () => {
  const server = scriptedServer([{
    raw: completion(null, "content_filter"),
    contentType: "application/json",
  }]);
  try {
    const cacheDir = await makeTempDir();
    const runtime = runtimeOn(server.url, { maxRetries: 1 }, { cacheDir });
    const played = await playSmall(runtime);
    assertEquals(server.requests(), 6);
    const errors = played.events.filter((e) => e.type === "agent_error");
    assertEquals(errors.length, 3);
    for (const e of errors) {
      assert(e.type === "agent_error");
      assertEquals(
        e.message,
        "invalid_response after 2 attempts: The reply has no text (content null, " +
          'finish_reason "content_filter")',
      );
    }
    assertEquals(endStatus(played.events), "degraded");
    assertEquals(await filesUnder(cacheDir), []);
  } finally {
    await server.close();
  }
});

Deno.test("swapped cache entry files are not served: each is a miss, asked again and replaced", async () => {
  const server = scriptedServer([
    { status: 200, content: '{"withdraw_probability": 10, "reasoning": "a"}' },
    { status: 200, content: '{"withdraw_probability": 90, "reasoning": "b"}' },
    { status: 200, content: '{"withdraw_probability": 11, "reasoning": "a again"}' },
    { status: 200, content: '{"withdraw_probability": 91, "reasoning": "b again"}' },
  ]);
  try {
    const cacheDir = await makeTempDir();
    const a: ChatMessage[] = [{ role: "user", content: "agent a" }];
    const b: ChatMessage[] = [{ role: "user", content: "agent b" }];
    const one = runtimeOn(server.url, {}, { cacheDir });
    const ra = await one.complete("m", a, { call: DEPOSITOR_CALL });
    const rb = await one.complete("m", b, { call: DEPOSITOR_CALL });
    const pa = one.cache!.pathOf(ra.cache_key);
    const pb = one.cache!.pathOf(rb.cache_key);
    const [ta, tb] = [await Deno.readTextFile(pa), await Deno.readTextFile(pb)];
    await Deno.writeTextFile(pa, tb);
    await Deno.writeTextFile(pb, ta);
    const two = runtimeOn(server.url, {}, { cacheDir });
    const [sa, sb] = [
      await two.complete("m", a, { call: DEPOSITOR_CALL }),
      await two.complete("m", b, { call: DEPOSITOR_CALL }),
    ];
    assertEquals([sa.cache, sa.content, sb.cache, sb.content], [
      "miss",
      '{"withdraw_probability": 11, "reasoning": "a again"}',
      "miss",
      '{"withdraw_probability": 91, "reasoning": "b again"}',
    ]);
    assertEquals(two.cache!.stats(), { hits: 0, misses: 2, writes: 2, mismatched: 2 });
    assertEquals(server.requests(), 4);
    const three = runtimeOn(server.url, {}, { cacheDir });
    const [ha, hb] = [
      await three.complete("m", a, { call: DEPOSITOR_CALL }),
      await three.complete("m", b, { call: DEPOSITOR_CALL }),
    ];
    assertEquals([ha.cache, ha.content, hb.cache, hb.content], [
      "hit",
      sa.content,
      "hit",
      sb.content,
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("ResponseCache.get() counts a file stored under another key as a mismatched miss", async () => {
  const cache = new ResponseCache(await makeTempDir());
  const [k1, k2] = ["ab".repeat(32), "cd".repeat(32)];
  const response = {
    content: "{}",
    reasoning: null,
    finish_reason: "stop",
    tokens_in: 1,
    tokens_out: 1,
    tokens_reasoning: 0,
  };
  await cache.put(k1, response);
  await Deno.mkdir(cache.pathOf(k2).replace(/\/[^/]+$/, ""), { recursive: true });
  await Deno.copyFile(cache.pathOf(k1), cache.pathOf(k2));
  assertEquals(await cache.get(k2), undefined);
  assertEquals(cache.stats(), { hits: 0, misses: 1, writes: 1, mismatched: 1 });
  await cache.put(k2, { ...response, content: "[]" });
  assertEquals((await cache.get(k2))?.content, "[]");
  // An entry without text (as older versions stored) is a miss too.
  await Deno.writeTextFile(
    cache.pathOf(k1),
    JSON.stringify({ cache: 1, key: k1, response: { ...response, content: null } }),
  );
  assertEquals(await cache.get(k1), undefined);
});

Deno.test("ResponseCache.put() names the entry's path when a folder stands where it goes", async () => {
  const cache = new ResponseCache(await makeTempDir());
  const key = "ef".repeat(32);
  await Deno.mkdir(cache.pathOf(key), { recursive: true });
  const response = {
    content: "{}",
    reasoning: null,
    finish_reason: "stop",
    tokens_in: 1,
    tokens_out: 1,
    tokens_reasoning: 0,
  };
  let message = "";
  await cache.put(key, response).catch((e) => (message = e.message));
  assert(message.startsWith(`Cannot write the cache entry ${cache.pathOf(key)}: `), message);
  // No temporary file is left beside it.
  assertEquals(await filesUnder(cache.dir), []);
});

Deno.test("a short key such as `prob` is redacted from the log and cache but does not mangle what is parsed", async () => {
  const key = "prob";
  const wholeWord = /(?<![A-Za-z0-9_])prob(?![A-Za-z0-9_])/i;
  await withServer({ apiKey: key, faults: { echoKey: 1 } }, async (server) => {
    const dir = await makeTempDir();
    const runtime = runtimeOn(server.url, { apiKeyEnv: "K" }, {
      readEnv: () => key,
      cacheDir: `${dir}/cache`,
    });
    const played = await playSmall(runtime);
    await writeEpisodeLog(`${dir}/ep.ndjson`, played.events);
    const reports = played.events.filter((e) => e.type === "report");
    assertEquals(
      reports.map((e) => e.type === "report" && e.report.withdraw_probability),
      [0, 0, 0],
    );
    assertEquals(played.events.filter((e) => e.type === "correction"), []);
    assertEquals(endStatus(played.events), "ok");
    for (const c of played.events.filter((e) => e.type === "llm_call")) {
      assert(c.type === "llm_call" && c.content!.endsWith("(request signed with [redacted])"));
      assert(c.type === "llm_call" && c.reasoning!.endsWith("My key is [redacted]."));
    }
    const files = await filesUnder(dir);
    assertEquals(files.length, 4); // the log and 3 cache entries
    for (const f of files) assert(!wholeWord.test(await Deno.readTextFile(f)), f);
    // A cache hit reads the same reports from the redacted copy.
    const again = await playSmall(runtimeOn(server.url, { apiKeyEnv: "K" }, {
      readEnv: () => key,
      cacheDir: `${dir}/cache`,
    }));
    assertEquals(
      again.events.filter((e) => e.type === "report").map((e) => e.type === "report" && e.report),
      reports.map((e) => e.type === "report" && e.report),
    );
    assertEquals(endStatus(again.events), "ok");
  });
});

Deno.test("a key echoed inside a reply's JSON is parsed from the raw text and redacted in the logged report", async () => {
  const key = `sk-live-${crypto.randomUUID()}`;
  const server = scriptedServer([{
    status: 200,
    content: `{"withdraw_probability": 35, "reasoning": "signed ${key.toUpperCase()} and ${
      btoa(`user:${key}`)
    }"}`,
  }]);
  try {
    const dir = await makeTempDir();
    const runtime = runtimeOn(server.url, { apiKeyEnv: "K" }, {
      readEnv: () => key,
      cacheDir: `${dir}/cache`,
    });
    const played = await playSmall(runtime);
    await writeEpisodeLog(`${dir}/ep.ndjson`, played.events);
    const reports = played.events.filter((e) => e.type === "report");
    assertEquals(reports.length, 3);
    for (const e of reports) {
      assert(e.type === "report");
      assertEquals(e.report.withdraw_probability, 35);
      assert(!String(e.report.reasoning).includes(key.toUpperCase()), String(e.report.reasoning));
      assert(String(e.report.reasoning).startsWith("signed [redacted] and "));
    }
    const inner = btoa(`user:${key}`).slice(8, 40);
    for (const f of await filesUnder(dir)) {
      const text = await Deno.readTextFile(f);
      for (const s of [key, key.toUpperCase(), inner]) assert(!text.includes(s), `${s} in ${f}`);
    }
  } finally {
    await server.close();
  }
});

Deno.test("a token in a base URL's path never appears in a call's error or the fatal message", async () => {
  let probeUrl = "";
  const probe = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (): Response => {
    return new Response(JSON.stringify({ error: { message: `no route ${probeUrl}` } }), {
      status: 404,
      headers: { "content-type": "application/json" },
    });
  });
  const token = "sk-proxy-0123456789abcdef";
  probeUrl = `http://127.0.0.1:${probe.addr.port}/${token}/v1`;
  try {
    const runtime = runtimeOn(probeUrl, { maxRetries: 0 });
    const r = await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
    const shown = JSON.stringify(r) + (runtime.status().fatal ?? "");
    assert(r.status === "error" && shown.includes("[redacted]"), shown);
    assert(!shown.includes(token), shown);
    assert(runtime.status().fatal!.includes(`/[redacted]/v1`), runtime.status().fatal!);
  } finally {
    await probe.shutdown();
  }
});

Deno.test("a call waiting for a provider slot when the cache halts the runtime is abandoned unsent", async () => {
  const server = scriptedServer([{ status: 200, content: good }]);
  try {
    const cacheDir = await makeTempDir();
    const runtime = runtimeOn(server.url, { concurrency: 1 }, { cacheDir });
    const other: ChatMessage[] = [{ role: "user", content: "another" }];
    // Both entries are blocked: whichever call gets the one slot first halts the runtime.
    for (const m of [messages, other]) {
      const key =
        (await runtimeOn(server.url).complete("m", m, { call: DEPOSITOR_CALL })).cache_key;
      await Deno.mkdir(runtime.cache!.pathOf(key), { recursive: true });
    }
    const settled = await Promise.allSettled([
      runtime.complete("m", messages, { call: DEPOSITOR_CALL }),
      runtime.complete("m", other, { call: DEPOSITOR_CALL }),
    ]);
    const sent = settled.filter((s) => s.status === "fulfilled");
    const abandoned = settled.filter((s) => s.status === "rejected");
    assertEquals([sent.length, abandoned.length], [1, 1]);
    assert(sent[0].status === "fulfilled" && sent[0].value.status === "ok");
    assertEquals(sent[0].value.content, good);
    const reason = abandoned[0].status === "rejected" ? abandoned[0].reason : null;
    assert(isEpisodeAbandoned(reason), String(reason));
    assertEquals(reason.message, runtime.status().halt!.reason);
    assertEquals(server.requests(), 3); // two to learn the keys, then this runtime's first only
    assertEquals(runtime.ledger.run().calls, 1);
  } finally {
    await server.close();
  }
});

Deno.test("deno task grid with --cache naming a file exits 2 before any call, naming the path", async () => {
  await withServer({}, async (server) => {
    const dir = await makeTempDir();
    await Deno.writeTextFile(`${dir}/spec.json`, JSON.stringify(childSpec(1)));
    await Deno.writeTextFile(
      `${dir}/models.json`,
      JSON.stringify({
        models: [{ id: "local", baseURL: server.url, model: "coordlab-stay", testDouble: true }],
      }),
    );
    await Deno.writeTextFile(`${dir}/cache`, "a file");
    const cli = new URL("../../../../engine/cli/grid.ts", import.meta.url).pathname;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", cli, "--spec", `${dir}/spec.json`, "--models", `${dir}/models.json`]
        .concat(["--cache", `${dir}/cache`, "--out", `${dir}/run`]),
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 2, stderr);
    assert(
      stderr.startsWith(`The response cache folder "${dir}/cache" cannot be used: `),
      stderr,
    );
    assertEquals(server.stats().requests, 0);
  });
});

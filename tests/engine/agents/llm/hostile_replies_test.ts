// Hostile provider replies (issue 12, items 5 and 7): each is handled as documented.
import { bankRunGame } from "../../../../engine/games/bank_run/descriptor.ts";
import { frailSetup } from "../../../../engine/frail/descriptor.ts";
import { assert, assertEquals, assertRejects } from "../../../_assert.ts";
import { budgetExhausted } from "../../../../engine/agents/llm/accounting.ts";
import { llmPopulation } from "../../../../engine/agents/llm/llm_agent.ts";
import { LlmPreflightError, preflight } from "../../../../engine/agents/llm/preflight.ts";
import { LlmRuntime } from "../../../../engine/agents/llm/runtime.ts";
import type { LocalServerOptions } from "../../../../engine/agents/llm/server/local_server.ts";
import type { ChatMessage } from "../../../../engine/agents/llm/prompts/template.ts";
import { playEpisode } from "../../../../engine/core/episode.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { readEpisodeLog, writeEpisodeLog } from "../../../../engine/core/log_file.ts";
import { bankRun } from "../../../../engine/games/bank_run/environment.ts";
import { runGrid } from "../../../../engine/grid/run_grid.ts";
import { DEPOSITOR_CALL, filesUnder, scriptedServer, withServer } from "./_helpers.ts";
import { makeTempDir } from "../../../_temp.ts";

const messages: ChatMessage[] = [{ role: "user", content: "decide" }];
const good = '{"withdraw_probability": 15, "reasoning": "calm"}';

/** A runtime on a local server, with instant backoff. */
function runtimeOn(url: string, model: Record<string, unknown> = {}, extra = {}) {
  const waits: number[] = [];
  const runtime = new LlmRuntime({
    models: [{
      id: "m",
      baseURL: url,
      model: "coordlab-stay",
      testDouble: true,
      backoffMs: 1,
      ...model,
    }],
    sleep: (ms) => (waits.push(ms), Promise.resolve()),
    random: () => 0,
    ...extra,
  });
  return { runtime, waits };
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

for (
  const [name, faults, problem] of [
    ["a 200 without choices", { noChoices: 1 }, "The reply is not a chat completion (choices: "],
    ["an HTML body", { htmlBody: 1 }, 'The reply is not JSON (status 200, body "<!DOCTYPE html>'],
  ] as const
) {
  Deno.test(`LlmRuntime.complete() retries ${name} as a failed attempt and never caches it`, async () => {
    await withServer({ faults }, async (server) => {
      const cacheDir = await makeTempDir();
      const { runtime } = runtimeOn(server.url, { maxRetries: 2 }, { cacheDir });
      const r = await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
      assertEquals([r.status, r.attempts, r.content, server.stats().chat], ["error", 3, null, 3]);
      assertEquals(r.failures.map((f) => [f.kind, f.status]), [
        ["invalid_response", 200],
        ["invalid_response", 200],
        ["invalid_response", 200],
      ]);
      assert(r.failures[0].message.startsWith(problem), r.failures[0].message);
      assert(r.error!.startsWith("invalid_response after 3 attempts: "), r.error!);
      assertEquals(await filesUnder(cacheDir), []);
    });
  });
}

Deno.test("LlmRuntime.complete() retries a reply whose text has the wrong type, and uses the good one that follows", async () => {
  const server = scriptedServer([
    {
      raw: JSON.stringify({ choices: [{ message: { content: 42 }, finish_reason: "stop" }] }),
      contentType: "application/json",
    },
    { status: 200, content: good },
  ]);
  try {
    const { runtime } = runtimeOn(server.url);
    const r = await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
    assertEquals([r.status, r.attempts, r.content], ["ok", 2, good]);
    assert(
      r.failures[0].message.startsWith(
        "The reply is not a chat completion (choices.0.message.content: ",
      ),
      r.failures[0].message,
    );
  } finally {
    await server.close();
  }
});

for (const [name, faults] of [["negative", { negativeUsage: 1 }], ["string", { stringUsage: 1 }]]) {
  Deno.test(`LlmRuntime.complete() does not use ${name} token counts: the call is unpriced, with a warning`, async () => {
    await withServer({ faults: faults as LocalServerOptions["faults"] }, async (server) => {
      const { runtime } = runtimeOn(server.url, {
        price: { inputPerMillion: 1, outputPerMillion: 2 },
      });
      const r = await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
      assertEquals(
        [r.status, r.tokens_in, r.tokens_out, r.tokens_reasoning, r.cost],
        ["ok", 0, 0, 0, null],
      );
      assert(
        r.usage_warning!.startsWith(
          "The provider's token counts were not used, so the call is unpriced: the reply's token usage is invalid (usage.prompt_tokens: ",
        ),
        r.usage_warning!,
      );
      const run = runtime.ledger.run();
      assertEquals([run.cost, run.billedTokens, run.unpricedCalls, run.invalidUsageCalls], [
        0,
        0,
        1,
        1,
      ]);
      // A budget that can no longer be checked counts as reached.
      assert(budgetExhausted(run, { maxCost: 100 })!.startsWith("Cost budget cannot be checked"));
      assert(
        budgetExhausted(run, { maxTokens: 1e9 })!.startsWith("Token budget cannot be checked"),
      );
    });
  });
}

Deno.test("runGrid() stops at its cost budget when a provider reports negative token counts", async () => {
  await withServer({ faults: { negativeUsage: 1 } }, async (server) => {
    const runtime = new LlmRuntime({
      models: [{
        id: "local",
        baseURL: server.url,
        model: "coordlab-stay",
        testDouble: true,
        maxTokens: 16,
        price: { inputPerMillion: 1, outputPerMillion: 1 },
      }],
    });
    const r = await runGrid({
      episodes: 3,
      blocks: [{
        game: "frail",
        envs: ["bank_run"],
        mechanisms: ["M0"],
        params: [{ horizon: 1 }],
        agents: [{ model: "local" }],
      }],
    }, {
      out: await makeTempDir(),
      runtime,
      concurrency: 1,
      preflight: false,
      budget: { maxCost: 1 },
      progress: false,
    });
    // Before: all 3 episodes ran at a "cost" of -350 per million-token unit.
    assertEquals([r.played, r.remaining, r.stoppedBy, r.usage.cost], [1, 2, "budget", 0]);
    assert(r.stopped!.startsWith("Cost budget cannot be checked: 15 calls have no known cost"));
    // The run's spend counts each such request at its reservation, an upper bound.
    const spent = r.spend!.spent.total;
    assertEquals([spent.requests, spent.unknown, spent.unpriced], [15, 15, 0]);
    assertEquals(spent.cost, spent.tokens / 1e6);
    assert(spent.tokens > 15 * 16);
  });
});

Deno.test("runGrid() refuses a cost budget when a model has no price", async () => {
  const runtime = new LlmRuntime({
    models: [{ id: "local", baseURL: "http://127.0.0.1:9/v1", model: "x" }],
  });
  await assertRejects(
    () =>
      runGrid({
        episodes: 1,
        blocks: [{
          game: "frail",
          envs: ["bank_run"],
          mechanisms: ["M0"],
          agents: [{ model: "local" }],
        }],
      }, { out: "/nonexistent/never-written", runtime, budget: { maxCost: 1 }, progress: false }),
    RangeError,
    'A cost budget needs a price for every model, and model "local" has none',
  );
});

Deno.test("a key echoed in a reply and its reasoning is redacted before the cache and the log", async () => {
  const key = `sk-echo-${crypto.randomUUID()}`;
  await withServer({ apiKey: key, faults: { echoKey: 1 } }, async (server) => {
    const dir = await makeTempDir();
    const { runtime } = runtimeOn(server.url, { apiKeyEnv: "K" }, {
      readEnv: () => key,
      cacheDir: `${dir}/cache`,
    });
    const played = await playSmall(runtime);
    await writeEpisodeLog(`${dir}/ep.ndjson`, played.events);
    const calls = played.events.filter((e) => e.type === "llm_call");
    assertEquals(calls.length, 3);
    for (const c of calls) {
      assert(c.type === "llm_call" && c.content!.endsWith("(request signed with [redacted])"));
      assert(c.type === "llm_call" && c.reasoning!.endsWith("My key is [redacted]."));
    }
    const files = await filesUnder(dir);
    assertEquals(files.length, 4); // the log and 3 cache entries
    for (const f of files) assert(!(await Deno.readTextFile(f)).includes(key), f);
  });
});

Deno.test("credentials inside a base URL never appear in preflight or call errors", async () => {
  const probe = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => {
    return new Response("", { status: 200 });
  });
  const port = probe.addr.port;
  await probe.shutdown(); // a closed port: every request fails to connect
  const baseURL =
    `http://alice:pw-hunter2-secret@127.0.0.1:${port}/v1?api_key=sk-in-url-7777&region=eu`;
  const runtime = new LlmRuntime({
    models: [{ id: "m", baseURL, model: "x", maxRetries: 0 }],
  });
  const err = await assertRejects(() => preflight(runtime), LlmPreflightError) as LlmPreflightError;
  assert(
    err.message.includes(
      `cannot reach http://[redacted]@127.0.0.1:${port}/v1?api_key=[redacted]&region=eu`,
    ),
    err.message,
  );
  const r = await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
  const shown = err.message + JSON.stringify(r) + (runtime.status().fatal ?? "");
  for (const secret of ["pw-hunter2-secret", "sk-in-url-7777", "alice:"]) {
    assert(!shown.includes(secret), `${secret} in ${shown}`);
  }
});

for (
  const [name, header, asked] of [
    ["86400 seconds", "86400", 86_400_000],
    // An HTTP date has whole seconds, so the wait asked for is a little under 7 days.
    ["a date a week ahead", new Date(Date.now() + 7 * 86_400_000).toUTCString(), 6 * 86_400_000],
  ] as const
) {
  Deno.test(`LlmRuntime.complete() caps a Retry-After of ${name} at maxRetryAfterMs and records both`, async () => {
    await withServer({ faults: { rateLimit: 1 }, retryAfter: header }, async (server) => {
      const { runtime, waits } = runtimeOn(server.url, { maxRetries: 1 });
      const r = await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
      assertEquals([r.status, server.stats().chat, waits], ["error", 2, [120_000]]);
      const f = r.failures[0];
      assertEquals([f.kind, f.wait_ms], ["rate_limit", 120_000]);
      assert(f.requested_wait_ms! >= asked, String(f.requested_wait_ms));
      assert(/; waited 120 s, the cap maxRetryAfterMs\)$/.test(f.message), f.message);
      // The cap is configurable per model.
      const short = runtimeOn(server.url, { maxRetries: 1, maxRetryAfterMs: 5000 });
      await short.runtime.complete("m", messages, { call: DEPOSITOR_CALL });
      assertEquals(short.waits, [5000]);
    });
  });
}

Deno.test("a 5 MB reply is cut to 256 Ki characters in a complete log, with a correction, and its report read in full", async () => {
  await withServer({ faults: { hugeReply: 1 }, seed: 4 }, async (server) => {
    const { runtime } = runtimeOn(server.url, { model: "coordlab-run", testDouble: true });
    const played = await playSmall(runtime, 4);
    const path = `${await makeTempDir()}/ep.ndjson`;
    await writeEpisodeLog(path, played.events);
    const log: EngineEvent[] = await readEpisodeLog(path);
    const end = log.at(-1);
    assertEquals(end?.type === "episode_end" && end.status, "ok");
    const calls = log.filter((e) => e.type === "llm_call");
    const notes = log.filter((e) => e.type === "correction" && e.field === "llm_call.content");
    assertEquals([calls.length, notes.length], [3, 3]);
    for (const c of calls) assert(c.type === "llm_call" && c.content!.length === 262_144);
    const note = notes[0];
    assert(note.type === "correction");
    const { chars, kept_chars } = note.applied as { chars: number; kept_chars: number };
    assertEquals(kept_chars, 262_144);
    assert(chars > 5 * 1024 * 1024 && chars < 5 * 1024 * 1024 + 500, String(chars));
    // The "run" policy's answer sits after 5 MB of prose: every depositor still withdraws 100.
    const reports = log.filter((e) => e.type === "report").map((e) =>
      e.type === "report" && e.report.withdraw_probability
    );
    assertEquals(reports, [100, 100, 100]);
    assert((await Deno.stat(path)).size < 2_000_000);
  });
});

Deno.test("LlmRuntime({ maxLoggedReplyChars }) sets where a reply is cut for the log", async () => {
  await withServer({ faults: { hugeReply: 1 }, hugeReplyChars: 5000 }, async (server) => {
    const { runtime } = runtimeOn(server.url, {}, { maxLoggedReplyChars: 1000 });
    const played = await playSmall(runtime);
    const calls = played.events.filter((e) => e.type === "llm_call");
    assert(calls.every((c) => c.type === "llm_call" && c.content!.length === 1000));
  });
});

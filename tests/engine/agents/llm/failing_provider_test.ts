// A failing provider (issue 12, item 1): degraded episodes, the circuit breaker,
// immediate stops on refused keys and wrong endpoints, and preflight's chat request.
import { readRunEpisodes } from "../../../../engine/grid/segments.ts";
import { assert, assertEquals, assertRejects } from "../../../_assert.ts";
import { LlmPreflightError, preflight } from "../../../../engine/agents/llm/preflight.ts";
import { LlmRuntime } from "../../../../engine/agents/llm/runtime.ts";
import type { ChatMessage } from "../../../../engine/agents/llm/prompts/template.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { readManifest } from "../../../../engine/grid/manifest.ts";
import { runGrid } from "../../../../engine/grid/run_grid.ts";
import { DEPOSITOR_CALL, scriptedServer, withServer } from "./_helpers.ts";
import { makeTempDir } from "../../../_temp.ts";

const messages: ChatMessage[] = [{ role: "user", content: "decide" }];
const CLI = new URL("../../../../engine/cli/grid.ts", import.meta.url).pathname;
const ERROR_500 = "500 The server had an error while processing your request";

/** Bank-run episodes of model "local" with three depositors for `horizon` rounds: 3 x horizon calls each. */
function smallSpec(episodes: number, horizon: number) {
  return {
    name: "small",
    episodes,
    blocks: [{
      game: "frail",
      envs: ["bank_run"],
      mechanisms: ["M0"],
      params: [{ depositors: 3, totalDeposits: 3, horizon }],
      agents: [{ model: "local" }],
    }],
  };
}

async function endsOf(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const events of (await readRunEpisodes(dir)).values()) {
    const end = events.at(-1) as EngineEvent;
    out.push(end.type === "episode_end" ? end.status : "none");
  }
  return out;
}

Deno.test("LlmRuntime opens a provider's circuit breaker after maxConsecutiveFailures failed calls; calls then fail with no request", async () => {
  await withServer({ faults: { serverError: 1 } }, async (server) => {
    const runtime = new LlmRuntime({
      models: [{
        id: "m",
        baseURL: server.url,
        model: "coordlab-stay",
        testDouble: true,
        maxRetries: 1,
      }],
      maxConsecutiveFailures: 3,
      sleep: () => Promise.resolve(),
    });
    for (let i = 0; i < 3; i++) {
      assertEquals(
        (await runtime.complete("m", messages, { call: DEPOSITOR_CALL })).status,
        "error",
      );
      assertEquals(runtime.status().fatal === null, i < 2);
    }
    assertEquals(server.stats().chat, 6);
    const provider = `127.0.0.1:${server.port}`;
    const why = `The provider "${provider}" failed 3 calls in a row, so no further request is ` +
      `sent to it (circuit breaker); the last, of model "m": server_error after 2 attempts: ` +
      ERROR_500;
    assertEquals([runtime.status().fatal, runtime.breaker(provider)], [why, why]);
    const after = await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
    assertEquals([after.status, after.attempts, after.error, server.stats().chat], [
      "error",
      0,
      why,
      6,
    ]);
  });
});

Deno.test("LlmRuntime's breaker counts failures in a row only: a success in between resets it", async () => {
  const server = scriptedServer([
    { status: 500 },
    { status: 200, content: "{}" },
    { status: 500 },
    { status: 200, content: "{}" },
    { status: 500 },
    { status: 500 },
    { status: 200, content: "{}" },
  ]);
  try {
    const runtime = new LlmRuntime({
      models: [{ id: "m", baseURL: server.url, model: "x", maxRetries: 0 }],
      maxConsecutiveFailures: 2,
    });
    const statuses: string[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await runtime.complete("m", messages, { call: DEPOSITOR_CALL })).status);
    }
    assertEquals(statuses, ["error", "ok", "error", "ok", "error", "error", "error"]);
    assertEquals(server.requests(), 6); // the 7th call sent nothing
  } finally {
    await server.close();
  }
});

Deno.test("LlmRuntime stops calling a provider at once after a refused key, naming the key variable but not the key", async () => {
  await withServer({ apiKey: "sk-right-4444" }, async (server) => {
    const runtime = new LlmRuntime({
      models: [{
        id: "m",
        baseURL: server.url,
        model: "coordlab-stay",
        testDouble: true,
        apiKeyEnv: "MY_KEY",
      }],
      readEnv: () => "sk-wrong-5555",
    });
    const first = await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
    const second = await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
    // The server refuses before it counts a chat request: one 401, and nothing after it.
    assertEquals([first.status, second.status, server.stats().byStatus], ["error", "error", {
      401: 1,
    }]);
    const fatal = runtime.status().fatal!;
    assert(
      fatal.startsWith(
        `The provider "127.0.0.1:${server.port}" answered 401 to model "m", so no further ` +
          "request is sent to it (check the key in MY_KEY): 401 Incorrect API key provided: [redacted]",
      ),
      fatal,
    );
    assert(!JSON.stringify([first, second, fatal]).includes("sk-wrong-5555"));
  });
});

Deno.test("LlmRuntime stops calling a provider at once after a 404 from a base URL missing /v1", async () => {
  await withServer({}, async (server) => {
    const base = server.url.replace(/\/v1$/, "");
    const runtime = new LlmRuntime({
      models: [{ id: "m", baseURL: base, model: "coordlab-stay", testDouble: true }],
    });
    await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
    await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
    assertEquals(server.stats().chat, 0); // "/chat/completions" is not the chat route
    assertEquals(server.stats().byStatus, { 404: 1 });
    assert(
      runtime.status().fatal!.includes(
        `(check the base URL ${base}/ (OpenAI-compatible APIs usually end in /v1) and the model name "coordlab-stay")`,
      ),
      runtime.status().fatal!,
    );
  });
});

Deno.test("preflight() sends each model one tiny chat request and names a wrong path or a failing provider", async () => {
  await withServer({}, async (good) => {
    await withServer({ faults: { serverError: 1 } }, async (failing) => {
      const runtime = new LlmRuntime({
        models: [
          { id: "ok", baseURL: good.url, model: "coordlab-stay", testDouble: true },
          {
            id: "nov1",
            baseURL: good.url.replace(/\/v1$/, ""),
            model: "coordlab-stay",
            testDouble: true,
          },
          {
            id: "down",
            baseURL: failing.url,
            model: "coordlab-stay",
            testDouble: true,
            maxRetries: 1,
          },
        ],
        sleep: () => Promise.resolve(),
      });
      const err = await assertRejects(
        () => preflight(runtime),
        LlmPreflightError,
      ) as LlmPreflightError;
      assertEquals(err.problems.map((p) => [p.model, p.kind]), [
        ["nov1", "bad_endpoint"],
        ["down", "failed_request"],
      ]);
      assertEquals(
        err.problems[0].message.startsWith(
          `Model "nov1" (provider "127.0.0.1:${good.port}"): the test chat request to ` +
            `http://127.0.0.1:${good.port}/chat/completions was answered 404: check the base URL ` +
            "(OpenAI-compatible APIs usually end in /v1)",
        ),
        true,
        err.problems[0].message,
      );
      assertEquals(
        err.problems[1].message,
        `Model "down" (provider "127.0.0.1:${failing.port}"): the test chat request to ` +
          `${failing.url} failed: server_error after 2 attempts: ${ERROR_500}`,
      );
      // One request each: "ok", "nov1" (a 404, not retried); two for "down" (one retry).
      assertEquals([good.stats().chat, good.stats().byStatus["404"], failing.stats().chat], [
        1,
        2, // the model listing and the chat request of "nov1"
        2,
      ]);
    });
  });
});

Deno.test("runGrid() against a provider that fails every call writes degraded episodes, never ok, stops and names the provider", async () => {
  await withServer({ faults: { serverError: 1 } }, async (server) => {
    const runtime = new LlmRuntime({
      models: [{
        id: "local",
        baseURL: server.url,
        model: "coordlab-stay",
        testDouble: true,
        maxRetries: 1,
      }],
      maxConsecutiveFailures: 3,
      sleep: () => Promise.resolve(),
    });
    const out = await makeTempDir();
    const r = await runGrid(smallSpec(6, 12), {
      out,
      runtime,
      concurrency: 2,
      preflight: false,
      progress: false,
    });
    // Two episodes were in flight when the breaker opened; no other started.
    assertEquals([r.played, r.remaining, r.failed, r.stoppedBy], [2, 4, [], "provider"]);
    assert(
      r.stopped!.startsWith(
        `The provider "127.0.0.1:${server.port}" failed 3 calls in a row, so no further request`,
      ),
      r.stopped!,
    );
    assertEquals(await endsOf(out), ["degraded", "degraded"]);
    // Every one of the 36 decisions of each took its neutral default.
    assertEquals(r.degraded.map((d) => d.counts), [
      { defaults: 36, agent_errors: 36, failed_calls: 36 },
      { defaults: 36, agent_errors: 36, failed_calls: 36 },
    ]);
    // Calls after the breaker opened sent nothing: far fewer requests than 72 calls x 2 attempts.
    assert(server.stats().chat <= 2 * 3 * 2, String(server.stats().chat));
  });
});

Deno.test("runGrid() plays degraded episodes again with redoFailed, and only then", async () => {
  const out = await makeTempDir();
  const spec = smallSpec(2, 2);
  await withServer({ faults: { serverError: 1 } }, async (server) => {
    const runtime = new LlmRuntime({
      models: [{
        id: "local",
        baseURL: server.url,
        model: "coordlab-stay",
        testDouble: true,
        maxRetries: 0,
      }],
    });
    const r = await runGrid(spec, {
      out,
      runtime,
      concurrency: 2,
      preflight: false,
      progress: false,
    });
    assertEquals([r.played, r.degraded.length, r.failed.length], [2, 2, 0]);
  });
  await withServer({}, async (server) => {
    const runtime = new LlmRuntime({
      models: [{ id: "local", baseURL: server.url, model: "coordlab-stay", testDouble: true }],
    });
    const resumed = await runGrid(spec, { out, runtime, progress: false });
    assertEquals([resumed.skipped, resumed.played, await endsOf(out)], [2, 0, [
      "degraded",
      "degraded",
    ]]);
    const redone = await runGrid(spec, { out, runtime, redoFailed: true, progress: false });
    assertEquals([redone.skipped, redone.played, redone.degraded], [0, 2, []]);
    assertEquals(await endsOf(out), ["ok", "ok"]);
  });
});

/** Runs the grid command line on a spec and a models file; returns its exit code and output. */
async function gridCommand(url: string, out: string, extra: string[]) {
  const dir = await makeTempDir();
  await Deno.writeTextFile(`${dir}/spec.json`, JSON.stringify(smallSpec(4, 2)));
  await Deno.writeTextFile(
    `${dir}/models.json`,
    JSON.stringify({
      models: [{
        id: "local",
        baseURL: url,
        model: "coordlab-stay",
        testDouble: true,
        maxRetries: 1,
        backoffMs: 1,
      }],
    }),
  );
  const r = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      CLI,
      "--spec",
      `${dir}/spec.json`,
      "--models",
      `${dir}/models.json`,
      "--out",
      out,
      "--no-progress",
      ...extra,
    ],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: r.code, stdout: text(r.stdout), stderr: text(r.stderr) };
}

Deno.test("the grid command exits non-zero, writes no ok episode and names the provider when every chat request fails", async () => {
  await withServer({ faults: { serverError: 1 } }, async (server) => {
    const provider = `127.0.0.1:${server.port}`;
    // With preflight (the default): refused before any episode, exit 2.
    const out = `${await makeTempDir()}/run`;
    const checked = await gridCommand(server.url, out, []);
    assertEquals(checked.code, 2, checked.stderr);
    assert(
      checked.stderr.includes(
        `Model "local" (provider "${provider}"): the test chat request to ${server.url} failed: ` +
          `server_error after 2 attempts: ${ERROR_500}`,
      ),
      checked.stderr,
    );
    await assertRejects(() => Deno.stat(out), Deno.errors.NotFound); // nothing was written
    // Without preflight: the first episode's calls all fail, it is degraded, and the run stops.
    const unchecked = await gridCommand(server.url, out, ["--no-preflight", "--concurrency", "1"]);
    assertEquals(unchecked.code, 3, unchecked.stderr);
    assertEquals(await endsOf(out), ["degraded"]);
    assert(
      unchecked.stdout.includes(
        `failed (6 calls); the last, to provider "${provider}" (model "local"): ` +
          `server_error after 2 attempts: ${ERROR_500}`,
      ) && unchecked.stdout.includes("\nStopped: Every model call of episode "),
      unchecked.stdout,
    );
    assert(unchecked.stdout.includes("0 failed, 1 degraded"), unchecked.stdout);
  });
});

Deno.test("the grid command records a refused key and exits 3 when every episode was already in flight", async () => {
  await withServer({ apiKey: "sk-right-4444" }, async (server) => {
    const provider = `127.0.0.1:${server.port}`;
    const dir = await makeTempDir();
    const out = `${dir}/run`;
    await Deno.writeTextFile(`${dir}/spec.json`, JSON.stringify(smallSpec(3, 2)));
    await Deno.writeTextFile(
      `${dir}/models.json`,
      JSON.stringify({
        models: [{
          id: "local",
          baseURL: server.url,
          model: "coordlab-stay",
          testDouble: true,
          apiKeyEnv: "MY_KEY",
          maxRetries: 0,
        }],
      }),
    );
    // Three episodes at once: each has started before the first 401 comes back.
    const r = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        CLI,
        "--spec",
        `${dir}/spec.json`,
        "--models",
        `${dir}/models.json`,
        "--out",
        out,
        "--no-progress",
        "--no-preflight",
        "--concurrency",
        "3",
      ],
      env: { NO_COLOR: "1", MY_KEY: "sk-wrong-5555" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(r.stdout);
    assertEquals(r.code, 3, new TextDecoder().decode(r.stderr));
    const why = `The provider "${provider}" answered 401 to model "local", so no further ` +
      "request is sent to it (check the key in MY_KEY): 401 Incorrect API key provided: [redacted]";
    assert(stdout.includes(`\nStopped: ${why}`), stdout);
    assert(stdout.includes("3 played now, 0 failed, 3 degraded"), stdout);
    assert(!stdout.includes("sk-wrong-5555"), stdout);
    const m = (await readManifest(out))!;
    assert(m.sessions[0].stopped!.startsWith(why), m.sessions[0].stopped!);
    assertEquals(await endsOf(out), ["degraded", "degraded", "degraded"]);
  });
});

Deno.test("runGrid() reports a provider found failing after the last episode started (stoppedBy provider)", async () => {
  await withServer({ faults: { serverError: 1 } }, async (server) => {
    const runtime = new LlmRuntime({
      models: [{
        id: "local",
        baseURL: server.url,
        model: "coordlab-stay",
        testDouble: true,
        maxRetries: 0,
      }],
      maxConsecutiveFailures: 2,
    });
    const out = await makeTempDir();
    const r = await runGrid(smallSpec(2, 2), {
      out,
      runtime,
      concurrency: 2,
      preflight: false,
      progress: false,
    });
    assertEquals([r.played, r.remaining, r.interrupted, r.stoppedBy], [2, 0, false, "provider"]);
    assert(
      r.stopped!.startsWith(
        `The provider "127.0.0.1:${server.port}" failed 2 calls in a row, so no further request`,
      ),
      r.stopped!,
    );
    const m = (await readManifest(out))!;
    assertEquals([m.status, m.sessions[0].stopped], ["complete", r.stopped]);
  });
});

// The long group (`deno task test:long`): a 20-episode LLM grid under 20%
// injected faults. Its timeouts cannot race: the client waits 5 s, the local
// server answers a real request in milliseconds, and an injected timeout holds
// its request until the server closes; so every fault the server counts is
// exactly the failure the client logs.
import { assert, assertEquals } from "../../../_assert.ts";
import { serveLocalModel } from "../../../../engine/agents/llm/server/local_server.ts";
import { LlmRuntime } from "../../../../engine/agents/llm/runtime.ts";
import { readEpisodeLog } from "../../../../engine/core/log_file.ts";
import { replayWith } from "../../../../engine/core/replay.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { bankRun } from "../../../../engine/frail/bank_run/environment.ts";
import { runGrid } from "../../../../engine/grid/run_grid.ts";
import { childSpec, filesUnder } from "./_helpers.ts";

/** Every event of the logs in a run folder, by file. */
async function logsIn(dir: string): Promise<Map<string, EngineEvent[]>> {
  const out = new Map<string, EngineEvent[]>();
  for (const f of (await filesUnder(dir)).filter((f) => f.endsWith(".ndjson")).sort()) {
    out.set(f, await readEpisodeLog(f));
  }
  return out;
}

Deno.test("runGrid() completes a 20-episode LLM grid under 20% injected faults with every fault a retry or a correction", async () => {
  const server = serveLocalModel({
    seed: 1,
    faults: { rateLimit: 0.07, serverError: 0.06, timeout: 0.01, malformed: 0.03, truncated: 0.03 },
    retryAfterMs: 20,
    // An injected timeout holds its request far beyond the client's timeout
    // (and is released when the server closes).
    timeoutHoldMs: 120_000,
  });
  try {
    const runtime = new LlmRuntime({
      models: [{
        id: "local",
        baseURL: server.url,
        model: "coordlab-defensive",
        concurrency: 256,
        // Far above any real reply of the local server, even on a loaded
        // machine: only injected timeouts time out, and every 429, 500 or
        // malformed reply arrives before the client gives up on it.
        timeoutMs: 5_000,
        backoffMs: 5,
        maxBackoffMs: 50,
        maxRetries: 8,
      }],
    });
    const out = await Deno.makeTempDir();
    const result = await runGrid(childSpec(5), {
      out,
      runtime,
      concurrency: 10,
      progress: false,
    });
    assertEquals([result.stopped, result.played, result.failed, result.remaining], [
      null,
      20,
      [],
      0,
    ]);
    const events: EngineEvent[] = [];
    const logs = await logsIn(out);
    assertEquals(logs.size, 20);
    for (const [file, log] of logs) {
      assertEquals((await replayWith(bankRun, log)).ok, true, file);
      const end = log.at(-1);
      assertEquals(end?.type === "episode_end" && end.status, "ok", file);
      events.push(...log);
    }
    const calls = events.filter((e) => e.type === "llm_call");
    const failures = calls.flatMap((c) => c.type === "llm_call" ? c.failures : []);
    const f = server.stats().faults;
    const byKind = (k: string) => failures.filter((x) => x.kind === k).length;
    // Every 429, 500 and timeout the server injected is a logged failed attempt.
    assertEquals([byKind("rate_limit"), byKind("server_error"), byKind("timeout")], [
      f.rate_limit,
      f.server_error,
      f.timeout,
    ]);
    assertEquals(byKind("connection") + byKind("client_error"), 0);
    // Every malformed or truncated reply is a logged whole-reply correction with the raw text.
    const wholeReply = events.filter((e) =>
      e.type === "correction" && e.field === "*" && e.raw !== null
    );
    assertEquals(wholeReply.length, f.malformed + f.truncated);
    // Calls that failed after their last retry are agent errors with neutral defaults; none here.
    assertEquals(events.filter((e) => e.type === "agent_error").length, result.usage.failedCalls);
    assertEquals(server.stats().chat, calls.length + failures.length);
    assertEquals(result.usage.calls, calls.length);
    assert(
      f.rate_limit > 0 && f.server_error > 0 && f.timeout > 0 && f.malformed + f.truncated > 0,
      JSON.stringify(f),
    );
    const total = f.rate_limit + f.server_error + f.timeout + f.malformed + f.truncated;
    const rate = total / server.stats().chat;
    assert(rate > 0.15 && rate < 0.25, `fault rate ${rate}`);
  } finally {
    await server.close();
  }
});

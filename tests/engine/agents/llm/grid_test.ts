import { assert, assertEquals } from "../../../_assert.ts";
import { serveLocalModel } from "../../../../engine/agents/llm/server/local_server.ts";
import { LlmRuntime } from "../../../../engine/agents/llm/runtime.ts";
import { runLlmGrid } from "../../../../engine/agents/llm/run_grid.ts";
import { dryRunGrid } from "../../../../engine/agents/llm/dry_run.ts";
import { formatProgress } from "../../../../engine/agents/llm/progress.ts";
import { readEpisodeLog } from "../../../../engine/core/log_file.ts";
import { replayWith } from "../../../../engine/core/replay.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { bankRun } from "../../../../engine/frail/bank_run/environment.ts";
import { childGrid } from "./_helpers.ts";

Deno.test("runLlmGrid() completes a 20-episode grid under 20% injected faults with every fault a retry or a correction", async () => {
  const server = serveLocalModel({
    seed: 1,
    faults: { rateLimit: 0.07, serverError: 0.06, timeout: 0.01, malformed: 0.03, truncated: 0.03 },
    retryAfterMs: 20,
    timeoutHoldMs: 3000,
  });
  try {
    const runtime = new LlmRuntime({
      models: [{
        id: "local",
        baseURL: server.url,
        model: "coordlab-defensive",
        concurrency: 256,
        timeoutMs: 500,
        backoffMs: 5,
        maxBackoffMs: 50,
        maxRetries: 8,
      }],
    });
    const outDir = await Deno.makeTempDir();
    const result = await runLlmGrid(childGrid(20), {
      runtime,
      models: "local",
      outDir,
      run: "faults",
      episodeConcurrency: 10,
    });
    assertEquals(result.stopped, null);
    assertEquals(result.episodes.map((e) => e.status), Array(20).fill("ok"));
    const events: EngineEvent[] = [];
    for (const e of result.episodes) {
      const log = await readEpisodeLog(e.logPath!);
      assertEquals((await replayWith(bankRun, log)).ok, true, e.episode);
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

Deno.test("runLlmGrid() stops starting episodes once the token budget is reached, and says so", async () => {
  const server = serveLocalModel();
  try {
    const runtime = new LlmRuntime({
      models: [{ id: "local", baseURL: server.url, model: "coordlab-stay" }],
    });
    const lines: string[] = [];
    const result = await runLlmGrid(childGrid(4), {
      runtime,
      models: "local",
      episodeConcurrency: 1,
      budget: { maxTokens: 10_000 },
      onProgress: (p) => lines.push(formatProgress(p)),
    });
    assertEquals(result.episodes.map((e) => e.status), [
      "ok",
      "not_started",
      "not_started",
      "not_started",
    ]);
    assert(result.stopped!.startsWith("Token budget reached: "), result.stopped!);
    assert(lines.at(-1)!.includes("STOPPED: Token budget reached"), lines.at(-1)!);
    assertEquals(result.usage.calls, server.stats().chat);
  } finally {
    await server.close();
  }
});

Deno.test("runLlmGrid() progress says when calls wait on a rate limit or for a retry", async () => {
  const server = serveLocalModel({ faults: { rateLimit: 0.3 }, retryAfterMs: 1 });
  try {
    const runtime = new LlmRuntime({
      models: [{ id: "local", baseURL: server.url, model: "coordlab-stay", requestsPerMinute: 20 }],
      // A minute-long rate-limit wait passes in 2 ms here.
      sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 2))),
    });
    const lines = new Set<string>();
    await runLlmGrid([{ env: "bank_run", mechanism: "M0", seed: 0, params: { horizon: 2 } }], {
      runtime,
      models: "local",
      onProgress: (p) => lines.add(formatProgress(p)),
    });
    const all = [...lines].join("\n");
    assert(all.includes("waiting on rate limit: "), all);
    assert(/retrying: \d+ \(last: 429 from "local"/.test(all), all);
  } finally {
    await server.close();
  }
});

Deno.test("dryRunGrid() counts the same calls and prompt tokens the real run sends, with no request", async () => {
  const server = serveLocalModel({ seed: 6 });
  try {
    const models = [{
      id: "local",
      baseURL: server.url,
      model: "coordlab-defensive",
      maxTokens: 1000,
      price: { inputPerMillion: 2, outputPerMillion: 8 },
    }];
    const grid = [
      { env: "bank_run" as const, mechanism: "M1" as const, seed: 6 },
      { env: "bank_run" as const, mechanism: "M3" as const, seed: 6 },
    ];
    const plan = await dryRunGrid(grid, { models, assignment: "local" });
    assertEquals(server.stats().requests, 0);
    const runtime = new LlmRuntime({ models });
    const real = await runLlmGrid(grid, { runtime, models: "local", preflight: false });
    assertEquals(plan.calls, real.usage.calls);
    assertEquals(plan.promptTokens, real.usage.tokensIn);
    assertEquals(plan.maxCompletionTokens, plan.calls * 1000);
    assertEquals(plan.minCost, plan.promptTokens * 2 / 1e6);
    assertEquals(plan.maxCost, (plan.promptTokens * 2 + plan.calls * 1000 * 8) / 1e6);
    assert(real.usage.cost > plan.minCost! && real.usage.cost < plan.maxCost!);
  } finally {
    await server.close();
  }
});

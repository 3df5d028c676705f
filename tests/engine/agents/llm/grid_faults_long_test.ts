// The long group (`deno task test:long`): a 20-episode LLM grid under 20%
// injected faults. Nothing in it can race: no timeouts are injected and the
// client's timeout is one no reply of the local server can reach, so which
// attempts fail is decided by the seeded fault draws alone (timeouts are
// tested apart, against a server that never answers).
import { assert, assertEquals } from "../../../_assert.ts";
import { serveLocalModel } from "../../../../engine/agents/llm/server/local_server.ts";
import { LlmRuntime } from "../../../../engine/agents/llm/runtime.ts";
import { replayWith } from "../../../../engine/core/replay.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { bankRun } from "../../../../engine/games/bank_run/environment.ts";
import { runGrid } from "../../../../engine/grid/run_grid.ts";
import { readRunEpisodes } from "../../../../engine/grid/segments.ts";
import { childSpec } from "./_helpers.ts";
import { makeTempDir } from "../../../_temp.ts";

/** Every event of the logs in a run folder, by episode. */
const logsIn = readRunEpisodes;

Deno.test("runGrid() completes a 20-episode LLM grid under 20% injected faults with every fault a retry or a correction", async () => {
  // No timeout faults and a client timeout no answer can reach: which attempts fail is decided by
  // the seeded fault draws alone, never by how busy the machine is (timeouts are tested apart,
  // against a server that never answers).
  const server = serveLocalModel({
    seed: 1,
    faults: {
      rateLimit: 0.06,
      serverError: 0.06,
      malformed: 0.03,
      truncated: 0.03,
      noChoices: 0.01,
      htmlBody: 0.01,
    },
    retryAfterMs: 1,
  });
  try {
    const runtime = new LlmRuntime({
      models: [{
        id: "local",
        baseURL: server.url,
        model: "coordlab-defensive",
        testDouble: true,
        concurrency: 256,
        timeoutMs: 600_000,
        backoffMs: 1,
        maxBackoffMs: 5,
        maxRetries: 8,
      }],
    });
    const out = await makeTempDir();
    const result = await runGrid(childSpec(5), {
      out,
      runtime,
      concurrency: 10,
      progress: false,
      preflight: false, // so that every request the server counts belongs to an episode
    });
    assertEquals(
      [result.stopped, result.played, result.failed, result.degraded, result.remaining],
      [null, 20, [], [], 0],
    );
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
    // Every 429, 500 and hostile 200 (no choices, an HTML page) is a logged failed attempt.
    assertEquals(
      [byKind("rate_limit"), byKind("server_error"), byKind("invalid_response")],
      [f.rate_limit, f.server_error, f.no_choices + f.html_body],
    );
    assertEquals(byKind("timeout") + byKind("connection") + byKind("client_error"), 0);
    // Every malformed or truncated reply is a logged whole-reply correction with the raw text.
    const wholeReply = events.filter((e) =>
      e.type === "correction" && e.field === "*" && e.raw !== null
    );
    assertEquals(wholeReply.length, f.malformed + f.truncated);
    // No call failed after its last retry, so no decision is a default for want of a reply.
    assertEquals(
      [events.filter((e) => e.type === "agent_error").length, result.usage.failedCalls],
      [
        0,
        0,
      ],
    );
    assertEquals(server.stats().chat, calls.length + failures.length);
    assertEquals(result.usage.calls, calls.length);
    assert(
      f.rate_limit > 0 && f.server_error > 0 && f.malformed + f.truncated > 0 &&
        f.no_choices > 0 && f.html_body > 0,
      JSON.stringify(f),
    );
    const total = Object.values(f).reduce((a, b) => a + b, 0);
    const rate = total / server.stats().chat;
    assert(rate > 0.15 && rate < 0.25, `fault rate ${rate}`);
  } finally {
    await server.close();
  }
});

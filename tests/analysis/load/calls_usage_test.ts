// The calls frame (one row per model call, from the llm_call events) and the
// episodes frame's usage columns, on grids played against the local model
// server: token sums and costs against the runtime's own ledger and the
// configured price.
import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import {
  type LocalServer,
  serveLocalModel,
} from "../../../engine/agents/llm/server/local_server.ts";
import { LlmRuntime } from "../../../engine/agents/llm/runtime.ts";
import { type GridResult, runGrid } from "../../../engine/grid/run_grid.ts";
import { loadRuns } from "../../../analysis/mod.ts";
import type { LoadedFrames } from "../../../analysis/load/load_runs.ts";
import { episodeEvents, EPISODES, ndjson } from "../_fixture.ts";
import { tempDirRunner } from "../_temp_dir.ts";

const withTempDir = tempDirRunner("coordlab_calls_");

/**
 * One bank-run episode per regime (stable, contraction) and model: `priced`
 * costs 1 per thousand prompt tokens and 2 per thousand completion tokens
 * (costs compared at 1e-9), `free` has no price.
 */
const SPEC = {
  episodes: 1,
  blocks: [{
    game: "frail",
    envs: ["bank_run"],
    mechanisms: ["M0"],
    regimes: ["stable", "contraction"],
    params: [{ horizon: 2 }],
    agents: [{ model: "priced" }, { model: "free" }],
  }],
};

async function playGrid(
  out: string,
  options: { faults?: Record<string, number>; cacheDir?: string; server?: LocalServer } = {},
): Promise<{ result: GridResult; frames: LoadedFrames<"calls">; chat: number }> {
  const server = options.server ?? serveLocalModel({ faults: options.faults });
  try {
    const runtime = new LlmRuntime({
      models: [
        {
          id: "priced",
          baseURL: server.url,
          model: "coordlab-stay",
          testDouble: true,
          price: { inputPerMillion: 1_000, outputPerMillion: 2_000 },
        },
        { id: "free", baseURL: server.url, model: "coordlab-stay", testDouble: true },
      ],
      cacheDir: options.cacheDir ?? null,
    });
    const result = await runGrid(SPEC, { out, runtime, progress: false });
    const frames = await loadRuns(out, { frames: ["calls"] });
    return { result, frames, chat: server.stats().chat };
  } finally {
    if (options.server === undefined) await server.close();
  }
}

const sum = (df: pl.DataFrame, column: string) => Number(df.select(pl.col(column).sum()).row(0)[0]);

Deno.test("loadRuns() gives one calls row per model call with its model, tokens, cost and latency", async () => {
  await withTempDir(async (dir) => {
    const { result, frames, chat } = await playGrid(dir);
    const calls = frames.calls;
    // Every model call the runtime made (preflight's test request is not an episode's).
    assert.equal(calls.height, result.usage.calls);
    assert.equal(calls.height + 2, chat);
    assert.equal(calls.height, 4 * 30);
    assert.deepEqual(calls.columns, [
      "run",
      "episode",
      "game",
      "env",
      "mechanism",
      "regime",
      "overrides_id",
      "model",
      "round",
      "step",
      "seq",
      "agent",
      "role",
      "call",
      "status",
      "message",
      "model_id",
      "provider",
      "provider_model",
      "cache",
      "attempts",
      "tokens_in",
      "tokens_out",
      "tokens_reasoning",
      "cost",
      "currency",
      "latency_ms",
      "wall_ms",
      "finish_reason",
      "usage_warning",
      "error",
    ]);
    const first = calls.head(1).toRecords()[0];
    assert.deepEqual(
      [first.agent, first.role, first.call, first.status, first.model_id, first.provider_model],
      [
        "dep_01",
        "depositor",
        "withdrawal",
        "ok",
        first.model === "llm:free" ? "free" : "priced",
        "coordlab-stay",
      ],
    );
    assert.deepEqual([first.cache, first.attempts, first.finish_reason, first.message], [
      "off",
      1,
      "stop",
      null,
    ]);
    assert.equal(typeof first.latency_ms, "number");
    // Token sums are the runtime ledger's, exactly.
    assert.equal(sum(calls, "tokens_in"), result.usage.tokensIn);
    assert.equal(sum(calls, "tokens_out"), result.usage.tokensOut);
    assert.equal(sum(calls, "tokens_reasoning"), result.usage.tokensReasoning);
    assert.deepEqual(
      [result.usage.tokensIn, result.usage.tokensOut, result.usage.tokensReasoning],
      [4 * 21210, 4 * 780, 4 * 360],
    );
    // cost = (tokens_in + 2 tokens_out) / 1000 for `priced`, null for `free`.
    const byModel = calls.groupBy("model_id").agg(
      pl.col("cost").sum().round(9).alias("cost"),
      pl.col("cost").nullCount().alias("unpriced"),
      pl.len().alias("n"),
    ).sort("model_id").toRecords();
    assert.deepEqual(byModel, [
      { model_id: "free", cost: 0, unpriced: 60, n: 60 },
      { model_id: "priced", cost: 2 * (21210 + 2 * 780) / 1000, unpriced: 0, n: 60 },
    ]);
    assert.ok(Math.abs(result.usage.cost - 2 * (21210 + 2 * 780) / 1000) < 1e-9);
    const priced = calls.filter(pl.col("model_id").eq(pl.lit("priced")));
    assert.deepEqual(
      priced.select(
        pl.col("cost").mul(1000).sub(pl.col("tokens_in").add(pl.col("tokens_out").mul(2))).abs()
          .lt(1e-9).all(),
      )
        .row(0),
      [true],
    );
  });
});

Deno.test("loadRuns() episodes sum their model calls' tokens and cost, null when the cost is unknown", async () => {
  await withTempDir(async (dir) => {
    const { frames } = await playGrid(dir);
    const rows = frames.episodes.sort(["model", "regime"]).select(
      "model",
      "regime",
      "model_calls",
      "tokens_in",
      "tokens_out",
      "tokens_reasoning",
      "cost",
    ).toRecords().map((r) => ({
      ...r,
      cost: r.cost === null ? null : Math.round((r.cost as number) * 1e9) / 1e9,
    }));
    const usage = { model_calls: 30, tokens_in: 21210, tokens_out: 780, tokens_reasoning: 360 };
    assert.deepEqual(rows, [
      { model: "llm:free", regime: "contraction", ...usage, cost: null },
      { model: "llm:free", regime: "stable", ...usage, cost: null },
      { model: "llm:priced", regime: "contraction", ...usage, cost: (21210 + 2 * 780) / 1000 },
      { model: "llm:priced", regime: "stable", ...usage, cost: (21210 + 2 * 780) / 1000 },
    ]);
    assert.equal(frames.episodes.getColumn("model_calls").dtype.variant, "Int64");
    // The episode sums are the calls frame's, per episode.
    const fromCalls = frames.calls.groupBy("episode").agg(pl.len().alias("n")).sort("episode");
    assert.deepEqual(
      fromCalls.getColumn("n").toArray(),
      frames.episodes.sort("episode").getColumn("model_calls").toArray(),
    );
  });
});

Deno.test("loadRuns() counts cache hits' tokens at cost 0 in calls and episodes", async () => {
  await withTempDir(async (dir) => {
    const cacheDir = `${dir}/cache`;
    const server = serveLocalModel();
    let loaded: LoadedFrames<"calls">;
    try {
      const first = await playGrid(`${dir}/first`, { cacheDir, server });
      const second = await playGrid(`${dir}/second`, { cacheDir, server });
      // Only preflight's test requests went to the network the second time.
      assert.equal(second.chat - first.chat, 2);
      loaded = second.frames;
    } finally {
      await server.close();
    }
    const frames = loaded;
    const calls = frames.calls;
    assert.deepEqual(calls.getColumn("cache").unique().toArray(), ["hit"]);
    assert.deepEqual(calls.getColumn("attempts").unique().toArray(), [0]);
    assert.equal(sum(calls, "tokens_in"), 4 * 21210);
    assert.deepEqual(calls.getColumn("cost").unique().toArray(), [0]);
    assert.deepEqual(frames.episodes.getColumn("cost").toArray(), [0, 0, 0, 0]);
  });
});

Deno.test("loadRuns() leaves the tokens of a call without valid counts null, never 0", async () => {
  await withTempDir(async (dir) => {
    const { frames, result } = await playGrid(dir, { faults: { negativeUsage: 1 } });
    const calls = frames.calls;
    assert.equal(calls.height, 120);
    assert.equal(calls.filter(pl.col("usage_warning").isNotNull()).height, 120);
    assert.equal(calls.getColumn("tokens_in").nullCount(), 120);
    assert.equal(calls.getColumn("cost").nullCount(), 120);
    assert.equal(result.usage.invalidUsageCalls, 120);
    const episodes = frames.episodes.select("model_calls", "tokens_in", "tokens_out", "cost");
    assert.deepEqual(
      episodes.toRecords(),
      Array(4).fill({
        model_calls: 30,
        tokens_in: null,
        tokens_out: null,
        cost: null,
      }),
    );
  });
});

/** An llm_call event as the runner logs it, before the report of `agent`'s call. */
function llmCall(
  at: Record<string, unknown>,
  agent: string,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  return {
    schema: 2,
    run: at.run,
    episode: at.episode,
    round: at.round,
    step: at.step,
    seq: at.seq,
    time: at.time,
    type: "llm_call",
    agent,
    call: "withdrawal",
    model: "m",
    provider: "p",
    provider_model: "pm",
    status: "ok",
    cache: "miss",
    attempts: 1,
    failures: [],
    latency_ms: 12.5,
    wall_ms: 13,
    tokens_in: 100,
    tokens_out: 10,
    tokens_reasoning: 2,
    cost: 0.5,
    finish_reason: "stop",
    content: '{"withdraw_probability": 40}',
    reasoning: null,
    prompt_hash: "h",
    cache_key: "k",
    error: null,
    usage_warning: null,
    ...fields,
  };
}

Deno.test("loadRuns() gives a failed agent call one calls row, and a call cut off before its report its row", async () => {
  await withTempDir(async (dir) => {
    const events = episodeEvents(EPISODES[0]) as unknown as Record<string, unknown>[];
    const [first, second] = events.filter((e) => e.type === "report");
    const failed = llmCall(first, "dep_01", {
      status: "error",
      attempts: 3,
      tokens_in: 0,
      tokens_out: 0,
      tokens_reasoning: 0,
      cost: 0,
      finish_reason: null,
      content: null,
      error: "HTTP 500 from p",
    });
    const agentError = {
      ...Object.fromEntries(
        ["schema", "run", "episode", "round", "step", "seq", "time"].map((k) => [k, first[k]]),
      ),
      type: "agent_error",
      agent: "dep_01",
      call: "withdrawal",
      status: "error",
      message: "Model call failed after 3 attempts",
    };
    const ok = llmCall(second, "dep_02", {});
    const at = events.indexOf(first);
    events.splice(at, 0, failed, agentError);
    events.splice(events.indexOf(second), 0, ok);
    // A log cut after a model call whose report was never written.
    const cut = events.slice(0, -1);
    const dangling = llmCall({ ...second, round: 2, seq: 99 }, "dep_01", { tokens_in: 7 });
    await Deno.writeTextFile(`${dir}/E1.ndjson`, ndjson([...cut, dangling]));
    const { calls, episodes, malformed } = await loadRuns(dir, { frames: ["calls"], strict: true });
    assert.deepEqual(malformed, []);
    const rows = calls.select(
      "round",
      "agent",
      "role",
      "status",
      "message",
      "model_id",
      "attempts",
      "tokens_in",
      "cost",
      "error",
    ).toRecords();
    assert.deepEqual(rows, [
      {
        round: 1,
        agent: "dep_01",
        role: "depositor",
        status: "error",
        message: "Model call failed after 3 attempts",
        model_id: "m",
        attempts: 3,
        tokens_in: 0,
        cost: 0,
        error: "HTTP 500 from p",
      },
      {
        round: 1,
        agent: "dep_02",
        role: "depositor",
        status: "ok",
        message: null,
        model_id: "m",
        attempts: 1,
        tokens_in: 100,
        cost: 0.5,
        error: null,
      },
      // Round 2's reports of a rule-based agent: no model call behind them.
      ...["dep_01", "dep_02"].map((agent) => ({
        round: 2,
        agent,
        role: "depositor",
        status: "ok",
        message: null,
        model_id: null,
        attempts: null,
        tokens_in: null,
        cost: null,
        error: null,
      })),
      {
        round: 2,
        agent: "dep_01",
        role: "depositor",
        status: "ok",
        message: null,
        model_id: "m",
        attempts: 1,
        tokens_in: 7,
        cost: 0.5,
        error: null,
      },
    ]);
    assert.deepEqual(
      episodes.select("status", "model_calls", "tokens_in", "tokens_out", "cost").toRecords(),
      [{ status: "incomplete", model_calls: 3, tokens_in: 107, tokens_out: 20, cost: 1 }],
    );
  });
});

Deno.test("loadRuns() builds the same calls and usage columns in worker threads as in one", async () => {
  await withTempDir(async (dir) => {
    for (let i = 0; i < 40; i++) {
      const events = episodeEvents({
        ...EPISODES[i % 7],
        episode: `E${i + 1}`,
      }) as unknown as Record<
        string,
        unknown
      >[];
      const out: Record<string, unknown>[] = [];
      for (const e of events) {
        if (e.type === "report") {
          out.push(llmCall(e, e.agent as string, { tokens_in: i, cost: i % 3 === 0 ? null : i }));
        }
        out.push(e);
      }
      await Deno.writeTextFile(`${dir}/E${i + 1}.ndjson`, ndjson(out));
    }
    const one = await loadRuns(dir, { frames: ["calls"], workers: 1 });
    const four = await loadRuns(dir, { frames: ["calls"], workers: 4 });
    assert.deepEqual(four.calls.toRecords(), one.calls.toRecords());
    assert.deepEqual(four.episodes.toRecords(), one.episodes.toRecords());
    const e5 = one.episodes.filter(pl.col("episode").eq(pl.lit("E5"))).toRecords()[0];
    // E5 repeats the fixture's E5: one report, with tokens_in 4 and cost 4.
    assert.deepEqual([e5.model_calls, e5.tokens_in, e5.cost], [1, 4, 4]);
    const e1 = one.episodes.filter(pl.col("episode").eq(pl.lit("E1"))).toRecords()[0];
    assert.deepEqual([e1.model_calls, e1.tokens_in, e1.cost], [4, 0, null]);
  });
});

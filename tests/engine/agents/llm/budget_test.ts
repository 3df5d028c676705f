// Money-safe LLM runs (issue 18): reserve before send, settle to what was
// billed, the spend ledger of a run folder, and the halts they cause.
import { assert, assertEquals, assertRejects, assertThrows } from "../../../_assert.ts";
import {
  budgetExhausted,
  emptySpendTotals,
  emptyTotals,
  spendExhausted,
  type SpendLine,
} from "../../../../engine/agents/llm/accounting.ts";
import { LlmRuntime } from "../../../../engine/agents/llm/runtime.ts";
import {
  readSpendLedger,
  SPEND_LEDGER_FILE,
  SpendLedger,
} from "../../../../engine/agents/llm/spend_ledger.ts";
import type { ChatMessage } from "../../../../engine/agents/llm/prompts/template.ts";
import { isEpisodeAbandoned } from "../../../../engine/core/abandon.ts";
import { gridSummary } from "../../../../engine/grid/grid_summary.ts";
import { readManifest } from "../../../../engine/grid/manifest.ts";
import { runGrid } from "../../../../engine/grid/run_grid.ts";
import { billingDouble, localModel, PRICE } from "./_billing_double.ts";
import { DEPOSITOR_CALL, scriptedServer } from "./_helpers.ts";
import { makeTempDir } from "../../../_temp.ts";

const messages: ChatMessage[] = [{ role: "user", content: "decide" }];
/** UTF-8 bytes of `messages` as JSON: the prompt part of each reservation. */
const BYTES = 36;

/** Bank-run episodes of three depositors for one round: 3 calls each. */
function spec(episodes: number) {
  return {
    name: "inflight",
    episodes,
    blocks: [{
      game: "frail",
      envs: ["bank_run"],
      mechanisms: ["M0"],
      params: [{ depositors: 3, totalDeposits: 3, horizon: 1 }],
      agents: [{ model: "local" }],
    }],
  };
}

/** A runtime of one priced model, "local", at the billing double's URL: completions capped at 100. */
function pricedRuntime(url: string): LlmRuntime {
  return new LlmRuntime({ models: [localModel(url, PRICE)] });
}

Deno.test("runGrid() with 8 episodes and 8 requests in flight never bills past a token budget of a few requests", async () => {
  const double = billingDouble(PRICE, 30);
  try {
    const runtime = new LlmRuntime({ models: [localModel(double.url)] });
    const limit = 5 * 3000; // about five requests of this game
    const r = await runGrid(spec(8), {
      out: await makeTempDir(),
      runtime,
      concurrency: 8,
      budget: { maxTokens: limit },
      progress: false,
    });
    const billed = double.billed();
    assert(billed.tokens <= limit, `billed ${billed.tokens} tokens past ${limit}`);
    assert(billed.requests >= 3, `only ${billed.requests} requests`);
    assertEquals(r.stoppedBy, "budget");
    assert(r.interrupted && r.remaining >= 7, JSON.stringify(r));
    // The double bills each request's reservation: spend is exact.
    assertEquals(r.spend!.spent.total.tokens, billed.tokens);
    assertEquals(r.spend!.spent.total.requests, billed.requests);
    assertEquals(r.spend!.remaining, { tokens: limit - billed.tokens, cost: null });
  } finally {
    await double.close();
  }
});

Deno.test("runGrid() with 8 requests in flight never bills past a cost budget of a few requests", async () => {
  const double = billingDouble(PRICE, 30);
  try {
    const runtime = pricedRuntime(double.url);
    const r = await runGrid(spec(8), {
      out: await makeTempDir(),
      runtime,
      concurrency: 8,
      budget: { maxCost: 0.5 },
      progress: false,
    });
    const billed = double.billed();
    assert(billed.cost <= 0.5, `billed ${billed.cost} past 0.5`);
    assert(billed.requests >= 3, `only ${billed.requests} requests`);
    assertEquals(r.stoppedBy, "budget");
    assert(Math.abs(r.spend!.spent.total.cost - billed.cost) < 1e-12);
    // The summary says what the run spent, its limit and what is left.
    const rows = gridSummary(r)["text/plain"].split("\n");
    const spent = r.spend!.spent.total;
    assert(
      rows.includes(
        `  spent        ${spent.tokens} tokens, estimated cost ${
          spent.cost.toFixed(4)
        }, ${spent.requests} requests, every session`,
      ),
      rows.join("\n"),
    );
    assert(
      rows.includes(
        `  limit        cost 0.5 (${(0.5 - spent.cost).toFixed(4)} left), for the whole run`,
      ),
      rows.join("\n"),
    );
  } finally {
    await double.close();
  }
});

Deno.test("runGrid() abandoned with requests in flight counts them at their reservation in its spend, as its resume will", async () => {
  // The preflight's request (the first) is answered at once; the episodes' are
  // held 1.5 s, so they are in flight when the run is abandoned (the run does
  // not wait out the preflight's 1.5 s first).
  const double = billingDouble(PRICE, (request) => request === 1 ? 0 : 1500);
  try {
    const runtime = pricedRuntime(double.url);
    const out = await makeTempDir();
    const signal = new AbortController();
    const abandon = new AbortController();
    const interrupt = (async () => {
      // A second interrupt once requests are out: nothing waits for their replies.
      while (double.billed().requests < 4) await new Promise((r) => setTimeout(r, 5));
      signal.abort();
      abandon.abort();
    })();
    const r = await runGrid(spec(4), {
      out,
      runtime,
      concurrency: 4,
      budget: { maxCost: 10 },
      progress: false,
      signal: signal.signal,
      abandon: abandon.signal,
    });
    await interrupt;
    const s = r.spend!;
    assert(r.interrupted && s.inFlight >= 3, JSON.stringify(s));
    // What the next session reads from the ledger (the requests never settle
    // there: the run has returned), to the request, token and cost.
    const ledger = readSpendLedger(`${out}/${SPEND_LEDGER_FILE}`);
    assertEquals(ledger.unsettled, s.inFlight);
    assertEquals(s.spent, ledger.spend);
    assertEquals(s.session.total.requests, ledger.spend.total.requests);
    assertEquals(s.remaining, { tokens: null, cost: 10 - ledger.spend.total.cost });
    assertEquals(s.spent.total.unknown, s.inFlight);
    // The double bills each request's worst case, as reserved.
    assertEquals(s.spent.total.tokens, double.billed().tokens);
    const manifest = (await readManifest(out))!;
    assertEquals(manifest.spend!.spent, ledger.spend.total);
    assertEquals(manifest.spend!.remaining, s.remaining);
    assertEquals(manifest.sessions[0].spent, ledger.spend.total);
  } finally {
    await double.close();
  }
});

Deno.test("LlmRuntime counts the usage of a 200 it rejected, in the record, the budget and the ledger", async () => {
  const unusable = JSON.stringify({
    object: "chat.completion",
    choices: [],
    usage: { prompt_tokens: 40, completion_tokens: 10, total_tokens: 50 },
  });
  const server = scriptedServer([{ raw: unusable, contentType: "application/json" }]);
  try {
    const runtime = new LlmRuntime({
      models: [{
        id: "m",
        baseURL: server.url,
        model: "x",
        maxRetries: 1,
        maxTokens: 20,
        price: { inputPerMillion: 1000, outputPerMillion: 2000 },
      }],
      sleep: () => Promise.resolve(),
    });
    const lines: SpendLine[] = [];
    runtime.useBudget({ record: (l) => lines.push(l) });
    const r = await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
    // Two attempts, both billed 40 + 10 tokens; before, the record said 0.
    assertEquals([r.status, r.attempts, r.tokens_in, r.tokens_out, r.cost], [
      "error",
      2,
      80,
      20,
      (80 * 1000 + 20 * 2000) / 1e6,
    ]);
    assertEquals(runtime.ledger.run().billedTokens, 100);
    assertEquals(runtime.budgetStatus()!.spent.total.tokens, 100);
    assertEquals(lines.map((l) => [l.type, l.tokens_in, l.tokens_out]), [
      ["reserve", BYTES, 20],
      ["settle", 40, 10],
      ["reserve", BYTES, 20],
      ["settle", 40, 10],
    ]);
  } finally {
    await server.close();
  }
});

Deno.test("LlmRuntime counts the paid attempts of a call whose retry the budget refused", async () => {
  const unusable = JSON.stringify({
    object: "chat.completion",
    choices: [],
    usage: { prompt_tokens: 40, completion_tokens: 10, total_tokens: 50 },
  });
  const server = scriptedServer([{ raw: unusable, contentType: "application/json" }]);
  try {
    const runtime = new LlmRuntime({
      models: [{ id: "m", baseURL: server.url, model: "x", maxRetries: 3, maxTokens: 20 }],
      sleep: () => Promise.resolve(),
    });
    // The first attempt (56 reserved) fits; it bills 50, and a retry (56 more) does not.
    runtime.useBudget({ limit: { maxTokens: 100 } });
    const err = await assertRejects(() =>
      runtime.complete("m", messages, { episode: "ep1", call: DEPOSITOR_CALL })
    );
    assert(isEpisodeAbandoned(err));
    assertEquals(server.requests(), 1);
    const ep = runtime.ledger.episode("ep1");
    assertEquals([ep.calls, ep.failedCalls, ep.billedTokens], [1, 1, 50]);
    assertEquals(runtime.budgetStatus()!.spent.total.tokens, 50);
  } finally {
    await server.close();
  }
});

Deno.test("LlmRuntime sends no request whose reservation does not fit, and halts with the budget", async () => {
  const server = scriptedServer([{ status: 200, content: "{}" }]);
  try {
    const runtime = new LlmRuntime({
      models: [{ id: "m", baseURL: server.url, model: "x", maxTokens: 20 }],
    });
    // Each request reserves 36 + 20 tokens and bills 11 + 7 (the scripted usage):
    // after two, 36 are billed and a third reservation needs one more than is left.
    runtime.useBudget({ limit: { maxTokens: 2 * 18 + BYTES + 20 - 1 } });
    await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
    await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
    const err = await assertRejects(() =>
      runtime.complete("m", messages, { call: DEPOSITOR_CALL })
    );
    assert(isEpisodeAbandoned(err));
    assertEquals(
      (err as Error).message,
      'Token budget reached: the next request to model "m" may bill up to 56 tokens (its ' +
        "prompt's 36 bytes plus its cap of 20), and 55 of the 91 are left (36 billed, 0 " +
        "reserved by requests in flight)",
    );
    assertEquals(runtime.status().halt?.by, "budget");
    assertEquals([server.requests(), runtime.budgetStatus()!.spent.total.tokens], [2, 36]);
  } finally {
    await server.close();
  }
});

Deno.test("LlmRuntime answers cache hits with no reservation, while a new request must fit", async () => {
  const server = scriptedServer([{ status: 200, content: "{}" }]);
  try {
    const runtime = new LlmRuntime({
      models: [{ id: "m", baseURL: server.url, model: "x", maxTokens: 20 }],
      cacheDir: await makeTempDir(),
    });
    const lines: SpendLine[] = [];
    // Room for one reservation (36 + 20), which settles to 18.
    runtime.useBudget({ limit: { maxTokens: 66 }, record: (l) => lines.push(l) });
    await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
    const hit = await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
    assertEquals([hit.cache, hit.content, lines.length, server.requests()], ["hit", "{}", 2, 1]);
    const other: ChatMessage[] = [{ role: "user", content: "decide!" }];
    assert(
      isEpisodeAbandoned(
        await assertRejects(() => runtime.complete("m", other, { call: DEPOSITOR_CALL })),
      ),
    );
    assertEquals([lines.length, server.requests()], [2, 1]);
  } finally {
    await server.close();
  }
});

Deno.test("LlmRuntime halts with the ledger when a line cannot be written: nothing more is sent, the paid reply is used", async () => {
  const server = scriptedServer([{ status: 200, content: "{}" }]);
  try {
    const runtime = new LlmRuntime({ models: [{ id: "m", baseURL: server.url, model: "x" }] });
    runtime.useBudget({
      record: (l) => {
        if (l.type === "settle") {
          throw new Error(
            "The spend ledger /x/spend.jsonl cannot be written: No space left on device (os error 28)",
          );
        }
      },
    });
    const r = await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
    assertEquals([r.status, r.content, r.tokens_in], ["ok", "{}", 11]);
    assertEquals(runtime.budgetStatus()!.spent.total.tokens, 18);
    assertEquals(runtime.status().halt, {
      by: "ledger",
      reason: "The spend ledger /x/spend.jsonl cannot be written: No space left on device " +
        "(os error 28), so no further request is sent",
    });
    await assertRejects(() => runtime.complete("m", messages, { call: DEPOSITOR_CALL }));
    assertEquals(server.requests(), 1);
  } finally {
    await server.close();
  }
});

Deno.test("LlmRuntime sends nothing when its reserve line cannot be written", async () => {
  const server = scriptedServer([{ status: 200, content: "{}" }]);
  try {
    const runtime = new LlmRuntime({ models: [{ id: "m", baseURL: server.url, model: "x" }] });
    runtime.useBudget({
      record: () => {
        throw new Error("The spend ledger /x/spend.jsonl cannot be written: Is a directory");
      },
    });
    const err = await assertRejects(() =>
      runtime.complete("m", messages, { call: DEPOSITOR_CALL })
    );
    assert(isEpisodeAbandoned(err));
    assertEquals([runtime.status().halt?.by, server.requests()], ["ledger", 0]);
  } finally {
    await server.close();
  }
});

Deno.test("LlmRuntime counts a timed-out attempt at its reservation: the provider may have billed it", async () => {
  const server = scriptedServer([{ hang: true }]);
  try {
    const runtime = new LlmRuntime({
      models: [{ id: "m", baseURL: server.url, model: "x", maxRetries: 0, timeoutMs: 50 }],
    });
    const lines: SpendLine[] = [];
    runtime.useBudget({ record: (l) => lines.push(l) });
    const r = await runtime.complete("m", messages, { call: DEPOSITOR_CALL });
    assertEquals(r.status, "error");
    assertEquals(lines[1], {
      type: "settle",
      id: (lines[0] as { id: string }).id,
      model: "m",
      usage: "unknown",
      tokens_in: BYTES,
      tokens_out: 8192,
      tokens_reasoning: 0,
      cost: null,
    });
    assertEquals(runtime.budgetStatus()!.spent.total.unknown, 1);
  } finally {
    await server.close();
  }
});

Deno.test("LlmRuntime.useBudget() refuses a second budget and a NaN limit; detaching lifts its halt", () => {
  const runtime = new LlmRuntime({
    models: [{ id: "m", baseURL: "http://127.0.0.1:9/v1", model: "x" }],
  });
  assertThrows(
    () => runtime.useBudget({ limit: { maxCost: NaN } }),
    RangeError,
    'Budget "maxCost" must be a finite number > 0, got NaN',
  );
  const detach = runtime.useBudget({ limit: { maxCost: 1 } });
  assertThrows(() => runtime.useBudget(), RangeError, "The runtime already has a budget attached");
  detach();
  runtime.useBudget()();
});

Deno.test("budgetExhausted() and spendExhausted() count a NaN cost as reached", () => {
  assert(budgetExhausted({ ...emptyTotals(), cost: NaN }, { maxCost: 0.01 }) !== null);
  assert(budgetExhausted({ ...emptyTotals(), billedTokens: NaN }, { maxTokens: 5 }) !== null);
  assert(spendExhausted({ ...emptySpendTotals(), cost: NaN }, { maxCost: 0.01 }) !== null);
});

Deno.test("SpendLedger.open() cuts a torn last line and reports it; its request counts at its reservation", async () => {
  const dir = await makeTempDir();
  const path = `${dir}/${SPEND_LEDGER_FILE}`;
  await Deno.writeTextFile(
    path,
    '{"type":"reserve","id":"a","model":"m","tokens_in":100,"tokens_out":50,"cost":0.15}\n' +
      '{"type":"settle","id":"a","model":"m","usage":"rep',
  );
  const ledger = SpendLedger.open(dir);
  assertEquals(ledger.reading.torn, {
    bytes: 50,
    sample: '{"type":"settle","id":"a","model":"m","usage":"rep',
  });
  assertEquals([ledger.reading.unsettled, ledger.reading.spend.total.tokens], [1, 150]);
  assertEquals(ledger.reading.spend.total.cost, 0.15);
  ledger.append({
    type: "reserve",
    id: "b",
    model: "m",
    tokens_in: 1,
    tokens_out: 1,
    cost: 0,
  });
  ledger.close();
  const again = readSpendLedger(path);
  assertEquals([again.torn, again.lines, again.unsettled, again.spend.total.tokens], [
    null,
    2,
    2,
    152,
  ]);
});

Deno.test("readSpendLedger() refuses a line that is not a ledger line, naming the file and line", async () => {
  const dir = await makeTempDir();
  const path = `${dir}/${SPEND_LEDGER_FILE}`;
  await Deno.writeTextFile(
    path,
    '{"type":"reserve","id":"a","model":"m","tokens_in":1,"tokens_out":1,"cost":null}\n' +
      '{"type":"settle","id":"a","model":"m","usage":"reported","tokens_in":-5,"tokens_out":1,"tokens_reasoning":0,"cost":null}\n',
  );
  assertThrows(
    () => readSpendLedger(path),
    RangeError,
    `The spend ledger ${path}:2 is not a ledger line: "tokens_in" is not a non-negative integer (-5)`,
  );
  await Deno.remove(path);
  await Deno.mkdir(path);
  assertThrows(
    () => SpendLedger.open(dir),
    RangeError,
    `The spend ledger ${path} cannot be read: it is not a file (move it away to go on)`,
  );
});

Deno.test("runGrid() halts with the ledger when its spend ledger stops being writable, naming it", async () => {
  const double = billingDouble(PRICE);
  try {
    const runtime = new LlmRuntime({ models: [localModel(double.url)] });
    const out = await makeTempDir();
    const path = `${out}/${SPEND_LEDGER_FILE}`;
    let first = true;
    const r = await runGrid(spec(3), {
      out,
      runtime,
      concurrency: 1,
      preflight: false,
      progress: false,
      // Before the first episode (no line written yet), a directory takes the ledger's place.
      agents: () => {
        if (first) Deno.mkdirSync(path);
        first = false;
        return undefined;
      },
    });
    assertEquals([r.stoppedBy, r.played, r.remaining], ["ledger", 0, 3]);
    assert(
      r.stopped!.startsWith(`The spend ledger ${path} cannot be written: `) &&
        r.stopped!.endsWith(", so no further request is sent"),
      r.stopped!,
    );
    assertEquals(double.billed().requests, 0);
    assertEquals((await readManifest(out))!.sessions[0].stopped, r.stopped);
  } finally {
    await double.close();
  }
});

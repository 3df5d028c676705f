import { assertAlmostEquals, assertEquals } from "../../../_assert.ts";
import {
  budgetExhausted,
  callCost,
  usageFromEvents,
  UsageLedger,
} from "../../../../engine/agents/llm/accounting.ts";
import type { EngineEvent, LlmCallRecord } from "../../../../engine/core/events.ts";

function record(over: Partial<LlmCallRecord>): LlmCallRecord {
  return {
    model: "m",
    provider: "p",
    provider_model: "pm",
    status: "ok",
    cache: "miss",
    attempts: 1,
    failures: [],
    latency_ms: 10,
    wall_ms: 10,
    tokens_in: 1000,
    tokens_out: 200,
    tokens_reasoning: 50,
    cost: 0.002,
    finish_reason: "stop",
    content: "{}",
    reasoning: null,
    prompt_hash: "h",
    cache_key: "k",
    error: null,
    usage_warning: null,
    ...over,
  };
}

Deno.test("callCost() prices prompt and completion tokens per million", () => {
  assertAlmostEquals(
    callCost({ tokensIn: 2_000, tokensOut: 500 }, { inputPerMillion: 0.27, outputPerMillion: 1.1 }),
    0.00054 + 0.00055,
    1e-15,
  );
});

Deno.test("UsageLedger.add() sums per run, per episode and per model, billing only network calls", () => {
  const ledger = new UsageLedger();
  ledger.add(record({}), "e1");
  ledger.add(record({ cache: "hit", cost: 0 }), "e1");
  ledger.add(
    record({
      model: "n",
      status: "error",
      tokens_in: 0,
      tokens_out: 0,
      tokens_reasoning: 0,
      cost: 0,
      failures: [{
        attempt: 1,
        kind: "timeout",
        status: null,
        message: "t",
        wait_ms: 5,
        requested_wait_ms: null,
      }, {
        attempt: 2,
        kind: "timeout",
        status: null,
        message: "t",
        wait_ms: null,
        requested_wait_ms: null,
      }],
    }),
    "e2",
  );
  const run = ledger.run();
  assertEquals(
    [run.calls, run.cacheHits, run.failedCalls, run.failedAttempts, run.tokensIn, run.billedTokens],
    [3, 1, 1, 2, 2000, 1200],
  );
  assertAlmostEquals(run.cost, 0.002, 1e-15);
  assertEquals([ledger.episode("e1").calls, ledger.episode("e2").failedCalls], [2, 1]);
  assertEquals(ledger.models().get("n")!.calls, 1);
  assertEquals(ledger.episode("none").calls, 0);
});

Deno.test("UsageLedger.add() counts successful calls without a price as unpriced", () => {
  const ledger = new UsageLedger();
  ledger.add(record({ cost: null }), "e");
  assertEquals([ledger.run().unpricedCalls, ledger.run().cost], [1, 0]);
});

Deno.test("usageFromEvents() recomputes the totals from a log's llm_call events", () => {
  const events = [
    { type: "round_start" },
    { type: "llm_call", agent: "dep_01", call: "withdrawal", ...record({}) },
    { type: "llm_call", agent: "dep_02", call: "withdrawal", ...record({ cache: "hit" }) },
  ] as unknown as EngineEvent[];
  const t = usageFromEvents(events);
  assertEquals([t.calls, t.cacheHits, t.billedTokens], [2, 1, 1200]);
});

Deno.test("budgetExhausted() says which budget is reached once billed tokens or cost reach it", () => {
  const ledger = new UsageLedger();
  ledger.add(record({}), "e");
  assertEquals(budgetExhausted(ledger.run(), { maxTokens: 1201 }), null);
  assertEquals(
    budgetExhausted(ledger.run(), { maxTokens: 1200 }),
    "Token budget reached: 1200 of 1200 billed tokens used",
  );
  assertEquals(
    budgetExhausted(ledger.run(), { maxCost: 0.001 }),
    "Cost budget reached: an estimated 0.0020 of 0.001 spent",
  );
});

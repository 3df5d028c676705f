import { assertEquals } from "../../_assert.ts";
import { emptyTotals } from "../../../engine/agents/llm/accounting.ts";
import { notebookProgress, terminalProgress } from "../../../engine/core/progress.ts";
import {
  formatProgress,
  type GridProgress,
  gridProgressFrame,
  progressSink,
} from "../../../engine/grid/progress.ts";

const P: GridProgress = {
  run: "paper",
  total: 420,
  skipped: 20,
  done: 100,
  failed: 2,
  running: 8,
  elapsedMs: 40_000,
  usage: null,
  runtime: null,
  stopped: null,
};
const line = (p: GridProgress) => formatProgress(p);
const IDLE = {
  inFlight: 0,
  active: 0,
  queued: 0,
  rateWaiting: 0,
  retryWaiting: 0,
  lastRetry: null,
  fatal: null,
  halt: null,
};

Deno.test("formatProgress() shows done/total, rate, ETA and failures, and tokens and cost for LLM runs", () => {
  assertEquals(
    formatProgress(P),
    "paper [######------------------] 120/420 28.6% | 2.50 ep/s | ETA 2m00s | 2 failed",
  );
  const usage = {
    ...emptyTotals(),
    calls: 5000,
    tokensIn: 12_000_000,
    tokensOut: 345_678,
    cost: 41.5,
  };
  assertEquals(
    formatProgress({ ...P, usage }, { width: 0 }),
    "paper 120/420 28.6% | 2.50 ep/s | ETA 2m00s | 2 failed | 12.3M tokens | cost 41.50 | calls 5000",
  );
  assertEquals(
    formatProgress({ ...P, done: 400, elapsedMs: 8_000 }, { width: 4 }),
    "paper [####] 420/420 100.0% | 50 ep/s | took 8s | 2 failed",
  );
  assertEquals(
    formatProgress({ ...P, done: 0, elapsedMs: 0 }, { width: 0 }),
    "paper 20/420 4.8% | 0.00 ep/s | ETA ? | 2 failed",
  );
});

Deno.test("formatProgress() says what LLM calls wait on, failed calls, and why the grid stopped", () => {
  const usage = { ...emptyTotals(), calls: 120, cacheHits: 20, failedCalls: 2, cost: 0.01234 };
  const runtime = {
    ...IDLE,
    inFlight: 9,
    active: 2,
    queued: 4,
    rateWaiting: 3,
    retryWaiting: 1,
    lastRetry: { model: "ds", kind: "server_error" as const, status: 503, attempt: 0, waitMs: 250 },
  };
  const text = formatProgress({ ...P, usage, runtime, stopped: "Token budget reached: 10 of 5" }, {
    width: 0,
  });
  assertEquals(text.split(" | ").slice(4), [
    "0 tokens",
    "cost 0.0123",
    "calls 120 (cache 20)",
    "in flight 2, waiting for a slot: 4",
    "waiting on rate limit: 3",
    'retrying: 1 (last: 503 from "ds", attempt 1 in 0.3 s)',
    "failed calls (neutral defaults): 2",
    "STOPPED: Token budget reached: 10 of 5",
  ]);
  // An idle runtime adds nothing.
  assertEquals(
    formatProgress({ ...P, usage: emptyTotals(), runtime: IDLE }, { width: 0 }).split(" | ").length,
    7,
  );
});

Deno.test("terminalProgress() redraws one line in place, at most every interval, and ends it", () => {
  let t = 0;
  let out = "";
  const sink = terminalProgress(line, {
    interactive: true,
    intervalMs: 100,
    now: () => t,
    write: (s) => (out += s),
  });
  sink.update({ ...P, done: 1 });
  t = 50;
  sink.update({ ...P, done: 2 });
  t = 150;
  sink.update({ ...P, done: 3 });
  sink.finish({ ...P, done: 4 }, "Done.");
  const frames = out.split("\r\x1b[2K").slice(1);
  assertEquals(frames.map((f) => f.split(" ")[2]), ["21/420", "23/420", "24/420"]);
  assertEquals(out.endsWith("\nDone.\n"), true);
});

Deno.test("terminalProgress() prints whole lines in a log, every 30 s by default", () => {
  let t = 0;
  let out = "";
  const sink = terminalProgress(line, {
    interactive: false,
    now: () => t,
    write: (s) => (out += s),
  });
  sink.update({ ...P, done: 1 });
  t = 29_999;
  sink.update({ ...P, done: 2 });
  t = 30_000;
  sink.update({ ...P, done: 3 });
  assertEquals(out.split("\n").filter(Boolean).map((l) => l.split(" ")[2]), ["21/420", "23/420"]);
});

Deno.test("notebookProgress() creates one display and then updates it in place, in order", async () => {
  const calls: { bundle: Record<string, string>; options: Record<string, unknown> }[] = [];
  let t = 0;
  const sink = notebookProgress(gridProgressFrame, {
    display: async (bundle, options) => {
      // A slow first send must not let later ones overtake it.
      if (calls.length === 0) await new Promise((r) => setTimeout(r, 5));
      calls.push({ bundle: { ...bundle }, options: { ...options } });
    },
    intervalMs: 250,
    now: () => t,
  });
  sink.update({ ...P, done: 1 });
  t = 100;
  sink.update({ ...P, done: 2 });
  t = 300;
  sink.update({ ...P, done: 3 });
  sink.finish({ ...P, done: 400 }, "Done: 420 episodes.");
  await sink.flush();
  assertEquals(calls.map((c) => [c.options.raw, c.options.update]), [[true, undefined], [
    true,
    true,
  ], [true, true]]);
  const ids = new Set(calls.map((c) => c.options.display_id));
  assertEquals(ids.size, 1);
  assertEquals(String([...ids][0]).startsWith("coordlab-progress-"), true);
  assertEquals(calls[0].bundle["text/plain"].startsWith("paper 21/420 "), true);
  assertEquals(calls[1].bundle["text/html"].includes('<progress value="23" max="420">'), true);
  assertEquals(calls[2].bundle["text/plain"].endsWith("\nDone: 420 episodes."), true);
  assertEquals(sink.last?.["text/html"].includes("<div>Done: 420 episodes.</div>"), true);
});

Deno.test("notebookProgress() sends a frame at its total whatever the throttling, and nothing outside Jupyter", async () => {
  const sent: string[] = [];
  const sink = notebookProgress(gridProgressFrame, {
    display: (b) => void sent.push(b["text/plain"].split(" ")[1]),
    intervalMs: 1e9,
    stepPercent: 50,
  });
  sink.update({ ...P, done: 1 });
  sink.update({ ...P, done: 2 });
  sink.update({ ...P, done: 400 });
  await sink.flush();
  assertEquals(sent, ["21/420", "420/420"]);
  const quiet = notebookProgress(gridProgressFrame);
  quiet.update(P);
  assertEquals(quiet.last?.["text/plain"].startsWith("paper 120/420"), true);
});

Deno.test("gridProgressFrame() escapes the run name in the bundle and progressSink() honours off and explicit choices", () => {
  const sink = notebookProgress(gridProgressFrame, { display: () => {} });
  sink.update({ ...P, run: "<b>&" });
  assertEquals(sink.last!["text/html"].includes("&lt;b&gt;&amp; 120/420"), true);
  assertEquals(progressSink(false), null);
  const custom = { update: () => {}, finish: () => {} };
  assertEquals(progressSink(custom), custom);
  let threw = false;
  try {
    progressSink("notebook");
  } catch (e) {
    threw = e instanceof RangeError &&
      e.message === 'Progress "notebook" needs the Deno Jupyter kernel';
  }
  assertEquals(threw, true);
});

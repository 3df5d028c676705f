import { assertEquals } from "../../_assert.ts";
import {
  formatProgress,
  type GridProgress,
  notebookProgress,
  progressBundle,
  progressSink,
  terminalProgress,
} from "../../../engine/grid/progress.ts";

const P: GridProgress = {
  run: "paper",
  total: 420,
  skipped: 20,
  done: 100,
  failed: 2,
  running: 8,
  elapsedMs: 40_000,
  tokens: null,
  cost: null,
};

Deno.test("formatProgress() shows done/total, rate, ETA and failures, and tokens and cost for LLM runs", () => {
  assertEquals(
    formatProgress(P),
    "paper [######------------------] 120/420 28.6% | 2.50 ep/s | ETA 2m00s | 2 failed",
  );
  assertEquals(
    formatProgress({ ...P, tokens: 12_345_678, cost: 41.5 }, { width: 0 }),
    "paper 120/420 28.6% | 2.50 ep/s | ETA 2m00s | 2 failed | 12.3M tokens | cost 41.50",
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

Deno.test("terminalProgress() redraws one line in place, at most every interval, and ends it", () => {
  let t = 0;
  let out = "";
  const sink = terminalProgress({
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
  const sink = terminalProgress({ interactive: false, now: () => t, write: (s) => (out += s) });
  sink.update({ ...P, done: 1 });
  t = 29_999;
  sink.update({ ...P, done: 2 });
  t = 30_000;
  sink.update({ ...P, done: 3 });
  assertEquals(out.split("\n").filter(Boolean).map((l) => l.split(" ")[2]), ["21/420", "23/420"]);
});

Deno.test("notebookProgress() creates one display and then updates it in place", async () => {
  const calls: { bundle: Record<string, string>; options: Record<string, unknown> }[] = [];
  let t = 0;
  const sink = notebookProgress({
    display: (bundle, options) => {
      calls.push({ bundle: bundle as Record<string, string>, options: options ?? {} });
      return Promise.resolve();
    },
  }, { intervalMs: 250, now: () => t });
  sink.update({ ...P, done: 1 });
  t = 100;
  sink.update({ ...P, done: 2 });
  t = 300;
  sink.update({ ...P, done: 3 });
  sink.finish({ ...P, done: 400 }, "Done: 420 episodes.");
  await Promise.resolve();
  assertEquals(calls.map((c) => [c.options.raw, c.options.update]), [[true, false], [true, true], [
    true,
    true,
  ]]);
  const ids = new Set(calls.map((c) => c.options.display_id));
  assertEquals(ids.size, 1);
  assertEquals(String([...ids][0]).startsWith("coordlab-grid-"), true);
  assertEquals(calls[1].bundle["text/html"].includes('<progress max="420" value="23">'), true);
  assertEquals(calls[2].bundle["text/plain"].endsWith("\nDone: 420 episodes."), true);
});

Deno.test("progressBundle() escapes the run name and progressSink() honours off and explicit choices", () => {
  const b = progressBundle({ ...P, run: "<b>&" });
  assertEquals(b["text/html"].includes("&lt;b&gt;&amp; 120/420"), true);
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

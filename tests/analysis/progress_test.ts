import assert from "node:assert/strict";
import { progressDisplay } from "../../analysis/mod.ts";
import type { ProgressBundle } from "../../engine/core/progress.ts";

Deno.test("progressDisplay() sends one bundle per percent step and always the last", async () => {
  const sent: { text: string; update?: boolean; id: string }[] = [];
  const progress = progressDisplay("Loading runs", {
    displayId: "p1",
    stepPercent: 10,
    display: (bundle: ProgressBundle, options) => {
      sent.push({ text: bundle["text/plain"], update: options.update, id: options.display_id });
    },
  });
  for (let done = 1; done <= 200; done++) progress.update(done, 200);
  await progress.flush();
  assert.equal(sent.length, 11); // 0%, 10%, ..., 90% and the final 100%
  assert.deepEqual(sent[0], { text: "Loading runs: 1/200 (0%)", update: undefined, id: "p1" });
  assert.deepEqual(sent[1], { text: "Loading runs: 20/200 (10%)", update: true, id: "p1" });
  assert.deepEqual(sent.at(-1), { text: "Loading runs: 200/200 (100%)", update: true, id: "p1" });
});

Deno.test("progressDisplay() keeps the latest bundle outside Jupyter", () => {
  const progress = progressDisplay("Work");
  assert.equal(progress.last, undefined);
  progress.update(3, 4);
  const last = progress.last as ProgressBundle | undefined;
  assert.equal(last?.["text/plain"], "Work: 3/4 (75%)");
  assert.ok(last?.["text/html"].includes('<progress value="3" max="4"></progress>'));
  assert.match(progress.displayId, /^coordlab-progress-/);
});

Deno.test("progressDisplay() escapes the label in HTML", () => {
  const progress = progressDisplay("<b>x</b>");
  progress.update(1, 1);
  assert.ok(progress.last?.["text/html"].includes("&lt;b&gt;x&lt;/b&gt;: 1/1 (100%)"));
});

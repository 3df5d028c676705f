// Results show themselves in a notebook: a cell that ends with an episode or
// grid result gets a short escaped summary from Symbol.for("Jupyter.display").
import assert from "node:assert/strict";
import { runEpisode } from "../../../engine/run_episode.ts";
import { runStagHuntEpisode } from "../../../engine/run_staghunt_episode.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { summaryBundle } from "../../../engine/core/jupyter.ts";
import { makeTempDir } from "../../_temp.ts";

const DISPLAY = Symbol.for("Jupyter.display");

/** The bundle a Deno Jupyter kernel would show for `value`. */
async function shown(value: unknown): Promise<Record<string, string>> {
  const method = (value as Record<symbol, unknown>)[DISPLAY];
  assert.equal(typeof method, "function", "a Jupyter.display method");
  return await (method as () => Record<string, string>).call(value);
}

Deno.test("runEpisode() result displays its condition, outcome, W and W~", async () => {
  const result = await runEpisode({
    env: "bank_run",
    mechanism: "M1",
    seed: 1,
    agents: { depositors: "always_stay" },
  });
  const bundle = await shown(result);
  assert.deepEqual(Object.keys(bundle).sort(), ["text/html", "text/plain"]);
  const w = result.outcome.welfare.toFixed(3);
  assert.equal(
    bundle["text/plain"],
    [
      "Episode bank_run_M1_stable_s1",
      "  condition  bank_run_M1_stable",
      `  outcome    success after ${result.outcome.rounds} rounds`,
      `  W          ${w}`,
      "  W~         1.000",
    ].join("\n"),
  );
  assert.ok(bundle["text/html"].includes("<tr><th>W~</th><td>1.000</td></tr>"));
  // The method is not data: JSON and spreading are as before.
  assert.equal(Object.keys(result).includes(String(DISPLAY)), false);
  assert.equal(JSON.stringify(result).includes("Jupyter"), false);
});

Deno.test("runStagHuntEpisode() result displays its condition and outcome", async () => {
  const result = await runStagHuntEpisode({
    N: 5,
    M: 3,
    T: 4,
    F: 2,
    seed: 7,
    agents: { players: "always_stag" },
  });
  const text = (await shown(result))["text/plain"];
  assert.ok(text.startsWith("Episode staghunt_N5_M3_T4_F2_base_h1_s7\n"));
  assert.ok(text.includes("\n  condition  staghunt_N5_M3_T4_F2_base_h1\n"));
  assert.ok(text.includes("\n  outcome    success after 4 rounds\n"));
});

Deno.test("runGrid() result displays a summary table without paths or times", async () => {
  const dir = await makeTempDir({ prefix: "coordlab_grid_display_" });
  try {
    const spec = {
      name: "tiny",
      seed: 1,
      episodes: 3,
      blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0"], agents: [{ mock: {} }] }],
    };
    const first = await runGrid(spec, { out: dir, progress: false, workers: 0 });
    const again = await runGrid(spec, { out: dir, progress: false, workers: 0 });
    const bundle = await shown(again);
    assert.equal(
      bundle["text/plain"],
      [
        'Grid "tiny"',
        "  status     complete",
        "  episodes   3 (3 finished earlier, 0 played now)",
        "  failed     0",
        "  degraded   0",
        "  remaining  0",
      ].join("\n"),
    );
    const html = bundle["text/html"];
    assert.ok(html.includes("<caption>Grid &quot;tiny&quot;</caption>"));
    assert.ok(!html.includes(dir) && !bundle["text/plain"].includes(dir));
    // The result stays plain data.
    assert.deepEqual(Object.keys(first), Object.keys({ ...first }));
    assert.equal(JSON.parse(JSON.stringify(first)).run, "tiny");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("summaryBundle() escapes the title, labels and values in HTML", () => {
  const bundle = summaryBundle(`<script>`, [[`a"b`, `<img src=x onerror=alert(1)>`]]);
  const html = bundle["text/html"];
  assert.ok(!html.includes("<script") && !html.includes("<img"));
  assert.ok(html.includes("<caption>&lt;script&gt;</caption>"));
  assert.ok(html.includes("<tr><th>a&quot;b</th><td>&lt;img src=x onerror=alert(1)&gt;</td></tr>"));
  assert.equal(bundle["text/plain"], `<script>\n  a"b  <img src=x onerror=alert(1)>`);
});

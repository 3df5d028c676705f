import { assert, assertEquals, assertThrows } from "../../_assert.ts";
import pl from "npm:nodejs-polars@0.25.2";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { loadRuns } from "../../../analysis/load/load_runs.ts";
import { reproductionReport } from "../../../analysis/report/reproduction.ts";
import { reportHtml, reportMarkdown } from "../../../analysis/report/render.ts";
import { makeTempDir } from "../../_temp.ts";

async function frailRun() {
  const dir = await makeTempDir({ prefix: "coordlab-report-" });
  await runGrid({
    name: "report-frail",
    seed: 3,
    episodes: 2,
    blocks: [{ game: "frail", envs: ["bank_run", "debt_rollover", "crowdfunding"] }],
  }, { out: dir, progress: false, workers: 0 });
  const frames = await loadRuns(dir, { workers: 1 });
  await Deno.remove(dir, { recursive: true });
  return frames;
}

Deno.test("reproductionReport() puts every FRAIL table and figure beside the paper, labelled mock agents", async () => {
  const frames = await frailRun();
  const report = reproductionReport(frames, { paper: "frail" });
  assertEquals(report.agents, "mock agents");
  assertEquals(report.mock, true);
  assertEquals(report.sections.map((s) => s.id), [
    "table2",
    "figure3a",
    "table8",
    "table9",
    "figure3b",
    "figure4",
    "figure6",
    "table10",
    "table11",
    "table12",
  ]);
  const counts = Object.fromEntries(report.sections.map((s) => [s.id, s.counts]));
  const none = { run: 0, paper: 0, printed: 0, outside: 0, no_run: 0 };
  assertEquals(counts, {
    // Average W~ (12 cells: one mock model per environment has no SE, so only the
    // paper's interval can hold it) and 84 per-model cells of models the run lacks.
    table2: { ...none, paper: 7, outside: 5, no_run: 84 },
    figure3a: none,
    table8: { ...none, no_run: 84 },
    table9: { ...none, paper: 5, outside: 7 },
    figure3b: { ...none, outside: 7 },
    figure4: { ...none, outside: 2 },
    figure6: { ...none, no_run: 2 },
    table10: none,
    table11: none,
    table12: none,
  });
  assertEquals(report.counts, { run: 0, paper: 12, printed: 0, outside: 21, no_run: 170 });
  const figure3a = report.sections[1];
  assertEquals(figure3a.cells, null);
  assert(figure3a.notes[0].startsWith("The figure's published values are Table 2's Average"));
  assert(report.sections[7].notes[0].startsWith("The run has no expansion or contraction"));
  // Every chart's title or subtitle names the agents.
  for (const s of report.sections) {
    for (const c of s.charts) assert(JSON.stringify(c.spec.title).includes("mock agents"), s.id);
  }
  const md = reportMarkdown(report);
  assert(md.includes(
    "203 published cells: 0 within the run's 95% interval, 12 within the published 95% " +
      "interval, 0 equal at the printed precision, 21 outside, 170 not in the run",
  ));
  const html = await reportHtml(report);
  assertEquals(html.match(/<svg/g)?.length, 10);
  assert(html.includes("<h2>Figure 3b: the mechanism scorecard (run: mock agents)</h2>"));
});

Deno.test("reproductionReport() matches run models to the paper's by name, case aside", async () => {
  const frames = await frailRun();
  const episodes = frames.episodes.withColumns(pl.lit("glm").alias("model"));
  const report = reproductionReport({ ...frames, episodes }, { paper: "frail" });
  assertEquals(report.agents, "LLM agents");
  const table2 = report.sections[0];
  // GLM's 12 cells of Table 2 now have a run value beside them.
  assertEquals(table2.counts.no_run, 72);
  const glm = table2.cells!.filter(pl.col("model").eq(pl.lit("GLM")));
  assertEquals(glm.height, 12);
  assertEquals(glm.getColumn("run").nullCount(), 0);
});

Deno.test("reproductionReport() refuses an unknown paper, another game's run and a missing frame", async () => {
  const frames = await frailRun();
  assertThrows(
    () => reproductionReport(frames, { paper: "other" as "frail" }),
    RangeError,
    'Unknown paper "other": expected one of "frail", "staghunt"',
  );
  assertThrows(
    () => reproductionReport(frames, { paper: "staghunt" }),
    RangeError,
    "reproductionReport(): the staghunt report reads staghunt episodes, but the run holds frail " +
      "episodes; load the staghunt run alone",
  );
  assertThrows(
    () =>
      reproductionReport({ episodes: frames.episodes, rounds: frames.rounds }, { paper: "frail" }),
    RangeError,
    'reproductionReport(): the frail report needs the "decisions" frame; load it with ' +
      'loadRuns(dir, { frames: ["rounds", "decisions"] })',
  );
});

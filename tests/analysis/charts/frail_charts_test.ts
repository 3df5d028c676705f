// Every FRAIL chart builder rendered from the hand-built fixture, with its
// marks counted in the SVG.
import assert from "node:assert/strict";
import {
  actionMeasuresChart,
  actionMeasuresTable,
  earlyCommitment,
  earlyCommitmentBins,
  earlyCommitmentChart,
  regimeChart,
  regimeTable,
  renderSvg,
  type RunFrames,
  scorecard,
  scorecardChart,
  successChart,
  successTable,
  trajectories,
  trajectoriesChart,
  trajectoryReferences,
  welfareAverage,
  welfareBarsChart,
  welfareHeatmapChart,
  welfareTable,
} from "../../../analysis/mod.ts";
import { chartBundle } from "../../../analysis/display.ts";
import { loadFixture } from "../_fixture.ts";
import { countDarkPixels, decodePng } from "../_png.ts";

const frames: RunFrames = await loadFixture("coordlab_charts_");
const { episodes } = frames;
const rounds = frames.rounds!;
const decisions = frames.decisions!;

function marks(svg: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const match of svg.matchAll(/aria-roledescription="([^"]*)"/g)) {
    if (match[1].endsWith("container")) continue;
    out[match[1]] = (out[match[1]] ?? 0) + 1;
  }
  return out;
}

Deno.test("welfareHeatmapChart() draws one rect and one label per model cell", async () => {
  const svg = await renderSvg(welfareHeatmapChart(welfareTable(episodes)));
  const m = marks(svg);
  assert.equal(m["rect mark"], 5);
  assert.equal(m["text mark"], 5);
  assert.ok(svg.includes(">1.000 (1/1) ↑</text>"));
  assert.ok(svg.includes(">0.200 (0/1) ↓</text>"));
  assert.ok(svg.includes(">Reward crowdfunding</text>"));
});

Deno.test("welfareBarsChart() draws a bar per environment and mechanism, no SE rule for one model", async () => {
  const m = marks(await renderSvg(welfareBarsChart(welfareAverage(welfareTable(episodes)))));
  assert.equal(m.bar, 3);
  // Crowdfunding's one model has no spread across model means: no SE, no rule (not one of length 0).
  assert.equal(m["rule mark"], 2);
});

Deno.test("successChart() draws a point and a Wilson rule per cell", async () => {
  const m = marks(await renderSvg(successChart(successTable(episodes))));
  assert.equal(m.point, 5);
  assert.equal(m["rule mark"], 5);
});

Deno.test("actionMeasuresChart() draws a bar per measure and mechanism, no SE rule for one model", async () => {
  const svg = await renderSvg(actionMeasuresChart(actionMeasuresTable(episodes, rounds)));
  const m = marks(svg);
  assert.equal(m.bar, 3);
  assert.equal(m["rule mark"], 2);
  // Each panel names its environment and measure; bars take the mechanisms' fixed colours.
  assert.ok(svg.includes(">Reward crowdfunding: first launch round</text>"));
  assert.ok(!svg.includes(">first_launch_round</text>"));
  const spec = actionMeasuresChart(actionMeasuresTable(episodes, rounds));
  assert.ok(JSON.stringify(spec).includes('"color":{"field":"mechanism"'));
});

Deno.test("regimeChart() draws a bar per environment, regime and mechanism, no SE rule for one model", async () => {
  const m = marks(await renderSvg(regimeChart(regimeTable(episodes))));
  assert.equal(m.bar, 3);
  assert.equal(m["rule mark"], 2);
});

Deno.test("scorecardChart() draws six bars per mechanism", async () => {
  const svg = await renderSvg(scorecardChart(scorecard(episodes, rounds)));
  assert.equal(marks(svg).bar, 12);
  assert.ok(svg.includes(">Cross-model consistency</text>"));
});

Deno.test("earlyCommitmentChart() draws points, CI rules and n labels per bin", async () => {
  const bins = earlyCommitmentBins(earlyCommitment(episodes, rounds));
  const svg = await renderSvg(earlyCommitmentChart(bins));
  const m = marks(svg);
  assert.equal(m.point, 3);
  assert.equal(m["rule mark"], 3);
  assert.equal(m["text mark"], 3);
  for (const label of ["n=4", "n=1", "n=2"]) assert.ok(svg.includes(`>${label}</text>`), label);
  // all five bins stay on the axis, even empty ones
  assert.ok(svg.includes(">0.4–0.6</text>"));
});

Deno.test("trajectoriesChart() draws a line per series, bands in two rows and boundary rules", async () => {
  const rows = trajectories(episodes, rounds, decisions);
  const svg = await renderSvg(
    trajectoriesChart(rows, { references: trajectoryReferences(episodes) }),
  );
  const m = marks(svg);
  assert.equal(m["line mark"], 9); // 2 bank-run mechanisms x 3 panels + 3 crowdfunding panels
  assert.equal(m["area mark"], 6); // financial and committed rows only
  assert.equal(m["rule mark"], 2); // 8.48 units and goal 14
  assert.ok(svg.includes(">insolvency boundary</text>"));
  assert.ok(svg.includes(">goal</text>"));
  // Each row is titled once, on the left, in lines.
  assert.ok(svg.includes("<tspan>Exit intent /</tspan>"));
  assert.equal(svg.split(">Financial state</text>").length - 1, 1);
  assert.ok(!svg.includes("Mean across episodes"));
  // The mechanism legend is drawn (a layer with legend: null once hid it).
  assert.ok(svg.includes(">Mechanism</text>"), "legend title");
  assert.ok(svg.includes(">M0</text>"), "legend entry");
});

Deno.test("trajectoriesChart() repeats a round boundary in every row of its environment", async () => {
  const spec = trajectoriesChart(
    [1, 2].map((round) => ({
      env: "debt_rollover",
      mechanism: "M2",
      panel: "financial",
      round,
      mean: round,
      lower: 0,
      upper: 3,
    })),
    {
      references: [{
        regime: "stable",
        overrides_id: "none",
        env: "debt_rollover",
        axis: "x",
        value: 4,
        label: "first asset tranche matures",
      }],
    },
  );
  const m = marks(await renderSvg(spec));
  assert.equal(m["rule mark"], 3);
  assert.equal(m["line mark"], 1);
});

Deno.test("chartBundle() of Figure 4 carries the spec and a drawn PNG", async () => {
  const rows = trajectories(episodes, rounds, decisions);
  const bundle = await chartBundle(trajectoriesChart(rows), { width: 600 });
  assert.equal(bundle["text/plain"], "Vega-Lite chart: Round-by-round dynamics");
  const image = decodePng(Uint8Array.from(atob(bundle["image/png"]), (c) => c.charCodeAt(0)));
  assert.equal(image.width, 600);
  assert.ok(countDarkPixels(image) > 1000);
});

Deno.test("trajectoriesChart() refuses references of several regimes for rows without a regime", () => {
  const rows = [{ env: "bank_run", mechanism: "M0", panel: "financial", round: 1, mean: 1 }];
  const reference = {
    env: "bank_run",
    overrides_id: "none",
    axis: "y",
    label: "insolvency boundary",
  } as const;
  assert.throws(
    () =>
      trajectoriesChart(rows, {
        references: [
          { ...reference, regime: "stable", value: 8.48 },
          { ...reference, regime: "contraction", value: 3.65 },
        ],
      }),
    {
      name: "RangeError",
      message: "trajectoriesChart: the references hold 2 values of regime (Stable, Contraction) " +
        "for Bank run but the rows carry no regime; pass the rows of trajectories(), which " +
        "carry it, or the references of one regime",
    },
  );
});

Deno.test("scorecardChart() says which dimension has no value instead of leaving its group blank", async () => {
  const rows = ["M0", "M3"].flatMap((mechanism) => [
    { mechanism, dimension: "welfare", value: 0.5 },
    { mechanism, dimension: "consistency", value: null },
  ]);
  const spec = scorecardChart(rows) as { title?: unknown };
  assert.deepEqual(spec.title, {
    text: "Mechanism scorecard",
    subtitle: "Cross-model consistency: no value (needs two or more models)",
  });
  assert.ok((await renderSvg(scorecardChart(rows))).includes("needs two or more models"));
  // One mechanism with a value is enough for the group to stand: no subtitle.
  rows[1].value = 0.9;
  assert.equal((scorecardChart(rows) as { title?: unknown }).title, "Mechanism scorecard");
});

import assert from "node:assert/strict";
import { renderSvg, stateTrajectoryChart } from "../../../analysis/mod.ts";
import type { TrajectoryRow } from "../../../analysis/charts/state_trajectory.ts";
import { VEGA_LITE_SCHEMA } from "../../../analysis/charts/spec.ts";

const ROWS: TrajectoryRow[] = [
  { round: 0, series: "cash", value: 10 },
  { round: 0, series: "assets", value: 90 },
  { round: 1, series: "cash", value: 6 },
  { round: 1, series: "assets", value: 94 },
  { round: 0, series: "committed", value: 0 },
];

// deno-lint-ignore no-explicit-any
type AnySpec = any;

Deno.test("stateTrajectoryChart() builds a v5 line chart with points colored by series", () => {
  const spec: AnySpec = stateTrajectoryChart(ROWS);
  assert.equal(spec.$schema, VEGA_LITE_SCHEMA);
  assert.equal(spec.title, undefined);
  assert.equal(spec.width, 480);
  assert.equal(spec.height, 240);
  assert.equal(spec.layer.length, 1);
  const [line] = spec.layer;
  assert.deepEqual(line.mark, { type: "line", point: true });
  assert.equal(line.encoding.x.field, "round");
  assert.equal(line.encoding.y.field, "value");
  assert.equal(line.encoding.y.title, "Value");
  assert.equal(line.encoding.color.field, "series");
});

Deno.test("stateTrajectoryChart() orders series by first appearance", () => {
  const spec: AnySpec = stateTrajectoryChart(ROWS);
  assert.deepEqual(spec.layer[0].encoding.color.sort, ["cash", "assets", "committed"]);
});

Deno.test("stateTrajectoryChart() copies the rows and keeps only round, series and value", () => {
  const rows = [{ round: 1, series: "cash", value: 2, note: "extra" }];
  const spec: AnySpec = stateTrajectoryChart(rows);
  rows[0].value = 99;
  assert.deepEqual(spec.data.values, [{ round: 1, series: "cash", value: 2 }]);
});

Deno.test("stateTrajectoryChart() applies title, y title and size options", () => {
  const spec: AnySpec = stateTrajectoryChart(ROWS, {
    title: "Bank state",
    yTitle: "Units",
    width: 300,
    height: 100,
  });
  assert.equal(spec.title, "Bank state");
  assert.equal(spec.layer[0].encoding.y.title, "Units");
  assert.equal(spec.width, 300);
  assert.equal(spec.height, 100);
});

Deno.test("stateTrajectoryChart() adds a dashed rule and a label per reference line", async () => {
  const spec: AnySpec = stateTrajectoryChart(ROWS, {
    referenceLines: [{ y: 5, label: "run threshold" }, { y: 50, label: "bound" }],
  });
  assert.equal(spec.layer.length, 4);
  const [, rule, halo, text] = spec.layer;
  assert.equal(halo.mark.stroke, "white");
  assert.equal(rule.mark.type, "rule");
  assert.deepEqual(rule.mark.strokeDash, [6, 4]);
  assert.deepEqual(rule.data.values, [{ y: 5, label: "run threshold" }, { y: 50, label: "bound" }]);
  assert.equal(text.mark.type, "text");
  assert.equal(text.encoding.text.field, "label");

  const svg = await renderSvg(spec);
  const rules = svg.match(/aria-roledescription="rule mark"[^>]*/g) ?? [];
  assert.equal(rules.length, 2);
  for (const attributes of rules) assert.ok(attributes.includes(`stroke-dasharray="6,4"`));
  assert.ok(svg.includes(">run threshold</text>"));
  assert.ok(svg.includes(">bound</text>"));
});

Deno.test("stateTrajectoryChart() accepts an empty row list", async () => {
  const spec: AnySpec = stateTrajectoryChart([]);
  assert.deepEqual(spec.data.values, []);
  assert.ok((await renderSvg(spec)).startsWith("<svg"));
});

Deno.test("stateTrajectoryChart() throws TypeError naming a row with a bad field", () => {
  const bad = [...ROWS, { round: 2, series: "cash", value: Number.NaN }];
  assert.throws(() => stateTrajectoryChart(bad), {
    name: "TypeError",
    message: "Row 5 has a value that is not a finite number: NaN",
  });
  const badRound = [{ round: "1", series: "cash", value: 1 }] as unknown as TrajectoryRow[];
  assert.throws(() => stateTrajectoryChart(badRound), {
    name: "TypeError",
    message: 'Row 0 has a round that is not a finite number: "1"',
  });
  const badSeries = [{ round: 1, series: 7, value: 1 }] as unknown as TrajectoryRow[];
  assert.throws(() => stateTrajectoryChart(badSeries), {
    name: "TypeError",
    message: "Row 0 has a series that is not a string: 7",
  });
});

Deno.test("stateTrajectoryChart() throws TypeError for a reference line at a non-finite y", () => {
  assert.throws(
    () => stateTrajectoryChart(ROWS, { referenceLines: [{ y: Infinity, label: "x" }] }),
    {
      name: "TypeError",
      message: "Reference line 0 has a y that is not a finite number: Infinity",
    },
  );
});

Deno.test("stateTrajectoryChart() throws RangeError for a size that is not a positive integer", () => {
  assert.throws(() => stateTrajectoryChart(ROWS, { width: 0 }), {
    name: "RangeError",
    message: "Chart width must be a positive integer: received 0",
  });
  assert.throws(() => stateTrajectoryChart(ROWS, { height: 10.5 }), {
    name: "RangeError",
    message: "Chart height must be a positive integer: received 10.5",
  });
});

Deno.test("stateTrajectoryChart() ticks whole rounds only: a two-round episode reads 1, 2 (not 1, 2, 2)", async () => {
  const spec = stateTrajectoryChart([
    { round: 1, series: "cash", value: 1 },
    { round: 2, series: "cash", value: 2 },
  ]);
  const layer = (spec as { layer: { encoding: { x: { axis: { values: number[] } } } }[] }).layer[0];
  assert.deepEqual(layer.encoding.x.axis.values, [1, 2]);
  const svg = await renderSvg(spec);
  // The x axis's tick labels, in order.
  const labels = [...svg.matchAll(/<text[^>]*>(\d+)<\/text>/g)].map((m) => m[1]);
  assert.deepEqual(labels.filter((l) => l === "1" || l === "2"), ["1", "2"]);
  // Past 20 rounds, every k-th round.
  const long = stateTrajectoryChart(
    Array.from({ length: 53 }, (_, i) => ({ round: i + 1, series: "cash", value: i })),
  ) as { layer: { encoding: { x: { axis: { values: number[] } } } }[] };
  assert.deepEqual(long.layer[0].encoding.x.axis.values.slice(0, 4), [1, 4, 7, 10]);
});

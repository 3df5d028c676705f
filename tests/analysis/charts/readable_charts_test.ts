// What a reader of the charts sees: each spec shows itself as the chart in a
// notebook, legends are whole, colours are fixed per mechanism, rule and
// model, probability intervals stay in [0, 1], averages carry their n,
// overlapping series are dodged, and the Figure 4 and Table 1 layouts.
import assert from "node:assert/strict";
import {
  actionMeasuresChart,
  calibrationChart,
  earlyCommitmentChart,
  historyMatchChart,
  intervalChart,
  matchRateChart,
  payoffGapChart,
  regimeChart,
  renderSvg,
  scorecardChart,
  stagByMarginChart,
  stateTrajectoryChart,
  successByCorruptionChart,
  successChart,
  trajectoriesChart,
  type VegaLiteSpec,
  welfareBarsChart,
  welfareHeatmapChart,
} from "../../../analysis/mod.ts";
import { VEGA_LITE_MIME } from "../../../analysis/display.ts";

const DISPLAY = Symbol.for("Jupyter.display");

/** The fields and scale of a spec's colour encodings, wherever they are. */
function colorScales(spec: unknown): { domain: string[]; range: string[] }[] {
  const found: { domain: string[]; range: string[] }[] = [];
  const visit = (node: unknown) => {
    if (node === null || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    const color = (record.encoding as Record<string, { scale?: unknown }> | undefined)?.color;
    if (color?.scale !== undefined) {
      found.push(color.scale as { domain: string[]; range: string[] });
    }
    for (const value of Object.values(record)) visit(value);
  };
  visit(spec);
  return found;
}

/** The colour of `category` in a spec's (first) colour scale. */
function colorOf(spec: VegaLiteSpec, category: string): string {
  const [scale] = colorScales(spec);
  assert.ok(scale !== undefined, "a fixed colour scale");
  const index = scale.domain.indexOf(category);
  assert.ok(index >= 0, `${category} in ${scale.domain}`);
  return scale.range[index];
}

/** The rows of a spec's data, placeholders and reference rows included. */
function rowsOf(spec: VegaLiteSpec): Record<string, unknown>[] {
  return (spec as { data: { values: Record<string, unknown>[] } }).data.values;
}

/** The tooltip fields of a spec's encodings. */
function tooltipFields(spec: unknown): string[] {
  const fields: string[] = [];
  const visit = (node: unknown) => {
    if (node === null || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    const tips = (record.encoding as Record<string, unknown> | undefined)?.tooltip;
    if (Array.isArray(tips)) fields.push(...tips.map((tip) => tip.field));
    for (const value of Object.values(record)) visit(value);
  };
  visit(spec);
  return fields;
}

const ruleRow = (rule: string, margin: number, rate: number, turns: number) => ({
  rule,
  bin_start: margin - 0.05,
  bin_end: margin + 0.05,
  margin,
  rate,
  lower: rate - 0.1,
  upper: rate + 0.05,
  turns,
});

/** One spec of every chart builder, from a few rows each. */
function everyChart(): Record<string, VegaLiteSpec> {
  const mech = (mechanism: string, mean: number) => ({
    env: "bank_run",
    regime: "stable",
    mechanism,
    mean,
    se: 0.1,
  });
  return {
    intervalChart: intervalChart([{ x: "a", y: 1 }], { x: "x", y: "y" }),
    stateTrajectoryChart: stateTrajectoryChart([{ round: 1, series: "cash", value: 1 }]),
    welfareBarsChart: welfareBarsChart([mech("M0", 0.1), mech("M3", 0.9)]),
    welfareHeatmapChart: welfareHeatmapChart([{
      env: "bank_run",
      mechanism: "M0",
      model: "m",
      welfare: 0.5,
      successes: 1,
      episodes: 2,
      mark: "",
    }]),
    successChart: successChart([{
      env: "bank_run",
      model: "m",
      mechanism: "M0",
      rate: 0.5,
      lower: 0.1,
      upper: 0.9,
    }]),
    actionMeasuresChart: actionMeasuresChart([{
      measure: "withdrawal_rate",
      mechanism: "M0",
      mean: 0.5,
      se: 0.1,
    }]),
    regimeChart: regimeChart([mech("M1", 0.5)]),
    scorecardChart: scorecardChart([{ mechanism: "M0", dimension: "welfare", value: 0.4 }]),
    earlyCommitmentChart: earlyCommitmentChart([{
      env: "bank_run",
      bin_start: 0,
      bin_end: 0.2,
      mean: 0.2,
      lower: 0,
      upper: 0.5,
      n: 11,
    }]),
    trajectoriesChart: trajectoriesChart([{
      env: "bank_run",
      mechanism: "M0",
      panel: "financial",
      round: 1,
      mean: 1,
      lower: 0,
      upper: 2,
      n: 4,
    }]),
    successByCorruptionChart: successByCorruptionChart([{
      fraction: 0.2,
      preflip: 0.9,
      public: 0.8,
      boundary: 0.4,
      rounds: 80,
    }]),
    matchRateChart: matchRateChart([{ rule: "naive", rate: 0.8, lower: 0.7, upper: 0.9 }]),
    stagByMarginChart: stagByMarginChart([ruleRow("naive", 0.15, 0.5, 10)]),
    historyMatchChart: historyMatchChart([{
      rule: "naive",
      layer: "public",
      fraction: 0.2,
      rate: 1,
    }]),
    payoffGapChart: payoffGapChart([{ fraction: 0.2, realised: 3, truthful: 3.5, turns: 8 }]),
    calibrationChart: calibrationChart([{ confidence: 0.5, alignment: 0.5, units: 2, ece: 0 }]),
  };
}

Deno.test("every chart builder's spec displays itself as the chart, and stays plain data", async () => {
  for (const [name, spec] of Object.entries(everyChart())) {
    const descriptor = Object.getOwnPropertyDescriptor(spec, DISPLAY);
    assert.ok(descriptor !== undefined && !descriptor.enumerable, `${name}: display method`);
    const bundle = await (descriptor.value as () => Promise<Record<string, unknown>>)();
    assert.deepEqual(
      Object.keys(bundle).sort(),
      [VEGA_LITE_MIME, "image/png", "text/plain"],
      name,
    );
    // JSON, spreading and deep equality see the spec only.
    assert.deepEqual(JSON.parse(JSON.stringify(spec)), { ...spec }, name);
    const embedded = bundle[VEGA_LITE_MIME] as { $schema: string };
    assert.deepEqual(embedded, { ...spec, $schema: embedded.$schema }, name);
  }
});

Deno.test("every chart builder draws legend labels and titles whole", () => {
  for (const [name, spec] of Object.entries(everyChart())) {
    assert.deepEqual(spec.config?.legend, { labelLimit: 0, titleLimit: 0 }, name);
  }
});

Deno.test("legends show long rule and series names whole", async () => {
  const spec = stagByMarginChart([
    ruleRow("naive", 0.15, 0.5, 10),
    ruleRow("carryover(lambda=0.5)", 0.15, 0.6, 10),
  ]);
  assert.ok((await renderSvg(spec)).includes(">carryover(lambda=0.5)</text>"));
  const state = stateTrajectoryChart([
    { round: 1, series: "withdrawn (cumulative)", value: 2 },
    { round: 2, series: "withdrawn (cumulative)", value: 3 },
  ]);
  assert.ok((await renderSvg(state)).includes(">withdrawn (cumulative)</text>"));
});

Deno.test("a mechanism keeps its colour in charts of different mechanisms", () => {
  const row = (mechanism: string, regime = "stable") => ({
    env: "bank_run",
    regime,
    mechanism,
    mean: 0.5,
    se: 0.1,
  });
  const all = regimeChart(["M0", "M1", "M2", "M3"].map((m) => row(m)));
  const some = regimeChart([row("M3"), row("M1", "contraction")]);
  const bars = welfareBarsChart([row("M2"), row("M3")]);
  const lines = trajectoriesChart([{
    env: "debt_rollover",
    mechanism: "M3",
    panel: "financial",
    round: 1,
    mean: 1,
  }]);
  assert.deepEqual(colorScales(all)[0], {
    domain: ["M0", "M1", "M2", "M3"],
    range: ["#4c78a8", "#f58518", "#e45756", "#72b7b2"],
  });
  assert.deepEqual(colorScales(some)[0], { domain: ["M1", "M3"], range: ["#f58518", "#72b7b2"] });
  for (const spec of [some, bars, lines]) assert.equal(colorOf(spec, "M3"), colorOf(all, "M3"));
});

Deno.test("the paper's rules keep their colours when a rule is added", () => {
  const paper = ["naive", "carryover", "outcome_alignment"];
  const three = stagByMarginChart(paper.map((rule) => ruleRow(rule, 0.15, 0.5, 10)));
  const four = stagByMarginChart(
    ["my_rule", ...paper].map((rule) => ruleRow(rule, 0.15, 0.5, 10)),
  );
  const two = stagByMarginChart([ruleRow("outcome_alignment", 0.15, 0.5, 10)]);
  for (const rule of paper) assert.equal(colorOf(four, rule), colorOf(three, rule), rule);
  assert.equal(colorOf(two, "outcome_alignment"), colorOf(three, "outcome_alignment"));
  // The new rule gets a colour none of the paper's has, and comes after them in the legend.
  assert.ok(!paper.map((rule) => colorOf(three, rule)).includes(colorOf(four, "my_rule")));
  assert.deepEqual(colorScales(four)[0].domain, [...paper, "my_rule"]);
  // The Table 1 chart colours its rules the same way.
  const rates = matchRateChart(
    ["my_rule", ...paper].map((rule) => ({ rule, rate: 0.8, lower: 0.7, upper: 0.9 })),
  );
  for (const rule of [...paper, "my_rule"]) assert.equal(colorOf(rates, rule), colorOf(four, rule));
});

Deno.test("a model keeps its colour in charts of different models", () => {
  const row = (model: string, rule: string) => ({ model, rule, rate: 0.8, lower: 0.7, upper: 0.9 });
  const both = matchRateChart([row("GLM", "naive"), row("Qwen", "naive")]);
  const one = matchRateChart([row("Qwen", "naive"), row("Qwen", "carryover")]);
  assert.deepEqual(colorScales(both)[0], {
    domain: ["GLM", "Qwen"],
    range: ["#f58518", "#9d755d"],
  });
  assert.equal(colorOf(one, "Qwen"), colorOf(both, "Qwen"));
});

Deno.test("intervals of probabilities and realizations stay within [0, 1]", () => {
  // Bank run M0: W~ 0.097 ± 0.139 and M1: 0.95 ± 0.2 would leave [0, 1].
  const rows = [
    { env: "bank_run", mechanism: "M0", mean: 0.097, se: 0.139 },
    { env: "bank_run", mechanism: "M1", mean: 0.95, se: 0.2 },
  ];
  for (
    const spec of [
      welfareBarsChart(rows),
      regimeChart(rows.map((r) => ({ ...r, regime: "stable" }))),
    ]
  ) {
    const values = rowsOf(spec);
    assert.deepEqual(values.map((v) => [v.lower, (v.upper as number).toFixed(3)]), [
      [0, "0.236"],
      [0.75, "1.000"],
    ]);
  }
  // Action measures are not all shares (a launch round is not): they are not cut.
  const measures = rowsOf(actionMeasuresChart([{
    measure: "first_launch_round",
    mechanism: "M0",
    mean: 4,
    se: 0.5,
  }]));
  assert.deepEqual([measures[0].lower, measures[0].upper], [3.5, 4.5]);
});

Deno.test("points that are averages carry their n", async () => {
  const margin = stagByMarginChart([ruleRow("naive", 0.15, 0.5, 37)]);
  assert.ok(tooltipFields(margin).includes("turns"));
  assert.ok(JSON.stringify(margin).includes('"size":{"field":"turns"'));
  assert.ok(tooltipFields(successByCorruptionChart(everyChartRows.success)).includes("rounds"));
  assert.ok(tooltipFields(payoffGapChart(everyChartRows.payoff)).includes("turns"));
  const rates = matchRateChart([{ rule: "naive", rate: 0.8, lower: 0.7, upper: 0.9, turns: 50 }]);
  assert.ok(tooltipFields(rates).includes("turns"));
  const lines = trajectoriesChart([{
    env: "bank_run",
    mechanism: "M0",
    panel: "financial",
    round: 1,
    mean: 1,
    n: 4,
  }]);
  assert.ok(tooltipFields(lines).includes("n"));
  const early = await renderSvg(everyChart().earlyCommitmentChart);
  assert.ok(early.includes(">n=11</text>"));
});

const everyChartRows = {
  success: [{ fraction: 0.2, preflip: 0.9, public: 0.8, boundary: 0.4, rounds: 80 }],
  payoff: [{ fraction: 0.2, realised: 3, truthful: 3.5, turns: 8 }],
};

Deno.test("stagByMarginChart() sets the rules of one bin side by side within the bin", () => {
  const spec = stagByMarginChart([
    ruleRow("naive", 0.15, 0.5, 10),
    ruleRow("carryover", 0.15, 0.6, 10),
    ruleRow("outcome_alignment", 0.15, 0.7, 10),
  ]);
  const positions = rowsOf(spec).filter((row) => row.kind === "point").map((row) => row.position);
  // 0.6 of the bin width, shared by three rules: offsets -0.02, 0, +0.02.
  assert.deepEqual(positions.map((p) => Number((p as number).toFixed(4))), [0.13, 0.15, 0.17]);
  assert.ok(positions.every((p) => (p as number) > 0.1 && (p as number) < 0.2));
});

Deno.test("trajectoriesChart() titles each row once and gives each environment its rounds", async () => {
  const rows = [
    ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((round) => ({
      env: "bank_run",
      mechanism: "M0",
      panel: "financial",
      round,
      mean: 0.5,
    })),
    ...[1, 2, 3, 4, 5, 6, 7].map((round) => ({
      env: "debt_rollover",
      mechanism: "M0",
      panel: "financial",
      round,
      mean: 0.5,
    })),
  ];
  const spec = trajectoriesChart(rows) as unknown as {
    hconcat: { title: { text: string }; facet: { row: { header: { labels?: boolean } } } }[];
  };
  assert.deepEqual(spec.hconcat.map((column) => column.title.text), ["Bank run", "Debt rollover"]);
  assert.equal(spec.hconcat[1].facet.row.header.labels, false);
  const svg = await renderSvg(spec as unknown as VegaLiteSpec);
  assert.ok(!svg.includes("Mean across episodes"));
  assert.equal(svg.split(">Financial state</text>").length - 1, 1);
  // Bank run to round 12, debt rollover to round 7, not both to 12.
  assert.ok(svg.includes(">12</text>"));
  assert.equal(svg.split(">12</text>").length - 1, 1);
});

Deno.test("matchRateChart() zooms its axis to the rates and writes each rate", async () => {
  const spec = matchRateChart([
    { rule: "naive", rate: 0.829, lower: 0.815, upper: 0.842 },
    { rule: "carryover", rate: 0.886, lower: 0.873, upper: 0.898 },
  ]);
  const json = JSON.stringify(spec);
  assert.ok(json.includes('"scale":{"domain":[0.78,0.94]}'), json);
  const svg = await renderSvg(spec);
  assert.ok(svg.includes(">0.829</text>") && svg.includes(">0.886</text>"));
  assert.ok(!svg.includes(">0.0</text>"), "the axis does not start at 0");
});

Deno.test("matchRateChart() writes rates upwards when the models of a rule stand too close for them", async () => {
  // Four models a rule in a 320 px chart: 20 px a point, narrower than
  // "0.897"; written across, neighbouring rates ran into each other.
  const rules = ["naive", "carryover", "outcome_alignment", "recency"];
  const rows = rules.flatMap((rule, i) =>
    ["a", "b", "c", "d"].map((model, j) => {
      const rate = 0.8 + (i + j) / 100;
      return { rule, model, rate, lower: rate - 0.02, upper: rate + 0.02 };
    })
  );
  const textMark = (spec: VegaLiteSpec) =>
    (spec as unknown as { layer: { mark: Record<string, unknown> }[] }).layer
      .map((layer) => layer.mark).find((mark) => mark.type === "text")!;
  assert.equal(textMark(matchRateChart(rows)).angle, 270);
  const svg = await renderSvg(matchRateChart(rows));
  assert.equal(svg.match(/rotate\(270\)/g)?.length, 16);
  // One model: one rate a rule, written across as before.
  const one = matchRateChart(rows.filter((row) => row.model === "a"));
  assert.equal(textMark(one).angle, undefined);
  assert.equal(textMark(one).dy, -8);
});

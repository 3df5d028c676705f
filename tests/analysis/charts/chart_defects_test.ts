// Issue 21's chart defects, each as the property of the spec that fixes it:
// mock agents named under the title, no "± SE" without SE bars, line
// legends and dashes where series lie on one another, haloed reference
// labels, padded F/N axes, level Table 1 labels, Figure 3's faint thin-n
// intervals and honest size legend, Figure A5's 1 - M/N rule, a y title
// said once.
import assert from "node:assert/strict";
import {
  chartAgents,
  earlyCommitmentChart,
  matchRateChart,
  payoffGapChart,
  regimeChart,
  stagByMarginChart,
  stateTrajectoryChart,
  successByCorruptionChart,
  trajectoriesChart,
  type VegaLiteSpec,
  welfareBarsChart,
} from "../../../analysis/mod.ts";

const MOCK_LINE = "Mock agents (scripted policies, no LLM)";

/** Every object in a spec that has `key`, depth first. */
function nodesWith(spec: unknown, key: string): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const visit = (node: unknown) => {
    if (node === null || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    if (key in record) found.push(record);
    for (const value of Object.values(record)) visit(value);
  };
  visit(spec);
  return found;
}

/** The encodings of a spec's layers, wherever they are. */
function encodings(spec: unknown): Record<string, Record<string, unknown>>[] {
  return nodesWith(spec, "encoding").map((n) =>
    n.encoding as Record<string, Record<string, unknown>>
  );
}

function titleOf(spec: VegaLiteSpec): { text: unknown; subtitle: string[] } {
  const title = spec.title as string | { text: unknown; subtitle?: string | string[] };
  if (typeof title === "string") return { text: title, subtitle: [] };
  const sub = title.subtitle;
  return { text: title.text, subtitle: sub === undefined ? [] : Array.isArray(sub) ? sub : [sub] };
}

const oneModel = (mechanism: string, mean: number) => ({
  env: "bank_run",
  mechanism,
  mean,
  se: null,
  models: 1,
});

Deno.test("welfareBarsChart() names mock agents under its title when told", () => {
  const spec = welfareBarsChart([oneModel("M0", 0.1)], { agents: "mock" });
  assert.ok(titleOf(spec).subtitle.includes(MOCK_LINE));
  assert.deepEqual(
    titleOf(welfareBarsChart([oneModel("M0", 0.1)])).subtitle.includes(MOCK_LINE),
    false,
  );
});

Deno.test("successByCorruptionChart() knows mock agents from the rows' model column", () => {
  const row = {
    model: "mock:threshold(naive,noise=0.1)",
    fraction: 0.2,
    preflip: 1,
    public: 1,
    boundary: 0.4,
  };
  assert.ok(titleOf(successByCorruptionChart([row])).subtitle.includes(MOCK_LINE));
  // A model name alone says nothing: an LLM is not guessed.
  assert.deepEqual(titleOf(successByCorruptionChart([{ ...row, model: "gpt-5" }])).subtitle, []);
  assert.throws(() => successByCorruptionChart([row], { agents: "llm" }), {
    message: 'successByCorruptionChart: agents is "llm" but every row\'s model is a mock ' +
      "policy (mock:threshold(naive,noise=0.1))",
  });
});

Deno.test("chartAgents() reads the episodes' policies", () => {
  const episode = (...policies: string[]) => ({
    agents: JSON.stringify(policies.map((policy, i) => ({ id: `a${i}`, policy }))),
  });
  assert.equal(chartAgents([episode("mock:passive_bank"), episode("mock:defensive")]), "mock");
  assert.equal(chartAgents([episode("llm:model-a")]), "llm");
  assert.equal(chartAgents([episode("llm:m"), episode("mock:x")]), "mixed");
  assert.equal(chartAgents([episode("replay:x")]), undefined);
  assert.throws(() => chartAgents([]), {
    message: "chartAgents: no episodes, so the kind of agents cannot be known",
  });
});

Deno.test("welfareBarsChart() claims no ± SE when no bar has one, and draws rules when they do", () => {
  const none = welfareBarsChart([oneModel("M0", 0.1), oneModel("M3", 0.9)]);
  assert.equal(titleOf(none).text, "Welfare realization by environment (mean of model means)");
  assert.deepEqual(titleOf(none).subtitle, [
    "No SE bars: an SE is across model means, and one model has none",
  ]);
  const some = welfareBarsChart([{ ...oneModel("M0", 0.2), se: 0.1, models: 7 }]);
  assert.equal(titleOf(some).text, "Welfare realization by environment (mean of model means ± SE)");
  const rule = nodesWith(some, "mark").find((n) => (n.mark as { type?: string }).type === "rule")!;
  assert.deepEqual((rule.encoding as Record<string, { field: string }>).y2, { field: "upper" });
  const rows = (some as { data: { values: Record<string, unknown>[] } }).data.values;
  assert.deepEqual([rows[0].lower, rows[0].upper], [0.1, 0.30000000000000004]);
});

Deno.test("regimeChart() (Table 10) says ± SE only with SE bars", () => {
  const row = { env: "bank_run", regime: "stable", mechanism: "M0", mean: 0.2 };
  assert.equal(
    titleOf(regimeChart([{ ...row, se: 0.1 }])).text,
    "Welfare realization across economic regimes (mean of model means ± SE)",
  );
  assert.equal(
    titleOf(regimeChart([{ ...row, se: null }])).text,
    "Welfare realization across economic regimes (mean of model means)",
  );
});

const path = (mechanism: string, mean: number) =>
  [1, 2].map((round) => ({
    env: "bank_run",
    mechanism,
    panel: "financial",
    round,
    mean,
    lower: 0,
    upper: 1,
  }));

Deno.test("trajectoriesChart() (Figure 4) legends lines, not bands, and dashes each mechanism", () => {
  const spec = trajectoriesChart([...path("M1", 0), ...path("M2", 0)]);
  const colors = encodings(spec).map((e) => e.color).filter(Boolean);
  for (const color of colors) {
    assert.deepEqual((color.legend as Record<string, unknown>).symbolType, "stroke");
    assert.deepEqual((color.legend as Record<string, unknown>).symbolOpacity, 1);
  }
  const dash = encodings(spec).map((e) => e.strokeDash).find(Boolean)!;
  assert.deepEqual(dash.scale, { domain: ["M1", "M2"], range: [[1, 0], [7, 3]] });
});

Deno.test("reference labels have a white halo drawn before them (Figure 4, withdrawals by regime)", () => {
  const spec = trajectoriesChart(path("M0", 14), {
    references: [{
      env: "bank_run",
      regime: "stable",
      overrides_id: "none",
      axis: "y",
      value: 14,
      label: "goal",
    }],
  });
  const texts = nodesWith(spec, "mark").map((n) => n.mark as Record<string, unknown>)
    .filter((m) => m.type === "text");
  const halo = texts.findIndex((m) => m.stroke === "white");
  assert.ok(halo >= 0 && texts.slice(halo + 1).some((m) => m.stroke === undefined));
  const state = stateTrajectoryChart([{ round: 1, series: "a", value: 1 }], {
    referenceLines: [{ y: 1, label: "boundary" }],
  }) as unknown as { layer: { mark: Record<string, unknown> }[] };
  assert.deepEqual(state.layer.map((l) => l.mark.stroke), [
    undefined,
    undefined,
    "white",
    undefined,
  ]);
});

Deno.test("stateTrajectoryChart() titles its legend as told, and dashes series that share points", () => {
  const rows = [
    { round: 1, series: "M0 withdrawn", value: 10 },
    { round: 1, series: "M3 committed", value: 10 },
  ];
  const spec = stateTrajectoryChart(rows, { legendTitle: "Regime" }) as unknown as {
    layer: { encoding: Record<string, Record<string, unknown>> }[];
  };
  assert.equal(spec.layer[0].encoding.color.title, "Regime");
  assert.deepEqual(spec.layer[0].encoding.strokeDash.scale, {
    domain: ["M0 withdrawn", "M3 committed"],
    range: [[1, 0], [7, 3]],
  });
  const apart = stateTrajectoryChart([rows[0], { ...rows[1], value: 9 }]) as unknown as typeof spec;
  assert.equal(apart.layer[0].encoding.color.title, null);
  assert.equal(apart.layer[0].encoding.strokeDash, undefined);
});

Deno.test("successByCorruptionChart() (Figure 1) pads its x axis, titles its legend and dashes public success", () => {
  const spec = successByCorruptionChart([
    { fraction: 0.2, preflip: 0.5, public: 0.5, boundary: 0.4 },
  ]);
  const [line] = encodings(spec).filter((e) => e.strokeDash);
  assert.deepEqual(line.x.scale, { padding: 14, nice: false, zero: false });
  assert.equal(line.color.title, "Success measured on");
  assert.deepEqual(line.strokeDash.scale, {
    domain: ["pre-flip success", "public success"],
    range: [[1, 0], [7, 3]],
  });
});

Deno.test("matchRateChart() (Table 1) keeps its rule labels level, underscores as spaces", () => {
  const spec = matchRateChart([
    { rule: "naive", rate: 0.84, lower: 0.82, upper: 0.86 },
    { rule: "carryover", rate: 0.9, lower: 0.88, upper: 0.92 },
    { rule: "outcome_alignment", rate: 0.87, lower: 0.85, upper: 0.89 },
  ]);
  const axis = encodings(spec)[0].x.axis as Record<string, unknown>;
  assert.equal(axis.labelAngle, 0);
  assert.match(String(axis.labelExpr), /replace\(datum.label, \/_\/g, ' '\)/);
});

Deno.test("stagByMarginChart() (Figure 3) fades intervals of few turns and lists no 0 turns", () => {
  const row = (rule: string, turns: number) => ({
    rule,
    margin: 0.15,
    bin_start: 0.1,
    bin_end: 0.2,
    rate: 0.5,
    lower: 0.2,
    upper: 0.8,
    turns,
  });
  const spec = stagByMarginChart([row("naive", 3), row("carryover", 240)]);
  const [rule, point] = encodings(spec);
  assert.deepEqual(rule.opacity.scale, { type: "sqrt", range: [0.15, 0.9], zero: true });
  assert.deepEqual((point.size.legend as { values: number[] }).values, [3, 240]);
});

Deno.test("payoffGapChart() (Figure A5) draws the 1 - M/N rule from N and M", () => {
  const spec = payoffGapChart([
    { N: 5, M: 3, fraction: 0.2, realised: 3.5, truthful: 3.5, turns: 10 },
    { N: 5, M: 3, fraction: 0.8, realised: 1.7, truthful: 3, turns: 10 },
  ]);
  const rows = (spec as { data: { values: Record<string, unknown>[] } }).data.values;
  assert.deepEqual(rows.filter((r) => r.kind === "boundary"), [
    { kind: "boundary", x: 0.4, label: "1 - M/N" },
  ]);
  assert.ok(
    nodesWith(spec, "mark").some((n) =>
      (n.mark as Record<string, unknown>).type === "rule" &&
      JSON.stringify(n.transform).includes("boundary")
    ),
  );
  assert.ok(encodings(spec).some((e) => e.strokeDash !== undefined));
});

Deno.test("earlyCommitmentChart() (Figure 6) says its y title once, not in every panel", () => {
  const bin = (env: string) => ({
    env,
    bin_start: 0,
    bin_end: 0.2,
    mean: 0.5,
    lower: 0.2,
    upper: 0.8,
    n: 4,
  });
  const spec = earlyCommitmentChart([bin("bank_run"), bin("crowdfunding")]);
  assert.ok(encodings(spec).every((e) => e.y === undefined || e.y.title === null));
  assert.deepEqual(titleOf(spec).subtitle, [
    "y: Mean outcome (95% CI), each panel on its own scale",
  ]);
});

Deno.test("regimeChart() (Table 10) draws the paper's values in the run's places when given", () => {
  const run = [
    { env: "bank_run", regime: "stable", mechanism: "M0", mean: 0.2, se: null },
    { env: "bank_run", regime: "stable", mechanism: "M3", mean: 0.9, se: null },
  ];
  const paper = [
    { env: "bank_run", regime: "stable", mechanism: "M0", mean: 0.044, se: 0.044 },
    { env: "bank_run", regime: "stable", mechanism: "M3", mean: 0.747, se: 0.249 },
    { env: "bank_run", regime: "expansion", mechanism: "M3", mean: 0.981, se: 0.01 },
  ];
  const spec = regimeChart(run, { reference: paper, referenceLabel: "FRAIL Table 10" });
  const rows = (spec as { data: { values: Record<string, unknown>[] } }).data.values;
  // The expansion row has no place in the run: left out.
  assert.deepEqual(
    rows.filter((r) => r.__reference).map((r) => [r.regime, r.mechanism, r.lower, r.upper]),
    [["stable", "M0", 0, 0.088], ["stable", "M3", 0.498, 0.996]],
  );
  const marks = nodesWith(spec, "mark").map((n) => n.mark as Record<string, unknown>);
  assert.ok(marks.some((m) => m.type === "tick" && m.color === "black"));
  assert.ok(
    titleOf(spec).subtitle.includes("Black ticks: FRAIL Table 10, grey bands its interval"),
  );
  assert.throws(
    () => regimeChart([...run, { ...run[0], overrides_id: "x" }], { reference: paper }),
    { message: /^regimeChart: the rows hold several conditions/ },
  );
});

// The Stag Hunt tables and figures on a hand-built log, against values
// computed by hand. N = 3, M = 2, T = 2, payoffs (4, 2, 0, 2), so
// q* = 1 - 1/sqrt(2) = 0.292893 (Stag pays iff at least one of the two others
// plays Stag with probability >= 1/2).
//
// Episode A (F = 0, all players model m1):
//   round 1: p1 Stag (0.9), p2 Stag (0.8), p3 Hare (0.6)   -> success on both layers
//   round 2: p1 Hare (0.4), p2 Stag (0.9), p3 Stag (0.7)   -> success on both layers
// Episode B (F = 1, p1 corrupted; p1 model m1, p2 and p3 model m2):
//   round 1: p1 Stag->Hare (0.5), p2 Stag (0.8), p3 Stag (0.9) -> pre-flip 3, public 2: both succeed
//   round 2: p1 Stag->Hare (0.5), p2 Hare (0.6), p3 Stag (0.3) -> pre-flip 2 succeeds, public 1 fails
import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import { naiveRule } from "../../../engine/games/staghunt/beliefs/naive.ts";
import type { EngineEvent } from "../../../engine/core/events.ts";
import {
  calibrationChart,
  calibrationTable,
  compareWithReference,
  historyMatchChart,
  historyMatchRates,
  honestStagRates,
  loadReference,
  loadRuns,
  matchRateChart,
  matchRateTable,
  payoffGap,
  payoffGapChart,
  renderSvg,
  stagByMargin,
  stagByMarginChart,
  stagHuntTurnRecords,
  successByCorruption,
  successByCorruptionChart,
} from "../../../analysis/mod.ts";
import type { ModelTurn } from "../../../analysis/staghunt/turn_records.ts";
import { ndjson } from "../_fixture.ts";
import { makeTempDir } from "../../_temp.ts";

type Turn = [agent: string, original: string, published: string, confidence: number];

function episode(id: string, F: number, models: string[], rounds: Turn[][]): EngineEvent[] {
  let seq = 0;
  const base = (round: number, step: string) => ({
    schema: 2,
    run: "sh",
    episode: id,
    round,
    step,
    seq: seq++,
    time: "2026-01-01T00:00:00.000Z",
  });
  const events: EngineEvent[] = [{
    ...base(0, "setup"),
    type: "episode_start",
    game: "staghunt",
    env: "staghunt",
    condition: {
      N: 3,
      M: 2,
      T: 2,
      F,
      corruption: "base",
      heterogeneity: "h1",
      payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 },
    },
    condition_id: `staghunt_N3_M2_T2_F${F}_base_h1`,
    seed: 1,
    params: { N: 3, M: 2, T: 2, F, payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 }, corruption: "base" },
    derived: { bounds: { worst: 0, best: 24 }, q_star: 0.5 },
    central_role: null,
    central_id: null,
    agents: ["p1", "p2", "p3"].map((p, i) => ({ id: p, role: "player", policy: models[i] })),
    model: [...new Set(models)].sort().join("+"),
    bounds: { worst: 0, best: 24 },
    toolkit: "fixture",
  }];
  rounds.forEach((turns, r) => {
    events.push({ ...base(r + 1, "start"), type: "round_start" });
    turns.forEach(([agent, original, published, confidence], i) => {
      events.push({
        ...base(r + 1, `turn_${i + 1}`),
        type: "turn",
        agent,
        position: i + 1,
        corrupted: F > 0 && agent === "p1",
        original_action: original,
        public_action: published,
        confidence,
        original_justification: "why",
        public_justification: "why",
      } as unknown as EngineEvent);
    });
  });
  events.push({ ...base(2, "end"), type: "episode_end", status: "ok" });
  return events;
}

const dir = await makeTempDir({ prefix: "coordlab_staghunt_" });
await Deno.writeTextFile(
  `${dir}/A.ndjson`,
  ndjson(episode("A", 0, ["m1", "m1", "m1"], [
    [["p1", "Stag", "Stag", 0.9], ["p2", "Stag", "Stag", 0.8], ["p3", "Hare", "Hare", 0.6]],
    [["p1", "Hare", "Hare", 0.4], ["p2", "Stag", "Stag", 0.9], ["p3", "Stag", "Stag", 0.7]],
  ])),
);
await Deno.writeTextFile(
  `${dir}/B.ndjson`,
  ndjson(episode("B", 1, ["m1", "m2", "m2"], [
    [["p1", "Stag", "Hare", 0.5], ["p2", "Stag", "Stag", 0.8], ["p3", "Stag", "Stag", 0.9]],
    [["p1", "Stag", "Hare", 0.5], ["p2", "Hare", "Hare", 0.6], ["p3", "Stag", "Stag", 0.3]],
  ])),
);
const frames = await loadRuns(dir, { frames: ["turns"] });
await Deno.remove(dir, { recursive: true });
const records: ModelTurn[] = stagHuntTurnRecords(frames.turns!, frames.episodes);
const naive = { rules: [naiveRule()] };

function fixed(value: unknown, digits = 4): string {
  return (value as number).toFixed(digits);
}

Deno.test("loadRuns() reads Stag Hunt turns with both action layers", () => {
  const turns = frames.turns!;
  assert.equal(turns.height, 12);
  const flipped = turns.filter(pl.col("corrupted")).toRecords();
  assert.deepEqual(
    flipped.map((t) => [t.episode, t.round, t.position, t.original_action, t.public_action]),
    [
      ["B", 1, 1, "Stag", "Hare"],
      ["B", 2, 1, "Stag", "Hare"],
    ],
  );
  assert.deepEqual(frames.episodes.sort("episode").getColumn("model").toArray(), ["m1", "m1+m2"]);
  assert.equal(records.length, 12);
  assert.deepEqual(records.filter((t) => t.episode === "B").map((t) => t.model), [
    "m1",
    "m2",
    "m2",
    "m1",
    "m2",
    "m2",
  ]);
});

Deno.test("successByCorruption() gives pre-flip and public success with the 1 - M/N boundary", () => {
  const rows = successByCorruption(records).toRecords();
  assert.deepEqual(
    rows.map((r) => [r.F, fixed(r.fraction), fixed(r.boundary), r.rounds, r.preflip, r.public]),
    [
      [0, "0.0000", "0.3333", 2, 1, 1],
      [1, "0.3333", "0.3333", 2, 1, 0.5],
    ],
  );
});

Deno.test("honestStagRates() counts honest original Stag choices", () => {
  const rows = honestStagRates(records).toRecords();
  assert.deepEqual(rows.map((r) => [r.F, r.stag, r.turns, r.rate]), [[0, 4, 6, 4 / 6], [
    1,
    3,
    4,
    0.75,
  ]]);
  const byModel = honestStagRates(records, { byModel: true }).toRecords();
  assert.deepEqual(byModel.map((r) => [r.model, r.F, r.stag, r.turns]), [["m1", 0, 4, 6], [
    "m2",
    1,
    3,
    4,
  ]]);
});

Deno.test("matchRateTable() gives the naive benchmark match rate overall and per model", () => {
  const [overall] = matchRateTable(records, naive).toRecords();
  // eligible honest turns at positions 2 and 3: 4 of 8 match
  assert.deepEqual([overall.rule, overall.matches, overall.turns, overall.rate], [
    "naive",
    4,
    8,
    0.5,
  ]);
  assert.equal(fixed(overall.lower), "0.2152"); // Wilson, k = 4, n = 8
  const byModel = matchRateTable(records, { ...naive, byModel: true }).toRecords();
  assert.deepEqual(byModel.map((r) => [r.model, r.matches, r.turns]), [["m1", 2, 4], ["m2", 2, 4]]);
});

Deno.test("matchRateTable() evaluates the paper's three rules on common support", () => {
  const rows = matchRateTable(records).toRecords();
  assert.deepEqual(rows.map((r) => r.rule), ["naive", "carryover", "outcome_alignment"]);
  assert.equal(new Set(rows.map((r) => r.turns)).size, 1);
  const cells = compareWithReference(
    pl.DataFrame(rows).rename({ rate: "match_rate" }),
    loadReference("staghunt_table1"),
    { keys: ["rule"], values: ["match_rate"] },
  );
  assert.equal(cells.height, 3);
  assert.deepEqual(cells.getColumn("paper").toArray(), [0.829, 0.846, 0.85]);
});

Deno.test("stagByMargin() bins P(Stag) by q-hat - q*", () => {
  const rows = stagByMargin(records, naive).toRecords();
  assert.deepEqual(rows.map((r) => [fixed(r.bin_start, 1), r.stag, r.turns]), [
    ["-0.3", 3, 4], // q-hat 0: margin -0.2929
    ["0.2", 2, 2], // q-hat 0.5: margin 0.2071
    ["0.7", 1, 2], // q-hat 1: margin 0.7071
  ]);
  assert.equal(fixed(rows[0].margin, 2), "-0.25");
});

Deno.test("historyMatchRates() compares public and hidden original histories", () => {
  const rows = historyMatchRates(records, naive).toRecords();
  assert.deepEqual(rows.map((r) => [r.F, r.layer, r.matches, r.turns]), [
    [0, "public", 2, 4],
    [0, "original", 2, 4],
    [1, "public", 2, 4],
    [1, "original", 3, 4],
  ]);
});

Deno.test("payoffGap() gives realised and truthful payoffs per honest turn", () => {
  const rows = payoffGap(records).toRecords();
  assert.deepEqual(rows.map((r) => [r.F, r.turns, fixed(r.realised), fixed(r.truthful)]), [
    [0, 6, "3.3333", "3.3333"],
    [1, 4, "2.5000", "3.5000"],
  ]);
});

Deno.test("payoffGap() gives episode-clustered SEs of the payoffs and their gap", () => {
  // N = 2, M = 2, F = 1: p1 corrupted, p2 honest; payoffs (4, 2, 0, 2).
  // e1 r1: p1 Stag->Hare, p2 Stag: pre-flip succeeds, public fails: p2 realised 0, truthful 4
  // e1 r2: p1 Hare->Hare, p2 Hare: both fail: 2, 2
  // e2 r1: p1 Stag->Stag, p2 Stag: both succeed: 4, 4
  // e2 r2: p1 Hare->Stag, p2 Hare: both fail: 2, 2
  // Gap per turn: e1 [4, 0], e2 [0, 0], mean 1; residuals sum to +2 (e1) and -2 (e2), so
  // se = sqrt(2 / 1 * (4 + 4)) / 4 = 1. Realised e1 [0, 2], e2 [4, 2], mean 2: sums -2, +2, se 1.
  // Truthful e1 [4, 2], e2 [4, 2], mean 3: sums 0, 0, se 0.
  const payoffs = { RS: 4, HS: 2, RF: 0, HF: 2 };
  const turn = (
    episode: string,
    round: number,
    position: number,
    original: string,
    shown: string,
  ) => ({
    run: "r",
    episode,
    N: 2,
    M: 2,
    T: 2,
    F: 1,
    payoffs,
    round,
    position,
    corrupted: position === 1,
    originalAction: original,
    publicAction: shown,
    model: "m",
  });
  const turns = [
    turn("e1", 1, 1, "Stag", "Hare"),
    turn("e1", 1, 2, "Stag", "Stag"),
    turn("e1", 2, 1, "Hare", "Hare"),
    turn("e1", 2, 2, "Hare", "Hare"),
    turn("e2", 1, 1, "Stag", "Stag"),
    turn("e2", 1, 2, "Stag", "Stag"),
    turn("e2", 2, 1, "Hare", "Stag"),
    turn("e2", 2, 2, "Hare", "Hare"),
  ] as unknown as ModelTurn[];
  const [row] = payoffGap(turns).toRecords();
  assert.deepEqual(
    [row.turns, row.episodes, row.realised, row.realised_se, row.truthful, row.truthful_se],
    [4, 2, 2, 1, 3, 0],
  );
  assert.deepEqual([row.gap, row.gap_se], [1, 1]);
  // One episode has no spread to estimate: the SEs are null, not 0.
  const [one] = payoffGap(turns.filter((t) => t.episode === "e1")).toRecords();
  assert.deepEqual([one.episodes, one.realised_se, one.truthful_se, one.gap_se], [
    1,
    null,
    null,
    null,
  ]);
});

Deno.test("calibrationTable() bins confidence against outcome alignment", () => {
  const rows = calibrationTable(records, { bins: 2, unit: "turn" }).toRecords();
  assert.deepEqual(rows.map((r) => [r.units, fixed(r.confidence, 3), fixed(r.alignment, 3)]), [
    [2, "0.350", "0.000"],
    [8, "0.775", "0.875"],
  ]);
  assert.equal(fixed(rows[0].ece, 3), "0.150"); // 0.2 * 0.35 + 0.8 * 0.1
});

Deno.test("Stag Hunt charts draw their marks", async () => {
  const count = (svg: string, role: string) =>
    svg.split(`aria-roledescription="${role}"`).length - 1;
  const success = await renderSvg(successByCorruptionChart(successByCorruption(records)));
  assert.equal(count(success, "line mark"), 2);
  assert.equal(count(success, "point"), 4);
  assert.equal(count(success, "rule mark"), 1); // one boundary, 1 - 2/3
  const match = await renderSvg(matchRateChart(matchRateTable(records)));
  assert.equal(count(match, "point"), 3);
  assert.equal(count(match, "rule mark"), 3);
  assert.equal(count(match, "text mark"), 3); // the rates, written above their intervals
  const margin = await renderSvg(stagByMarginChart(stagByMargin(records, naive)));
  assert.equal(count(margin, "point"), 3);
  assert.equal(count(margin, "rule mark"), 4); // three intervals and margin 0
  const history = await renderSvg(historyMatchChart(historyMatchRates(records, naive)));
  assert.equal(count(history, "line mark"), 2);
  const payoff = await renderSvg(payoffGapChart(payoffGap(records)));
  assert.equal(count(payoff, "line mark"), 2);
  const calibration = await renderSvg(
    calibrationChart(calibrationTable(records, { bins: 2, unit: "turn" })),
  );
  assert.equal(count(calibration, "point"), 2);
  assert.ok(calibration.includes("ECE 0.150"));
});

Deno.test("payoffGapChart() draws a 95% interval where a point has an SE, none where it is null", async () => {
  const rows = [
    { fraction: 0.2, realised: 2, realised_se: 1, truthful: 3, truthful_se: 0.5, turns: 4 },
    { fraction: 0.8, realised: 1, realised_se: null, truthful: 2, truthful_se: null, turns: 2 },
  ];
  const spec = payoffGapChart(rows);
  const values = (spec as { data: { values: Record<string, unknown>[] } }).data.values;
  assert.deepEqual(
    values.filter((r) => r.kind === "series").map((r) => [r.series, r.lower, r.upper]),
    [
      ["realised", 2 - 1.96, 2 + 1.96],
      ["truthful implementation", 3 - 0.98, 3 + 0.98],
      ["realised", undefined, undefined],
      ["truthful implementation", undefined, undefined],
    ],
  );
  const svg = await renderSvg(spec);
  assert.equal(svg.split('aria-roledescription="rule mark"').length - 1, 2);
  assert.ok(svg.includes("episode-clustered SE"));
  // Without SE columns the chart is as before: no interval rules, no subtitle.
  const plain = await renderSvg(payoffGapChart([{ fraction: 0.2, realised: 2, truthful: 3 }]));
  assert.equal(plain.split('aria-roledescription="rule mark"').length - 1, 0);
});

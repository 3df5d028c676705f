// Issue 10, "Done when", Stag Hunt half: a grid mixing the base and b3
// corruption modes, homogeneous (h1) and round-robin (h2) groups and two
// horizons, played by mock players, and every Stag Hunt table, figure and
// chart function on it. Each refuses the mixed records with one RangeError
// naming the keys and their values, or, told to split, returns one row per
// condition whose values equal those computed here directly from the turns
// frame. The shipped data/specs/mock_staghunt.json used to print public
// success at N5/M3/F4 as the average of base and b3.
import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import {
  calibrationChart,
  calibrationTable,
  historyMatchChart,
  historyMatchRates,
  honestStagRates,
  matchRateChart,
  matchRateTable,
  payoffGap,
  payoffGapChart,
  renderSvg,
  stagByMargin,
  stagByMarginChart,
  STAGHUNT_CONDITION_KEYS,
  stagHuntTurnRecords,
  successByCorruption,
  successByCorruptionChart,
  type VegaLiteSpec,
} from "../../../analysis/mod.ts";
import type { ModelTurn } from "../../../analysis/staghunt/turn_records.ts";
import { loadGrid } from "../_grid.ts";

const frames = await loadGrid("coordlab_staghunt_conditions_", {
  name: "sh_conditions",
  seed: 5,
  episodes: 3,
  blocks: [{
    game: "staghunt",
    N: [5],
    M: [3],
    T: [2, 4],
    F: [1, 4],
    corruption: ["base", "b3"],
    heterogeneity: ["h1", "h2"],
    agents: [
      { mock: { players: "threshold", noise: 0.2 } },
      { models: { kind: "h2", pool: ["a", "b"] }, mock: { noise: 0.2 } },
    ],
  }],
}, { frames: ["turns"] });
const { episodes } = frames;
const turns = frames.turns!;
const records: ModelTurn[] = stagHuntTurnRecords(turns, episodes);
const all = ["T", "corruption", "heterogeneity"] as const;

/** Public success rate over rounds of the turns frame rows matching `where`, computed directly. */
function publicSuccess(where: pl.Expr): number {
  const perRound = turns.filter(where).groupBy(["run", "episode", "round"]).agg(
    pl.col("public_action").eq(pl.lit("Stag")).cast(pl.Int32).sum().alias("stag"),
  );
  const rounds = perRound.toRecords();
  return rounds.filter((r) => (r.stag as number) >= 3).length / rounds.length;
}

const is = (key: string, value: string | number) => pl.col(key).eq(pl.lit(value));

/** Rows of the same T, F, corruption and heterogeneity as a result row. */
const sameCondition = (row: Record<string, unknown>) =>
  is("T", row.T as number).and(is("F", row.F as number))
    .and(is("corruption", row.corruption as string))
    .and(is("heterogeneity", row.heterogeneity as string));

Deno.test("the grid mixes corruption modes, heterogeneity and horizons; records carry them", () => {
  assert.equal(episodes.height, 48);
  assert.deepEqual(STAGHUNT_CONDITION_KEYS, [
    "N",
    "M",
    "T",
    "F",
    "corruption",
    "heterogeneity",
    "payoffs",
  ]);
  assert.deepEqual([...new Set(records.map((t) => t.heterogeneity))].sort(), ["h1", "h2"]);
  assert.deepEqual([...new Set(records.map((t) => t.corruption))].sort(), ["b3", "base"]);
  assert.equal(records.length, turns.height);
});

Deno.test("every Stag Hunt figure refuses records that mix conditions, naming them", () => {
  const message = (fn: string) =>
    `${fn}: the turn records hold 2 values of T (2, 4), 2 corruption modes (base, b3) and ` +
    `2 heterogeneity modes (h1, h2); filter to one, pass by: ["T", "corruption", ` +
    `"heterogeneity"] or pool: ["T"]`;
  for (
    const [fn, call] of [
      ["successByCorruption", () => successByCorruption(records)],
      ["honestStagRates", () => honestStagRates(records)],
      ["historyMatchRates", () => historyMatchRates(records)],
      ["payoffGap", () => payoffGap(records)],
    ] as const
  ) {
    assert.throws(call, { name: "RangeError", message: message(fn) }, fn);
  }
  // Table 1, Figure 3 and the calibration pool settings (N, M, T, F) by design.
  const overall = (fn: string) =>
    `${fn}: the turn records hold 2 corruption modes (base, b3) and 2 heterogeneity modes ` +
    `(h1, h2); filter to one or pass by: ["corruption", "heterogeneity"]`;
  for (
    const [fn, call] of [
      ["matchRateTable", () => matchRateTable(records)],
      ["stagByMargin", () => stagByMargin(records)],
      ["calibrationTable", () => calibrationTable(records)],
    ] as const
  ) {
    assert.throws(call, { name: "RangeError", message: overall(fn) }, fn);
  }
  assert.throws(() => successByCorruption(records, { pool: ["corruption" as "T"] }), {
    name: "RangeError",
    message: 'successByCorruption: pool accepts "T" (got "corruption")',
  });
});

Deno.test("successByCorruption() keeps base and b3 apart: each equals its own public success", () => {
  const rows = successByCorruption(records, { by: [...all] }).toRecords();
  assert.equal(rows.length, 16); // 2 T x 2 F x 2 corruption x 2 heterogeneity
  for (const row of rows) {
    assert.ok(Math.abs((row.public as number) - publicSuccess(sameCondition(row))) < 1e-12);
  }
  const at = (corruption: string) =>
    rows.find((r) =>
      r.T === 4 && r.F === 4 && r.corruption === corruption && r.heterogeneity === "h1"
    )!.public as number;
  assert.notEqual(at("base"), at("b3"));
  // The paper's focal figure pools horizons: a base, h1 frame with pool: ["T"].
  const baseH1 = records.filter((t) => t.corruption === "base" && t.heterogeneity === "h1");
  const pooled = successByCorruption(baseH1, { pool: ["T"] }).toRecords();
  assert.deepEqual(pooled.map((r) => [r.F, r.corruption, r.heterogeneity]), [
    [1, "base", "h1"],
    [4, "base", "h1"],
  ]);
  assert.ok(!("T" in pooled[0]));
  const direct = publicSuccess(
    is("F", 4).and(is("corruption", "base")).and(is("heterogeneity", "h1")),
  );
  assert.ok(Math.abs((pooled[1].public as number) - direct) < 1e-12);
});

Deno.test("honestStagRates() counts honest Stag turns per condition", () => {
  const rows = honestStagRates(records, { by: [...all] }).toRecords();
  assert.equal(rows.length, 16);
  const honest = turns.filter(pl.col("corrupted").not());
  for (const row of rows) {
    const cell = honest.filter(sameCondition(row));
    assert.equal(row.turns, cell.height);
    assert.equal(row.stag, cell.filter(is("original_action", "Stag")).height);
  }
});

Deno.test("Table 1, Figure 3, Figure A2, A5 and calibration split per condition on request", () => {
  const table = matchRateTable(records, { by: ["corruption", "heterogeneity"] }).toRecords();
  assert.equal(table.length, 12); // 4 conditions x 3 rules
  for (const [corruption, heterogeneity] of [["base", "h1"], ["b3", "h2"]]) {
    const alone = records.filter((t) =>
      t.corruption === corruption && t.heterogeneity === heterogeneity
    );
    const own = matchRateTable(alone).toRecords();
    const split = table.filter((r) =>
      r.corruption === corruption && r.heterogeneity === heterogeneity
    );
    assert.deepEqual(
      split.map((r) => [r.rule, r.matches, r.turns]),
      own.map((r) => [
        r.rule,
        r.matches,
        r.turns,
      ]),
    );
  }
  const margin = stagByMargin(records, { by: ["corruption", "heterogeneity"] }).toRecords();
  assert.equal(
    margin.reduce((n, r) => n + (r.turns as number), 0),
    table.reduce((n, r) => n + (r.turns as number), 0),
  );
  const history = historyMatchRates(records, { by: [...all] }).toRecords();
  assert.equal(history.length, 16 * 3 * 2); // conditions x rules x layers
  const gap = payoffGap(records, { by: [...all] }).toRecords();
  assert.equal(gap.length, 16);
  const honest = turns.filter(pl.col("corrupted").not());
  for (const row of gap) {
    const cell = honest.filter(sameCondition(row));
    assert.equal(row.turns, cell.height);
  }
  const calibration = calibrationTable(records, { by: ["corruption", "heterogeneity"] });
  assert.equal(calibration.height, 4 * 8); // 8 bins per condition
  const eces = calibration.groupBy(["corruption", "heterogeneity"]).agg(
    pl.col("ece").nUnique().alias("n"),
  );
  assert.ok(eces.toRecords().every((r) => r.n === 1));
});

async function marks(spec: VegaLiteSpec): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const match of (await renderSvg(spec)).matchAll(/aria-roledescription="([^"]*)"/g)) {
    out[match[1]] = (out[match[1]] ?? 0) + 1;
  }
  return out;
}

Deno.test("Stag Hunt charts put each condition in its own panel", async () => {
  const split = { by: ["corruption", "heterogeneity"] };
  const success = successByCorruption(records, { ...split, pool: ["T"] });
  const successSvg = await renderSvg(successByCorruptionChart(success));
  assert.equal((successSvg.match(/aria-roledescription="line mark"/g) ?? []).length, 8);
  for (const label of ["base · h1", "base · h2", "b3 · h1", "b3 · h2"]) {
    assert.ok(successSvg.includes(`>${label}</text>`), label);
  }
  const match = matchRateTable(records, split);
  assert.equal((await marks(matchRateChart(match))).point, match.height);
  const byModel = matchRateTable(records, { ...split, byModel: true });
  assert.equal((await marks(matchRateChart(byModel))).point, byModel.height);
  const margin = stagByMargin(records, split);
  const m = await marks(stagByMarginChart(margin));
  assert.equal(m.point, margin.height);
  assert.equal(m["rule mark"], margin.height + 4); // intervals, and margin 0 in each panel
  const history = historyMatchRates(records, { ...split, pool: ["T"] });
  assert.equal((await marks(historyMatchChart(history)))["line mark"], 4 * 3 * 2);
  const gap = payoffGap(records, { ...split, pool: ["T"] });
  assert.equal((await marks(payoffGapChart(gap)))["line mark"], 4 * 2);
  const calibrationSvg = await renderSvg(
    calibrationChart(calibrationTable(records, split)),
  );
  assert.equal((calibrationSvg.match(/ECE \d\.\d{3}<\/text>/g) ?? []).length, 4);
});

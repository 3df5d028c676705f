// Issue 10, "Done when": a FRAIL grid over the three regimes and two
// parameter override sets per environment, played by mock agents, and every
// FRAIL table, figure and chart function on it. Each either returns one row
// per condition (and model) whose values equal those computed here directly
// from the episodes and rounds frames, or refuses the mixed frame with one
// RangeError naming the keys and their values.
import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import {
  actionMeasuresChart,
  actionMeasuresTable,
  earlyCommitment,
  earlyCommitmentBins,
  earlyCommitmentChart,
  earlyCommitmentContrast,
  FRAIL_CONDITION_KEYS,
  regimeChart,
  regimeTable,
  renderSvg,
  scorecard,
  scorecardChart,
  successChart,
  successTable,
  trajectories,
  trajectoriesChart,
  trajectoryReferences,
  type VegaLiteSpec,
  welfareAverage,
  welfareBarsChart,
  welfareHeatmapChart,
  welfareTable,
  welfareTableDisplay,
} from "../../../analysis/mod.ts";
import { episodeActionMeasures } from "../../../analysis/frail/action_measures.ts";
import { loadGrid } from "../_grid.ts";

const REGIMES = ["expansion", "stable", "contraction"];

const frames = await loadGrid("coordlab_grid_conditions_", {
  name: "conditions",
  seed: 11,
  episodes: 2,
  blocks: [
    {
      game: "frail",
      envs: ["bank_run", "debt_rollover"],
      mechanisms: ["M0", "M3"],
      regimes: REGIMES,
      params: [{}, { capacity: 2 }],
      agents: [{ mock: {} }, { mock: { depositors: "always_stay", creditors: "always_roll" } }],
    },
    {
      game: "frail",
      envs: ["crowdfunding"],
      mechanisms: ["M0", "M3"],
      regimes: REGIMES,
      params: [{}, { goal: 12 }],
      agents: [{ mock: {} }],
    },
  ],
});
const { episodes } = frames;
const rounds = frames.rounds!;
const decisions = frames.decisions!;
type Row = Record<string, unknown>;
const rows: Row[] = episodes.toRecords();

/** The key of a row on some columns. */
function keyOf(row: Row, keys: readonly string[]): string {
  return JSON.stringify(keys.map((k) => row[k]));
}

/** Rows grouped by keys. */
function groups(items: readonly Row[], keys: readonly string[]): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const row of items) {
    const key = keyOf(row, keys);
    out.set(key, [...(out.get(key) ?? []), row]);
  }
  return out;
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const CELL = ["env", "regime", "overrides_id", "mechanism"];
const close = (actual: unknown, expected: number, what: string) =>
  assert.ok(Math.abs((actual as number) - expected) < 1e-9, `${what}: ${actual} != ${expected}`);

/** Mean of per-model means per cell, computed directly. */
function modelMeans(items: readonly Row[], cell: readonly string[], value: (r: Row) => number) {
  const out = new Map<string, { mean: number; models: number }>();
  for (const [key, cellRows] of groups(items, cell)) {
    const perModel = [...groups(cellRows, ["model"]).values()].map((m) => mean(m.map(value)));
    out.set(key, { mean: mean(perModel), models: perModel.length });
  }
  return out;
}

/** The marks a rendered chart draws, by role. */
async function marks(spec: VegaLiteSpec): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const match of (await renderSvg(spec)).matchAll(/aria-roledescription="([^"]*)"/g)) {
    out[match[1]] = (out[match[1]] ?? 0) + 1;
  }
  return out;
}

const overrideSets = [...new Set(rows.map((r) => String(r.overrides_id)))].sort();
const bankOverride = String(
  rows.find((r) => r.env === "bank_run" && r.overrides_id !== "none")!.overrides_id,
);
const crowdOverride = String(
  rows.find((r) => r.env === "crowdfunding" && r.overrides_id !== "none")!.overrides_id,
);

Deno.test("the grid holds three regimes and two override sets per environment, all ok", () => {
  assert.equal(episodes.height, 120);
  assert.deepEqual([...new Set(rows.map((r) => r.regime))].sort(), [...REGIMES].sort());
  assert.equal(overrideSets.length, 3); // none, the capacity set and the goal set
  assert.ok(rows.every((r) => r.status === "ok"));
  assert.deepEqual(FRAIL_CONDITION_KEYS, ["env", "mechanism", "regime", "overrides_id"]);
});

Deno.test("welfareTable() gives one row per condition and model with the episodes' mean", () => {
  const table = welfareTable(episodes).toRecords();
  const expected = groups(rows, [...CELL, "model"]);
  assert.equal(table.length, expected.size);
  assert.equal(table.length, 60); // 2 envs x 2 x 3 x 2 x 2 models + 1 x 2 x 3 x 2 x 1 model
  for (const cell of table) {
    const members = expected.get(keyOf(cell, [...CELL, "model"]))!;
    close(cell.welfare, mean(members.map((r) => r.welfare_realization as number)), "welfare");
    assert.equal(cell.episodes, members.length);
    assert.equal(cell.successes, members.filter((r) => r.success).length);
  }
});

Deno.test("welfareAverage() gives one row per condition: the mean of its model means", () => {
  const average = welfareAverage(welfareTable(episodes)).toRecords();
  const expected = modelMeans(rows, CELL, (r) => r.welfare_realization as number);
  assert.equal(average.length, expected.size);
  assert.equal(average.length, 36);
  for (const row of average) {
    const direct = expected.get(keyOf(row, CELL))!;
    close(row.mean, direct.mean, `mean of ${keyOf(row, CELL)}`);
    assert.equal(row.models, direct.models);
  }
  // Per regime, the bank run's M0 means differ from the pooled mean the old table printed.
  const perRegime = REGIMES.map((regime) =>
    average.find((r) =>
      r.env === "bank_run" && r.mechanism === "M0" && r.regime === regime &&
      r.overrides_id === "none"
    )!.mean
  );
  assert.equal(perRegime.length, 3);
});

Deno.test("welfareTableDisplay() keeps the regime and override set of every row", () => {
  const table = welfareTableDisplay(welfareTable(episodes)).toRecords();
  assert.equal(table.length, 36);
  assert.deepEqual(Object.keys(table[0]).slice(0, 5), [
    "Environment",
    "Regime",
    "Overrides",
    "Mechanism",
    "Average W~",
  ]);
  const direct = modelMeans(rows, CELL, (r) => r.welfare_realization as number);
  const row = table.find((r) =>
    r.Environment === "Bank run" && r.Regime === "Contraction" && r.Overrides === bankOverride &&
    r.Mechanism === "M3: coalition"
  )!;
  const expected = direct.get(keyOf(
    { env: "bank_run", regime: "contraction", overrides_id: bankOverride, mechanism: "M3" },
    CELL,
  ))!;
  assert.ok(String(row["Average W~"]).startsWith(expected.mean.toFixed(3)));
  assert.equal(new Set(table.map((r) => `${r.Environment}|${r.Regime}|${r.Overrides}`)).size, 18);
});

Deno.test("successTable() counts successes per condition and model", () => {
  const table = successTable(episodes).toRecords();
  const expected = groups(rows, [...CELL, "model"]);
  assert.equal(table.length, expected.size);
  for (const cell of table) {
    const members = expected.get(keyOf(cell, [...CELL, "model"]))!;
    assert.equal(cell.episodes, members.length);
    assert.equal(cell.successes, members.filter((r) => r.success).length);
    close(cell.rate, members.filter((r) => r.success).length / members.length, "rate");
  }
});

Deno.test("regimeTable() gives Table 10 per override set, equal to welfareAverage()", () => {
  const table = regimeTable(episodes).toRecords();
  const average = welfareAverage(welfareTable(episodes)).toRecords();
  assert.equal(table.length, average.length);
  for (const row of table) {
    const same = average.find((a) => keyOf(a, CELL) === keyOf(row, CELL))!;
    close(row.mean, same.mean as number, "mean");
  }
  assert.deepEqual(Object.keys(table[0]), [
    "env",
    "overrides_id",
    "mechanism",
    "regime",
    "mean",
    "se",
    "models",
  ]);
});

/** Each episode's final value of a cumulative metric, computed directly from the rounds frame. */
function finalValues(metric: string): Map<string, number> {
  const out = new Map<string, { round: number; value: number }>();
  for (const r of rounds.toRecords()) {
    if (r[metric] === null || r[metric] === undefined) continue;
    const key = `${r.run}|${r.episode}`;
    const seen = out.get(key);
    if (seen === undefined || (r.round as number) > seen.round) {
      out.set(key, { round: r.round as number, value: r[metric] as number });
    }
  }
  return new Map([...out].map(([k, v]) => [k, v.value]));
}

Deno.test("episodeActionMeasures() and actionMeasuresTable() keep every condition apart", () => {
  const withdrawn = finalValues("cumulative_withdrawn");
  const perEpisode = episodeActionMeasures(episodes, rounds).toRecords();
  const bank = perEpisode.filter((m) => m.measure === "withdrawal_rate");
  assert.equal(bank.length, 48);
  for (const m of bank) {
    const episode = rows.find((r) => r.run === m.run && r.episode === m.episode)!;
    assert.equal(keyOf(m, [...CELL, "model"]), keyOf(episode, [...CELL, "model"]));
    close(
      m.value,
      withdrawn.get(`${m.run}|${m.episode}`)! / (episode.funding as number),
      "withdrawal rate",
    );
  }
  const table = actionMeasuresTable(episodes, rounds).toRecords();
  const expected = modelMeans(
    bank,
    CELL,
    (m) => m.value as number,
  );
  const bankRows = table.filter((t) => t.measure === "withdrawal_rate");
  assert.equal(bankRows.length, 12); // 3 regimes x 2 override sets x 2 mechanisms
  for (const row of bankRows) close(row.mean, expected.get(keyOf(row, CELL))!.mean, "mean");
});

Deno.test("earlyCommitment() carries each episode's condition", () => {
  const perEpisode = earlyCommitment(episodes, rounds).toRecords();
  assert.equal(perEpisode.length, 120);
  for (const e of perEpisode) {
    const episode = rows.find((r) => r.run === e.run && r.episode === e.episode)!;
    assert.equal(keyOf(e, [...CELL, "model"]), keyOf(episode, [...CELL, "model"]));
  }
});

Deno.test("earlyCommitmentBins() refuses mixed regimes and override sets, and splits on request", () => {
  const perEpisode = earlyCommitment(episodes, rounds);
  assert.throws(() => earlyCommitmentBins(perEpisode), {
    name: "RangeError",
    message: "earlyCommitmentBins: the frame holds 3 regimes (expansion, stable, contraction) " +
      `and 3 override sets (${overrideSets.join(", ")}); ` +
      'filter to one or pass by: ["regime", "overrides_id"]',
  });
  const bins = earlyCommitmentBins(perEpisode, { by: ["regime", "overrides_id"] }).toRecords();
  const records = perEpisode.toRecords();
  const byBin = groups(records, ["env", "regime", "overrides_id", "bin"]);
  assert.equal(bins.length, byBin.size);
  for (const bin of bins) {
    const members = byBin.get(keyOf(bin, ["env", "regime", "overrides_id", "bin"]))!;
    assert.equal(bin.n, members.length);
    close(bin.mean, mean(members.map((m) => m.outcome as number)), "bin mean");
  }
  // One condition alone needs no split: its rows carry the single regime and override set.
  const one = perEpisode.filter(
    pl.col("regime").eq(pl.lit("stable")).and(pl.col("overrides_id").eq(pl.lit("none"))),
  );
  const stable = earlyCommitmentBins(one).toRecords();
  assert.ok(stable.every((b) => b.regime === "stable" && b.overrides_id === "none"));
});

Deno.test("earlyCommitmentContrast() refuses mixed conditions and splits on request", () => {
  const perEpisode = earlyCommitment(episodes, rounds);
  assert.throws(() => earlyCommitmentContrast(perEpisode), {
    name: "RangeError",
    message:
      /^earlyCommitmentContrast: the frame holds 3 regimes .* and 3 override sets .*; filter to one or pass by: \["regime", "overrides_id"\]$/,
  });
  const split = earlyCommitmentContrast(perEpisode, { by: ["regime", "overrides_id"] })
    .filter(pl.col("baseline").eq(pl.lit("included"))).toRecords();
  const records = perEpisode.toRecords();
  for (const row of split) {
    const members = records.filter((e) =>
      e.regime === row.regime && e.overrides_id === row.overrides_id &&
      (row.group === "above" ? (e.early_share as number) > 0.45 : (e.early_share as number) <= 0.1)
    );
    assert.equal(row.episodes, members.length);
    assert.equal(row.successes, members.filter((e) => e.success === 1).length);
  }
});

Deno.test("scorecard() gives six dimensions per regime, override set and mechanism", () => {
  const card = scorecard(episodes, rounds).toRecords();
  const conditions = groups(rows, ["regime", "overrides_id", "mechanism"]);
  assert.equal(card.length, conditions.size * 6);
  for (const [key, members] of conditions) {
    const welfare = card.find((c) =>
      keyOf(c, ["regime", "overrides_id", "mechanism"]) === key && c.dimension === "welfare"
    )!;
    // The mean over (environment, model) means.
    const direct = modelMeans(members, ["env"], (r) => r.welfare_realization as number);
    const perEnvModel = [...groups(members, ["env", "model"]).values()].map((m) =>
      mean(m.map((r) => r.welfare_realization as number))
    );
    assert.ok(direct.size >= 1);
    close(welfare.value, mean(perEnvModel), `scorecard welfare ${key}`);
  }
});

Deno.test("trajectories() draws each condition apart; round 1 is the episodes' mean", () => {
  const traj = trajectories(episodes, rounds, decisions).toRecords();
  const financial = traj.filter((t) => t.panel === "financial" && t.round === 1);
  assert.equal(financial.length, 36);
  const firstRound = rounds.filter(pl.col("round").eq(1)).toRecords();
  for (const point of financial) {
    const metric = point.env === "bank_run"
      ? "cumulative_withdrawn"
      : point.env === "debt_rollover"
      ? "cumulative_redeemed"
      : "pool";
    const members = firstRound.filter((r) => keyOf(r, CELL) === keyOf(point, CELL));
    assert.equal(point.n, members.length);
    close(
      point.mean,
      mean(members.map((r) => r[metric] as number)),
      `round 1 of ${keyOf(point, CELL)}`,
    );
  }
});

Deno.test("trajectoryReferences() gives each condition's logged boundary", () => {
  const references = trajectoryReferences(episodes);
  assert.equal(references.length, 18);
  const bank = (regime: string) =>
    references.find((r) =>
      r.env === "bank_run" && r.regime === regime && r.overrides_id === "none"
    )!
      .value.toFixed(2);
  assert.deepEqual(REGIMES.map(bank), ["11.53", "8.48", "3.65"]);
  const crowd = references.find((r) =>
    r.env === "crowdfunding" && r.overrides_id === crowdOverride
  )!;
  assert.equal(crowd.value, 12);
});

Deno.test("welfareBarsChart() puts each condition in a panel: one bar per condition and mechanism", async () => {
  const average = welfareAverage(welfareTable(episodes));
  const spec = welfareBarsChart(average) as { facet: { field: string; sort: string[] } };
  assert.equal(spec.facet.field, "condition");
  assert.deepEqual(spec.facet.sort.slice(0, 3), [
    "Expansion · no overrides",
    `Expansion · overrides ${[bankOverride, crowdOverride].sort()[0]}`,
    `Expansion · overrides ${[bankOverride, crowdOverride].sort()[1]}`,
  ]);
  const m = await marks(spec as VegaLiteSpec);
  assert.equal(m.bar, 36);
  // An SE rule per bar with an SE; a cell of one model has none, and draws no rule.
  assert.equal(m["rule mark"], average.filter(pl.col("se").isNotNull()).height);
  assert.equal(average.filter(pl.col("se").isNotNull()).height, 24);
  // Bars never stack: rows that differ in a column the chart does not know are refused.
  assert.throws(
    () =>
      welfareBarsChart(
        average.filter(pl.col("overrides_id").eq(pl.lit("none"))).rename({ regime: "economy" }),
      ),
    {
      name: "RangeError",
      message: 'welfareBarsChart: 3 rows share env "Bank run", mechanism "M0" and would be ' +
        "drawn on one another; they differ in economy (expansion, stable, contraction): " +
        "pass one row per place",
    },
  );
});

Deno.test("every other FRAIL chart draws one mark per row of its table", async () => {
  const success = successTable(episodes);
  assert.equal((await marks(successChart(success))).point, success.height);
  const action = actionMeasuresTable(episodes, rounds);
  assert.equal((await marks(actionMeasuresChart(action))).bar, action.height);
  const regime = regimeTable(episodes);
  assert.equal((await marks(regimeChart(regime))).bar, regime.height);
  const card = scorecard(episodes, rounds);
  const drawn = card.filter(pl.col("value").isNotNull()).height; // null scores draw no bar
  assert.equal((await marks(scorecardChart(card))).bar, drawn);
  const bins = earlyCommitmentBins(earlyCommitment(episodes, rounds), {
    by: ["regime", "overrides_id"],
  });
  assert.equal((await marks(earlyCommitmentChart(bins))).point, bins.height);
  const cells = welfareTable(episodes);
  assert.equal((await marks(welfareHeatmapChart(cells)))["rect mark"], cells.height);
});

Deno.test("trajectoriesChart() gives each condition its block and its own boundary", async () => {
  const none = episodes.filter(pl.col("overrides_id").eq(pl.lit("none")));
  const rows = trajectories(none, rounds, decisions);
  const spec = trajectoriesChart(rows, { references: trajectoryReferences(episodes) });
  const svg = await renderSvg(spec);
  const m = await marks(spec);
  // 3 regimes x (2 bank-run mechanisms x 3 rows + 2 debt-rollover x 3 + 2 crowdfunding x 3)
  assert.equal(m["line mark"], 3 * 18);
  // Per regime: the bank's level, the crowdfunding goal, the debt rollover's round in 3 rows.
  assert.equal(m["rule mark"], 3 * 5);
  const drawn = [...svg.matchAll(/aria-label="ref_value: ([\d.]+); ref_label: insolvency/g)]
    .map((match) => Number(match[1]).toFixed(2));
  // Each label twice: its white halo, then the label over it.
  assert.deepEqual(drawn, ["11.53", "11.53", "8.48", "8.48", "3.65", "3.65"]);
  assert.ok(svg.includes("<tspan>Contraction</tspan>"));
});

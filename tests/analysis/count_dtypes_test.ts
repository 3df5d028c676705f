// Counts are integers: every table function returns its counts (episodes,
// successes, models, n, turns, matches, rounds, units, ...) as Int32, so a
// notebook never shows `17.0`, and the display shows counts Polars made
// floats (after a user's own aggregation) as integers too.
import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import {
  actionMeasuresTable,
  calibrationTable,
  earlyCommitment,
  earlyCommitmentBins,
  earlyCommitmentContrast,
  historyMatchRates,
  honestStagRates,
  matchRateTable,
  payoffGap,
  regimeTable,
  stagByMargin,
  stagHuntTurnRecords,
  successByCorruption,
  successTable,
  trajectories,
  welfareAverage,
  welfareTable,
} from "../../analysis/mod.ts";
import { tableBundle } from "../../analysis/display.ts";
import { loadGrid } from "./_grid.ts";

/** Columns that hold counts, wherever a table has them. */
const COUNTS = [
  "successes",
  "episodes",
  "models",
  "n",
  "turns",
  "matches",
  "stag",
  "rounds",
  "units",
  "N",
  "M",
  "T",
  "F",
];

const agents = [{ mock: {} }];
const frail = await loadGrid("coordlab_count_dtypes_", {
  name: "counts_frail",
  seed: 2,
  episodes: 3,
  blocks: [{
    game: "frail",
    envs: ["bank_run", "debt_rollover", "crowdfunding"],
    mechanisms: ["M0", "M3"],
    agents,
  }],
});
const staghunt = await loadGrid("coordlab_count_dtypes_", {
  name: "counts_staghunt",
  seed: 2,
  episodes: 3,
  blocks: [{ game: "staghunt", N: [5], M: [3], T: [2], F: [1, 2], agents }],
}, { frames: ["turns"] });

Deno.test("every table function returns its counts as Int32", () => {
  const { episodes, rounds, decisions } = frail;
  const records = stagHuntTurnRecords(staghunt.turns!, staghunt.episodes);
  const perEpisode = earlyCommitment(episodes, rounds!);
  const tables: Record<string, pl.DataFrame> = {
    welfareTable: welfareTable(episodes),
    welfareAverage: welfareAverage(welfareTable(episodes)),
    successTable: successTable(episodes),
    actionMeasuresTable: actionMeasuresTable(episodes, rounds!),
    regimeTable: regimeTable(episodes),
    trajectories: trajectories(episodes, rounds!, decisions!),
    earlyCommitmentBins: earlyCommitmentBins(perEpisode),
    earlyCommitmentContrast: earlyCommitmentContrast(perEpisode),
    successByCorruption: successByCorruption(records),
    honestStagRates: honestStagRates(records),
    matchRateTable: matchRateTable(records),
    stagByMargin: stagByMargin(records),
    historyMatchRates: historyMatchRates(records),
    payoffGap: payoffGap(records),
    calibrationTable: calibrationTable(records),
  };
  for (const [name, table] of Object.entries(tables)) {
    assert.ok(table.height > 0, `${name} has rows`);
    const counts = table.columns.filter((column) => COUNTS.includes(column));
    assert.ok(counts.length > 0, `${name} has a count column`);
    for (const column of counts) {
      assert.equal(table.getColumn(column).dtype.variant, "Int32", `${name}.${column}`);
    }
  }
});

Deno.test("a count that a user's aggregation made a float displays as an integer", () => {
  const { episodes } = frail;
  // A mean of integers is a float in Polars; so is a sum after a float cast.
  const perEnv = episodes.groupBy("env").agg(
    pl.col("rounds").cast(pl.Float64).sum().alias("rounds"),
    pl.col("welfare_realization").mean().alias("mean_w"),
  );
  assert.equal(perEnv.getColumn("rounds").dtype.variant, "Float64");
  const html = tableBundle(perEnv)["text/html"];
  const total = perEnv.getColumn("rounds").toArray() as number[];
  for (const value of total) assert.ok(html.includes(`<td>${value}</td>`), String(value));
  assert.ok(!/<td>\d+\.0<\/td>/.test(html));
});

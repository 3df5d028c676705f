// Every FRAIL table and figure function on the hand-built fixture of
// ../_fixture.ts, against values computed by hand there.
import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import {
  actionMeasuresTable,
  earlyCommitment,
  earlyCommitmentBins,
  earlyCommitmentContrast,
  regimeTable,
  type RunFrames,
  scorecard,
  successTable,
  trajectories,
  trajectoryReferences,
  welfareAverage,
  welfareTable,
  welfareTableDisplay,
} from "../../../analysis/mod.ts";
import { episodeActionMeasures } from "../../../analysis/frail/action_measures.ts";
import { loadFixture } from "../_fixture.ts";

const frames: RunFrames = await loadFixture("coordlab_tables_");
const { episodes } = frames;
const rounds = frames.rounds!;
const decisions = frames.decisions!;

function r(value: unknown, digits = 6): string {
  return value === null ? "null" : (value as number).toFixed(digits);
}

Deno.test("welfareTable() gives model means, successes and marks against M0", () => {
  const rows = welfareTable(episodes).toRecords().map((c) =>
    `${c.env} ${c.mechanism} ${c.model} ${r(c.welfare, 3)} ${c.successes}/${c.episodes} ${c.mark}`
  );
  assert.deepEqual(rows, [
    "bank_run M0 alpha 0.500 1/2 ",
    "bank_run M0 beta 0.500 1/1 ",
    "bank_run M3 alpha 1.000 1/1 up",
    "bank_run M3 beta 0.200 0/1 down",
    "crowdfunding M0 alpha 0.825 1/2 ",
  ]);
});

Deno.test("welfareAverage() gives the mean across model means with SE", () => {
  const rows = welfareAverage(welfareTable(episodes)).toRecords();
  assert.deepEqual(rows.map((a) => [a.env, a.mechanism, r(a.mean), r(a.se), a.models]), [
    ["bank_run", "M0", "0.500000", "0.000000", 2],
    // model means 1.0 and 0.2: sd 0.565685, se 0.4
    ["bank_run", "M3", "0.600000", "0.400000", 2],
    ["crowdfunding", "M0", "0.825000", "null", 1], // one model: no SE
  ]);
});

Deno.test("welfareTableDisplay() lays the table out as printed in the paper", () => {
  const cells = welfareTable(episodes).filter(pl.col("env").eq(pl.lit("bank_run")));
  assert.deepEqual(welfareTableDisplay(cells).toRecords(), [
    {
      Environment: "Bank run",
      Regime: "Stable",
      Overrides: "none",
      Mechanism: "M0: baseline",
      "Average W~": "0.500 ± 0.000",
      alpha: "0.500 (1/2)",
      beta: "0.500 (1/1)",
    },
    {
      Environment: "Bank run",
      Regime: "Stable",
      Overrides: "none",
      Mechanism: "M3: coalition",
      "Average W~": "0.600 ± 0.400",
      alpha: "1.000 (1/1) ↑",
      beta: "0.200 (0/1) ↓",
    },
  ]);
});

Deno.test("successTable() gives Wilson intervals per cell", () => {
  const rows = successTable(episodes).toRecords();
  const alphaM0 = rows[0];
  assert.equal(alphaM0.model, "alpha");
  assert.equal(alphaM0.rate, 0.5);
  // k = 1, n = 2: center 0.5, half-width 1.96 * sqrt(0.125 + 0.2401) / 2.9208 = 0.405476
  assert.equal(r(alphaM0.lower, 4), "0.0945");
  assert.equal(r(alphaM0.upper, 4), "0.9055");
  const betaM3 = rows[3];
  assert.deepEqual([betaM3.successes, betaM3.episodes, betaM3.rate, r(betaM3.upper, 4)], [
    0,
    1,
    0,
    "0.7935", // 3.8416 / 4.8416
  ]);
});

Deno.test("episodeActionMeasures() divides final cumulative withdrawals by deposits and finds launches", () => {
  const rows = episodeActionMeasures(episodes, rounds).sort("episode").toRecords();
  assert.deepEqual(rows.map((m) => [m.episode, m.measure, r(m.value, 4)]), [
    ["E1", "withdrawal_rate", "0.6000"],
    ["E2", "withdrawal_rate", "0.1333"],
    ["E3", "withdrawal_rate", "0.0500"],
    ["E4", "withdrawal_rate", "0.2000"],
    ["E5", "withdrawal_rate", "0.4000"],
    ["E6", "first_launch_round", "2.0000"], // E7 never launches
  ]);
});

Deno.test("actionMeasuresTable() averages model means with SE (Table 9)", () => {
  const rows = actionMeasuresTable(episodes, rounds).toRecords();
  assert.deepEqual(rows.map((m) => [m.measure, m.mechanism, r(m.mean, 5), r(m.se, 5), m.models]), [
    // alpha M0 (0.6 + 2/15) / 2 = 0.36667, beta 0.2
    ["withdrawal_rate", "M0", "0.28333", "0.08333", 2],
    ["withdrawal_rate", "M3", "0.22500", "0.17500", 2],
    ["first_launch_round", "M0", "2.00000", "null", 1],
  ]);
});

Deno.test("regimeTable() orders regimes as in Table 10", () => {
  const extra = episodes.filter(pl.col("episode").eq(pl.lit("E3")))
    .withColumns(pl.lit("contraction").alias("regime"), pl.lit(0.4).alias("welfare_realization"));
  const rows = regimeTable(pl.concat([episodes, extra])).filter(
    pl.col("mechanism").eq(pl.lit("M3")),
  ).toRecords();
  assert.deepEqual(rows.map((t) => [t.env, t.regime, r(t.mean, 3), r(t.se, 3), t.models]), [
    ["bank_run", "stable", "0.600", "0.400", 2],
    ["bank_run", "contraction", "0.400", "null", 1],
  ]);
});

Deno.test("scorecard() computes the six dimensions of Appendix H.3", () => {
  const card = scorecard(episodes, rounds).toRecords();
  const value = (mechanism: string, dimension: string) =>
    r(card.find((c) => c.mechanism === mechanism && c.dimension === dimension)!.value, 6);
  // M0: (env, model) means bank alpha 0.5, bank beta 0.5, crowd alpha 0.825.
  assert.equal(value("M0", "welfare"), "0.608333");
  assert.equal(value("M0", "success"), "0.666667"); // (0.5 + 1 + 0.5) / 3
  assert.equal(value("M0", "central_payoff"), "0.500000"); // (0.5 + 0.5 + 0.5) / 3
  assert.equal(value("M0", "consistency"), "1.000000");
  assert.equal(value("M0", "weakest_welfare"), "0.500000");
  assert.equal(value("M0", "early_participation"), "0.000000");
  // M3: bank only; alpha 1.0, beta 0.2.
  assert.equal(value("M3", "welfare"), "0.600000");
  assert.equal(value("M3", "success"), "0.500000");
  assert.equal(value("M3", "central_payoff"), "0.500000");
  assert.equal(value("M3", "consistency"), (1 - Math.sqrt(0.32)).toFixed(6));
  assert.equal(value("M3", "weakest_welfare"), "0.600000");
  // E3: mean(6, 9) / 15 = 0.5; E5: 1.5 / 15 = 0.1 (round 1 only).
  assert.equal(value("M3", "early_participation"), "0.300000");
  assert.deepEqual(card.slice(0, 6).map((c) => c.dimension), [
    "welfare",
    "success",
    "central_payoff",
    "consistency",
    "weakest_welfare",
    "early_participation",
  ]);
});

Deno.test("trajectories() follows the conventions of Appendix H.4", () => {
  const rows = trajectories(episodes, rounds, decisions).toRecords();
  const series = (env: string, mechanism: string, panel: string) =>
    rows.filter((t) => t.env === env && t.mechanism === mechanism && t.panel === panel)
      .map((t) => `${t.round}:${r(t.mean, 4)}/${t.n}`);
  // Financial state, last observation carried forward (E1 ends in round 2).
  assert.deepEqual(series("bank_run", "M0", "financial"), [
    "1:1.3333/3",
    "2:3.8333/3",
    "3:4.6667/3",
  ]);
  assert.deepEqual(series("bank_run", "M3", "financial"), [
    "1:3.0000/2",
    "2:3.0000/2",
    "3:3.3750/2",
  ]);
  // Committed amounts over the episodes observed at each round (E5 ends in round 1).
  assert.deepEqual(series("bank_run", "M3", "committed"), [
    "1:3.7500/2",
    "2:9.0000/1",
    "3:12.0000/1",
  ]);
  // Intent of uncommitted participants with funds at stake, carried forward.
  assert.deepEqual(series("bank_run", "M0", "intent"), ["1:0.2333/3", "2:0.3000/3", "3:0.3000/3"]);
  assert.deepEqual(series("bank_run", "M3", "intent"), ["1:0.6500/2", "2:0.5500/2", "3:0.4500/2"]);
  // Crowdfunding: pool and the share not yet launched (E6 launches in round 2 and ends).
  assert.deepEqual(series("crowdfunding", "M0", "financial"), [
    "1:5.0000/2",
    "2:9.5000/2",
    "3:9.5000/2",
  ]);
  assert.deepEqual(series("crowdfunding", "M0", "not_launched"), [
    "1:1.0000/2",
    "2:0.5000/2",
    "3:0.5000/2",
  ]);
  assert.deepEqual(series("crowdfunding", "M0", "intent"), []);
  const band = rows.find((t) =>
    t.env === "bank_run" && t.mechanism === "M0" && t.panel === "financial" && t.round === 1
  )!;
  // values 3, 1, 0: sd 1.527525, se 0.881917, half-width 1.728557
  assert.equal(r(band.lower, 4), (4 / 3 - 1.96 * Math.sqrt(7 / 3) / Math.sqrt(3)).toFixed(4));
});

Deno.test("trajectoryReferences() gives the critical boundaries of Figure 4", () => {
  assert.deepEqual(trajectoryReferences(episodes), [
    {
      env: "bank_run",
      regime: "stable",
      overrides_id: "none",
      axis: "y",
      value: 8.48,
      label: "insolvency boundary",
    },
    {
      env: "crowdfunding",
      regime: "stable",
      overrides_id: "none",
      axis: "y",
      value: 14,
      label: "goal",
    },
  ]);
});

Deno.test("earlyCommitment() bins the max committed share of rounds 1-3", () => {
  const rows = earlyCommitment(episodes, rounds).sort("episode").toRecords();
  assert.deepEqual(rows.map((e) => [e.episode, r(e.early_share, 3), e.bin, e.outcome]), [
    ["E1", "0.000", 0, 0],
    ["E2", "0.000", 0, 1],
    ["E3", "0.800", 4, 1],
    ["E4", "0.000", 0, 1],
    ["E5", "0.100", 0, 0],
    ["E6", "0.000", 0, 2],
    ["E7", "0.000", 0, 10], // never launched
  ]);
});

Deno.test("earlyCommitmentBins() gives bin means, 95% CIs and n, with and without baseline", () => {
  const perEpisode = earlyCommitment(episodes, rounds);
  const all = earlyCommitmentBins(perEpisode).toRecords();
  assert.deepEqual(all.map((b) => [b.env, b.bin, r(b.mean, 4), b.n]), [
    ["bank_run", 0, "0.5000", 4],
    ["bank_run", 4, "1.0000", 1],
    ["crowdfunding", 0, "6.0000", 2],
  ]);
  // bank-run bin 0: outcomes 0, 1, 1, 0: sd 0.57735, se 0.288675; 0.5 ± 0.566 is cut to [0, 1]
  assert.deepEqual([all[0].lower, all[0].upper], [0, 1]);
  // A launch round is not a rate: its interval is not cut.
  assert.ok((all[2].lower as number) < (all[2].mean as number));
  assert.ok((all[2].upper as number) > 6);
  const mechanismsOnly = earlyCommitmentBins(perEpisode, { includeBaseline: false }).toRecords();
  assert.deepEqual(mechanismsOnly.map((b) => [b.env, b.bin, b.mean, b.n]), [
    ["bank_run", 0, 0, 1],
    ["bank_run", 4, 1, 1],
  ]);
});

Deno.test("earlyCommitmentContrast() compares above 45% with at most 10%", () => {
  const rows = earlyCommitmentContrast(earlyCommitment(episodes, rounds)).toRecords();
  assert.deepEqual(rows.map((c) => [c.baseline, c.group, c.successes, c.episodes]), [
    ["included", "above", 1, 1],
    ["included", "at_most", 3, 6], // E1, E2, E4, E5, E6, E7 (E6 launched)
    ["excluded", "above", 1, 1],
    ["excluded", "at_most", 0, 1],
  ]);
  const byEnv = earlyCommitmentContrast(earlyCommitment(episodes, rounds), { by: ["env"] })
    .filter(pl.col("baseline").eq(pl.lit("included"))).toRecords();
  assert.deepEqual(byEnv.map((c) => [c.env, c.group, c.successes, c.episodes]), [
    ["bank_run", "above", 1, 1],
    ["bank_run", "at_most", 2, 4],
    ["crowdfunding", "at_most", 1, 2],
  ]);
});

Deno.test("table functions name a missing column", () => {
  assert.throws(() => welfareTable(pl.DataFrame({ env: ["x"] })), {
    name: "RangeError",
    message: /^welfareTable\(\) needs a column "regime"/,
  });
  assert.throws(() => earlyCommitment(episodes, rounds, { rounds: 0 }), {
    name: "RangeError",
    message: "Early commitment rounds must be a positive integer: received 0",
  });
});

Deno.test("actionMeasuresTable() gives the same mean to the last bit whatever the row order of its frames", () => {
  // Withdrawal rates 0.1, 0.2 and 0.3: their float sum depends on the order they are added in
  // ((0.1 + 0.2) + 0.3 !== (0.3 + 0.2) + 0.1), so the episodes must be summed in one order, by id.
  const ids = ["a", "b", "c"];
  const episodesOf = (order: number[]) =>
    pl.DataFrame({
      run: order.map(() => "r"),
      episode: order.map((i) => ids[i]),
      env: order.map(() => "bank_run"),
      regime: order.map(() => "stable"),
      mechanism: order.map(() => "M0"),
      model: order.map(() => "m"),
      status: order.map(() => "ok"),
      funding: order.map(() => 10),
    });
  const roundsOf = (order: number[]) =>
    pl.DataFrame({
      run: order.map(() => "r"),
      episode: order.map((i) => ids[i]),
      round: order.map(() => 1),
      cumulative_withdrawn: order.map((i) => i + 1),
    });
  const [first] = actionMeasuresTable(episodesOf([0, 1, 2]), roundsOf([0, 1, 2])).toRecords();
  assert.equal((first.mean as number).toFixed(12), "0.200000000000");
  for (const order of [[0, 1, 2], [2, 1, 0], [1, 2, 0], [2, 0, 1]]) {
    const perEpisode = episodeActionMeasures(episodesOf(order), roundsOf([...order].reverse()));
    assert.deepEqual(perEpisode.getColumn("episode").toArray(), ["a", "b", "c"]);
    const [row] = actionMeasuresTable(episodesOf(order), roundsOf(order)).toRecords();
    assert.equal(row.mean, first.mean, `order ${order}`);
  }
});

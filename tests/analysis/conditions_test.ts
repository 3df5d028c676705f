// The shared condition machinery of analysis/conditions.ts: which episodes
// count, the one error for mixed conditions, and the papers' value orders.
import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import { stagHuntTurnRecords, welfareTable } from "../../analysis/mod.ts";
import {
  assertSingleCondition,
  conditionKeysOf,
  conditionValues,
  countedEpisodes,
  sortByConditions,
} from "../../analysis/conditions.ts";
import { loadGrid } from "./_grid.ts";

const statuses = pl.DataFrame({
  run: ["r", "r", "r", "r", "r"],
  episode: ["a", "b", "c", "d", "e"],
  env: ["bank_run", "bank_run", "bank_run", "bank_run", "staghunt"],
  regime: ["stable", "stable", "stable", "stable", null],
  overrides_id: ["none", "none", "none", "none", null],
  mechanism: ["M0", "M0", "M0", "M0", null],
  model: ["m", "m", "m", "m", "m"],
  status: ["ok", "degraded", "error", "incomplete", "ok"],
  success: [true, false, null, null, true],
  welfare_realization: [1, 0, null, null, 1],
});

Deno.test("countedEpisodes() keeps ok episodes, degraded ones on request, and one game", () => {
  assert.deepEqual(countedEpisodes(statuses).getColumn("episode").toArray(), ["a", "e"]);
  assert.deepEqual(
    countedEpisodes(statuses, { includeDegraded: true, game: "frail" }).getColumn("episode")
      .toArray(),
    ["a", "b"],
  );
  assert.deepEqual(
    countedEpisodes(statuses.lazy(), { game: "staghunt" }).collectSync().getColumn("episode")
      .toArray(),
    ["e"],
  );
  assert.throws(() => countedEpisodes(statuses, { game: "chess" }), {
    name: "RangeError",
    message: 'Unknown game "chess": expected one of "frail", "staghunt", "min_effort"',
  });
  assert.throws(() => countedEpisodes(pl.DataFrame({ env: ["bank_run"] })), {
    name: "RangeError",
    message: /^countedEpisodes\(\) needs a column "status"/,
  });
});

Deno.test("welfareTable() counts a degraded episode only when asked, and no Stag Hunt row", () => {
  const strict = welfareTable(statuses).toRecords();
  assert.deepEqual(strict.map((c) => [c.env, c.episodes, c.welfare]), [["bank_run", 1, 1]]);
  const lenient = welfareTable(statuses, { includeDegraded: true }).toRecords();
  assert.deepEqual(lenient.map((c) => [c.env, c.episodes, c.welfare]), [["bank_run", 2, 0.5]]);
});

Deno.test("assertSingleCondition() names every mixed key with its values in one error", () => {
  const df = pl.DataFrame({
    env: ["bank_run", "bank_run", "crowdfunding", "crowdfunding"],
    regime: ["stable", "contraction", "stable", "stable"],
    overrides_id: ["none", "pa", "none", "pb"],
    mechanism: ["M0", "M1", "M2", "M3"],
  });
  assert.throws(() => assertSingleCondition(df, "f", { pooled: ["mechanism"] }), {
    name: "RangeError",
    message: "f: the frame holds 2 environments (bank_run, crowdfunding), 2 regimes (stable, " +
      "contraction) and 3 override sets (none, pa, pb); " +
      'filter to one or pass by: ["env", "regime", "overrides_id"]',
  });
  // Keys need hold one value only within each group of the split.
  const byEnvAndSet = assertSingleCondition(df.filter(pl.col("regime").eq(pl.lit("stable"))), "f", {
    by: ["env", "overrides_id"],
    pooled: ["mechanism"],
  });
  assert.deepEqual(byEnvAndSet, ["env", "regime", "overrides_id"]);
  assert.throws(() => assertSingleCondition(df, "f", { by: ["regim"] }), {
    name: "RangeError",
    message: /^f\(\) needs a column "regim"/,
  });
});

Deno.test("assertSingleCondition() offers pool for the keys a caller may pool", () => {
  const df = pl.DataFrame({ T: [2, 4, 4], corruption: ["base", "base", "base"] });
  assert.throws(
    () => assertSingleCondition(df, "g", { poolable: ["T"], subject: "turn records" }),
    {
      message: 'g: the turn records hold 2 values of T (2, 4); filter to one, pass by: ["T"] ' +
        'or pool: ["T"]',
    },
  );
  assert.deepEqual(assertSingleCondition(df, "g", { pooled: ["T"] }), ["corruption"]);
});

Deno.test("conditionKeysOf(), conditionValues() and sortByConditions() follow the papers' orders", () => {
  const df = pl.DataFrame({
    model: ["m", "m", "m", "m"],
    corruption: ["b3", "base", "b3", "base"],
    regime: ["contraction", "expansion", "stable", "stable"],
    N: [10, 2, 5, 5],
  });
  assert.deepEqual(conditionKeysOf(df), ["regime", "N", "corruption"]);
  assert.deepEqual(conditionValues(df, "regime"), ["expansion", "stable", "contraction"]);
  assert.deepEqual(conditionValues(df.lazy(), "N"), [2, 5, 10]);
  const sorted = sortByConditions(df, ["corruption", "N"]).toRecords();
  assert.deepEqual(sorted.map((r) => `${r.corruption}/${r.N}`), [
    "base/2",
    "base/5",
    "b3/5",
    "b3/10",
  ]);
});

Deno.test("stagHuntTurnRecords() reads only counted episodes, with their heterogeneity", () => {
  const params = JSON.stringify({
    N: 1,
    M: 1,
    T: 1,
    F: 0,
    corruption: "base",
    payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 },
  });
  const agents = JSON.stringify([{ id: "p01", role: "player", policy: "m" }]);
  const episodes = pl.DataFrame({
    run: ["r", "r", "r"],
    episode: ["ok", "degraded", "error"],
    env: ["staghunt", "staghunt", "staghunt"],
    status: ["ok", "degraded", "error"],
    heterogeneity: ["h1", "h2", "h1"],
    params: [params, params, params],
    agents: [agents, agents, agents],
  });
  const turns = pl.DataFrame({
    run: ["r", "r", "r"],
    episode: ["ok", "degraded", "error"],
    round: [1, 1, 1],
    position: [1, 1, 1],
    agent: ["p01", "p01", "p01"],
    corrupted: [false, false, false],
    original_action: ["Stag", "Stag", "Hare"],
    public_action: ["Stag", "Stag", "Hare"],
    confidence: [1, 1, 1],
  });
  assert.deepEqual(stagHuntTurnRecords(turns, episodes).map((t) => t.episode), ["ok"]);
  const lenient = stagHuntTurnRecords(turns, episodes, { includeDegraded: true });
  assert.deepEqual(lenient.map((t) => [t.episode, t.heterogeneity]), [
    ["degraded", "h2"],
    ["ok", "h1"],
  ]);
});

Deno.test("countedEpisodes() refuses one condition and model played with two central players' policies", async () => {
  const { episodes } = await loadGrid("coordlab_conditions_", {
    name: "banks",
    episodes: 2,
    blocks: [{
      game: "frail",
      envs: ["bank_run"],
      mechanisms: ["M1"],
      agents: [{ mock: { bank: "active" } }, { mock: { bank: "passive" } }],
    }],
  }, { frames: [] });
  assert.deepEqual(new Set(episodes.getColumn("model").toArray()), new Set(["mock:defensive"]));
  assert.throws(
    () => welfareTable(episodes),
    (e: Error) =>
      e instanceof RangeError &&
      e.message.includes("bank_run / M1 / stable / none / mock:defensive") &&
      e.message.includes("mock:active_bank, mock:passive_bank") &&
      e.message.includes("filter the frame on central_policy"),
  );
  const one = episodes.filter(pl.col("central_policy").eq(pl.lit("mock:passive_bank")));
  assert.equal(welfareTable(one).height, 1);
});

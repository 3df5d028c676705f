import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import { conditionColumn } from "../../../analysis/load/_frames.ts";
import { loadRuns } from "../../../analysis/load/load_runs.ts";
import { runEpisode } from "../../../engine/run_episode.ts";
import { runStagHuntEpisode } from "../../../engine/run_staghunt_episode.ts";
import { makeTempDir } from "../../_temp.ts";

// Before conditionColumn(), every key but N, M, T, F became a text column, in
// which the minimum-effort game's numeric keys (a, b, c, efforts) read as null,
// so episodes of game A and of treatment B (b = 0) fell into one condition.
Deno.test("conditionColumn() keeps numeric condition keys as numbers", () => {
  const b = conditionColumn("b", [0.1, 0, null]);
  assert.equal(b.dtype.toString(), pl.Float64.toString());
  assert.deepEqual(b.toArray(), [0.1, 0, null]);
  const efforts = conditionColumn("efforts", [7, 7]);
  assert.deepEqual(efforts.toArray(), [7, 7]);
});

// Before, an Int32 key column read a missing value as 0: a bank-run episode
// loaded with a Stag Hunt one had N = 0 and M = 0 instead of null.
Deno.test("conditionColumn() types N, M, T, F as integers and other keys as text", () => {
  const n = conditionColumn("N", [5, null]);
  assert.equal(n.dtype.toString(), pl.Int32.toString());
  assert.deepEqual(n.toArray(), [5, null]);
  const mechanism = conditionColumn("mechanism", ["M0", null]);
  assert.equal(mechanism.dtype.toString(), "DataType(String)");
  assert.deepEqual(mechanism.toArray(), ["M0", null]);
  // A key that is a number in one game and text in another keeps both, as text.
  assert.deepEqual(conditionColumn("x", ["M1", 2]).toArray(), ["M1", "2"]);
  // A key no episode has stays a text column of nulls, as before.
  assert.equal(conditionColumn("x", [null]).dtype.toString(), "DataType(String)");
});

Deno.test("loadRuns() leaves the Stag Hunt's keys null for a bank-run episode loaded beside one", async () => {
  const dir = await makeTempDir();
  try {
    await runEpisode({ env: "bank_run", seed: 1, outDir: dir, run: "frail" });
    await runStagHuntEpisode({ seed: 1, outDir: dir, run: "staghunt" });
    const { episodes } = await loadRuns(dir);
    assert.deepEqual(episodes.select("env", "N", "M", "T", "F", "mechanism").toRecords(), [
      { env: "bank_run", N: null, M: null, T: null, F: null, mechanism: "M0" },
      { env: "staghunt", N: 5, M: 3, T: 4, F: 0, mechanism: null },
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

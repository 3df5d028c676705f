import assert from "node:assert/strict";
import { branchEpisode } from "../../../engine/branch_episode.ts";
import { forgetBranchParents } from "../../../engine/grid/branch_block.ts";
import { planGrid } from "../../../engine/grid/plan.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { readRunEpisodes } from "../../../engine/grid/segments.ts";
import { parseGridSpec } from "../../../engine/grid/spec.ts";
import { replayEpisode } from "../../../engine/run_episode.ts";
import { makeTempDir } from "../../_temp.ts";

async function inTemp(fn: (dir: string) => Promise<void>) {
  const dir = await makeTempDir({ prefix: "branch_block_" });
  try {
    forgetBranchParents();
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const parentSpec = {
  name: "parent",
  episodes: 3,
  blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0"], regimes: ["contraction"] }],
};

Deno.test("a branch block forks every episode of a run at each round under each change, as branchEpisode does, and resumes", async () => {
  await inTemp(async (dir) => {
    await runGrid(parentSpec, { out: `${dir}/parent`, workers: 0, progress: false });
    const spec = {
      name: "cf",
      blocks: [{
        game: "branch",
        from: `${dir}/parent`,
        rounds: [2, 4],
        changes: [{ mechanism: "M1" }, { mechanism: "M3" }],
      }],
    };
    const plan = planGrid(spec);
    assert.deepEqual(plan.cells.map((c) => [c.id, c.episodes]), [
      ["branch_parent_b2_M1", 3],
      ["branch_parent_b2_M3", 3],
      ["branch_parent_b4_M1", 3],
      ["branch_parent_b4_M3", 3],
    ]);
    assert.deepEqual(plan.episodes.slice(0, 4).map((e) => [e.id, e.seed]), [
      ["bank_run_M0_contraction_mock_e0_b2_M1", plan.episodes[0].seed],
      ["bank_run_M0_contraction_mock_e0_b2_M3", plan.episodes[0].seed],
      ["bank_run_M0_contraction_mock_e0_b4_M1", plan.episodes[0].seed],
      ["bank_run_M0_contraction_mock_e0_b4_M3", plan.episodes[0].seed],
    ]);
    const r = await runGrid(spec, { out: `${dir}/cf`, workers: 0, progress: false });
    assert.deepEqual([r.total, r.played, r.failed], [12, 12, []]);
    const parents = await readRunEpisodes(`${dir}/parent`);
    const logs = await readRunEpisodes(`${dir}/cf`);
    assert.equal(logs.size, 12);
    for (const [id, events] of logs) {
      assert.equal((await replayEpisode(events)).ok, true, id);
      const start = events[0] as Extract<(typeof events)[0], { type: "episode_start" }>;
      const parent = parents.get(start.branch_of!.episode)!;
      // The same log branchEpisode writes for it, but for its run and times.
      const direct = await branchEpisode(parent, {
        atRound: start.branch_of!.round,
        change: start.change!,
        agents: {},
        run: "cf",
        episode: id,
      });
      assert.deepEqual(
        direct.hashes,
        events.flatMap((e) => e.type === "checkpoint" ? [e.state_hash] : []),
      );
    }
    // Resumable like any block: a second run skips what is done.
    const again = await runGrid(spec, { out: `${dir}/cf`, workers: 0, progress: false });
    assert.deepEqual([again.skipped, again.played], [12, 0]);
  });
});

Deno.test("a branch block keeps the parents its filter names and refuses a filter that keeps none", async () => {
  await inTemp(async (dir) => {
    await runGrid(parentSpec, { out: `${dir}/parent`, workers: 0, progress: false });
    const block = { game: "branch", from: `${dir}/parent`, rounds: [3], changes: [{}] };
    const plan = planGrid({
      name: "cf",
      blocks: [{ ...block, filter: { episodes: ["bank_run_M0_contraction_mock_e1"] } }],
    });
    assert.deepEqual(plan.episodes.map((e) => e.id), ["bank_run_M0_contraction_mock_e1_b3_same"]);
    assert.throws(
      () => planGrid({ name: "cf", blocks: [{ ...block, filter: { condition_id: ["x"] } }] }),
      {
        name: "RangeError",
        message:
          `Invalid grid spec "blocks.0": no episode of "${dir}/parent" to branch (the filter keeps none)`,
      },
    );
    assert.throws(() => planGrid({ name: "cf", blocks: [{ ...block, from: `${dir}/none` }] }), {
      name: "RangeError",
      message: `Invalid grid spec "blocks.0.from": no folder "${dir}/none"`,
    });
    assert.throws(() => parseGridSpec({ blocks: [{ ...block, rounds: [] }] }), RangeError);
  });
});

Deno.test("a branch block of a Stag Hunt run: F = 0 from round 2 and communication_only from round 1", async () => {
  await inTemp(async (dir) => {
    await runGrid(
      { name: "sh", episodes: 2, blocks: [{ game: "staghunt", N: [5], M: [3], T: [4], F: [2] }] },
      { out: `${dir}/sh`, workers: 0, progress: false },
    );
    const r = await runGrid({
      name: "shcf",
      blocks: [{
        game: "branch",
        from: `${dir}/sh`,
        rounds: [2],
        changes: [{ F: 0 }],
      }, {
        game: "branch",
        from: `${dir}/sh`,
        rounds: [1],
        changes: [{ corruption: "communication_only" }],
      }],
    }, { out: `${dir}/shcf`, workers: 0, progress: false });
    assert.deepEqual([r.played, r.failed], [4, []]);
    const logs = await readRunEpisodes(`${dir}/shcf`);
    assert.deepEqual([...logs.keys()], [
      "staghunt_N5_M3_T4_F2_base_h1_mock_e0_b1_communication_only",
      "staghunt_N5_M3_T4_F2_base_h1_mock_e0_b2_F0",
      "staghunt_N5_M3_T4_F2_base_h1_mock_e1_b1_communication_only",
      "staghunt_N5_M3_T4_F2_base_h1_mock_e1_b2_F0",
    ]);
    for (const events of logs.values()) assert.equal((await replayEpisode(events)).ok, true);
  });
});

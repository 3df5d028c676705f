import assert from "node:assert/strict";
import { branchEpisode } from "../../../engine/branch_episode.ts";
import { diffEpisodes } from "../../../engine/core/episode_diff.ts";
import { runEpisode } from "../../../engine/run_episode.ts";
import { runStagHuntEpisode } from "../../../engine/run_staghunt_episode.ts";
import { scriptedEpisode } from "./_scripted_llm.ts";
import { playEpisode } from "../../../engine/core/episode.ts";
import type { HashingVersion } from "../../../engine/core/events_hash.ts";
import { stagHuntSetup } from "../../../engine/games/staghunt/descriptor.ts";
import { stagHunt } from "../../../engine/games/staghunt/environment.ts";
import { mockStagHuntPlayers } from "../../../engine/games/staghunt/mock.ts";

const clock = () => "2026-01-01T00:00:00.000Z";
const parentM0 = () =>
  runEpisode({
    env: "bank_run",
    mechanism: "M0",
    regime: "contraction",
    seed: 3,
    ndjson: true,
    clock,
  });

Deno.test("diffEpisodes() finds no difference between an episode and its empty-change branch", async () => {
  const parent = await parentM0();
  const b = await branchEpisode(parent.events, { atRound: 2, change: {}, agents: {}, clock });
  const d = diffEpisodes(parent.events, b.events);
  assert.equal(d.firstRound, null);
  assert.deepEqual(d.branch, { child: "b", round: 2 });
  assert.deepEqual(d.a, "adhoc/bank_run_M0_contraction_s3");
  assert.deepEqual(d.b, "adhoc/bank_run_M0_contraction_s3_b2_same");
  assert.equal(d.rounds.length, 4);
  assert.ok(d.rounds.every((r) => r.same && r.state.length === 0 && r.agents.length === 0));
});

Deno.test("diffEpisodes() aligns a branch with its parent: the first divergence, state fields, reports and decisions", async () => {
  const parent = await parentM0();
  const b = await branchEpisode(parent.events, {
    atRound: 2,
    change: { mechanism: "M3" },
    agents: {},
    clock,
  });
  const d = diffEpisodes(b.events, parent.events);
  assert.equal(d.firstRound, 2);
  assert.deepEqual(d.branch, { child: "a", round: 2 });
  assert.deepEqual(
    d.rounds.map((r) => [r.round, r.same, r.missing ?? "-", r.state.length, r.agents.length]),
    [
      [1, true, "-", 0, 0],
      [2, false, "-", 2, 15],
      [3, false, "-", 2, 15],
      [4, false, "-", 26, 14],
      [5, false, "b", 0, 14],
      [6, false, "b", 0, 13],
      [7, false, "b", 0, 13],
      [8, false, "b", 0, 13],
      [9, false, "b", 0, 13],
      [10, false, "b", 0, 13],
      [11, false, "b", 0, 13],
      [12, false, "b", 0, 13],
    ],
  );
  const r2 = d.rounds[1];
  // "lines-v4" states leave the histories out (the decisions below hold them).
  assert.deepEqual(r2.state.map((x) => x.path), ["m3", "mechanism"]);
  assert.equal(r2.hashes[1], parent.hashes[1]);
  const dep1 = r2.agents.find((x) => x.agent === "dep_01")!;
  // In round order: the mechanism step comes first under M3.
  assert.deepEqual(dep1.reports.map((x) => x.path), [
    "mechanism_response/mechanism_response",
    "financial/withdrawal",
  ]);
  assert.equal(dep1.reports[0].b, undefined, "M0 makes no mechanism call");
  // Same stream, same draw; the reported probability differs.
  const decision = dep1.decisions.find((x) => x.path === "decision[0]")!;
  const [da, db] = [decision.a, decision.b] as { draw: number; reported: number }[];
  assert.equal(da.draw, db.draw);
  assert.deepEqual([da.reported, db.reported], [0, 6]);
});

Deno.test("diffEpisodes() lists model replies that differ and Stag Hunt turns by agent", async () => {
  // Under "lines-v3" the failed call's default shows in the state (the depositors' histories);
  // "lines-v4" states leave those out, so the round's state is the same and only its agents
  // differ: the round differs all the same.
  for (const [hashing, sameState] of [["lines-v3", false], ["lines-v4", true]] as const) {
    const ok = await scriptedEpisode({ hashing });
    const failed = await scriptedEpisode({ fail: true, hashing });
    const d = diffEpisodes(ok.events, failed.events);
    assert.equal(d.firstRound, 2);
    assert.equal(d.rounds[1].same, false);
    assert.equal(d.rounds[1].hashes[0] === d.rounds[1].hashes[1], sameState);
    assert.equal(d.branch, null);
    const dep2 = d.rounds[1].agents.find((x) => x.agent === "dep_02")!;
    assert.deepEqual(dep2.replies.map((x) => [x.path, x.b]), [["financial/withdrawal[0]", null]]);
  }
  const a = await runStagHuntEpisode({ N: 3, M: 2, T: 2, F: 1, seed: 4, hashes: true });
  const c = await runStagHuntEpisode({
    N: 3,
    M: 2,
    T: 2,
    F: 1,
    corruption: "communication_only",
    seed: 4,
    hashes: true,
  });
  const s = diffEpisodes(a.events, c.events);
  assert.equal(s.firstRound, 1);
  const corrupted = a.turns.find((t) => t.corrupted)!.agent;
  const turn = s.rounds[0].agents.find((x) => x.agent === corrupted)!.decisions[0];
  assert.equal(turn.path, "turn[0]");
  assert.deepEqual(
    [
      (turn.a as { executed_action: string }).executed_action,
      (turn.b as { executed_action: string }).executed_action,
    ],
    [
      a.turns.find((t) => t.corrupted)!.publicAction,
      a.turns.find((t) => t.corrupted)!.originalAction,
    ],
  );
});

Deno.test("diffEpisodes() refuses a log without states and names it", async () => {
  const a = await runEpisode({ env: "bank_run", seed: 1, hashes: true });
  const b = await runEpisode({ env: "bank_run", seed: 1 });
  assert.throws(() => diffEpisodes(a.events, b.events), {
    name: "TypeError",
    message: 'Cannot diff: log b ("adhoc/bank_run_M0_stable_s1") has no state in its round 1 ' +
      "checkpoint; diff written logs or episodes played with hashes: true",
  });
  assert.throws(() => diffEpisodes([], a.events), {
    message: "Cannot diff: log a has no episode_start event",
  });
});

Deno.test("diffEpisodes() finds the first round of two Stag Hunt episodes whose turns alone differ, though lines-v7 states leave turns out", async () => {
  const play = (confidence: number, hashing: HashingVersion) =>
    playEpisode(stagHunt, {
      ...stagHuntSetup({ N: 5, M: 3, T: 4, F: 0 }, "h1"),
      seed: 3,
      hashes: true,
      hashing,
      agents: mockStagHuntPlayers({ players: "always_stag", always: { confidence } }),
    });
  for (const [hashing, sameState] of [["lines-v6", false], ["lines-v7", true]] as const) {
    const d = diffEpisodes((await play(1, hashing)).events, (await play(0.9, hashing)).events);
    assert.equal(d.firstRound, 1, hashing);
    assert.deepEqual(d.rounds.map((r) => r.same), [false, false, false, false], hashing);
    // Under lines-v7 the states are the same (the turns are not in them); the turns differ.
    assert.equal(d.rounds[0].hashes[0] === d.rounds[0].hashes[1], sameState, hashing);
    assert.equal(d.rounds[0].agents.length, 5, hashing);
  }
  const same = (await play(1, "lines-v7")).events;
  assert.equal(diffEpisodes(same, (await play(1, "lines-v7")).events).firstRound, null);
});

import assert from "node:assert/strict";
import type { BranchOf } from "../../../../engine/core/events.ts";
import { checkBranch, playEpisode } from "../../../../engine/core/episode.ts";
import { replayWith } from "../../../../engine/core/replay.ts";
import { minEffortSetup } from "../../../../engine/games/min_effort/descriptor.ts";
import { minEffort } from "../../../../engine/games/min_effort/environment.ts";
import { minEffortMockAgents } from "../../../../engine/games/min_effort/mock.ts";
import { effortsByRound } from "./_fixtures.ts";
import { assertEquals, assertRejects } from "../../../_assert.ts";
import { branchEpisode } from "../../../../engine/branch_episode.ts";
import { replayEpisode, runEpisode } from "../../../../engine/run_episode.ts";

const parentSetup = minEffortSetup({});

async function parent() {
  return await playEpisode(minEffort, {
    ...parentSetup,
    seed: 3,
    agents: minEffortMockAgents({ seed: 3 }),
    run: "r",
    episode: "parent",
    hashes: true,
  });
}

function branchOf(hashes: string[], round: number): BranchOf {
  return {
    run: "r",
    episode: "parent",
    round,
    condition: parentSetup.condition.fields as Record<string, unknown>,
    condition_id: parentSetup.condition.id,
    hashes: hashes.slice(0, round - 1),
  };
}

Deno.test("a minimum-effort branch plays the parent's rounds, then the new payoffs", async () => {
  const p = await parent();
  const child = minEffortSetup({ b: 0 });
  const played = await playEpisode(minEffort, {
    ...child,
    seed: 3,
    agents: minEffortMockAgents({ seed: 3 }),
    run: "r",
    episode: "child",
    hashes: true,
    branch: {
      atRound: 4,
      segments: [{ from: 1, params: parentSetup.params, mechanism: "none" }],
      of: branchOf(p.hashes, 4),
      change: { b: 0 },
    },
  });
  assert.deepEqual(played.hashes.slice(0, 3), p.hashes.slice(0, 3));
  // The mock players' choices depend on what they saw only, so they are the parent's.
  assert.deepEqual(effortsByRound(played.events), effortsByRound(p.events));
  // From round 4 on effort costs nothing: each payoff is 0.2 * min + 0.6.
  const r4 = played.events.filter((e) => e.type === "transition" && e.kind === "round_outcome")[3];
  const { minimum, payoffs } = r4 as unknown as {
    minimum: number;
    payoffs: Record<string, number>;
  };
  for (const x of Object.values(payoffs)) assert.ok(Math.abs(x - (0.2 * minimum + 0.6)) < 1e-12);
  const check = await replayWith(minEffort, played.events, {
    setup: (start) => minEffortSetup(start.condition),
    parentSetup: (c) => minEffortSetup(c),
  });
  assert.ok(check.ok, JSON.stringify(check.mismatch));
});

Deno.test("a minimum-effort branch refuses another N and a T already played", async () => {
  const p = await parent();
  const branch = (atRound: number) => ({
    atRound,
    segments: [{ from: 1, params: parentSetup.params, mechanism: "none" }],
    of: branchOf(p.hashes, atRound),
    change: {},
  });
  assert.throws(
    () => checkBranch(minEffort, { ...minEffortSetup({ N: 6 }), seed: 3, branch: branch(2) }),
    {
      name: "RangeError",
      message: "Cannot branch a minimum-effort episode into N 6: it has 7 players",
    },
  );
  await assert.rejects(
    () =>
      playEpisode(minEffort, {
        ...minEffortSetup({ T: 3 }),
        seed: 3,
        agents: minEffortMockAgents({ seed: 3 }),
        branch: branch(4),
      }),
    {
      name: "RangeError",
      message: "Cannot branch into T 3 at round 4: no round would be left to play",
    },
  );
});

// Before the descriptor had a branch hook, branchEpisode refused every change
// of a minimum-effort episode ("Unknown change").
Deno.test("branchEpisode() forks a minimum-effort episode into treatment B (b = 0) from round 4", async () => {
  const clock = () => "2026-01-01T00:00:00.000Z";
  const parent = await runEpisode({ game: "min_effort", seed: 3, hashes: true, clock });
  const b = await branchEpisode(parent.events, { atRound: 4, change: { b: 0 }, agents: {}, clock });
  // The first three rounds are the parent's, to the state hash.
  assertEquals(b.hashes.slice(0, 3), parent.hashes.slice(0, 3));
  const start = b.events.find((e) => e.type === "episode_start") as unknown as {
    condition: Record<string, unknown>;
    condition_id: string;
  };
  assertEquals([start.condition.b, start.condition_id], [0, "min_effort_N7_T10_pay0.2-0-0.6"]);
  assertEquals((await replayEpisode(b.events)).ok, true);
  await assertRejects(
    () => branchEpisode(parent.events, { atRound: 2, change: { N: 6 }, agents: {}, clock }),
    RangeError,
    'Unknown change "N" for a min_effort episode: expected "T", "a", "b", "c", "efforts"',
  );
});

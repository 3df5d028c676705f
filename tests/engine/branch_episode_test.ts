import assert from "node:assert/strict";
import type { Agent } from "../../engine/core/agent.ts";
import { mockPopulation } from "../../engine/agents/mock/population.ts";
import { branchEpisode, branchLabel } from "../../engine/branch_episode.ts";
import type { CallRequest } from "../../engine/core/environment.ts";
import type { EngineEvent } from "../../engine/core/events.ts";
import { eventsHash, HASHING_VERSION } from "../../engine/core/events_hash.ts";
import { parseEpisodeLog } from "../../engine/core/log_file.ts";
import { replayEpisode, runEpisode } from "../../engine/run_episode.ts";
import { corruptedPlayers } from "../../engine/games/staghunt/corruption.ts";
import { runStagHuntEpisode } from "../../engine/run_staghunt_episode.ts";
import { scriptedEpisode } from "./core/_scripted_llm.ts";
import { makeTempDir } from "../_temp.ts";

const clock = () => "2026-01-01T00:00:00.000Z";

function startOf(events: readonly EngineEvent[]) {
  const s = events[0];
  assert.equal(s.type, "episode_start");
  return s as Extract<EngineEvent, { type: "episode_start" }>;
}

/** The log without its times, run and episode ids (what two episodes can share). */
function bare(events: readonly EngineEvent[]) {
  return events.map(({ time: _t, run: _r, episode: _e, ...rest }) => rest);
}

const parentM0 = () =>
  runEpisode({
    env: "bank_run",
    mechanism: "M0",
    regime: "contraction",
    seed: 3,
    ndjson: true,
    clock,
  });

Deno.test("branchEpisode() at round 1 plays exactly a fresh episode with the change and the same seed", async () => {
  const parent = await parentM0();
  for (const mechanism of ["M1", "M2", "M3"] as const) {
    const b = await branchEpisode(parent.events, {
      atRound: 1,
      change: { mechanism },
      agents: {},
      clock,
    });
    const fresh = await runEpisode({
      env: "bank_run",
      mechanism,
      regime: "contraction",
      seed: 3,
      hashes: true,
      clock,
    });
    assert.deepEqual(b.hashes, fresh.hashes, mechanism);
    assert.deepEqual(b.outcome, fresh.outcome);
    // The same events but for episode_start's branch record (and the events hash it is in).
    const bs = startOf(b.events);
    assert.deepEqual(bs.branch_of?.round, 1);
    assert.deepEqual(bs.change, { mechanism });
    const strip = (events: readonly EngineEvent[]) =>
      bare(events).map((e) => {
        const { branch_of: _b, change: _c, events_hash: _h, ...rest } = e as Record<
          string,
          unknown
        >;
        return rest;
      });
    assert.deepEqual(strip(b.events), strip(fresh.events));
  }
  // And for the Stag Hunt, under a corruption mode and an F change.
  const sh = await runStagHuntEpisode({ N: 5, M: 3, T: 4, F: 2, seed: 8, hashes: true, clock });
  const b = await branchEpisode(sh.events, {
    atRound: 1,
    change: { F: 1, corruption: "communication_only" },
    agents: {},
    clock,
  });
  const fresh = await runStagHuntEpisode({
    N: 5,
    M: 3,
    T: 4,
    F: 1,
    corruption: "communication_only",
    seed: 8,
    hashes: true,
    clock,
  });
  assert.deepEqual(b.hashes, fresh.hashes);
  assert.deepEqual(b.outcome, fresh.outcome);
});

Deno.test("branchEpisode() with an empty change reproduces the parent's state hashes to the end", async () => {
  const parent = await runEpisode({
    env: "bank_run",
    mechanism: "M2",
    seed: 6,
    ndjson: true,
    clock,
  });
  for (const atRound of [1, 2, 7, 12]) {
    const b = await branchEpisode(parent.events, { atRound, change: {}, agents: {}, clock });
    assert.deepEqual(b.hashes, parent.hashes, `round ${atRound}`);
    assert.deepEqual(b.outcome, parent.outcome);
    assert.equal(startOf(b.events).branch_of?.hashes.length, atRound - 1);
  }
  const sh = await runStagHuntEpisode({
    N: 4,
    M: 2,
    T: 4,
    F: 1,
    corruption: "b3",
    seed: 2,
    hashes: true,
  });
  const b = await branchEpisode(sh.events, { atRound: 3, change: {}, agents: {} });
  assert.deepEqual(b.hashes, sh.hashes);
});

Deno.test("branchEpisode() keeps the parent's rounds before atRound and the parent's draws after it", async () => {
  const parent = await parentM0();
  const b = await branchEpisode(parent.events, {
    atRound: 2,
    change: { mechanism: "M3" },
    agents: {},
    clock,
  });
  assert.equal(b.hashes[0], parent.hashes[0]);
  assert.notEqual(b.hashes[1], parent.hashes[1]);
  const start = startOf(b.events);
  assert.deepEqual(start.branch_of, {
    run: "adhoc",
    episode: "bank_run_M0_contraction_s3",
    round: 2,
    condition: startOf(parent.events).condition,
    condition_id: "bank_run_M0_contraction",
    hashes: [parent.hashes[0]],
  });
  assert.equal(start.condition_id, "bank_run_M3_contraction");
  assert.equal(start.episode, "bank_run_M0_contraction_s3_b2_M3");
  assert.equal(start.seed, 3);
  // Round 1's game events are the parent's.
  const round1 = (events: readonly EngineEvent[]) =>
    bare(events).filter((e) => e.round === 1 && e.type !== "checkpoint");
  assert.deepEqual(round1(b.events), round1(parent.events));
  // M3 from round 2 on: the coalition is offered and this mock population ends successful.
  assert.deepEqual([b.outcome.success, b.outcome.rounds, b.outcome.welfare], [true, 12, 17.021]);
  assert.deepEqual([parent.outcome.success, parent.outcome.rounds], [false, 4]);
  // The withdrawal draws of round 2 are the parent's (same streams): the same uniforms.
  const draws = (events: readonly EngineEvent[]) =>
    events.flatMap((e) =>
      e.type === "decision" && e.round === 2 ? [[e.agent, (e as { draw?: number }).draw]] : []
    );
  assert.deepEqual(draws(b.events), draws(parent.events));
  assert.ok(draws(b.events).length > 0);
});

Deno.test("a branch at a round the parent never reached (it failed before) is the parent's episode", async () => {
  const parent = await parentM0();
  const b = await branchEpisode(parent.events, {
    atRound: 6,
    change: { mechanism: "M1" },
    agents: {},
    clock,
  });
  assert.deepEqual(b.hashes, parent.hashes);
  assert.deepEqual(b.outcome.welfare, parent.outcome.welfare);
  assert.equal(b.outcome.success, false);
  const start = startOf(b.events);
  assert.equal(start.condition_id, "bank_run_M1_contraction");
  assert.deepEqual([start.branch_of?.round, start.branch_of?.hashes.length], [6, 4]);
  assert.equal((await replayEpisode(b.events)).ok, true);
});

Deno.test("a branch of a branch plays each ancestor's condition in its rounds and replays", async () => {
  const parent = await parentM0();
  const b = await branchEpisode(parent.events, {
    atRound: 2,
    change: { mechanism: "M3" },
    agents: {},
    clock,
  });
  const bb = await branchEpisode(b.events, {
    atRound: 5,
    change: { params: { earlySalePrice: 0.5 } },
    agents: {},
    clock,
  });
  const start = startOf(bb.events);
  assert.equal(start.branch_of?.episode, b.events[0].episode);
  assert.equal(start.branch_of?.branch_of?.episode, parent.events[0].episode);
  assert.deepEqual(bb.hashes.slice(0, 4), b.hashes.slice(0, 4));
  assert.equal(bb.hashes[0], parent.hashes[0]);
  assert.deepEqual((await replayEpisode(bb.events)).ok, true);
  // An empty change on the branch of a branch reproduces the branch.
  const same = await branchEpisode(b.events, { atRound: 7, change: {}, agents: {}, clock });
  assert.deepEqual(same.hashes, b.hashes);
  // Branching the branch before its own branch round never reaches its change.
  // (b's condition is M3: at round 1 that is a fresh M3 episode)
  const early = await branchEpisode(b.events, { atRound: 1, change: {}, agents: {}, clock });
  const m3 = await runEpisode({
    env: "bank_run",
    mechanism: "M3",
    regime: "contraction",
    seed: 3,
    hashes: true,
  });
  assert.deepEqual(early.hashes, m3.hashes);
  const before = await branchEpisode(b.events, {
    atRound: 2,
    change: { mechanism: "M0" },
    agents: {},
    clock,
  });
  assert.deepEqual(before.hashes, parent.hashes);
  assert.equal((await replayEpisode(before.events)).ok, true);
});

Deno.test("replay verifies a branch: its prefix reports, its recorded parent hashes and its change", async () => {
  const parent = await parentM0();
  const b = await branchEpisode(parent.events, {
    atRound: 3,
    change: { mechanism: "M1" },
    agents: {},
    clock,
    ndjson: true,
  });
  assert.deepEqual(await replayEpisode(b.events), {
    ok: true,
    rounds: 12,
    hashes: b.hashes,
    hashing: HASHING_VERSION,
  });
  // Read back from its text.
  const dir = await makeTempDir();
  try {
    const written = await branchEpisode(parent.events, {
      atRound: 3,
      change: { mechanism: "M1" },
      agents: {},
      clock,
      outDir: dir,
      run: "branches",
    });
    assert.equal(written.logPath, `${dir}/branches/bank_run_M0_contraction_s3_b3_M1.ndjson`);
    assert.equal(
      (await replayEpisode(parseEpisodeLog(Deno.readTextFileSync(written.logPath!)))).ok,
      true,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  // An edited prefix report is caught in its round.
  const edited = structuredClone(b.events) as unknown as Record<string, unknown>[];
  const report = edited.find((e) => e.type === "report" && e.round === 2)!;
  (report.report as Record<string, unknown>).withdraw_probability = 99;
  const r = await replayEpisode(edited as unknown as EngineEvent[]);
  assert.equal(r.ok, false);
  assert.equal(r.mismatch?.round, 2);
  // An edited change or branch record is caught at round 1 (episode_start is in its events hash).
  for (
    const edit of [
      (s: Record<string, unknown>) => s.change = { mechanism: "M2" },
      (s: Record<string, unknown>) => (s.branch_of as { round: number }).round = 2,
    ]
  ) {
    const copy = structuredClone(b.events);
    edit(copy[0] as unknown as Record<string, unknown>);
    const c = await replayEpisode(copy);
    assert.equal(c.ok, false);
    assert.equal(c.mismatch?.round, 1);
  }
  // Recorded parent hashes the prefix does not reach are named, even in a log whose round-1
  // events hash was recomputed to cover the edit.
  const hashes = structuredClone(b.events);
  (hashes[0] as { branch_of: { hashes: string[] } }).branch_of.hashes[1] = "0".repeat(64);
  const cp = hashes.findIndex((e) => e.type === "checkpoint");
  (hashes[cp] as { events_hash: string }).events_hash = eventsHash(hashes.slice(0, cp));
  assert.deepEqual((await replayEpisode(hashes)).mismatch, {
    round: 2,
    kind: "hash",
    field: "branch_of.hashes[1]",
    recorded: "0".repeat(64),
    replayed: b.hashes[1],
  });
});

Deno.test("branchEpisode() refuses a tampered parent with replay's message", async () => {
  const parent = await parentM0();
  const events = structuredClone(parent.events) as unknown as Record<string, unknown>[];
  const report = events.find((e) => e.type === "report" && e.round === 2)!;
  (report.report as Record<string, unknown>).withdraw_probability = 77;
  await assert.rejects(
    () =>
      branchEpisode(events as unknown as EngineEvent[], {
        atRound: 3,
        change: { mechanism: "M1" },
        agents: {},
      }),
    {
      name: "Error",
      message:
        'Cannot branch: the parent log "adhoc/bank_run_M0_contraction_s3" does not replay: ' +
        "round 2, state cash: recorded 1.125, replayed 0.125",
    },
  );
});

Deno.test("branchEpisode() refuses a bad round, change, agents or a change the game cannot apply mid-episode", async () => {
  const parent = await parentM0();
  const opts = { change: {}, agents: {} };
  for (const atRound of [0, 13, 1.5]) {
    await assert.rejects(() => branchEpisode(parent.events, { ...opts, atRound }), {
      name: "RangeError",
      message:
        `Option "atRound" must be an integer in 1..12 (the rounds "bank_run_M0_contraction_s3" ` +
        `could have played; it ended after round 4), got ${atRound}`,
    });
  }
  const full = await runEpisode({
    env: "bank_run",
    seed: 1,
    hashes: true,
    agents: { depositors: "always_stay" },
  });
  await assert.rejects(() => branchEpisode(full.events, { ...opts, atRound: 13 }), {
    message: `Option "atRound" must be an integer in 1..12 (the rounds "bank_run_M0_stable_s1" ` +
      `played), got 13`,
  });
  await assert.rejects(
    () => branchEpisode(parent.events, { atRound: 2, change: { F: 1 }, agents: {} }),
    {
      name: "RangeError",
      message: 'Unknown change "F" for a frail episode: expected "mechanism", "regime", "params"',
    },
  );
  await assert.rejects(
    () => branchEpisode(parent.events, { atRound: 2, change: {} } as never),
    { name: "RangeError", message: /^Option "agents" is required/ },
  );
  await assert.rejects(
    () =>
      branchEpisode(parent.events, {
        atRound: 2,
        change: { params: { depositors: 10 } },
        agents: {},
      }),
    {
      name: "RangeError",
      message: "Cannot branch: the change sets up a different episode (depositors[0].balance: 1 " +
        "rebased, 1.5 set up afresh); a branch changes only what applies from its round on",
    },
  );
  const sh = await runStagHuntEpisode({ N: 3, M: 2, T: 3, F: 1, seed: 1 });
  await assert.rejects(
    () => branchEpisode(sh.events, { atRound: 2, change: { N: 4 } as never, agents: {} }),
    { name: "RangeError", message: /^Unknown change "N" for a staghunt episode/ },
  );
  await assert.rejects(
    () => branchEpisode(sh.events, { atRound: 3, change: { T: 2 }, agents: {} }),
    {
      name: "RangeError",
      message: "Cannot branch into T 2 at round 3: no round would be left to play",
    },
  );
});

Deno.test("a mechanism switch keeps no commitment: refused while one binds, the same mechanism keeps them", async () => {
  const m1 = await runEpisode({ env: "bank_run", mechanism: "M1", seed: 3, ndjson: true, clock });
  await assert.rejects(
    () => branchEpisode(m1.events, { atRound: 3, change: { mechanism: "M3" }, agents: {} }),
    {
      name: "RangeError",
      message: "Cannot branch from M1 to M3 at round 3: dep_02, dep_05, dep_07, dep_08, dep_10, " +
        "dep_11, dep_13 are committed under M1, and no rule says what becomes of a commitment " +
        "under M3; branch earlier or keep the mechanism",
    },
  );
  // Before any offer was accepted the switch is allowed (round 1: nothing yet).
  const ok = await branchEpisode(m1.events, {
    atRound: 1,
    change: { mechanism: "M3" },
    agents: {},
  });
  assert.equal(startOf(ok.events).condition.mechanism, "M3");
  // Keeping M1 keeps its locks: a horizon change plays on with them.
  const kept = await branchEpisode(m1.events, {
    atRound: 3,
    change: { params: { horizon: 10 } },
    agents: {},
    clock,
  });
  const state = (events: readonly EngineEvent[], round: number) =>
    (events.filter((e) => e.type === "checkpoint")[round - 1] as { state: { m1: unknown } }).state
      .m1;
  assert.deepEqual(state(kept.events, 3), state(m1.events, 3));
  assert.equal(kept.outcome.rounds, 10);
  await assert.rejects(
    () => branchEpisode(m1.events, { atRound: 3, change: { params: { horizon: 2 } }, agents: {} }),
    {
      name: "RangeError",
      message: "Cannot branch at round 3 into a horizon of 2: no round would be left to play",
    },
  );
  // M0 -> M1 adds the bank as a player from the branch round on.
  const parent = await parentM0();
  const b = await branchEpisode(parent.events, {
    atRound: 2,
    change: { mechanism: "M1" },
    agents: {},
  });
  assert.equal(startOf(b.events).agents[0].id, "bank");
  assert.ok(b.events.some((e) => e.type === "report" && e.agent === "bank" && e.round === 2));
  assert.ok(!b.events.some((e) => e.type === "report" && e.agent === "bank" && e.round === 1));
});

Deno.test("a Stag Hunt F change redraws the corrupted players as the first F of the parent's shuffle", async () => {
  const sh = await runStagHuntEpisode({ N: 5, M: 3, T: 4, F: 2, seed: 12, hashes: true });
  const corrupted = (events: readonly EngineEvent[], round: number) =>
    events.flatMap((e) => e.type === "turn" && e.round === round && e.corrupted ? [e.agent] : []);
  const two = corruptedPlayers({ N: 5, F: 2 }, 12);
  const one = corruptedPlayers({ N: 5, F: 1 }, 12);
  assert.equal(two.includes(one[0]), true);
  const b1 = await branchEpisode(sh.events, { atRound: 3, change: { F: 1 }, agents: {} });
  assert.deepEqual(corrupted(b1.events, 2), two);
  assert.deepEqual(corrupted(b1.events, 3), one);
  const b0 = await branchEpisode(sh.events, { atRound: 2, change: { F: 0 }, agents: {} });
  assert.deepEqual(corrupted(b0.events, 1), two);
  assert.deepEqual(corrupted(b0.events, 2), []);
  assert.equal((await replayEpisode(b0.events)).ok, true);
  assert.equal(startOf(b0.events).condition_id, "staghunt_N5_M3_T4_F0_base_h1");
});

Deno.test("a branch of a model-backed episode asks its agents nothing before atRound and logs none of the parent's model calls", async () => {
  const parent = await scriptedEpisode({ fail: true });
  assert.equal((parent.events.at(-1) as { status?: string }).status, "degraded");
  const asked: CallRequest[] = [];
  const mocks = mockPopulation({ seed: 4 });
  const b = await branchEpisode(parent.events, {
    atRound: 4,
    change: {},
    agents: (p: { id: string; role: string }): Agent => {
      const agent = mocks(p);
      return {
        policy: agent.policy,
        decide: (req) => {
          asked.push(req);
          return agent.decide(req);
        },
      };
    },
    clock,
  });
  assert.equal(Math.min(...asked.map((r) => r.round)), 4);
  assert.equal(b.events.filter((e) => e.type === "llm_call").length, 0);
  assert.ok(parent.events.filter((e) => e.type === "llm_call" && e.round < 4).length > 0);
  // The parent's agent error of round 2 is kept: the branch is degraded like its prefix.
  assert.deepEqual(
    b.events.filter((e) => e.type === "agent_error").map((e) => [e.round, e.agent]),
    [[2, "dep_02"]],
  );
  assert.deepEqual(b.hashes.slice(0, 3), parent.hashes.slice(0, 3));
  assert.equal(startOf(b.events).model, "mock:defensive");
  assert.equal((await replayEpisode(b.events)).ok, true);
});

Deno.test("branchLabel() names a change for episode ids", () => {
  assert.equal(branchLabel({ mechanism: "M1", params: { horizon: 6 } }), "M1-params-e4c905");
  assert.equal(branchLabel({ T: 3, payoffs: { RS: 5, HS: 2, RF: 0, HF: 2 } }), "T3-payoffs-49835f");
});

Deno.test("replayWith() refuses a branch without the parent's set-up", async () => {
  const { replayWith } = await import("../../engine/core/replay.ts");
  const { bankRunGame } = await import("../../engine/games/bank_run/descriptor.ts");
  const parent = await parentM0();
  const b = await branchEpisode(parent.events, { atRound: 2, change: {}, agents: {} });
  await assert.rejects(() => replayWith(bankRunGame.environment, b.events), {
    name: "TypeError",
    message: "Cannot replay a branch without the parent's set-up (options.parentSetup)",
  });
});

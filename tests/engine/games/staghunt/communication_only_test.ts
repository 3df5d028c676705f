import assert from "node:assert/strict";
import type { CallRequest } from "../../../../engine/core/environment.ts";
import { playEpisode } from "../../../../engine/core/episode.ts";
import { sha256Hex } from "../../../../engine/core/hash.ts";
import { replayEpisode } from "../../../../engine/run_episode.ts";
import { stagHuntGame, stagHuntSetup } from "../../../../engine/games/staghunt/descriptor.ts";
import { stagHunt } from "../../../../engine/games/staghunt/environment.ts";
import { payoffPerTurn } from "../../../../engine/games/staghunt/metrics/choices.ts";
import { successRates } from "../../../../engine/games/staghunt/metrics/rounds.ts";
import { runStagHuntEpisode } from "../../../../engine/run_staghunt_episode.ts";
import { turnsFromEvents } from "../../../../engine/games/staghunt/turns.ts";
import type { StagHuntView } from "../../../../engine/games/staghunt/views.ts";

const clock = () => "2025-01-01T00:00:00.000Z";

/** Every player reports Stag; the requests are kept. */
function allStag(log: CallRequest[]) {
  return () => ({
    policy: "test:stag",
    decide(req: CallRequest) {
      log.push(structuredClone(req));
      return req.call === "rejustify"
        ? { justification: "Hare is safer." }
        : { action: "Stag", confidence: 0.9, justification: "Stag pays more." };
    },
  });
}

async function play(corruption: string, log: CallRequest[] = []) {
  return await playEpisode(stagHunt, {
    ...stagHuntSetup({ N: 3, M: 3, T: 2, F: 1, corruption }, "h1"),
    seed: 2,
    agents: allStag(log),
    clock,
    hashes: true,
  });
}

Deno.test("communication_only flips and re-justifies the public report as base does but scores the original action", async () => {
  const baseLog: CallRequest[] = [];
  const commLog: CallRequest[] = [];
  const base = await play("base", baseLog);
  const comm = await play("communication_only", commLog);
  // The same calls with the same views: the transcript is corrupted alike.
  assert.deepEqual(commLog, baseLog);
  assert.equal(commLog.filter((r) => r.call === "rejustify").length, 2);
  const third = commLog.find((r) =>
    r.call === "stag_hunt_turn" && r.round === 1 && r.step === "turn_3"
  )!;
  const shown = (third.view as StagHuntView).transcript.at(-1)!.reports.map((r) => r.action);
  const corruptedAt = turnsFromEvents(comm.events).findIndex((t) => t.corrupted);
  assert.equal(shown[corruptedAt], "Hare");
  // base: the flipped Hare is executed, M = 3 is missed: 2 Stag players get R_F = 0, the
  // corrupted one H_F = 2, per round. communication_only: three Stags executed, R_S = 4 each.
  assert.deepEqual([base.outcome.success, base.outcome.welfare], [false, 4]);
  assert.deepEqual(base.outcome.failure, "coordination");
  assert.deepEqual([comm.outcome.success, comm.outcome.welfare], [true, 24]);
  const turns = turnsFromEvents(comm.events);
  const flipped = turns.filter((t) => t.corrupted);
  assert.deepEqual(
    flipped.map((t) => [t.originalAction, t.publicAction, t.executedAction]),
    [["Stag", "Hare", "Stag"], ["Stag", "Hare", "Stag"]],
  );
  assert.deepEqual(flipped.map((t) => t.publicJustification), ["Hare is safer.", "Hare is safer."]);
  const rates = successRates(turns);
  assert.deepEqual([rates.preflip, rates.public, rates.executed], [1, 0, 1]);
  assert.deepEqual(payoffPerTurn(turns), { turns: 4, realised: 4, truthful: 4 });
  assert.deepEqual(payoffPerTurn(turnsFromEvents(base.events)), {
    turns: 4,
    realised: 0,
    truthful: 4,
  });
  // The state is the same shape; only the scoring differs.
  assert.deepEqual(comm.state.rounds, base.state.rounds);
  assert.notDeepEqual(comm.state.payoffs, base.state.payoffs);
});

Deno.test("every turn event carries executed_action: the public action in base and b3, the original under communication_only", async () => {
  for (
    const [mode, field] of [
      ["base", "public_action"],
      ["b3", "public_action"],
      ["communication_only", "original_action"],
    ] as const
  ) {
    const r = await runStagHuntEpisode({ N: 5, M: 3, T: 3, F: 2, corruption: mode, seed: 5 });
    const turns = r.events.filter((e) => e.type === "turn");
    assert.equal(turns.length, 15);
    for (const t of turns) {
      assert.equal(t.executed_action, t[field], `${mode} ${t.agent} round ${t.round}`);
    }
    assert.ok((await replayEpisode(r.events)).ok, mode);
  }
});

Deno.test("adding executed_action leaves the outcomes and state hashes of base and b3 as they were", async () => {
  // Pinned with the toolkit before communication_only (main at 9db2b85).
  const pinned = {
    base: ["d1940651d3cca8763d147df75b20ca212340eb61e9ab0f5088aa5e2db850440b", 32, [8, 8, 8, 8, 0]],
    b3: ["b3832054365f5c50d617b5d3b0922217e4c00e68a9afb0a72a54ddeccaf7156c", 56, [
      12,
      12,
      12,
      12,
      8,
    ]],
  } as const;
  for (const [corruption, [hash, welfare, payoffs]] of Object.entries(pinned)) {
    const condition = { N: 5, M: 3, T: 4, F: 2, corruption: corruption as "base" };
    const r = await runStagHuntEpisode({ ...condition, seed: 9, hashes: true, clock });
    assert.equal(r.outcome.welfare, welfare);
    assert.deepEqual(Object.values(r.outcome.payoffs), payoffs);
    // The pins are of whole states: the checkpoints' definition then ("lines-v7" leaves the
    // rounds out), with the players runStagHuntEpisode gives.
    const whole = await playEpisode(stagHunt, {
      ...stagHuntSetup(condition, "h1"),
      seed: 9,
      agents: stagHuntGame.mockAgents({ seed: 9 }),
      hashes: true,
      clock,
      hashing: "lines-v6",
    });
    assert.equal(sha256Hex(whole.hashes.join("")), hash, corruption);
    assert.deepEqual(whole.outcome, r.outcome);
  }
});

Deno.test("turnsFromEvents() reads a log written before executed_action as executing the public action, and refuses such a communication_only turn", async () => {
  const r = await runStagHuntEpisode({ N: 3, M: 2, T: 1, F: 1, seed: 1 });
  const old = r.events.map((e) => {
    if (e.type !== "turn") return e;
    const { executed_action: _x, ...rest } = e;
    return rest as typeof e;
  });
  assert.deepEqual(
    turnsFromEvents(old).map((t) => t.executedAction),
    turnsFromEvents(old).map((t) => t.publicAction),
  );
  const comm = old.map((e) =>
    e.type === "episode_start"
      ? { ...e, params: { ...(e.params as object), corruption: "communication_only" } }
      : e
  );
  assert.throws(() => turnsFromEvents(comm), {
    name: "TypeError",
    message: 'The turn of episode "staghunt_N3_M2_T1_F1_base_h1_s1" round 1 has no ' +
      "executed_action under communication_only",
  });
});

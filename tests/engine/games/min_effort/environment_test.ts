import assert from "node:assert/strict";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { readEpisodeLog } from "../../../../engine/core/log_file.ts";
import { replayWith } from "../../../../engine/core/replay.ts";
import { minEffortSetup } from "../../../../engine/games/min_effort/descriptor.ts";
import { minEffort } from "../../../../engine/games/min_effort/environment.ts";
import { roundMeasureRows } from "../../../../engine/games/min_effort/measures.ts";
import type { MinEffortView } from "../../../../engine/games/min_effort/state.ts";
import { effortsByRound, play, scripted } from "./_fixtures.ts";
import { makeTempDir } from "../../../_temp.ts";

const near = (x: number, y: number) => Math.abs(x - y) < 1e-9;

Deno.test("minEffort plays a pinned trajectory with best-response mock players (seed 1)", async () => {
  const { played } = await play({ seed: 1 });
  // Everyone starts at the prior 7; two noisy draws pull the minimum to 2 and
  // then to 1, where best responses keep it (later draws never raise it).
  assert.deepEqual(effortsByRound(played.events).map((r) => r.join("")), [
    "7777277",
    "2212222",
    "1451111",
    "1111111",
    "1111111",
    "1111111",
    "1411111",
    "1121111",
    "1111111",
    "1117211",
  ]);
  assert.deepEqual(played.outcome, {
    success: false,
    failure: "coordination",
    rounds: 10,
    payoffs: {
      p01: 6.500000000000001,
      p02: 5.8999999999999995,
      p03: 6.1,
      p04: 5.9,
      p05: 6.9,
      p06: 6.500000000000001,
      p07: 6.500000000000001,
    },
    welfare: 44.3,
    bounds: { worst: 12.999999999999998, best: 91 },
    welfareRealization: 0.40128205128205124,
  });
  assert.equal(
    played.hashes.at(-1),
    "dc67f9af558e0a809d7e598abf74e61860fb81a72f45b6559e158b73bbeb180e",
  );
});

Deno.test("minEffort pays a * min - b * own + c, checked by hand", async () => {
  const rounds = [[7, 4, 2], [3, 3, 3]];
  const { played } = await play({
    fields: { N: 3, T: 2 },
    agents: scripted((round, i) => rounds[round - 1][i]),
  });
  const outcomes = played.events.filter((e) =>
    e.type === "transition" && e.kind === "round_outcome"
  );
  // Round 1, minimum 2: 0.4 - 0.7 + 0.6, 0.4 - 0.4 + 0.6, 0.4 - 0.2 + 0.6.
  const r1 = outcomes[0] as unknown as { minimum: number; payoffs: Record<string, number> };
  assert.equal(r1.minimum, 2);
  const want1 = [0.3, 0.6, 0.8];
  Object.values(r1.payoffs).forEach((x, i) => assert.ok(near(x, want1[i]), `p${i + 1}: ${x}`));
  // Round 2, everyone at 3: 0.6 - 0.3 + 0.6 each; totals 1.2, 1.5, 1.7.
  const totals = [1.2, 1.5, 1.7];
  Object.values(played.outcome.payoffs).forEach((x, i) => assert.ok(near(x, totals[i])));
  assert.ok(near(played.outcome.welfare, 4.4));
});

Deno.test("minEffort reaches both welfare bounds and the secure welfare", async () => {
  const best = await play({ agents: { players: "always_max" } });
  assert.equal(best.played.outcome.success, true);
  assert.equal(best.played.outcome.failure, null);
  assert.ok(near(best.played.outcome.welfare, 91));
  assert.equal(best.played.outcome.welfareRealization, 1);
  const worst = await play({
    agents: { players: (i) => (i === 0 ? "always_min" : "always_max") },
  });
  assert.ok(near(worst.played.outcome.welfare, 13));
  assert.equal(worst.played.outcome.welfareRealization, 0);
  const secure = await play({ agents: { players: "always_min" } });
  assert.ok(near(secure.played.outcome.welfare, 49));
  // (49 - 13) / (91 - 13) = 36 / 78.
  assert.ok(near(secure.played.outcome.welfareRealization, 36 / 78));
});

Deno.test("minEffort shows each player its own effort and payoff and the minimum, nothing else", async () => {
  const seen: MinEffortView[] = [];
  const efforts = [[5, 3], [4, 6]];
  await play({
    fields: { N: 2, T: 2 },
    agents: ({ id }) => ({
      policy: "test:spy",
      decide: (req) => {
        seen.push(req.view as MinEffortView);
        return { effort: efforts[req.round - 1][Number(id.slice(1)) - 1], reasoning: "" };
      },
    }),
  });
  const p02 = seen.filter((v) => v.you === "p02");
  assert.deepEqual(p02[0], {
    you: "p02",
    round: 1,
    T: 2,
    N: 2,
    efforts: 7,
    a: 0.2,
    b: 0.1,
    c: 0.6,
    history: [],
  });
  assert.deepEqual(Object.keys(p02[1].history[0]), ["round", "effort", "minimum", "payoff"]);
  assert.equal(p02[1].history[0].effort, 3);
  assert.equal(p02[1].history[0].minimum, 3);
  assert.ok(near(p02[1].history[0].payoff, 0.6 - 0.3 + 0.6));
  // p01's 5 appears nowhere: the view has the same fields in round 2, and its history only p02's own.
  assert.deepEqual(Object.keys(p02[1]), Object.keys(p02[0]));
  assert.equal(p02[1].history.length, 1);
});

Deno.test("minEffort announces only the minimum and logs the round measures", async () => {
  const { played } = await play({ seed: 4 });
  const disclosures = played.events.filter((e) => e.type === "disclosure");
  assert.equal(disclosures.length, 10);
  for (const d of disclosures) {
    if (d.type !== "disclosure") throw new Error();
    assert.deepEqual(Object.keys(d.public), ["minimum"]);
  }
  // The metrics are exactly the measures computed again from the outcomes.
  assert.deepEqual(
    disclosures.map((d) => ({ round: d.round, ...(d as { metrics: object }).metrics })),
    roundMeasureRows(played.events),
  );
});

Deno.test("minEffort replaces an effort above the highest by 1, with an override event", async () => {
  const { played } = await play({
    fields: { N: 2, T: 1, efforts: 5 },
    agents: scripted((_r, i) => (i === 0 ? 9 : "five")),
  });
  const override = played.events.find((e) => e.type === "override");
  assert.deepEqual(
    override && { ...override, schema: 0, time: "", run: "", episode: "", seq: 0 },
    {
      schema: 0,
      run: "",
      episode: "",
      round: 1,
      step: "choose",
      seq: 0,
      time: "",
      type: "override",
      agent: "p01",
      call: "effort_choice",
      field: "effort",
      from: 9,
      to: 1,
      reason: "Effort 9 is above the highest effort 5; the secure effort 1 is used",
    },
  );
  const correction = played.events.find((e) => e.type === "correction");
  assert.equal(correction?.type === "correction" && correction.reason, "Value failed its schema");
  assert.deepEqual(effortsByRound(played.events), [[1, 1]]);
});

Deno.test("minEffort gives a failed agent the secure effort and ends degraded", async () => {
  const { played } = await play({
    fields: { N: 2, T: 1 },
    agents: ({ id }) => ({
      policy: "test:flaky",
      decide: () => {
        if (id === "p02") throw new Error("model unavailable");
        return { effort: 6, reasoning: "" };
      },
    }),
  });
  assert.deepEqual(effortsByRound(played.events), [[6, 1]]);
  const end = played.events.at(-1)!;
  assert.equal(end.type === "episode_end" && end.status, "degraded");
});

/** Replays a log, resolving its parameters again from its recorded condition. */
function replay(events: readonly EngineEvent[]) {
  return replayWith(minEffort, events, {
    setup: (start) => minEffortSetup(start.condition),
  });
}

Deno.test("replayWith() reproduces every hash of minimum-effort logs of every policy", async () => {
  const policies = ["best_response", "always_max", "always_min", "uniform"] as const;
  for (let seed = 0; seed < 4; seed++) {
    const { played } = await play({ seed, agents: { players: policies[seed] } });
    const check = await replay(played.events);
    assert.ok(check.ok, `seed ${seed}: ${JSON.stringify(check.mismatch)}`);
    assert.deepEqual(check.hashes, played.hashes);
  }
});

Deno.test("replayWith() names the round of a tampered effort report", async () => {
  const { played } = await play({ seed: 2 });
  const events = structuredClone(played.events) as EngineEvent[];
  const report = events.find((e) => e.type === "report" && e.round === 3 && e.agent === "p04")!;
  if (report.type !== "report") throw new Error();
  report.report.effort = (report.report.effort as number) === 7 ? 6 : 7;
  const check = await replay(events);
  assert.equal(check.ok, false);
  assert.equal(check.mismatch?.round, 3);
});

Deno.test("replayWith() reports a recorded parameter the condition does not resolve to", async () => {
  const { played } = await play({ seed: 2, fields: { N: 3, T: 2 } });
  const events = structuredClone(played.events) as EngineEvent[];
  const start = events[0];
  if (start.type !== "episode_start") throw new Error();
  (start.params as { c: number }).c = 0.7;
  const check = await replay(events);
  assert.deepEqual(check.mismatch, {
    round: 0,
    kind: "condition",
    field: "params.c",
    recorded: 0.7,
    replayed: 0.6,
  });
});

Deno.test("playAndLog() writes a minimum-effort log that reads back and replays", async () => {
  const dir = await makeTempDir();
  try {
    const { played, logPath } = await play({ seed: 5, outDir: dir });
    assert.equal(logPath, `${dir}/test/s5.ndjson`);
    const events = await readEpisodeLog(logPath!);
    assert.equal(events.length, played.events.length);
    const start = events[0];
    assert.equal(start.type === "episode_start" && start.condition_id, "min_effort_N7_T10");
    assert.ok((await replay(events)).ok);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("minEffort events share no object with the state", async () => {
  const { played } = await play({ seed: 6, fields: { N: 3, T: 3 } });
  const before = JSON.stringify(played.events);
  const s = played.state;
  for (const r of s.rounds) {
    r.efforts.fill(99);
    r.payoffs.fill(99);
    r.minimum = 99;
  }
  for (const p of s.players) s.payoffs[p] = 99;
  assert.equal(JSON.stringify(played.events), before);
});

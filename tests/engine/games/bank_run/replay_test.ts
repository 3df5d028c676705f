import { assert, assertEquals, assertRejects } from "../../../_assert.ts";
import { replayEpisode, runEpisode } from "../../../../engine/run_episode.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { readEpisodeLog } from "../../../../engine/core/log_file.ts";
import { MECHANISMS } from "../../../../engine/frail/types.ts";
import type { Agent } from "../../../../engine/core/agent.ts";
import { mockPopulation } from "../../../../engine/agents/mock/population.ts";
import { withFlippedDecision } from "../../frail/_scripted.ts";
import { replaySweep } from "./_replay_sweep.ts";
import { makeTempDir } from "../../../_temp.ts";

Deno.test("48 seeded mock episodes across M0-M3, regimes and splits replay, hashed or not, and close their accounts", async () => {
  await replaySweep(48);
});

async function sample() {
  return await runEpisode({
    env: "bank_run",
    mechanism: "M0",
    seed: 1,
    clock: () => "t",
    hashes: true,
  });
}

Deno.test("replayEpisode() names the round and field of a tampered decision", async () => {
  const r = await sample();
  const tampered = withFlippedDecision(r.events, 2);
  const check = await replayEpisode(tampered);
  assertEquals(check.ok, false);
  assertEquals(check.mismatch!.round, 2);
  assertEquals(check.mismatch!.kind, "events");
  assert(check.mismatch!.field.endsWith(".realized"), check.mismatch!.field);
  // The mismatch names the event itself: the first decision of round 2.
  const first = tampered.find((e) => e.type === "decision" && e.round === 2)!;
  assertEquals(check.mismatch!.event, {
    type: "decision",
    seq: first.seq,
    step: first.step,
    agent: (first as { agent: string }).agent,
    round: 2,
    index: tampered.indexOf(first),
  });
});

Deno.test("replayEpisode() catches a checkpoint state edited without its hash", async () => {
  const r = await sample();
  const events = structuredClone(r.events);
  const cp = events.filter((e) => e.type === "checkpoint")[1] as { state: { cash: number } };
  cp.state.cash += 1;
  const check = await replayEpisode(events);
  assertEquals(check.mismatch, {
    round: 2,
    kind: "hash",
    field: "state.cash",
    recorded: (r.events.filter((e) =>
      e.type === "checkpoint"
    )[1] as unknown as { state: { cash: number } })
      .state.cash + 1,
    replayed:
      (r.events.filter((e) => e.type === "checkpoint")[1] as unknown as { state: { cash: number } })
        .state.cash,
  });
});

Deno.test("replayEpisode() names the first differing state field when a report is changed", async () => {
  const r = await sample();
  const events = structuredClone(r.events);
  const rep = events.find((e) =>
    e.type === "report" && e.round === 1 && e.agent === "dep_03"
  )! as unknown as {
    report: { withdraw_probability: number };
  };
  const dec = r.events.find((e) =>
    e.type === "decision" && e.round === 1 && e.agent === "dep_03"
  ) as {
    realized: boolean;
  };
  rep.report.withdraw_probability = dec.realized ? 0 : 100;
  const check = await replayEpisode(events);
  assertEquals(check.ok, false);
  assertEquals(check.mismatch!.round, 1);
  assertEquals(check.mismatch!.kind, "state");
});

Deno.test("the order in which agents answer does not change the episode", async () => {
  const base = mockPopulation({ seed: 9 });
  const slow = (player: { id: string; role: string }): Agent => {
    const a = base(player);
    return {
      policy: a.policy,
      decide: async (req) => {
        await new Promise((res) =>
          setTimeout(res, (req.agent.charCodeAt(req.agent.length - 1) * 7) % 5)
        );
        return a.decide(req);
      },
    };
  };
  for (const mechanism of MECHANISMS) {
    const fast = await runEpisode({
      env: "bank_run",
      mechanism,
      seed: 9,
      agents: base,
      hashes: true,
    });
    const shuffled = await runEpisode({
      env: "bank_run",
      mechanism,
      seed: 9,
      agents: slow,
      hashes: true,
    });
    assertEquals(fast.hashes.length, fast.outcome.rounds);
    assertEquals(shuffled.hashes, fast.hashes);
  }
});

Deno.test("adding a depositor does not change another depositor's draws", async () => {
  const draws = async (n: number) => {
    const r = await runEpisode({
      env: "bank_run",
      seed: 21,
      params: { depositors: n, totalDeposits: n },
      agents: { depositors: "always_stay" },
    });
    return r.events.filter((e) => e.type === "decision" && e.agent === "dep_05").map((e) =>
      (e as unknown as { draw: number }).draw
    );
  };
  assertEquals(await draws(15), await draws(16));
});

Deno.test("an agent that throws gets the neutral default, an error event and a correction", async () => {
  const r = await runEpisode({
    env: "bank_run",
    seed: 1,
    agents: (p) => ({
      policy: "test",
      decide: () =>
        p.id === "dep_02"
          ? Promise.reject(new Error("boom"))
          : Promise.resolve('{"withdraw_probability": 0}'),
    }),
  });
  const err = r.events.find((e) => e.type === "agent_error")! as {
    agent: string;
    message: string;
    status: string;
  };
  assertEquals([err.agent, err.message, err.status], ["dep_02", "boom", "error"]);
  const corr = r.events.filter((e) =>
    e.type === "correction" && e.agent === "dep_02" && e.round === 1
  );
  assertEquals(corr.length, 1);
  assert(r.outcome.success);
});

Deno.test("runEpisode() rejects bad parameters by field name and writes nothing", async () => {
  const dir = await makeTempDir();
  await assertRejects(
    () => runEpisode({ env: "bank_run", seed: 1, params: { capacity: -1 }, outDir: dir }),
    RangeError,
    'Invalid bank_run parameter "capacity"',
  );
  await assertRejects(
    () => runEpisode({ env: "bank_run", seed: 1, params: { capacty: 2 }, outDir: dir }),
    RangeError,
    'unknown field "capacty"; did you mean "capacity"?',
  );
  await assertRejects(
    () => runEpisode({ env: "bank_run", seed: 1, regime: "boom" as never, outDir: dir }),
    RangeError,
    '"regime"',
  );
  await assertRejects(
    () => runEpisode({ env: "bank_run", seed: -2, outDir: dir }),
    RangeError,
    '"seed"',
  );
  await assertRejects(
    () => runEpisode({ env: "moon_run" as never, seed: 1, outDir: dir }),
    RangeError,
    'Invalid episode config "env": expected one of "bank_run", "debt_rollover", "crowdfunding" (got "moon_run")',
  );
  assertEquals([...Deno.readDirSync(dir)].length, 0);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("runEpisode() writes one NDJSON log that reads back to the same events", async () => {
  const dir = await makeTempDir();
  const r = await runEpisode({ env: "bank_run", mechanism: "M3", seed: 4, run: "t", outDir: dir });
  assertEquals(r.logPath, `${dir}/t/bank_run_M3_stable_s4.ndjson`);
  const back = await readEpisodeLog(r.logPath!);
  assertEquals(back, r.events);
  assert(back.every((e) => e.schema === 2 && e.run === "t"));
  assertEquals([...Deno.readDirSync(`${dir}/t`)].map((e) => e.name), [
    "bank_run_M3_stable_s4.ndjson",
  ]);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("an episode with corrections replays, and a tampered report after them is located", async () => {
  // dep_01 answers in prose with a percentage string: every round logs a correction.
  const r = await runEpisode({
    env: "bank_run",
    seed: 12,
    clock: () => "t",
    agents: (p) => ({
      policy: "test",
      decide: () =>
        Promise.resolve(
          p.id === "dep_01" ? 'Sure. {"withdraw_probability": "30%"}' : { withdraw_probability: 5 },
        ),
    }),
  });
  assert(r.events.some((e) => e.type === "correction"));
  assert((await replayEpisode(r.events)).ok);
  const events = structuredClone(r.events);
  const dec = events.find((e) => e.type === "decision" && e.agent === "dep_02" && e.round === 1) as
    & EngineEvent
    & { draw: number };
  dec.draw = 0.123;
  const check = await replayEpisode(events);
  assertEquals([check.mismatch?.round, check.mismatch?.kind], [1, "events"]);
  assert(check.mismatch!.field.endsWith(".draw"), check.mismatch!.field);
});

Deno.test("replayEpisode() catches an edited player policy in episode_start (round 1's events hash covers it)", async () => {
  const r = await runEpisode({ env: "bank_run", mechanism: "M1", seed: 5, clock: () => "t" });
  const events = structuredClone(r.events);
  const start = events[0] as EngineEvent & { agents: { policy: string }[] };
  start.agents[3].policy = "gpt-5";
  const check = await replayEpisode(events);
  assertEquals([check.ok, check.mismatch?.round, check.mismatch?.kind], [false, 1, "events"]);
  // The replay's players are the recorded ones, so the first difference is the
  // participants' model the start records for them.
  assertEquals(check.mismatch?.field, "events[0].model");
  assertEquals([check.mismatch?.recorded, check.mismatch?.replayed], [
    "mock:defensive",
    "gpt-5+mock:defensive",
  ]);
});

Deno.test("replayEpisode() catches an edited regime label, or parameters the condition does not resolve to", async () => {
  const r = await runEpisode({ env: "bank_run", mechanism: "M0", seed: 5, clock: () => "t" });
  const relabelled = structuredClone(r.events);
  (relabelled[0] as EngineEvent & { condition: { regime: string } }).condition.regime =
    "contraction";
  const a = await replayEpisode(relabelled);
  assertEquals([a.ok, a.mismatch?.round, a.mismatch?.kind], [false, 0, "condition"]);
  assertEquals(a.mismatch?.field, "params.assetReturn");
  const edited = structuredClone(r.events);
  (edited[0] as EngineEvent & { params: { capacity: number } }).params.capacity = 5;
  const b = await replayEpisode(edited);
  assertEquals([b.mismatch?.kind, b.mismatch?.field], ["condition", "params.capacity"]);
  assertEquals([b.mismatch?.recorded, b.mismatch?.replayed], [5, 3.75]);
});

import { assert, assertEquals, assertNotEquals, assertRejects } from "../../../_assert.ts";
import { runEpisode } from "../../../../engine/run_episode.ts";
import {
  runStagHuntEpisode,
  type StagHuntRunConfig,
} from "../../../../engine/run_staghunt_episode.ts";
import type { Environment } from "../../../../engine/core/environment.ts";
import { assertSame, tellsApart, withOneDrawFlipped } from "../_batched_oracle.ts";
import { batched, general, sweep } from "./_batched_sweep.ts";
import { stagHuntGame } from "../../../../engine/games/staghunt/descriptor.ts";
import { corruptedPlayers } from "../../../../engine/games/staghunt/corruption.ts";
import type { BeliefRule } from "../../../../engine/games/staghunt/beliefs/rule.ts";
import { makeTempDir } from "../../../_temp.ts";

Deno.test("stagHuntBatched.play() gives the general path's outcome, tally and final state over 1,980 seeded episodes of every condition and mock player option", async () => {
  // Seeds 0-19, the counts pinned: successes, failures and changed public actions
  // (batched_long_test.ts: seeds 0-119, 11,880 episodes).
  assertEquals(await sweep(20), { episodes: 1980, successes: 835, rejustified: 10578 });
});

Deno.test("stagHuntBatched.play() gives the general path's outcome on 3,000 seeds of the bench's episode", async () => {
  let successes = 0;
  const fields = { N: 5, M: 3, T: 4, F: 2 };
  for (let seed = 0; seed < 3000; seed++) {
    const g = await general(fields, seed, { seed });
    assertSame(batched(fields, seed, { seed }), g, `seed ${seed}`);
    if (g.outcome.success) successes++;
  }
  assert(successes > 0 && successes < 3000, String(successes));
});

/** The b3 draw of p01 in round 1 replaced by 1 - u: one draw that differs. */
function perturbedEnv(): Environment<unknown, unknown> {
  return withOneDrawFlipped(stagHuntGame.environment as Environment<unknown, unknown>, {
    step: "turn_1",
    round: 1,
    agent: "p01",
    purpose: "b3_public_action",
  });
}

Deno.test("the batched oracle fails on exactly the episodes where one changed b3 draw is made", async () => {
  const env = perturbedEnv();
  const fields = { N: 5, M: 3, T: 4, F: 2, corruption: "b3" };
  let caughtCount = 0;
  for (let seed = 0; seed < 400; seed++) {
    const mock = { seed };
    const g = await general(fields, seed, mock);
    const p = await general(fields, seed, mock, env);
    const b = batched(fields, seed, mock);
    assertSame(b, g, `seed ${seed}`);
    // The draw is made when p01 is corrupted, and 1 - u always shows the other action.
    const drawn = corruptedPlayers({ N: 5, F: 2 }, seed).includes("p01");
    const caught = tellsApart(b, p, `seed ${seed}`);
    assertEquals(caught, drawn, `seed ${seed}`);
    if (caught) {
      caughtCount++;
      assertNotEquals(b.state, p.state);
    }
  }
  // About 2 in 5 episodes corrupt p01.
  assert(caughtCount > 120 && caughtCount < 200, String(caughtCount));
});

Deno.test("runStagHuntEpisode() plays with events: false on the batched path, with the outcome it has with events kept", async () => {
  const agentsOf: (StagHuntRunConfig["agents"])[] = [
    undefined,
    { players: "always_stag" },
    { players: (i: number) => (i === 0 ? "always_hare" : "threshold"), threshold: { noise: 0.2 } },
  ];
  for (let seed = 0; seed < 150; seed++) {
    for (const agents of agentsOf) {
      const config = { N: 5, M: 3, T: 4, F: 2, seed, agents };
      const b = await runStagHuntEpisode({ ...config, events: false });
      const g = await runStagHuntEpisode(config);
      assertEquals([b.path, g.path], ["batched", "general"]);
      assertEquals(b.outcome, g.outcome);
      assertEquals(b.events, []);
      assertEquals(b.turns, []);
      assertEquals(b.hashes, []);
      assertEquals(b.tally.reports, g.events.filter((e) => e.type === "report").length);
      assertEquals(b.tally.last, g.tally.last);
    }
  }
  // By game id too, with the condition's fields.
  const fields = { game: "staghunt", seed: 4, N: 4, M: 2, T: 3, F: 1, corruption: "b3" };
  const b = await runEpisode({ ...fields, events: false, agents: { rule: "carryover" } });
  const g = await runEpisode({ ...fields, agents: { rule: "carryover" } });
  assertEquals([b.path, g.path], ["batched", "general"]);
  assertEquals(b.outcome, g.outcome);
});

Deno.test("runStagHuntEpisode() plays on the general path what the batched path cannot take", async () => {
  const base = { N: 3, M: 2, T: 2, F: 1, seed: 5, events: false };
  const throwing: BeliefRule = {
    id: "throwing",
    estimate: () => {
      throw new Error("no estimate");
    },
  };
  const nan: BeliefRule = { id: "nan", estimate: () => NaN };
  const cases: [string, StagHuntRunConfig, string][] = [
    ["events kept", { ...base, events: true }, "ok"],
    ["hashes", { ...base, hashes: true }, "ok"],
    ["log text", { ...base, ndjson: true }, "ok"],
    ["a factory of mock players", { ...base, agents: stagHuntGame.mockAgents({ seed: 5 }) }, "ok"],
    ["a model policy", { ...base, models: { kind: "h2", pool: ["a", "b"] } }, "ok"],
    // The general path's players fail or are repaired: it reports what they do.
    ["a rule that throws", { ...base, agents: { threshold: { rule: throwing } } }, "degraded"],
    ["a NaN estimate", { ...base, agents: { threshold: { rule: nan } } }, "ok"],
    ["a bad noise seed", { ...base, agents: { threshold: { noise: 0.5, seed: -1 } } }, "degraded"],
  ];
  for (const [what, config, status] of cases) {
    const r = await runStagHuntEpisode(config);
    assertEquals(r.path, "general", what);
    assertEquals((r.tally.last as { status?: string }).status, status, what);
  }
  // The model policy's models are given.
  const h2 = await runStagHuntEpisode({ ...base, models: { kind: "h2", pool: ["a", "b"] } });
  assertEquals(Object.keys(h2.models!), ["p01", "p02", "p03"]);
  // The NaN estimate's confidence is repaired to 0.5 on the general path (with events: a correction).
  const kept = await runStagHuntEpisode({
    ...base,
    events: true,
    agents: { threshold: { rule: nan } },
  });
  assert(kept.events.some((e) => e.type === "correction"));
  const dir = await makeTempDir();
  try {
    const r = await runStagHuntEpisode({ ...base, outDir: dir });
    assertEquals(r.path, "general");
    assert(r.logPath !== undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runStagHuntEpisode() refuses bad players with events: false as with events kept", async () => {
  const base = { N: 3, M: 2, T: 2, seed: 1 };
  for (const events of [false, true]) {
    await assertRejects(
      () => runStagHuntEpisode({ ...base, events, agents: { players: () => "nervous" as never } }),
      Error,
      'Episode failed in round 0, step setup: Unknown mock Stag Hunt policy "nervous": expected one of "threshold", "always_stag", "always_hare"',
    );
    await assertRejects(
      () => runStagHuntEpisode({ ...base, events, agents: { threshold: { noise: 2 } } }),
      Error,
      'Mock player option "noise" must be in [0, 1], got 2',
    );
    await assertRejects(
      () => runStagHuntEpisode({ ...base, events, agents: { colour: "red" } as never }),
      RangeError,
      'Invalid mock Stag Hunt options: unknown field "colour" (allowed: "players", "threshold", "always", "seed")',
    );
  }
});

Deno.test('runEpisode() refuses a Stag Hunt policy of "" by the descriptor as the players do, whatever the path', async () => {
  for (const events of [false, true]) {
    await assertRejects(
      () => runEpisode({ game: "staghunt", seed: 1, events, agents: { players: "" } }),
      Error,
      'Unknown mock Stag Hunt policy ""',
    );
  }
});

/** A rule that records what it is shown (text, frozen parts, shared rounds) and plays the naive rule. */
function recordingRule(seen: string[]): BeliefRule {
  let lastPast: readonly object[] = [];
  return {
    id: "recording",
    estimate(h) {
      const frozen = h.past.map((r) => Object.isFrozen(r) && Object.isFrozen(r.reports[0]));
      const shared = h.past.map((r, i) => r === lastPast[i]);
      lastPast = h.past;
      seen.push(JSON.stringify({ h, frozen, shared, current: Object.isFrozen(h.current) }));
      // The lists are the rule's own: changing them changes nothing else.
      h.current.reverse();
      h.past.pop();
      const stag = h.current.filter((r) => r.action === "Stag").length;
      return h.current.length ? stag / h.current.length : undefined;
    },
  };
}

Deno.test("a user's belief rule is shown the same histories on both paths, and may change its own lists", async () => {
  for (let seed = 0; seed < 40; seed++) {
    const fields = { N: 4, M: 2, T: 3, F: 1, corruption: "b3" };
    const general_: string[] = [];
    const batched_: string[] = [];
    const g = await general(fields, seed, { seed, threshold: { rule: recordingRule(general_) } });
    const b = batched(fields, seed, { seed, threshold: { rule: recordingRule(batched_) } });
    assertSame(b, g, `seed ${seed}`);
    assertEquals(batched_, general_, `seed ${seed}`);
    assertEquals(general_.length, 12);
    // Later turns are shown the same frozen rounds as earlier ones.
    assert(general_.some((x) => x.includes('"shared":[true')), `seed ${seed}`);
    assert(general_.some((x) => x.includes('"frozen":[true')), `seed ${seed}`);
  }
});

Deno.test("a rule that changes a settled round fails on the general path, which the batched path leaves it to", async () => {
  const editing: BeliefRule = {
    id: "editing",
    estimate(h) {
      if (h.past.length > 0) (h.past[0] as { success: boolean }).success = true;
      return 0.5;
    },
  };
  const config = { N: 3, M: 2, T: 2, seed: 3, agents: { threshold: { rule: editing } } };
  const b = await runStagHuntEpisode({ ...config, events: false });
  const g = await runStagHuntEpisode(config);
  assertEquals(b.path, "general");
  assertEquals(b.outcome, g.outcome);
  assertEquals((b.tally.last as { status?: string }).status, "degraded");
  assert(
    g.events.some((e) => e.type === "agent_error" && /read only|read-only/.test(String(e.message))),
  );
});

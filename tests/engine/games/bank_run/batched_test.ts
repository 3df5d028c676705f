// The bank run's batched path against its general path (the oracle in
// _batched_sweep.ts): a few seeds of every regime, parameter set and mock
// population here, with the failures pinned; thousands of seeds in
// batched_long_test.ts, which CI runs.
import { assert, assertEquals, assertRejects } from "../../../_assert.ts";
import { type EpisodeConfig, runEpisode } from "../../../../engine/run_episode.ts";
import { bankRunGame } from "../../../../engine/games/bank_run/descriptor.ts";
import type { MechanismId } from "../../../../engine/frail/types.ts";
import { BATCHED, defaultSurvivals, flippedDraws, sweep } from "./_batched_sweep.ts";
import { makeTempDir } from "../../../_temp.ts";

// Seeds 0-1 of every case (480 episodes a mechanism, their events kept): failures in all, by kind.
const SWEPT: Record<MechanismId, { failed: number; liquidity: number; insolvency: number }> = {
  M0: { failed: 264, liquidity: 16, insolvency: 248 },
  M1: { failed: 189, liquidity: 15, insolvency: 174 },
  M2: { failed: 156, liquidity: 16, insolvency: 140 },
  M3: { failed: 127, liquidity: 15, insolvency: 112 },
};

// Survivals among seeds 0-199 of the default episode, and the episodes among
// seeds 0-199 whose one changed draw changes a decision.
const SURVIVALS: Record<MechanismId, number> = { M0: 41, M1: 200, M2: 200, M3: 200 };
const FLIPS: Record<MechanismId, number> = { M0: 29, M1: 25, M2: 15, M3: 15 };

for (const mechanism of BATCHED) {
  Deno.test(`bankRunBatched.play() gives the general path's outcome, tally and final state over 480 seeded ${mechanism} episodes of every case`, async () => {
    const { episodes, ...failures } = await sweep(mechanism, 2);
    assertEquals(episodes, 480);
    assertEquals(failures, SWEPT[mechanism]);
  });

  Deno.test(`bankRunBatched.play() gives the general path's outcome on 200 seeds of the default ${mechanism} episode`, async () => {
    assertEquals(await defaultSurvivals(mechanism, 200), SURVIVALS[mechanism]);
  });

  Deno.test(`the batched oracle fails on exactly the ${mechanism} episodes where one changed draw changes a decision`, async () => {
    assertEquals(await flippedDraws(mechanism, 200), FLIPS[mechanism]);
  });
}

Deno.test("runEpisode() plays M0-M3 with events: false on the batched path, with the outcome it has with events kept", async () => {
  for (let seed = 0; seed < 200; seed++) {
    for (const agents of [undefined, { depositors: "always_run" as const }]) {
      const mechanism = BATCHED[seed % BATCHED.length];
      const b = await runEpisode({ env: "bank_run", mechanism, seed, events: false, agents });
      const g = await runEpisode({ env: "bank_run", mechanism, seed, agents });
      assertEquals(b.path, "batched");
      assertEquals(g.path, "general");
      assertEquals(b.outcome, g.outcome);
      assertEquals(b.events, []);
      assertEquals(b.hashes, []);
      assertEquals(b.tally.reports, g.events.filter((e) => e.type === "report").length);
      assertEquals(b.tally.last, g.tally.last);
    }
  }
  // By game id too, and with the condition's regime and overrides.
  const b = await runEpisode({
    game: "bank_run",
    seed: 4,
    regime: "contraction",
    params: { capacityRule: "partial", horizon: 20 },
    events: false,
  });
  const g = await runEpisode({
    game: "bank_run",
    seed: 4,
    regime: "contraction",
    params: { capacityRule: "partial", horizon: 20 },
  });
  assertEquals([b.path, g.path], ["batched", "general"]);
  assertEquals(b.outcome, g.outcome);
});

Deno.test("runEpisode() plays on the general path what the batched path cannot take", async () => {
  const base = { env: "bank_run" as const, seed: 5, events: false };
  const cases: [string, EpisodeConfig][] = [
    ["events kept", { ...base, events: true }],
    ["hashes", { ...base, hashes: true }],
    ["log text", { ...base, ndjson: true }],
    ["a factory of mock agents", { ...base, agents: bankRunGame.mockAgents({ seed: 5 }) }],
    ["a user's agent", {
      ...base,
      agents: () => ({
        policy: "user",
        decide: () => ({ withdraw_probability: 10, reasoning: "mine" }),
      }),
    }],
    // A function naming no policy plays as it always has (the defensive rule).
    ["an unknown policy name", { ...base, agents: { depositors: (() => "nervous") as never } }],
  ];
  for (const [what, config] of cases) {
    const r = await runEpisode(config);
    assertEquals(r.path, "general", what);
  }
  const dir = await makeTempDir();
  try {
    const r = await runEpisode({ ...base, outDir: dir });
    assertEquals(r.path, "general");
    assert(r.logPath !== undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  // Other games have no batched path (the Stag Hunt has its own: staghunt/batched_test.ts).
  const s = await runEpisode({ game: "debt_rollover", seed: 5, events: false });
  assertEquals(s.path, "general");
  const h = await runEpisode({ game: "staghunt", N: 3, M: 2, T: 2, seed: 5, events: false });
  assertEquals(h.path, "batched");
});

Deno.test("runEpisode() refuses bad mock options with events: false as with events kept", async () => {
  for (const events of [false, true]) {
    await assertRejects(
      () =>
        runEpisode({
          env: "bank_run",
          seed: 1,
          events,
          agents: { depositors: "nervous" as never },
        }),
      RangeError,
      'Invalid mock options "depositors": expected one of "defensive", "always_stay", "always_run" (got "nervous")',
    );
  }
  // A policy function that throws fails the episode as it always has.
  const boom = () => {
    throw new Error("no policy");
  };
  for (const events of [false, true]) {
    await assertRejects(
      () => runEpisode({ env: "bank_run", seed: 1, events, agents: { depositors: boom } }),
      Error,
      "Episode failed in round 0, step setup: no policy",
    );
  }
});

Deno.test("a result's path is a getter that toJSON() leaves out", async () => {
  const r = await runEpisode({ env: "bank_run", seed: 1, events: false });
  assertEquals(r.path, "batched");
  const plain = JSON.parse(JSON.stringify(r));
  assert(!("path" in plain), "path is not in the JSON");
  assertEquals(plain.events, []);
  assertEquals(plain.outcome, JSON.parse(JSON.stringify(r.outcome)));
});

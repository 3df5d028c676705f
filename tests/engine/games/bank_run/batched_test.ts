import { assert, assertEquals, assertNotEquals, assertRejects } from "../../../_assert.ts";
import { type EpisodeConfig, runEpisode } from "../../../../engine/run_episode.ts";
import { type PlayedEpisode, playEpisode } from "../../../../engine/core/episode.ts";
import type { Environment } from "../../../../engine/core/environment.ts";
import { assertSame, tellsApart, withOneDrawFlipped } from "../_batched_oracle.ts";
import { openStream } from "../../../../engine/core/rng.ts";
import type { BatchedEpisode } from "../../../../engine/core/batched.ts";
import { bankRunGame } from "../../../../engine/games/bank_run/descriptor.ts";
import { bankRunBatched } from "../../../../engine/games/bank_run/batched.ts";
import type { RegimeId } from "../../../../engine/frail/params.ts";
import type { MechanismId } from "../../../../engine/frail/types.ts";

const REGIMES: RegimeId[] = ["stable", "expansion", "contraction"];

// The mechanisms the batched path plays: all four.
const BATCHED: MechanismId[] = ["M0", "M1", "M2", "M3"];

// Survivals among the 3,000 default episodes (seeds 0-2999) of each mechanism, on either path.
const DEFAULT_SUCCESSES: Partial<Record<MechanismId, number>> = {
  M0: 462,
  M1: 3000,
  M2: 3000,
  M3: 2998,
};

// Overrides the batched path takes: capacity rules, depositor counts, horizons, deposit splits.
const OVERRIDES: Record<string, unknown>[] = [
  {},
  { capacityRule: "partial" },
  { depositors: 7 },
  { depositors: 2, horizon: 30 },
  { depositors: 120, capacity: 20 },
  { horizon: 1 },
  { horizon: 40 },
  { depositSplit: "heterogeneous" },
  { capacity: 2.2, capacityRule: "partial", depositors: 40, depositSplit: "heterogeneous" },
  { initialCash: 0, capacity: 9 },
];

const mixed = (_id: string, i: number) =>
  (["defensive", "always_stay", "always_run"] as const)[i % 3];

// One defensive depositor among runners: committed under M1-M3, it sees a
// small committed share, so its report is often positive and overridden.
const lone = (_id: string, i: number) => (i === 0 ? "defensive" : "always_run");

// Every bank-run mock depositor policy, mixed populations, a trait seed of its own, the passive bank.
const POPULATIONS: Record<string, unknown>[] = [
  {},
  { depositors: "defensive" },
  { depositors: "always_stay" },
  { depositors: "always_run" },
  { depositors: mixed },
  { depositors: lone },
  { seed: 99 },
  { depositors: "defensive", bank: "passive" },
];

/** The general path: playEpisode's round loop with the game's mock agents, nothing kept. */
function general(
  mechanism: MechanismId,
  regime: RegimeId,
  params: Record<string, unknown>,
  seed: number,
  mock: Record<string, unknown>,
  options: { env?: Environment<unknown, unknown>; events?: boolean } = {},
): Promise<PlayedEpisode<unknown>> {
  const setup = bankRunGame.setup({ mechanism, regime, params });
  return playEpisode(options.env ?? bankRunGame.environment, {
    ...setup,
    seed,
    agents: bankRunGame.mockAgents(mock),
    events: options.events ?? false,
  });
}

function batched(
  mechanism: MechanismId,
  regime: RegimeId,
  params: Record<string, unknown>,
  seed: number,
  mock: Record<string, unknown>,
): BatchedEpisode<unknown> {
  const setup = bankRunGame.setup({ mechanism, regime, params });
  const played = bankRunBatched.play(setup, seed, mock);
  assert(played !== undefined, "the batched path takes the episode");
  return played;
}

/** Counts the mechanism and override events of an episode's log, by action. */
function countActions(events: readonly { type: string }[], counts: Record<string, number>): void {
  for (const e of events) {
    if (e.type !== "mechanism" && e.type !== "override") continue;
    const key = e.type === "override" ? "override" : String((e as { action?: unknown }).action);
    counts[key] = (counts[key] ?? 0) + 1;
  }
}

// What the logs of the sample's first two seeds hold under each mechanism, at least.
const ACTIONS: Partial<Record<MechanismId, Record<string, number>>> = {
  M0: {},
  M1: { offer: 1000, accept: 300, decline: 300, override: 30 },
  M2: {
    solicit: 300,
    sign: 300,
    decline: 300,
    exit_declared: 30,
    exit_effective: 30,
    override: 30,
  },
  M3: {
    join: 300,
    vote_proposed: 100,
    vote_cast: 300,
    vote_result: 100,
    exit_request: 5,
    exit_list_join: 30,
    exit_wave: 10,
    exit_confirmed: 2,
    override: 1,
  },
};

for (const mechanism of BATCHED) {
  Deno.test(`bankRunBatched.play() gives the general path's outcome, tally and final state over 9,600 seeded ${mechanism} episodes`, async () => {
    let failed = 0;
    let liquidity = 0;
    let insolvency = 0;
    let episodes = 0;
    const actions: Record<string, number> = {};
    for (const regime of REGIMES) {
      for (const params of OVERRIDES) {
        for (const pop of POPULATIONS) {
          for (let seed = 0; seed < 40; seed++) {
            const mock = { seed, ...pop };
            const g = await general(mechanism, regime, params, seed, mock);
            const b = batched(mechanism, regime, params, seed, mock);
            assertSame(
              b,
              g,
              `${regime} ${JSON.stringify(params)} ${JSON.stringify(pop)} seed ${seed}`,
            );
            episodes++;
            if (seed < 2) {
              const logged = await general(mechanism, regime, params, seed, mock, { events: true });
              countActions(logged.events, actions);
            }
            if (g.outcome.success) continue;
            failed++;
            if (g.outcome.failure === "liquidity") liquidity++;
            else if (g.outcome.failure === "insolvency") insolvency++;
          }
        }
      }
    }
    assertEquals(episodes, 9600);
    // The sample holds survivals and both kinds of failure.
    assert(failed > 1000 && failed < episodes - 1000, String(failed));
    assert(liquidity > 100 && insolvency > 100, `${liquidity} ${insolvency}`);
    // And the mechanism's business: commitments made, refused and left, reports overridden.
    for (const [action, least] of Object.entries(ACTIONS[mechanism]!)) {
      assert((actions[action] ?? 0) >= least, `${action}: ${JSON.stringify(actions)}`);
    }
  });

  Deno.test(`bankRunBatched.play() gives the general path's outcome on 3,000 seeds of the default ${mechanism} episode`, async () => {
    let successes = 0;
    for (let seed = 0; seed < 3000; seed++) {
      const g = await general(mechanism, "stable", {}, seed, { seed });
      assertSame(batched(mechanism, "stable", {}, seed, { seed }), g, `seed ${seed}`);
      if (g.outcome.success) successes++;
    }
    // About a fifth of defensive M0 episodes survive (mock.ts); more under a mechanism.
    assertEquals(successes, DEFAULT_SUCCESSES[mechanism]);
  });
}

/** The settlement's draw of dep_01 in round 1 replaced by 1 - u: one draw that differs. */
function perturbedEnv(): Environment<unknown, unknown> {
  return withOneDrawFlipped(bankRunGame.environment as Environment<unknown, unknown>, {
    step: "settlement",
    round: 1,
    agent: "dep_01",
    purpose: "withdraw",
  });
}

for (const mechanism of BATCHED) {
  Deno.test(`the batched oracle fails on exactly the ${mechanism} episodes where one changed draw changes a decision`, async () => {
    const env = perturbedEnv();
    let flips = 0;
    for (let seed = 0; seed < 600; seed++) {
      // Under M1-M3 dep_01 among runners, who commit nothing: uncommitted,
      // it reports above 0 in round 1 (with defensive neighbours it sees them commit and reports 0).
      const mock = mechanism === "M0" ? { seed } : { seed, depositors: lone };
      const g = await general(mechanism, "stable", {}, seed, mock);
      const p = await general(mechanism, "stable", {}, seed, mock, { env });
      const b = batched(mechanism, "stable", {}, seed, mock);
      assertSame(b, g, `seed ${seed}`);
      // Whether 1 - u decides dep_01's round-1 report otherwise than u: the
      // probability its decision used (after a commitment's override), from the log.
      const logged = await general(mechanism, "stable", {}, seed, mock, { events: true });
      const decision = logged.events.find((e) =>
        e.type === "decision" && e.round === 1 && e.agent === "dep_01"
      )!;
      const reported = (decision as unknown as { probability: number }).probability;
      const u = openStream({ seed, round: 1, agent: "dep_01", purpose: "withdraw" }).uniform();
      const flip = (u < reported) !== (1 - u < reported);
      assertEquals(tellsApart(b, p, `seed ${seed}`), flip, `seed ${seed}`);
      if (flip) {
        flips++;
        assertNotEquals(b.state, p.state);
      }
    }
    assert(flips > 20, String(flips));
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
  const dir = await Deno.makeTempDir();
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

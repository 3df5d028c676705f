// The bank run's batched-path oracle, as sweeps of seeded episodes that both
// the default test (batched_test.ts: a few seeds of every case) and the long
// one (batched_long_test.ts: thousands) run: the batched path against the
// general path, to the bit, over regimes, parameter sets and mock populations.
import { assert, assertEquals, assertNotEquals } from "../../../_assert.ts";
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

/** The mechanisms the batched path plays: all four. */
export const BATCHED: MechanismId[] = ["M0", "M1", "M2", "M3"];

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

/**
 * One defensive depositor among runners: committed under M1-M3, it sees a
 * small committed share, so its report is often positive and overridden.
 */
export const lone = (_id: string, i: number) => (i === 0 ? "defensive" : "always_run");

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
export function general(
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

/** The batched path, which must take the episode. */
export function batched(
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

/** What a sweep played: episodes, and failures by kind. */
export interface SweepCounts {
  episodes: number;
  failed: number;
  liquidity: number;
  insolvency: number;
}

/**
 * Every regime x parameter set x population for seeds 0 to `seeds - 1`: the
 * batched path equals the general path, and the logs of seeds 0 and 1 show
 * the mechanism's business (commitments made, refused and left, reports
 * overridden). Returns the failures, for the caller to pin.
 */
export async function sweep(mechanism: MechanismId, seeds: number): Promise<SweepCounts> {
  let failed = 0;
  let liquidity = 0;
  let insolvency = 0;
  let episodes = 0;
  const actions: Record<string, number> = {};
  for (const regime of REGIMES) {
    for (const params of OVERRIDES) {
      for (const pop of POPULATIONS) {
        for (let seed = 0; seed < seeds; seed++) {
          const mock = { seed, ...pop };
          // Seeds 0 and 1 keep their events (the outcome, tally and state are the same either way).
          const g = await general(mechanism, regime, params, seed, mock, { events: seed < 2 });
          const b = batched(mechanism, regime, params, seed, mock);
          assertSame(
            b,
            g,
            `${regime} ${JSON.stringify(params)} ${JSON.stringify(pop)} seed ${seed}`,
          );
          episodes++;
          if (seed < 2) countActions(g.events, actions);
          if (g.outcome.success) continue;
          failed++;
          if (g.outcome.failure === "liquidity") liquidity++;
          else if (g.outcome.failure === "insolvency") insolvency++;
        }
      }
    }
  }
  assertEquals(episodes, REGIMES.length * OVERRIDES.length * POPULATIONS.length * seeds);
  for (const [action, min] of Object.entries(ACTIONS[mechanism]!)) {
    assert((actions[action] ?? 0) >= min, `${action}: ${JSON.stringify(actions)}`);
  }
  return { episodes, failed, liquidity, insolvency };
}

/** The default episode on seeds 0 to `seeds - 1`, both paths: their survivals. */
export async function defaultSurvivals(mechanism: MechanismId, seeds: number): Promise<number> {
  let successes = 0;
  for (let seed = 0; seed < seeds; seed++) {
    const g = await general(mechanism, "stable", {}, seed, { seed });
    assertSame(batched(mechanism, "stable", {}, seed, { seed }), g, `seed ${seed}`);
    if (g.outcome.success) successes++;
  }
  return successes;
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

/**
 * A general path with dep_01's round-1 draw changed, on seeds 0 to `seeds -
 * 1`: the oracle tells it apart from the batched path on exactly the
 * episodes where the changed draw changes that decision. Returns how many.
 */
export async function flippedDraws(mechanism: MechanismId, seeds: number): Promise<number> {
  const env = perturbedEnv();
  let flips = 0;
  for (let seed = 0; seed < seeds; seed++) {
    // Under M1-M3 dep_01 among runners, who commit nothing: uncommitted,
    // it reports above 0 in round 1 (with defensive neighbours it sees them commit and reports 0).
    const mock = mechanism === "M0" ? { seed } : { seed, depositors: lone };
    // With its events: the outcome, tally and state are the same either way.
    const g = await general(mechanism, "stable", {}, seed, mock, { events: true });
    const p = await general(mechanism, "stable", {}, seed, mock, { env });
    const b = batched(mechanism, "stable", {}, seed, mock);
    assertSame(b, g, `seed ${seed}`);
    // Whether 1 - u decides dep_01's round-1 report otherwise than u: the
    // probability its decision used (after a commitment's override), from the log.
    const decision = g.events.find((e) =>
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
  return flips;
}

// A small hand-built set of FRAIL event logs whose tables and figures are
// computed by hand in the tests. Seven episodes, two models:
//
// bank_run (stable; funding 15; W_best 18.174825 so the bank's best payoff is
// 18.174825 - 15 * 1.114 = 1.464825):
//   E1 alpha M0 fails in round 2: cum. withdrawn 3, 9; W~ 0.1; bank 0
//   E2 alpha M0 succeeds (3 rounds): cum. withdrawn 1, 1, 2; W~ 0.9; bank 1.464825
//   E3 alpha M3 succeeds (3 rounds): committed 6, 9, 12; cum. 0, 0, 0.75; W~ 1.0; bank 1.464825
//   E4 beta  M0 succeeds (3 rounds): cum. withdrawn 0, 1.5, 3; W~ 0.5; bank 0.7324125
//   E5 beta  M3 fails in round 1: committed 1.5; cum. 6; W~ 0.2; bank 0
// crowdfunding (stable; W_best 22.802 so the founder's best is 22.802 * 0.05 / 1.2):
//   E6 alpha M0 launches in round 2: pool 6, 14; W~ 0.95; founder at best
//   E7 alpha M0 never launches (3 rounds): pool 4, 5, 5; W~ 0.7; founder 0

import type { EngineEvent } from "../../engine/core/events.ts";
import { loadRuns, type RunFrames } from "../../analysis/mod.ts";
import { tempDirRunner } from "./_temp_dir.ts";

interface DecisionSpec {
  agent: string;
  reported: number;
  committed?: boolean;
  realized?: boolean;
  amount?: number;
}

interface RoundSpec {
  metrics: Record<string, number>;
  decisions?: DecisionSpec[];
  mechanisms?: { action: string; agent: string; [key: string]: unknown }[];
}

interface EpisodeSpec {
  episode: string;
  env: "bank_run" | "crowdfunding";
  mechanism: string;
  model: string;
  rounds: RoundSpec[];
  success: boolean;
  realization: number;
  centralPayoff: number;
}

export const BANK_BEST = 18.174825;
export const BANK_CENTRAL_BEST = 18.174825 - 15 * 1.114;
export const CROWD_BEST = 22.802;
export const CROWD_CENTRAL_BEST = 22.802 * 0.05 / 1.2;

const two = (a: number, b: number, extra: Partial<DecisionSpec> = {}): DecisionSpec[] => [
  { agent: "dep_01", reported: a, ...extra },
  { agent: "dep_02", reported: b, ...extra },
];

export const EPISODES: EpisodeSpec[] = [
  {
    episode: "E1",
    env: "bank_run",
    mechanism: "M0",
    model: "alpha",
    rounds: [
      {
        metrics: { committed: 0, cumulative_withdrawn: 3, cash: 0 },
        decisions: [
          { agent: "dep_01", reported: 40, realized: true },
          { agent: "dep_02", reported: 20 },
        ],
      },
      {
        metrics: { committed: 0, cumulative_withdrawn: 9, cash: 0 },
        decisions: [
          { agent: "dep_01", reported: 100, amount: 0 },
          { agent: "dep_02", reported: 60, realized: true },
        ],
      },
    ],
    success: false,
    realization: 0.1,
    centralPayoff: 0,
  },
  {
    episode: "E2",
    env: "bank_run",
    mechanism: "M0",
    model: "alpha",
    rounds: [
      { metrics: { committed: 0, cumulative_withdrawn: 1 }, decisions: two(10, 30) },
      { metrics: { committed: 0, cumulative_withdrawn: 1 }, decisions: two(10, 10) },
      { metrics: { committed: 0, cumulative_withdrawn: 2 }, decisions: two(0, 20) },
    ],
    success: true,
    realization: 0.9,
    centralPayoff: BANK_CENTRAL_BEST,
  },
  {
    episode: "E3",
    env: "bank_run",
    mechanism: "M3",
    model: "alpha",
    rounds: [
      {
        metrics: { committed: 6, cumulative_withdrawn: 0 },
        decisions: [
          { agent: "dep_01", reported: 0, committed: true },
          { agent: "dep_02", reported: 50 },
        ],
        mechanisms: [{ action: "join", agent: "dep_01" }],
      },
      {
        metrics: { committed: 9, cumulative_withdrawn: 0 },
        decisions: [
          { agent: "dep_01", reported: 0, committed: true },
          { agent: "dep_02", reported: 30 },
        ],
      },
      {
        metrics: { committed: 12, cumulative_withdrawn: 0.75 },
        decisions: [
          { agent: "dep_01", reported: 0, committed: true },
          { agent: "dep_02", reported: 10 },
        ],
      },
    ],
    success: true,
    realization: 1,
    centralPayoff: BANK_CENTRAL_BEST,
  },
  {
    episode: "E4",
    env: "bank_run",
    mechanism: "M0",
    model: "beta",
    rounds: [
      { metrics: { committed: 0, cumulative_withdrawn: 0 }, decisions: two(20, 20) },
      { metrics: { committed: 0, cumulative_withdrawn: 1.5 }, decisions: two(20, 20) },
      { metrics: { committed: 0, cumulative_withdrawn: 3 }, decisions: two(20, 20) },
    ],
    success: true,
    realization: 0.5,
    centralPayoff: BANK_CENTRAL_BEST / 2,
  },
  {
    episode: "E5",
    env: "bank_run",
    mechanism: "M3",
    model: "beta",
    rounds: [
      {
        metrics: { committed: 1.5, cumulative_withdrawn: 6 },
        decisions: [{ agent: "dep_02", reported: 80, realized: true }],
        mechanisms: [{ action: "join", agent: "dep_01", target: "coalition", amount: 1.5 }],
      },
    ],
    success: false,
    realization: 0.2,
    centralPayoff: 0,
  },
  {
    episode: "E6",
    env: "crowdfunding",
    mechanism: "M0",
    model: "alpha",
    rounds: [
      { metrics: { committed: 0, pool: 6, launched: 0 } },
      { metrics: { committed: 0, pool: 14, launched: 1 } },
    ],
    success: true,
    realization: 0.95,
    centralPayoff: CROWD_CENTRAL_BEST,
  },
  {
    episode: "E7",
    env: "crowdfunding",
    mechanism: "M0",
    model: "alpha",
    rounds: [
      { metrics: { committed: 0, pool: 4, launched: 0 } },
      { metrics: { committed: 0, pool: 5, launched: 0 } },
      { metrics: { committed: 0, pool: 5, launched: 0 } },
    ],
    success: false,
    realization: 0.7,
    centralPayoff: 0,
  },
];

/** The events of one fixture episode, as the engine would log them. */
export function episodeEvents(spec: EpisodeSpec, run = "hand"): EngineEvent[] {
  const central = spec.env === "bank_run" ? "bank" : "founder";
  const participantRole = spec.env === "bank_run" ? "depositor" : "investor";
  const params = spec.env === "bank_run"
    ? { depositors: 2, totalDeposits: 15, depositYield: 1.114 }
    : { investors: 15, goal: 14, reward: 1.15, founderMargin: 0.05 };
  const best = spec.env === "bank_run" ? BANK_BEST : CROWD_BEST;
  const bounds = { worst: 10, best };
  const events: EngineEvent[] = [];
  let seq = 0;
  const base = (round: number, step: string) => ({
    schema: 2,
    run,
    episode: spec.episode,
    round,
    step,
    seq: seq++,
    time: "2026-01-01T00:00:00.000Z",
  });
  const bank = spec.env === "bank_run";
  events.push({
    ...base(0, "setup"),
    type: "episode_start",
    game: "frail",
    env: spec.env,
    condition: {
      env: spec.env,
      mechanism: spec.mechanism,
      regime: "stable",
      overrides: {},
      overrides_id: "none",
    },
    condition_id: `${spec.env}_${spec.mechanism}_stable`,
    seed: Number(spec.episode.slice(1)),
    params,
    derived: {
      bounds,
      funding: 15,
      central_best: bank ? BANK_CENTRAL_BEST : CROWD_CENTRAL_BEST,
      reference: bank
        ? { axis: "y", metric: "cumulative_withdrawn", label: "insolvency boundary", value: 8.48 }
        : { axis: "y", metric: "pool", label: "goal", value: 14 },
    },
    central_role: central,
    central_id: central,
    agents: [
      { id: central, role: central, policy: spec.model },
      { id: "dep_01", role: participantRole, policy: spec.model },
      { id: "dep_02", role: participantRole, policy: spec.model },
    ],
    model: spec.model,
    bounds,
    toolkit: "fixture",
  });
  spec.rounds.forEach((round, index) => {
    const r = index + 1;
    events.push({ ...base(r, "start"), type: "round_start" });
    for (const m of round.mechanisms ?? []) {
      events.push({ ...base(r, "mechanism"), type: "mechanism", ...m });
    }
    for (const d of round.decisions ?? []) {
      events.push({
        ...base(r, "financial"),
        type: "report",
        agent: d.agent,
        role: participantRole,
        call: "withdrawal",
        report: { withdraw_probability: d.reported },
      });
    }
    for (const d of round.decisions ?? []) {
      events.push({
        ...base(r, "settlement"),
        type: "decision",
        agent: d.agent,
        call: "withdrawal",
        action: "withdraw",
        alternative: "stay",
        reported: d.reported,
        probability: d.reported / 100,
        draw: 0.5,
        realized: d.realized ?? false,
        committed: d.committed ?? false,
        amount: d.amount ?? 1,
      });
    }
    events.push({
      ...base(r, "disclosure"),
      type: "disclosure",
      public: {},
      metrics: round.metrics,
    });
    events.push({
      ...base(r, "checkpoint"),
      type: "checkpoint",
      state: { round: r, big: "x".repeat(50) },
      state_hash: "h",
      events_hash: "h",
    });
  });
  const payoffs: Record<string, number> = { dep_01: 1, dep_02: 1, [central]: spec.centralPayoff };
  events.push({
    ...base(spec.rounds.length, "end"),
    type: "episode_end",
    status: "ok",
    outcome: {
      success: spec.success,
      failure: spec.success ? null : "insolvency",
      rounds: spec.rounds.length,
      payoffs,
      welfare: 2 + spec.centralPayoff,
      welfareRealization: spec.realization,
      bounds,
    },
  });
  return events;
}

/** NDJSON text of events. */
export function ndjson(events: readonly unknown[]): string {
  return events.map((event) => JSON.stringify(event)).join("\n") + "\n";
}

/** Writes the fixture under `<dir>/hand/<episode>.ndjson` and returns `dir`. */
export async function writeFixture(dir: string): Promise<string> {
  await Deno.mkdir(`${dir}/hand`, { recursive: true });
  for (const spec of EPISODES) {
    await Deno.writeTextFile(`${dir}/hand/${spec.episode}.ndjson`, ndjson(episodeEvents(spec)));
  }
  return dir;
}

/** Loads the fixture's frames (written to a temporary folder `<prefix>...`, removed after). */
export async function loadFixture(prefix: string): Promise<RunFrames> {
  let frames: RunFrames | undefined;
  await tempDirRunner(prefix)(async (dir) => {
    frames = await loadRuns(await writeFixture(dir));
  });
  return frames!;
}

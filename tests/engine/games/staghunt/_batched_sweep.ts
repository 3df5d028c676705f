// Test helper: the Stag Hunt's batched oracle swept over every mock player
// option and condition (batched_test.ts a few seeds of each,
// batched_long_test.ts 120).
import { assert } from "../../../_assert.ts";
import { type PlayedEpisode, playEpisode } from "../../../../engine/core/episode.ts";
import type { Environment } from "../../../../engine/core/environment.ts";
import { assertSame } from "../_batched_oracle.ts";
import type { BatchedEpisode } from "../../../../engine/core/batched.ts";
import { stagHuntGame } from "../../../../engine/games/staghunt/descriptor.ts";
import { stagHuntBatched } from "../../../../engine/games/staghunt/batched.ts";
import type { BeliefRule } from "../../../../engine/games/staghunt/beliefs/rule.ts";
import type { StagHuntState } from "../../../../engine/games/staghunt/state.ts";

/** Fields of a setup or of mock player options. */
export type Fields = Record<string, unknown>;

// A rule object of a user's: the share of Stag over every public report seen so far.
const allReports: BeliefRule = {
  id: "all_reports",
  estimate(h) {
    let stag = 0;
    let n = 0;
    for (const r of [...h.past.flatMap((x) => x.reports), ...h.current]) {
      n++;
      if (r.action === "Stag") stag++;
    }
    return n === 0 ? undefined : stag / n;
  },
};

const mixed = (i: number) => (["threshold", "always_stag", "always_hare"] as const)[i % 3];

// Every mock player option the descriptor's mockAgents takes.
const MOCKS: Fields[] = [
  {},
  { players: "always_stag" },
  { players: "always_hare", confidence: 0.25 },
  { players: mixed },
  { rule: "carryover", noise: 0.1 },
  { rule: "outcome_alignment", noise: 0.3, firstSpeakerPrior: 0.2 },
  { rule: { carryover: { lambda: 0.8, tau: 3 } }, hare: "HS" },
  { hare: "expected", firstSpeakerPrior: 1 },
  { threshold: { rule: allReports, noise: 0.25, seed: 11 }, always: { confidence: 0.6 } },
  { players: mixed, threshold: { noise: 0.5 } },
  { seed: 99, noise: 0.2 },
];

// Conditions: N, M, T, F, every corruption mode, other payoffs (fractional too), heterogeneity.
const CONDITIONS: Fields[] = [
  { N: 5, M: 3, T: 4, F: 2 },
  { N: 5, M: 3, T: 4, F: 2, corruption: "b3" },
  { N: 5, M: 3, T: 4, F: 2, corruption: "communication_only" },
  { N: 1, M: 1, T: 3, F: 1 },
  { N: 2, M: 2, T: 1, F: 0 },
  { N: 3, M: 2, T: 6, F: 1, corruption: "b3", heterogeneity: "h3" },
  { N: 8, M: 5, T: 3, F: 3, payoffs: { RS: 5.5, HS: 1.25, RF: -0.75, HF: 2.1 } },
  { N: 4, M: 1, T: 2, F: 4, corruption: "communication_only", heterogeneity: "h2" },
  { N: 6, M: 6, T: 5, F: 2, payoffs: [7, 0.5, 0.1, 3.3], corruption: "b3" },
];

/** The general path: playEpisode's round loop with the game's mock players, nothing kept. */
export function general(
  fields: Fields,
  seed: number,
  mock: Fields,
  env: Environment<unknown, unknown> = stagHuntGame.environment,
): Promise<PlayedEpisode<unknown>> {
  const setup = stagHuntGame.setup(fields);
  const agents = stagHuntGame.mockAgents(mock);
  return playEpisode(env, { ...setup, seed, agents, events: false });
}

/** The batched path's episode (which must take it). */
export function batched(fields: Fields, seed: number, mock: Fields): BatchedEpisode<unknown> {
  const played = stagHuntBatched.play(stagHuntGame.setup(fields), seed, mock);
  assert(played !== undefined, "the batched path takes the episode");
  return played;
}

/** What {@link sweep} played: its episodes, their successes and the turns whose public action changed. */
export interface Swept {
  episodes: number;
  successes: number;
  rejustified: number;
}

/**
 * Plays seeds 0 to `seeds - 1` of every condition and mock player option on
 * both paths and asserts that they agree on each episode.
 */
export async function sweep(seeds: number): Promise<Swept> {
  let episodes = 0;
  let successes = 0;
  let rejustified = 0;
  for (const fields of CONDITIONS) {
    for (const pop of MOCKS) {
      for (let seed = 0; seed < seeds; seed++) {
        const mock = { seed, ...pop };
        const g = await general(fields, seed, mock);
        const b = batched(fields, seed, mock);
        assertSame(b, g, `${JSON.stringify(fields)} ${JSON.stringify(pop)} seed ${seed}`);
        episodes++;
        if (g.outcome.success) successes++;
        const s = g.state as StagHuntState;
        rejustified += s.rounds.flatMap((r) =>
          r.turns
        ).filter((t) => t.publicAction !== t.originalAction).length;
      }
    }
  }
  return { episodes, successes, rejustified };
}

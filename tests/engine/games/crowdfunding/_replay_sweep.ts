// The crowdfunding replay sweep, sampled in replay_test.ts and run in full in
// replay_long_test.ts (the long group), and the mock episodes both use.
import { assert, assertAlmostEquals, assertEquals } from "../../../_assert.ts";
import { crowdfundingMockPopulation } from "../../../../engine/games/crowdfunding/mock.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { replayWith } from "../../../../engine/core/replay.ts";
import { crowdfunding } from "../../../../engine/games/crowdfunding/environment.ts";
import { CROWDFUNDING_REGIMES } from "../../../../engine/games/crowdfunding/params.ts";
import {
  accountingGap,
  type CrowdfundingState,
} from "../../../../engine/games/crowdfunding/state.ts";
import { type RegimeId, REGIMES } from "../../../../engine/frail/params.ts";
import { MECHANISMS } from "../../../../engine/frail/types.ts";
import { playFixed } from "../../frail/_scripted.ts";

/** One crowdfunding episode of mock agents in a regime, with a fixed clock. */
export function run(
  options: {
    mechanism: string;
    regime: RegimeId;
    seed: number;
    backers?: "hesitant" | "always_pledge" | "never_pledge";
    hashes?: boolean;
  },
) {
  return playFixed(crowdfunding, {
    params: crowdfunding.parseParams(CROWDFUNDING_REGIMES[options.regime]),
    agents: crowdfundingMockPopulation({ seed: options.seed, backers: options.backers }),
    mechanism: options.mechanism,
    regime: options.regime,
    seed: options.seed,
    hashes: options.hashes,
  });
}

/** W = starting balances + every interest credit + (v + m - 1) x the launched pool, read off the log. */
function assertAccountingCloses(events: readonly EngineEvent[]) {
  const start = events[0] as Extract<EngineEvent, { type: "episode_start" }>;
  const p = start.params as { backers: number; unitPledge: number; reward: number; margin: number };
  let interest = 0;
  let launched = 0;
  for (const e of events) {
    if (e.type === "checkpoint" && e.state !== undefined) {
      assertAlmostEquals(accountingGap(e.state as CrowdfundingState), 0, 1e-9, `round ${e.round}`);
    }
    if (e.type !== "transition") continue;
    if (e.kind === "interest" || e.kind === "interest_to_horizon") interest += e.total as number;
    if (e.kind === "launch") launched += e.pool as number;
  }
  const end = events.at(-1) as Extract<EngineEvent, { type: "episode_end" }>;
  const expected = p.backers * p.unitPledge + interest + (p.reward + p.margin - 1) * launched;
  assertAlmostEquals(end.outcome!.welfare, expected, 1e-9, "accounting closes");
  const { worst, best } = end.outcome!.bounds;
  assert(
    end.outcome!.welfare >= worst - 1e-9 && end.outcome!.welfare <= best + 1e-9,
    "W within bounds",
  );
}

/**
 * Plays and replays the episodes of seeds [0, count): mechanisms and regimes
 * cycle with the seed, and blocks of 24 seeds alternate between hashed and
 * unhashed results.
 */
export async function replaySweep(count: number): Promise<void> {
  let launches = 0;
  for (let seed = 0; seed < count; seed++) {
    const hashes = Math.floor(seed / 24) % 2 === 0;
    const r = await run({
      mechanism: MECHANISMS[seed % 4],
      regime: REGIMES[Math.floor(seed / 4) % 3],
      seed,
      hashes,
    });
    const check = await replayWith(crowdfunding, r.events);
    assert(check.ok, `seed ${seed}: ${JSON.stringify(check.mismatch)}`);
    assertEquals(check.hashes.length, r.outcome.rounds);
    if (hashes) assertEquals(check.hashes, r.hashes);
    assertAccountingCloses(r.events);
    launches += r.outcome.success ? 1 : 0;
  }
  assert(launches > 0 && launches < count, `mix of outcomes, got ${launches}`);
}

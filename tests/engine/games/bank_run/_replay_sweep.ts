// The bank-run replay sweep, sampled in replay_test.ts and run in full in
// replay_long_test.ts (the long group).
import { assert, assertAlmostEquals, assertEquals } from "../../../_assert.ts";
import { replayEpisode, runEpisode } from "../../../../engine/run_episode.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { MECHANISMS } from "../../../../engine/frail/types.ts";

/** W must equal initial cash plus what the assets realized (sold early at h, or at maturity at R). */
function assertAccountingCloses(events: EngineEvent[]) {
  const start = events[0] as Extract<EngineEvent, { type: "episode_start" }>;
  const p = start.params as {
    initialCash: number;
    earlySalePrice: number;
    assetReturn: number;
    longTermAssets: number;
  };
  let sold = 0;
  let matured = 0;
  for (const e of events) {
    if (e.type !== "transition") continue;
    if (e.kind === "withdrawal_paid" || e.kind === "liquidation") sold += e.units_sold as number;
    if (e.kind === "maturity") matured += e.units as number;
  }
  assertAlmostEquals(sold + matured, p.longTermAssets, 1e-9, "every asset unit is sold or matures");
  const end = events.at(-1) as Extract<EngineEvent, { type: "episode_end" }>;
  const realized = p.initialCash + p.earlySalePrice * sold + p.assetReturn * matured;
  assertAlmostEquals(end.outcome!.welfare, realized, 1e-9, "accounting closes");
}

/**
 * Plays and replays the episodes of seeds [0, count): mechanisms, regimes and
 * deposit splits cycle with the seed (every combination in each 24 seeds),
 * and blocks of 24 seeds alternate between hashed logs (replayed against their
 * recorded hashes) and unhashed in-memory results (replayed on events only).
 */
export async function replaySweep(count: number): Promise<void> {
  let successes = 0;
  for (let seed = 0; seed < count; seed++) {
    const mechanism = MECHANISMS[seed % 4];
    const hashes = Math.floor(seed / 24) % 2 === 0;
    const r = await runEpisode({
      env: "bank_run",
      mechanism,
      regime: (["expansion", "stable", "contraction"] as const)[Math.floor(seed / 4) % 3],
      seed,
      params: { depositSplit: seed % 8 < 4 ? "equal" : "heterogeneous" },
      clock: () => "t",
      hashes,
    });
    const check = await replayEpisode(r.events);
    assert(check.ok, `seed ${seed}: ${JSON.stringify(check.mismatch)}`);
    assertEquals(check.hashes.length, r.outcome.rounds);
    if (hashes) assertEquals(check.hashes, r.hashes);
    assertAccountingCloses(r.events);
    successes += r.outcome.success ? 1 : 0;
  }
  assert(successes > 0 && successes < count, `mix of outcomes, got ${successes}`);
}

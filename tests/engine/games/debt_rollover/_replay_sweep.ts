// The debt-rollover replay sweep, sampled in replay_test.ts and run in full in
// replay_long_test.ts (the long group).
import { assert, assertEquals } from "../../../_assert.ts";
import { debtRolloverMockPopulation } from "../../../../engine/games/debt_rollover/mock.ts";
import { replayWith } from "../../../../engine/core/replay.ts";
import { debtRollover } from "../../../../engine/games/debt_rollover/environment.ts";
import { REGIMES } from "../../../../engine/frail/params.ts";
import { MECHANISMS } from "../../../../engine/frail/types.ts";
import { assertAccountingCloses, play } from "./_helpers.ts";

/**
 * Plays and replays the episodes of seeds [0, count): mechanisms and regimes
 * cycle with the seed, every fifth borrower is passive, and blocks of 24 seeds
 * alternate between hashed and unhashed results.
 */
export async function replaySweep(count: number): Promise<void> {
  const cells = new Map<string, { n: number; ok: number }>();
  for (let seed = 0; seed < count; seed++) {
    const mechanism = MECHANISMS[seed % 4];
    const regime = REGIMES[Math.floor(seed / 4) % 3];
    const hashes = Math.floor(seed / 24) % 2 === 0;
    const played = await play(
      debtRolloverMockPopulation({ seed, borrower: seed % 5 === 4 ? "passive" : "active" }),
      { mechanism, regime, seed, hashes },
    );
    const check = await replayWith(debtRollover, played.events);
    assert(check.ok, `seed ${seed}: ${JSON.stringify(check.mismatch)}`);
    assertEquals(check.hashes.length, played.outcome.rounds);
    if (hashes) assertEquals(check.hashes, played.hashes);
    assertAccountingCloses(played);
    const cell = cells.get(`${mechanism}/${regime}`) ?? { n: 0, ok: 0 };
    cell.n++;
    cell.ok += played.outcome.success ? 1 : 0;
    cells.set(`${mechanism}/${regime}`, cell);
  }
  assertEquals(cells.size, 12);
  for (const [key, { n }] of cells) assert(n >= Math.floor(count / 12), `${key} has ${n} episodes`);
  const total = [...cells.values()].reduce((a, c) => a + c.ok, 0);
  assert(total > 0 && total < count, `a mix of outcomes, got ${total} successes`);
}

import { assert, assertEquals } from "../../../_assert.ts";
import { debtRolloverMockPopulation } from "../../../../engine/agents/mock/debt_rollover.ts";
import { replayWith } from "../../../../engine/core/replay.ts";
import { debtRollover } from "../../../../engine/frail/debt_rollover/environment.ts";
import { REGIMES } from "../../../../engine/frail/params.ts";
import { MECHANISMS } from "../../../../engine/frail/types.ts";
import { withFlippedDecision } from "../_scripted.ts";
import { assertAccountingCloses, play } from "./_helpers.ts";

Deno.test("1,000 seeded mock episodes across M0-M3 and the three regimes replay to identical hashes and close their accounts", async () => {
  const cells = new Map<string, { n: number; ok: number }>();
  for (let seed = 0; seed < 1000; seed++) {
    const mechanism = MECHANISMS[seed % 4];
    const regime = REGIMES[Math.floor(seed / 4) % 3];
    const played = await play(
      debtRolloverMockPopulation({ seed, borrower: seed % 5 === 4 ? "passive" : "active" }),
      { mechanism, regime, seed },
    );
    const check = await replayWith(debtRollover, played.events);
    assert(check.ok, `seed ${seed}: ${JSON.stringify(check.mismatch)}`);
    assertEquals(check.hashes, played.hashes);
    assertAccountingCloses(played);
    const cell = cells.get(`${mechanism}/${regime}`) ?? { n: 0, ok: 0 };
    cell.n++;
    cell.ok += played.outcome.success ? 1 : 0;
    cells.set(`${mechanism}/${regime}`, cell);
  }
  assertEquals(cells.size, 12);
  for (const [key, { n }] of cells) assert(n >= 83, `${key} has ${n} episodes`);
  const total = [...cells.values()].reduce((a, c) => a + c.ok, 0);
  assert(total > 0 && total < 1000, `a mix of outcomes, got ${total} successes`);
});

Deno.test("replayWith() names the round and field of a tampered redeem decision", async () => {
  const played = await play(debtRolloverMockPopulation({ seed: 3 }), { seed: 3 });
  const check = await replayWith(debtRollover, withFlippedDecision(played.events, 1));
  assertEquals(check.ok, false);
  assertEquals(check.mismatch!.round, 1);
  assertEquals(check.mismatch!.kind, "events");
  assert(check.mismatch!.field.endsWith(".realized"), check.mismatch!.field);
});

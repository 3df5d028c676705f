import { assert, assertEquals } from "../../../_assert.ts";
import { debtRolloverMockPopulation } from "../../../../engine/games/debt_rollover/mock.ts";
import { replayWith } from "../../../../engine/core/replay.ts";
import { debtRollover } from "../../../../engine/games/debt_rollover/environment.ts";
import { withFlippedDecision } from "../../frail/_scripted.ts";
import { play } from "./_helpers.ts";
import { replaySweep } from "./_replay_sweep.ts";

Deno.test("48 seeded mock episodes across M0-M3 and the three regimes replay, hashed or not, and close their accounts", async () => {
  await replaySweep(48);
});

Deno.test("replayWith() names the round and field of a tampered redeem decision", async () => {
  const played = await play(debtRolloverMockPopulation({ seed: 3 }), { seed: 3 });
  const check = await replayWith(debtRollover, withFlippedDecision(played.events, 1));
  assertEquals(check.ok, false);
  assertEquals(check.mismatch!.round, 1);
  assertEquals(check.mismatch!.kind, "events");
  assert(check.mismatch!.field.endsWith(".realized"), check.mismatch!.field);
});

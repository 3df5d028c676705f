import { assert, assertAlmostEquals, assertEquals } from "../../../_assert.ts";
import { replayWith } from "../../../../engine/core/replay.ts";
import { crowdfunding } from "../../../../engine/games/crowdfunding/environment.ts";
import { MECHANISMS } from "../../../../engine/frail/types.ts";
import { withFlippedDecision } from "../../frail/_scripted.ts";
import { replaySweep, run } from "./_replay_sweep.ts";

Deno.test("48 seeded mock episodes across M0-M3 and the three regimes replay, hashed or not, and close their accounts", async () => {
  await replaySweep(48);
});

Deno.test("hesitant mock backers launch 74/100 stable episodes under M0 and all under M1-M3", async () => {
  const rates: Record<string, number> = {};
  const rounds: Record<string, number> = {};
  for (const mechanism of MECHANISMS) {
    let launched = 0;
    let sum = 0;
    for (let seed = 0; seed < 100; seed++) {
      const r = await run({ mechanism, regime: "stable", seed });
      if (r.outcome.success) {
        launched++;
        sum += r.outcome.rounds;
      }
    }
    rates[mechanism] = launched;
    rounds[mechanism] = Number((sum / launched).toFixed(2));
  }
  assertEquals(rates, { M0: 74, M1: 100, M2: 100, M3: 100 });
  assertEquals(rounds, { M0: 4.16, M1: 2.12, M2: 1.67, M3: 1.34 });
});

Deno.test("always-pledge mock backers reach W_best and never-pledge ones keep every unit in the bank", async () => {
  for (const mechanism of MECHANISMS) {
    const all = await run({ mechanism, regime: "stable", seed: 3, backers: "always_pledge" });
    assertEquals(all.outcome.rounds, 1);
    assertAlmostEquals(all.outcome.welfare, all.outcome.bounds.best, 1e-9);
    const none = await run({ mechanism, regime: "stable", seed: 3, backers: "never_pledge" });
    assertEquals(none.outcome.failure, "no_launch");
    assertAlmostEquals(none.outcome.welfare, 15 * 1.03 ** 10, 1e-9);
    assertEquals(
      none.events.filter((e) => e.type === "report" && e.call === "launch_decision").length,
      0,
    );
  }
});

Deno.test("replayWith() names the round and field of a tampered pledge draw", async () => {
  const r = await run({ mechanism: "M0", regime: "stable", seed: 2 });
  const check = await replayWith(crowdfunding, withFlippedDecision(r.events, 2));
  assertEquals(check.ok, false);
  assertEquals(check.mismatch!.round, 2);
  assertEquals(check.mismatch!.kind, "events");
  assert(check.mismatch!.field.endsWith(".realized"), check.mismatch!.field);
});

import { assert, assertAlmostEquals, assertEquals } from "../../../_assert.ts";
import { crowdfundingMockPopulation } from "../../../../engine/agents/mock/crowdfunding.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { replayWith } from "../../../../engine/core/replay.ts";
import { crowdfunding } from "../../../../engine/frail/crowdfunding/environment.ts";
import { CROWDFUNDING_REGIMES } from "../../../../engine/frail/crowdfunding/params.ts";
import {
  accountingGap,
  type CrowdfundingState,
} from "../../../../engine/frail/crowdfunding/state.ts";
import { type RegimeId, REGIMES } from "../../../../engine/frail/params.ts";
import { MECHANISMS } from "../../../../engine/frail/types.ts";
import { playFixed, withFlippedDecision } from "../_scripted.ts";

function run(
  options: {
    mechanism: string;
    regime: RegimeId;
    seed: number;
    backers?: "hesitant" | "always_pledge" | "never_pledge";
  },
) {
  return playFixed(crowdfunding, {
    params: crowdfunding.parseParams(CROWDFUNDING_REGIMES[options.regime]),
    agents: crowdfundingMockPopulation({ seed: options.seed, backers: options.backers }),
    mechanism: options.mechanism,
    regime: options.regime,
    seed: options.seed,
  });
}

/** W = starting balances + every interest credit + (v + m - 1) x the launched pool, read off the log. */
function assertAccountingCloses(events: readonly EngineEvent[]) {
  const start = events[0] as Extract<EngineEvent, { type: "episode_start" }>;
  const p = start.params as { backers: number; unitPledge: number; reward: number; margin: number };
  let interest = 0;
  let launched = 0;
  for (const e of events) {
    if (e.type === "checkpoint") {
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

Deno.test("1,000 seeded mock episodes across M0-M3 and the three regimes replay to identical hashes and close their accounts", async () => {
  let launches = 0;
  for (let seed = 0; seed < 1000; seed++) {
    const r = await run({
      mechanism: MECHANISMS[seed % 4],
      regime: REGIMES[Math.floor(seed / 4) % 3],
      seed,
    });
    const check = await replayWith(crowdfunding, r.events);
    assert(check.ok, `seed ${seed}: ${JSON.stringify(check.mismatch)}`);
    assertEquals(check.hashes, r.hashes);
    assertAccountingCloses(r.events);
    launches += r.outcome.success ? 1 : 0;
  }
  assert(launches > 0 && launches < 1000, `mix of outcomes, got ${launches}`);
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

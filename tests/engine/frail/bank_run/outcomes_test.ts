import { assert, assertAlmostEquals, assertEquals } from "../../../_assert.ts";
import { runEpisode } from "../../../../engine/run_episode.ts";
import { welfareBounds } from "../../../../engine/frail/registry.ts";
import { insolvencyBoundary } from "../../../../engine/frail/bank_run/settlement.ts";
import { parseBankRunParams } from "../../../../engine/frail/bank_run/params.ts";
import { settleWithdrawals } from "../../../../engine/frail/bank_run/settlement.ts";
import { initialBankRunState } from "../../../../engine/frail/bank_run/state.ts";
import { openStream } from "../../../../engine/core/rng.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { idx, scripted } from "./_agents.ts";

const of = <T extends EngineEvent["type"]>(events: EngineEvent[], type: T) =>
  events.filter((e) => e.type === type) as Extract<EngineEvent, { type: T }>[];

Deno.test("welfareBounds() gives the paper's stable bank-run bounds 13.939 and 18.175", () => {
  const b = welfareBounds("bank_run", "stable");
  assertEquals(b.worst.toFixed(3), "13.939");
  assertEquals(b.best.toFixed(3), "18.175");
});

Deno.test("welfareBounds() follows Table 5 in the expansion and contraction regimes", () => {
  // worst = L0 + h A0, best = L0 + R A0 with A0 = 15.075.
  const e = welfareBounds("bank_run", "expansion");
  assertAlmostEquals(e.worst, 1.5 + 0.85 * 15.075);
  assertAlmostEquals(e.best, 1.5 + 1.18 * 15.075);
  const c = welfareBounds("bank_run", "contraction");
  assertAlmostEquals(c.worst, 12.43125);
  assertAlmostEquals(c.best, 17.406);
});

Deno.test("runEpisode() with every depositor staying gives W = W_best and W~ = 1", async () => {
  for (const mechanism of ["M0", "M1", "M2", "M3"] as const) {
    const r = await runEpisode({
      env: "bank_run",
      mechanism,
      seed: 11,
      agents: { depositors: "always_stay", bank: "passive" },
      hashes: true,
    });
    assert(r.outcome.success, mechanism);
    assertAlmostEquals(r.outcome.welfare, 18.174825, 1e-12);
    assertEquals(r.outcome.welfareRealization, 1);
    assertAlmostEquals(r.outcome.payoffs.dep_01, 1.114, 1e-12);
    assertAlmostEquals(r.outcome.payoffs.bank, 18.174825 - 16.71, 1e-12);
    assertEquals(r.hashes.length, 12);
  }
});

Deno.test("runEpisode() with an immediate full run gives W = W_worst", async () => {
  const r = await runEpisode({ env: "bank_run", seed: 2, agents: { depositors: "always_run" } });
  assertEquals(r.outcome.success, false);
  assertEquals(r.outcome.failure, "insolvency");
  // 3.75 paid in each of rounds 1 and 2 (7.5 < 8.48), 11.25 after round 3 (> 8.48).
  assertEquals(r.outcome.rounds, 3);
  assertAlmostEquals(r.outcome.welfare, 1.125 + 0.85 * 15.075, 1e-12);
  assertAlmostEquals(r.outcome.welfareRealization, 0, 1e-12);
  assertEquals(r.outcome.payoffs.bank, 0);
});

Deno.test("insolvencyBoundary() is 8.48 units in the stable regime", () => {
  const w = insolvencyBoundary(parseBankRunParams({}));
  assertEquals(w.toFixed(2), "8.48");
  assertAlmostEquals(
    w,
    (1.131 * 15.075 + (1.131 * 1.125) / 0.85 - 1.114 * 15) / (1.131 / 0.85 - 1.114),
  );
});

function settleOne(amount: number) {
  // One depositor holding `amount` withdraws it all in round 1, with no capacity limit.
  const params = parseBankRunParams({ depositors: 2, capacity: 20 });
  const s = initialBankRunState(
    params,
    "M0",
    openStream({ seed: 0, round: 0, agent: "engine", purpose: "x" }),
  );
  s.depositors[0].balance = s.depositors[0].initial = amount;
  s.depositors[1].balance = s.depositors[1].initial = 15 - amount;
  s.round = 1;
  s.pending = [{ agent: "dep_01", reported: 100, original: 100, committed: false }];
  settleWithdrawals(s, {
    round: 1,
    stream: (agent, purpose) => openStream({ seed: 0, round: 1, agent, purpose }),
  });
  return s;
}

Deno.test("settleWithdrawals() fails at 8.49 units withdrawn and survives at 8.47", () => {
  assertEquals(settleOne(8.47).failure, null);
  assertEquals(settleOne(8.49).failure, { kind: "insolvency", round: 1 });
});

Deno.test("the bank fails once cumulative withdrawals pass 8.48 units and survives just below", async () => {
  for (const [k, fails] of [[8, false], [9, true]] as const) {
    const r = await runEpisode({
      env: "bank_run",
      seed: 4,
      params: { capacity: 20 },
      agents: scripted((req) =>
        req.call === "withdrawal" && idx(req.agent) <= k ? { withdraw_probability: 100 } : undefined
      ),
    });
    assertEquals(r.outcome.success, !fails, `${k} withdrawals`);
    if (fails) {
      assertEquals(r.outcome.failure, "insolvency");
      assertEquals(r.outcome.rounds, 1);
    }
  }
});

Deno.test("withdrawal requests beyond capacity expire and the depositor keeps the rest", async () => {
  const r = await runEpisode({
    env: "bank_run",
    seed: 8,
    agents: scripted((req) =>
      req.call === "withdrawal" && idx(req.agent) <= 5 ? { withdraw_probability: 100 } : undefined
    ),
  });
  const round1 = r.events.filter((e) => e.round === 1);
  const paid = round1.filter((e) => e.type === "transition" && e.kind === "withdrawal_paid")
    .reduce((s, e) => s + (e as unknown as { amount: number }).amount, 0);
  const expired = round1.filter((e) => e.type === "transition" && e.kind === "request_expired")
    .reduce((s, e) => s + (e as unknown as { amount: number }).amount, 0);
  assertAlmostEquals(paid, 3.75);
  assertAlmostEquals(expired, 1.25);
  // Round 2: the expired 1.25 is requested again and paid; 5 units withdrawn in all.
  assert(r.outcome.success);
  const total = ["dep_01", "dep_02", "dep_03", "dep_04", "dep_05"]
    .reduce((s, id) => s + r.outcome.payoffs[id], 0);
  assertAlmostEquals(total, 5);
  const disclosure = of(r.events, "disclosure").find((e) => e.round === 1)!;
  assertAlmostEquals(disclosure.public.fractionRedeemed as number, 3.75 / 15);
});

Deno.test("a withdrawal that cash plus fire sales cannot cover is a liquidity failure", async () => {
  const r = await runEpisode({
    env: "bank_run",
    seed: 1,
    params: { initialCash: 0.5, longTermAssets: 2, capacity: 15 },
    agents: { depositors: "always_run" },
  });
  assertEquals(r.outcome.failure, "liquidity");
  assertEquals(r.outcome.rounds, 1);
  // Everything the bank had was sold at 0.85: W = L0 + h A0.
  assertAlmostEquals(r.outcome.welfare, 0.5 + 0.85 * 2, 1e-12);
  assertEquals(of(r.events, "failure")[0].kind, "liquidity");
});

import { assert, assertAlmostEquals, assertEquals } from "../../../_assert.ts";
import { runEpisode } from "../../../../engine/run_episode.ts";
import { welfareBounds } from "../../../../engine/frail/registry.ts";
import { insolvencyBoundary } from "../../../../engine/games/bank_run/settlement.ts";
import { parseBankRunParams } from "../../../../engine/games/bank_run/params.ts";
import { settleWithdrawals } from "../../../../engine/games/bank_run/settlement.ts";
import { type BankRunState, initialBankRunState } from "../../../../engine/games/bank_run/state.ts";
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

/** Depositors dep_01-dep_05 ask to withdraw every round; records who is asked in round 2. */
async function fiveRequests(capacityRule?: "expire" | "partial") {
  const askedInRound2: string[] = [];
  const r = await runEpisode({
    env: "bank_run",
    seed: 8,
    params: capacityRule ? { capacityRule } : {},
    hashes: true,
    agents: scripted((req) => {
      if (req.call !== "withdrawal" || idx(req.agent) > 5) return undefined;
      if (req.round === 2) askedInRound2.push(req.agent);
      return { withdraw_probability: 100 };
    }),
  });
  const round1 = r.events.filter((e) => e.round === 1 && e.type === "transition") as unknown as {
    kind: string;
    agent: string;
    amount: number;
  }[];
  const paid = round1.filter((e) => e.kind === "withdrawal_paid");
  const expired = round1.filter((e) => e.kind === "request_expired");
  const cp = r.events.find((e) => e.type === "checkpoint" && e.round === 1) as unknown as {
    state: BankRunState;
  };
  return { r, paid, expired, after1: cp.state, askedInRound2 };
}

Deno.test("five unit requests against capacity 3.750: three are paid, two expire whole and ask again next round", async () => {
  const { r, paid, expired, after1, askedInRound2 } = await fiveRequests();
  assertEquals(paid.map((e) => e.amount), [1, 1, 1]);
  assertEquals(expired.map((e) => e.amount), [1, 1]);
  for (const e of expired) {
    const d = after1.depositors.find((x) => x.id === e.agent)!;
    assertEquals([d.balance, d.withdrawn], [1, 0], `${e.agent} keeps its whole deposit`);
    // Its round-1 decision (lines-v4 checkpoints leave the histories to the decision events):
    // asked in full and drawn, nothing processed (the expiry above).
    const decision = r.events.find((x) =>
      x.type === "decision" && x.round === 1 && (x as { agent?: string }).agent === e.agent
    ) as unknown as { reported: number; realized: boolean };
    assertEquals([decision.reported, decision.realized], [100, true]);
    assertEquals("history" in d, false);
  }
  assertEquals(after1.cumulativeWithdrawn, 3);
  const { sold, ...last } = after1.last;
  assertEquals(last, { requested: 5, processed: 3, expired: 2, depositsAtStart: 15 });
  assertAlmostEquals(sold, (3 - 1.125) / 0.85, 1e-12, "cash first, then assets at 0.850");
  assertEquals(after1.disclosed.fractionRedeemed, 3 / 15);
  // The two expired depositors are asked again in round 2, and are paid then: 5 units in all.
  assertEquals(askedInRound2.sort(), expired.map((e) => e.agent).sort());
  const round2 = r.events.filter((e) =>
    e.round === 2 && e.type === "transition" && e.kind === "withdrawal_paid"
  ) as unknown as { agent: string; amount: number }[];
  assertEquals(round2.map((e) => e.agent).sort(), askedInRound2.sort());
  assert(r.outcome.success);
  const ids = ["dep_01", "dep_02", "dep_03", "dep_04", "dep_05"];
  assertEquals(ids.map((id) => r.outcome.payoffs[id]), [1, 1, 1, 1, 1]);
  const start = r.events[0] as unknown as { params: { capacityRule: string } };
  assertEquals(start.params.capacityRule, "expire", "the rule is recorded in the logged params");
});

Deno.test('capacityRule "partial" pays the request that crosses 3.750 in part and its remainder expires', async () => {
  const { paid, expired, after1 } = await fiveRequests("partial");
  assertEquals(paid.map((e) => e.amount), [1, 1, 1, 0.75]);
  assertEquals(expired.map((e) => e.amount), [0.25, 1]);
  const stub = after1.depositors.find((d) => d.id === paid[3].agent)!;
  assertEquals([stub.balance, stub.withdrawn], [0.25, 0.75]);
  assertEquals(after1.disclosed.fractionRedeemed, 3.75 / 15);
});

Deno.test('capacityRule "expire" still pays a later, smaller request that fits', () => {
  // Deposits 1.5, 1.5, 1.0 and 0.5 all ask: whatever the order, a request that would pass 3.750
  // expires whole and any later one that still fits is paid.
  const params = parseBankRunParams({ depositors: 4, totalDeposits: 4.5, capacity: 3.75 });
  let laterPaid = 0;
  for (let seed = 0; seed < 20; seed++) {
    const s = initialBankRunState(
      params,
      "M0",
      openStream({ seed, round: 0, agent: "engine", purpose: "x" }),
    );
    [1.5, 1.5, 1, 0.5].forEach((b, i) => (s.depositors[i].balance = s.depositors[i].initial = b));
    s.round = 1;
    s.pending = s.depositors.map((d) => ({
      agent: d.id,
      reported: 100,
      original: 100,
      committed: false,
    }));
    const events = settleWithdrawals(s, {
      round: 1,
      stream: (agent, purpose) => openStream({ seed, round: 1, agent, purpose }),
    }) as unknown as { kind?: string; agent: string; amount: number }[];
    const deposit = (id: string) => s.depositors.find((d) => d.id === id)!.initial;
    let used = 0;
    let expiredBefore = false;
    for (
      const e of events.filter((x) => x.kind === "withdrawal_paid" || x.kind === "request_expired")
    ) {
      assertEquals(e.amount, deposit(e.agent), `seed ${seed}: ${e.kind} of a whole deposit`);
      if (e.kind === "withdrawal_paid") {
        used += e.amount;
        if (expiredBefore) laterPaid++;
      } else {
        assert(used + e.amount > 3.75, `seed ${seed}: an expired request would have fit`);
        expiredBefore = true;
      }
    }
    assert(used <= 3.75 && s.last.processed === used, `seed ${seed}`);
    assertEquals(s.last.processed + s.last.expired, 4.5);
  }
  assert(laterPaid > 0, "some order pays a smaller request after one expired");
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

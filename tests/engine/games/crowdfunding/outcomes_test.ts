import { assert, assertAlmostEquals, assertEquals } from "../../../_assert.ts";
import { crowdfunding } from "../../../../engine/games/crowdfunding/environment.ts";
import { accountingGap } from "../../../../engine/games/crowdfunding/state.ts";
import { eventsOf, idx, play, stateAt } from "./_agents.ts";

const g = 1.03;
const best = crowdfunding.bounds(crowdfunding.parseParams({})).best;
const worst = crowdfunding.bounds(crowdfunding.parseParams({})).worst;

/** Backers pledge in the round the script gives them (never when it gives 0). */
function pledgeIn(roundOf: (i: number) => number, launch = true) {
  return (req: { call: string; agent: string; round: number }) => {
    if (req.call === "pledge") {
      return { pledge_probability: roundOf(idx(req.agent)) === req.round ? 100 : 0, reasoning: "" };
    }
    if (req.call === "launch_decision") return { launch, reasoning: "" };
  };
}

Deno.test("an all-pledge round-1 launch reaches W_best = n(v + m)(1 + r_f)^(T-2) exactly", async () => {
  const r = await play(pledgeIn(() => 1));
  assertEquals(r.outcome.success, true);
  assertEquals(r.outcome.rounds, 1);
  assertAlmostEquals(r.outcome.welfare, best, 1e-9);
  assertEquals(r.outcome.welfare.toFixed(3), "22.802");
  assertEquals(r.outcome.welfareRealization.toFixed(9), "1.000000000");
  assertAlmostEquals(r.outcome.payoffs.bkr_01, 1.15 * g ** 8, 1e-12);
  assertAlmostEquals(r.outcome.payoffs.founder, 0.05 * 15 * g ** 8, 1e-12);
});

Deno.test("an all-pledged campaign that never launches ends at W_worst = n(1 + r_f)", async () => {
  const r = await play(pledgeIn(() => 1, false));
  assertEquals(r.outcome.success, false);
  assertEquals(r.outcome.failure, "no_launch");
  assertEquals(r.outcome.rounds, 9);
  assertAlmostEquals(r.outcome.welfare, worst, 1e-9);
  assertEquals(r.outcome.welfare.toFixed(3), "15.450");
  assertAlmostEquals(r.outcome.welfareRealization, 0, 1e-12);
  assertAlmostEquals(r.outcome.payoffs.bkr_07, 1.03, 1e-12);
  assertEquals(r.outcome.payoffs.founder, 0);
  // The founder was asked in every decision round (P >= G) and declined each time.
  assertEquals(eventsOf(r.events, "mechanism", "launch_declined").length, 9);
});

Deno.test("a round-3 launch pays rewards in round 4 and idle remainders keep their interest", async () => {
  // bkr_01-05 pledge in round 1, 06-10 in round 2, 11-14 in round 3, bkr_15 never: P = 14 in round 3.
  const r = await play(pledgeIn((i) => (i <= 5 ? 1 : i <= 10 ? 2 : i <= 14 ? 3 : 0)));
  assertEquals(r.outcome.rounds, 3);
  const reward = 1.15 * g ** 6; // paid in round 4, then rounds 5-10
  const p = r.outcome.payoffs;
  assertAlmostEquals(p.bkr_01, reward, 1e-12);
  // 0.03 idle after the round-2 pledge earns rounds 2-10.
  assertAlmostEquals(p.bkr_06, 0.03 * g ** 9 + reward, 1e-12);
  // 1.03^2 - 1 idle after the round-3 pledge earns rounds 3-10.
  assertAlmostEquals(p.bkr_11, (g ** 2 - 1) * g ** 8 + reward, 1e-12);
  assertAlmostEquals(p.bkr_15, g ** 10, 1e-12);
  assertAlmostEquals(p.founder, 0.05 * 14 * g ** 6, 1e-12);
  const paid = eventsOf(r.events, "transition", "reward_paid");
  assertEquals(paid.length, 14);
  assert(paid.every((e) => e.round === 4 && e.reward === 1.15 && e.bonus === 0));
});

Deno.test("a round-9 launch pays the reward in round 10 with no interest after it", async () => {
  const r = await play((req) => {
    if (req.call === "pledge") {
      return { pledge_probability: req.round === 1 ? 100 : 0, reasoning: "" };
    }
    if (req.call === "launch_decision") return { launch: req.round === 9, reasoning: "" };
  });
  assertEquals(r.outcome.success, true);
  assertEquals(r.outcome.rounds, 9);
  assertEquals(r.outcome.payoffs.bkr_03, 1.15);
  assertAlmostEquals(r.outcome.payoffs.founder, 0.75, 1e-12);
  assert(eventsOf(r.events, "transition", "reward_paid").every((e) => e.round === 10));
});

Deno.test("refunds come after round-9 interest, so a round-9 pledge misses round-9 interest", async () => {
  // bkr_01 pledges in round 9, bkr_02 never pledges; P never reaches G.
  const r = await play(pledgeIn((i) => (i === 1 ? 9 : 0)));
  assertEquals(r.outcome.failure, "no_launch");
  const p = r.outcome.payoffs;
  assertAlmostEquals(p.bkr_01, ((g ** 8 - 1) * g + 1) * g, 1e-12);
  assertAlmostEquals(p.bkr_02, g ** 10, 1e-12);
  assertAlmostEquals(p.bkr_02 - p.bkr_01, 0.03 * g, 1e-12);
  const refunds = eventsOf(r.events, "transition", "refund");
  assertEquals(refunds.map((e) => [e.round, e.agent, e.amount]), [[9, "bkr_01", 1]]);
});

/** Everyone pledges in round 1; bkr_01-bkr_05 ask to withdraw in rounds 2 and 3; no launch. */
async function fiveWithdrawals(capacityRule?: "expire" | "partial") {
  const askedInRound3: string[] = [];
  const r = await play((req) => {
    if (req.call === "pledge") {
      return { pledge_probability: req.round === 1 ? 100 : 0, reasoning: "" };
    }
    if (req.call === "withdrawal") {
      const asks = idx(req.agent) <= 5 && req.round <= 3;
      if (asks && req.round === 3) askedInRound3.push(req.agent);
      return { withdraw_probability: asks ? 100 : 0, reasoning: "" };
    }
    if (req.call === "launch_decision") return { launch: false, reasoning: "" };
  }, { params: capacityRule ? { capacityRule } : {} });
  const r2 = r.events.filter((e) => e.round === 2);
  return {
    r,
    processed: eventsOf(r2, "transition", "withdrawal_processed"),
    stayed: eventsOf(r2, "transition", "request_stayed"),
    after2: stateAt(r.events, 2),
    askedInRound3,
  };
}

Deno.test("five withdrawals against 3.750 face: three are processed, two stay pledged whole and ask again next round", async () => {
  const { r, processed, stayed, after2, askedInRound3 } = await fiveWithdrawals();
  assertEquals(processed.map((e) => e.amount), [1, 1, 1]);
  assertEquals(stayed.map((e) => e.amount), [1, 1]);
  for (const e of stayed) {
    const b = after2.backers.find((x) => x.id === e.agent)!;
    assertEquals([b.pledged, b.bank], [1, 0], `${e.agent} keeps its whole pledge`);
  }
  assertEquals(after2.backers.reduce((a, b) => a + b.pledged, 0), 12);
  assertEquals(after2.disclosed.withdrawals, 3);
  assertEquals(after2.disclosed.withdrawnFace, 3);
  // Withdrawn money earns round-2 interest: each withdrawer holds 1.03 after round 2.
  assertEquals(after2.backers.filter((b) => Math.abs(b.bank - 1.03) < 1e-12).length, 3);
  // The two still pledged get the withdrawal call in round 3 and are processed then.
  assertEquals(askedInRound3.sort(), stayed.map((e) => e.agent as string).sort());
  const r3 = eventsOf(r.events.filter((e) => e.round === 3), "transition", "withdrawal_processed");
  assertEquals(r3.map((e) => e.agent).sort(), askedInRound3.sort());
  assertEquals(stateAt(r.events, 3).backers.reduce((a, b) => a + b.pledged, 0), 10);
  const start = r.events[0] as unknown as { params: { capacityRule: string } };
  assertEquals(start.params.capacityRule, "expire", "the rule is recorded in the logged params");
});

Deno.test('capacityRule "partial" withdraws the request that crosses 3.750 face in part', async () => {
  const { processed, stayed, after2 } = await fiveWithdrawals("partial");
  assertEquals(processed.map((e) => e.amount), [1, 1, 1, 0.75]);
  assertEquals(stayed.map((e) => e.amount), [0.25, 1]);
  assertAlmostEquals(after2.backers.reduce((a, b) => a + b.pledged, 0), 11.25, 1e-12);
  assertEquals(after2.backers.filter((b) => b.pledged === 0.25).length, 1);
  assertEquals(after2.disclosed.withdrawals, 4);
  assertAlmostEquals(after2.disclosed.withdrawnFace, 3.75, 1e-12);
});

Deno.test("a pledge made in round t misses round-t interest and a withdrawal earns it", async () => {
  const r = await play((req) => {
    if (req.call === "pledge") {
      return { pledge_probability: req.round === 2 ? 100 : 0, reasoning: "" };
    }
    if (req.call === "withdrawal") {
      return { withdraw_probability: req.round === 3 ? 100 : 0, reasoning: "" };
    }
  }, { params: { backers: 2, goal: 5 } });
  const s2 = stateAt(r.events, 2);
  assertAlmostEquals(s2.backers[0].bank, 0.03 * g, 1e-12);
  const s3 = stateAt(r.events, 3);
  assertAlmostEquals(s3.backers[0].bank, (0.03 * g + 1) * g, 1e-12);
});

Deno.test("the books close at every checkpoint and at the end of an episode", async () => {
  const r = await play(pledgeIn((i) => (i <= 5 ? 1 : i <= 10 ? 2 : i <= 14 ? 3 : 0)));
  for (let round = 1; round <= r.outcome.rounds; round++) {
    assertAlmostEquals(accountingGap(stateAt(r.events, round)), 0, 1e-12);
  }
  assertAlmostEquals(accountingGap(r.state), 0, 1e-12);
  // W = starting balances + interest + value created by the project (v + m - 1) x P.
  const interest = eventsOf(r.events, "transition").filter((e) =>
    e.kind === "interest" || e.kind === "interest_to_horizon"
  ).reduce((a, e) => a + (e.total as number), 0);
  assertAlmostEquals(r.outcome.welfare, 15 + interest + 0.2 * 14, 1e-9);
});

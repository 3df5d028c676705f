import { assert, assertAlmostEquals, assertEquals, assertThrows } from "../../../_assert.ts";
import { debtRolloverMockPopulation } from "../../../../engine/games/debt_rollover/mock.ts";
import { debtRollover } from "../../../../engine/games/debt_rollover/environment.ts";
import { parseDebtRolloverParams } from "../../../../engine/games/debt_rollover/params.ts";
import type { CreditorView } from "../../../../engine/games/debt_rollover/views.ts";
import type { CallRequest } from "../../../../engine/core/environment.ts";
import {
  assertAccountingCloses,
  idx,
  ofType,
  play,
  redeem,
  scripted,
  transitions,
} from "./_helpers.ts";

const C7 = 1.02 ** 7;

Deno.test("debtRollover with every creditor rolling pays 1.149 per claim and the borrower its all-roll profit", async () => {
  for (const mechanism of ["M0", "M1", "M2", "M3"]) {
    const played = await play(
      debtRolloverMockPopulation({ creditors: "always_roll", borrower: "passive" }),
      {
        mechanism,
      },
    );
    const o = played.outcome;
    assert(o.success, mechanism);
    assertEquals(o.failure, null);
    assertEquals(o.rounds, 7);
    assertEquals(played.hashes.length, 7);
    for (let i = 1; i <= 8; i++) assertAlmostEquals(o.payoffs[`crd_0${i}`], C7, 1e-12);
    assertEquals(C7.toFixed(3), "1.149");
    // Cash earns 0.5% on 0.2 for 7 rounds, and on each tranche from the round after it matures.
    const cash = 0.2 * 1.005 ** 7 + 2 * 1.005 ** 3 + 1.005 ** 2 + 2.5 * 1.005 + 4;
    assertAlmostEquals(o.payoffs.borrower, cash - 8 * C7, 1e-12);
    assertAlmostEquals(o.welfare, cash, 1e-12);
    const { worst, best } = o.bounds;
    assertAlmostEquals(o.welfareRealization, (cash - worst) / (best - worst), 1e-12);
    assertAccountingCloses(played);
  }
});

Deno.test("debtRollover with an immediate run at the first wave defaults with W = W_worst", async () => {
  const played = await play(debtRolloverMockPopulation({ creditors: "always_redeem" }));
  const o = played.outcome;
  assertEquals(o.success, false);
  assertEquals(o.failure, "insolvency");
  assertEquals(o.rounds, 1);
  assertAlmostEquals(o.welfare, 0.2 * 1.005 + 0.7 * 9.5, 1e-12);
  assertAlmostEquals(o.welfare, o.bounds.worst, 1e-12);
  assertAlmostEquals(o.welfareRealization, 0, 1e-12);
  assertEquals(o.payoffs.borrower, 0);
  // The two wave-1 creditors are paid 1.02 each: 0.201 from cash, the rest from selling
  // (2.04 - 0.201) / 0.7 = 2.627 of the round-4 tranche; 6.873 of face is then short of
  // 6 x 1.149 = 6.892, and the liquidation pool 0.7 x 6.873 is shared by the other six.
  assertAlmostEquals(o.payoffs.crd_01, 1.02, 1e-12);
  assertAlmostEquals(o.payoffs.crd_02, 1.02, 1e-12);
  const pool = 0.7 * (9.5 - (2.04 - 0.201) / 0.7);
  for (let i = 3; i <= 8; i++) assertAlmostEquals(o.payoffs[`crd_0${i}`], pool / 6, 1e-12);
  assertEquals(ofType(played.events, "failure")[0].kind, "insolvency");
  const [d] = ofType(played.events, "disclosure");
  assertEquals(d.metrics.cumulative_redeemed, 2, "face of the claims redeemed");
  assertAlmostEquals(d.metrics.cumulative_paid, 2.04, 1e-12);
  assertEquals([d.metrics.committed, d.metrics.assets], [0, 0]);
  assertAlmostEquals(d.metrics.cash, pool, 1e-12, "the liquidation pool");
  assertAccountingCloses(played);
});

Deno.test("debtRollover asks only the due creditors to redeem or roll", async () => {
  const calls: { round: number; agent: string }[] = [];
  await play(scripted((req) => {
    if (req.call === "redeem_or_roll") calls.push({ round: req.round, agent: req.agent });
    return undefined;
  }));
  const byRound = (r: number) => calls.filter((c) => c.round === r).map((c) => c.agent).sort();
  assertEquals(byRound(1), ["crd_01", "crd_02"]);
  assertEquals(byRound(2), ["crd_01", "crd_02"], "a rolled claim is due again the next round");
  assertEquals(byRound(3), ["crd_01", "crd_02", "crd_03", "crd_04"]);
  assertEquals(byRound(5).length, 6);
  assertEquals(byRound(7).length, 8);
});

Deno.test("debtRollover rolls redemption requests beyond capacity one round", async () => {
  // All roll until round 4, when the first four creditors ask to redeem: 2 x 1.02^4 = 2.165
  // fits in 2.500, a third claim would not, so two are paid (from the matured tranche) and
  // two roll; they are due again in round 5.
  const round5: string[] = [];
  const played = await play(scripted((req) => {
    if (req.call !== "redeem_or_roll") return undefined;
    if (req.round === 5) round5.push(req.agent);
    return redeem(req.round === 4 && idx(req.agent) <= 4 ? 100 : 0);
  }));
  assert(played.outcome.success);
  const paid = transitions(played.events, "redemption_paid");
  const deferred = transitions(played.events, "request_deferred");
  assertEquals(paid.length, 2);
  assertEquals(deferred.length, 2);
  for (const e of paid) {
    assertEquals(e.round, 4);
    assertAlmostEquals(e.amount as number, 1.02 ** 4, 1e-12);
    assertEquals(e.face_sold, 0);
  }
  const rolled = deferred.map((e) => e.agent as string).sort();
  for (const id of rolled) assert(round5.includes(id), `${id} is due again in round 5`);
  const s = played.state;
  for (const id of rolled) {
    const c = s.creditors.find((x) => x.id === id)!;
    assertEquals(c.history.find((h) => h.round === 4)!.outcome, "deferred");
    assertAlmostEquals(played.outcome.payoffs[id], C7, 1e-12, "a rolled claim keeps accruing");
  }
  const disclosure = ofType(played.events, "disclosure").find((e) => e.round === 4)!;
  const last = disclosure.public.last as { redeemed: number; deferred: number; due: number };
  assertEquals([last.due, last.redeemed, last.deferred], [4, 2, 2]);
  assertAccountingCloses(played);
});

Deno.test("debtRollover with five requests against capacity 3.750 pays three claims and rolls two whole", async () => {
  // All roll until round 5, when crd_01-crd_05 (waves 1, 3 and 5) ask to redeem 1.02^5 = 1.104
  // each: three fit in 3.750 (3.312), a fourth would not (4.416), so two roll. They are due again
  // in round 6, ask again and are paid their accrued 1.02^6.
  const asked6: string[] = [];
  const played = await play(
    scripted((req) => {
      if (req.call !== "redeem_or_roll") return undefined;
      if (req.round === 6) asked6.push(req.agent);
      return redeem(req.round >= 5 && idx(req.agent) <= 5 ? 100 : 0);
    }),
    { params: { capacity: 3.75 } },
  );
  assert(played.outcome.success);
  const paid5 = transitions(played.events, "redemption_paid").filter((e) => e.round === 5);
  const deferred = transitions(played.events, "request_deferred");
  assertEquals(paid5.length, 3);
  for (const e of paid5) assertAlmostEquals(e.amount as number, 1.02 ** 5, 1e-12);
  assertEquals(deferred.map((e) => e.round), [5, 5]);
  for (const e of deferred) assertAlmostEquals(e.amount as number, 1.02 ** 5, 1e-12);
  const rolled = deferred.map((e) => e.agent as string).sort();
  assertEquals(asked6.filter((id) => idx(id) <= 5).sort(), rolled, "due again in round 6");
  for (const id of rolled) {
    assertAlmostEquals(played.outcome.payoffs[id], 1.02 ** 6, 1e-12, `${id} paid in round 6`);
  }
  assertAccountingCloses(played);
});

Deno.test("debtRollover rolls the second claim of a round when the capacity fits only one", async () => {
  const played = await play(
    scripted((req) =>
      req.call === "redeem_or_roll" ? redeem(req.round === 1 ? 100 : 0) : undefined
    ),
    { params: { capacity: 1.5 } },
  );
  assert(played.outcome.success, "one redemption in round 1 leaves the borrower solvent");
  assertEquals(transitions(played.events, "redemption_paid").length, 1);
  const [d] = transitions(played.events, "request_deferred");
  assertEquals(d.round, 1);
  assertAlmostEquals(played.outcome.payoffs[d.agent as string], C7, 1e-12);
});

Deno.test("debtRollover defaults for liquidity when a due claim cannot be paid even after selling everything", async () => {
  // At h = 0.1 the first claim of 1.02 takes the 0.201 of cash and 8.19 of face; the
  // second finds 0.1 x 1.31 = 0.131: liquidity default during processing.
  const played = await play(debtRolloverMockPopulation({ creditors: "always_redeem" }), {
    params: { earlySalePrice: 0.1 },
  });
  const o = played.outcome;
  assertEquals(o.failure, "liquidity");
  assertEquals(o.rounds, 1);
  assertEquals(transitions(played.events, "redemption_paid").length, 1);
  const paid = transitions(played.events, "redemption_paid")[0].agent as string;
  const unpaid = paid === "crd_01" ? "crd_02" : "crd_01";
  const c = played.state.creditors.find((x) => x.id === unpaid)!;
  assertEquals(c.history[0].outcome, "unpaid");
  assertAlmostEquals(o.payoffs[paid], 1.02, 1e-12);
  const pool = 0.1 * (9.5 - (1.02 - 0.201) / 0.1);
  assertAlmostEquals(o.payoffs[unpaid], pool / 7, 1e-12);
  assertAlmostEquals(o.welfare, 0.201 + 0.1 * 9.5, 1e-12);
  assertEquals(o.payoffs.borrower, 0);
  assertAccountingCloses(played);
});

Deno.test("debtRollover defaults for insolvency while every claim could still be paid", async () => {
  // One wave-1 redemption leaves 8.330 of face against 7 x 1.149 = 8.041; a second in round 2
  // sells 1.486 more: 6.844 < 6 x 1.149 = 6.892, although cash plus sales could pay more.
  const played = await play(
    scripted((req) =>
      req.call === "redeem_or_roll"
        ? redeem(req.round === idx(req.agent) ? 100 : 0) // crd_01 in round 1, crd_02 in round 2
        : undefined
    ),
  );
  const o = played.outcome;
  assertEquals(o.failure, "insolvency");
  assertEquals(o.rounds, 2);
  assertEquals(transitions(played.events, "redemption_paid").length, 2);
  assertEquals(ofType(played.events, "failure").length, 1);
  assertAccountingCloses(played);
});

Deno.test("debtRollover survives a single wave-1 redemption in the contraction regime by a hair", async () => {
  // L0 = 0: 1.02 / 0.7 = 1.457 of face sold leaves 8.043 >= 7 x 1.149 = 8.041.
  const played = await play(
    scripted((req) =>
      req.call === "redeem_or_roll"
        ? redeem(req.agent === "crd_01" && req.round === 1 ? 100 : 0)
        : undefined
    ),
    { regime: "contraction" },
  );
  assert(played.outcome.success);
  const d = ofType(played.events, "disclosure")[0];
  assertAlmostEquals(
    (d.public.assets as { face: number }[]).reduce((a, t) => a + t.face, 0),
    9.5 - 1.02 / 0.7,
    1e-12,
  );
  assertAccountingCloses(played);
});

Deno.test("creditorView() shows the round, the horizon and last round's disclosure, not the regime", async () => {
  const views: CreditorView[] = [];
  await play(
    scripted((req: CallRequest) => {
      if (req.call === "redeem_or_roll" && req.agent === "crd_02") {
        views.push(req.view as CreditorView);
      }
      return req.call === "redeem_or_roll" && req.agent === "crd_01" && req.round === 1
        ? redeem(100)
        : undefined;
    }),
    { regime: "expansion" },
  );
  const [r1, r2] = views;
  assertEquals([r1.round, r1.horizon, r1.roundsRemaining], [1, 7, 7]);
  assertEquals([r2.round, r2.roundsRemaining], [2, 6]);
  assertEquals(r1.borrower.cash, 0.5, "round-zero disclosure");
  assertEquals(r2.borrower.cash, 0, "end of round 1: 0.5025 paid out");
  assertEquals(r2.lastRound.redeemed, 1);
  assertAlmostEquals(r2.lastRound.paid, 1.02, 1e-12);
  assertAlmostEquals(r2.position.claim, 1.02, 1e-12);
  assertAlmostEquals(r2.position.redemptionValue, 1.02 ** 2, 1e-12);
  assertEquals(r1.parameters.waves[0], { round: 1, creditors: ["crd_01", "crd_02"] });
  assertEquals(JSON.stringify(r1).includes("expansion"), false);
  assertEquals(JSON.stringify(r1).includes("regime"), false);
});

Deno.test("parseParams() names the bad field in a RangeError", () => {
  assertThrows(() => debtRollover.parseParams({ capacity: -1 }), RangeError, '"capacity"');
  assertThrows(
    () => debtRollover.parseParams({ assets: [{ round: 9, face: 1 }] }),
    RangeError,
    '"assets.0.round"',
  );
  assertThrows(() => debtRollover.parseParams({ maturityWaves: [3, 1] }), RangeError, "increase");
  assertThrows(
    () => debtRollover.parseParams({ face: 1 }),
    RangeError,
    'unknown field "face" (allowed: "creditors"',
  );
  assertEquals(parseDebtRolloverParams({}).maturityWaves, [1, 3, 5, 7]);
});

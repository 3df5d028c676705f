import { assert, assertAlmostEquals, assertEquals } from "../../../_assert.ts";
import {
  bestRepaymentSchedule,
  debtRolloverBounds,
} from "../../../../engine/games/debt_rollover/bounds.ts";
import {
  DEBT_ROLLOVER_REGIMES,
  parseDebtRolloverParams,
} from "../../../../engine/games/debt_rollover/params.ts";
import { REGIMES } from "../../../../engine/frail/params.ts";
import { assertAccountingCloses, idx, play, redeem, scripted } from "./_helpers.ts";

const stable = parseDebtRolloverParams(DEBT_ROLLOVER_REGIMES.stable);

Deno.test("debtRolloverBounds() gives the paper's stable bounds: worst 6.851, best 9.899", () => {
  const b = debtRolloverBounds(stable);
  assertEquals(b.worst.toFixed(3), "6.851");
  assertEquals(b.best.toFixed(3), "9.899");
  // worst = L0 (1 + r_L) + h x 9.5; best = 8 x 1.02^7 + pi*.
  assertAlmostEquals(b.worst, 0.2 * 1.005 + 0.7 * 9.5, 1e-12);
  assertAlmostEquals(b.best, 8 * 1.02 ** 7 + bestRepaymentSchedule(stable).profit, 1e-12);
});

Deno.test("bestRepaymentSchedule() finds pi* = 0.710 in the stable regime", () => {
  const b = bestRepaymentSchedule(stable);
  assertEquals(b.profit.toFixed(3), "0.710");
  assert(b.feasible);
  assertEquals(b.redemptionsByRound, [0, 0, 0, 2, 1, 2, 0]);
  assertEquals(b.schedule, [4, 4, 5, 6, 6, null, null, null]);
});

Deno.test("bestRepaymentSchedule() matches a hand computation of its schedule's profit", () => {
  // Rounds 1-3: cash earns interest. Round 4: the 2.000 tranche matures, two claims of
  // 1.02^4 are paid from cash. Round 5: the 1.000 tranche matures; a claim of 1.02^5 needs
  // a small early sale of the round-6 tranche. Round 6: the rest of it matures, two claims
  // of 1.02^6 are paid. Round 7: 4.000 matures, three claims of 1.02^7 are held to the end.
  const c4 = 0.2 * 1.005 ** 4 + 2 - 2 * 1.02 ** 4;
  const short5 = 1.02 ** 5 - (c4 * 1.005 + 1);
  const tranche6 = 2.5 - short5 / 0.7;
  const c6 = tranche6 - 2 * 1.02 ** 6;
  const profit = c6 * 1.005 + 4 - 3 * 1.02 ** 7;
  assertAlmostEquals(bestRepaymentSchedule(stable).profit, profit, 1e-12);
  assertEquals(profit.toFixed(4), "0.7099");
});

Deno.test("bestRepaymentSchedule() beats holding every claim to the end", () => {
  const allRoll = 0.2 * 1.005 ** 7 + 2 * 1.005 ** 3 + 1.005 ** 2 + 2.5 * 1.005 + 4 -
    8 * 1.02 ** 7;
  assertEquals(allRoll.toFixed(4), "0.5703");
  assert(bestRepaymentSchedule(stable).profit > allRoll + 0.1);
});

Deno.test("debtRolloverBounds() follows Table 5 in the expansion and contraction regimes", () => {
  const e = debtRolloverBounds(parseDebtRolloverParams(DEBT_ROLLOVER_REGIMES.expansion));
  assertAlmostEquals(e.worst, 0.5 * 1.005 + 0.7 * 9.5, 1e-12);
  assertEquals(e.best.toFixed(3), "10.238");
  const c = debtRolloverBounds(parseDebtRolloverParams(DEBT_ROLLOVER_REGIMES.contraction));
  assertAlmostEquals(c.worst, 0.7 * 9.5, 1e-12);
  assertEquals(c.best.toFixed(3), "9.670");
  assertEquals(
    bestRepaymentSchedule(parseDebtRolloverParams(DEBT_ROLLOVER_REGIMES.contraction)).schedule,
    [4, 5, 6, 6, null, null, null, null],
  );
});

Deno.test("debtRolloverBounds() follows parameter overrides", () => {
  const p = parseDebtRolloverParams({ earlySalePrice: 0.5, claimRate: 0 });
  const b = debtRolloverBounds(p);
  assertAlmostEquals(b.worst, 0.201 + 0.5 * 9.5, 1e-12);
  // Without accrual, redeeming early saves nothing and cash still earns interest: pi* is the
  // all-roll profit 0.2 x 1.005^7 + 2 x 1.005^3 + 1.005^2 + 2.5 x 1.005 + 4 - 8.
  const allRoll = 0.2 * 1.005 ** 7 + 2 * 1.005 ** 3 + 1.005 ** 2 + 2.5 * 1.005 + 4 - 8;
  assertAlmostEquals(b.best, 8 + allRoll, 1e-12);
  assertEquals(bestRepaymentSchedule(p).schedule.every((r) => r === null), true);
});

Deno.test("bestRepaymentSchedule() reports no feasible schedule when the borrower starts insolvent", () => {
  const b = bestRepaymentSchedule(parseDebtRolloverParams({ assets: [{ round: 7, face: 5 }] }));
  assertEquals(b.feasible, false);
  assertEquals(b.profit, 0);
});

for (const regime of REGIMES) {
  Deno.test(`bestRepaymentSchedule() is what the engine produces when every creditor follows it (${regime})`, async () => {
    const p = parseDebtRolloverParams(DEBT_ROLLOVER_REGIMES[regime]);
    const best = bestRepaymentSchedule(p);
    const played = await play(
      scripted((req) =>
        req.call === "redeem_or_roll"
          ? redeem(best.schedule[idx(req.agent) - 1] === req.round ? 100 : 0)
          : undefined
      ),
      { regime },
    );
    assert(played.outcome.success, "the best schedule keeps the borrower alive");
    assertEquals(played.outcome.rounds, 7);
    assertAlmostEquals(played.outcome.payoffs.borrower, best.profit, 1e-12);
    best.schedule.forEach((round, i) => {
      const id = `crd_0${i + 1}`;
      assertAlmostEquals(played.outcome.payoffs[id], 1.02 ** (round ?? 7), 1e-12, id);
      const c = played.state.creditors[i];
      assertEquals(c.redeemedRound, round);
    });
    assertAccountingCloses(played);
  });
}

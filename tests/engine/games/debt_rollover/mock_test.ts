import { assertEquals, assertThrows } from "../../../_assert.ts";
import {
  debtRolloverMockPopulation,
  mockBorrower,
  mockCreditor,
} from "../../../../engine/games/debt_rollover/mock.ts";
import type { CallRequest } from "../../../../engine/core/environment.ts";
import { borrowerView, creditorView } from "../../../../engine/games/debt_rollover/views.ts";
import { initialDebtRolloverState } from "../../../../engine/games/debt_rollover/state.ts";
import { parseDebtRolloverParams } from "../../../../engine/games/debt_rollover/params.ts";
import { MECHANISMS } from "../../../../engine/frail/types.ts";
import { trait } from "../../../../engine/agents/mock/traits.ts";
import { play } from "./_helpers.ts";

function request(call: string, view: unknown): CallRequest {
  return { agent: "x", role: "creditor", call, round: 1, step: "financial", view };
}

async function redeemProbability(state: ReturnType<typeof initialDebtRolloverState>) {
  const a = mockCreditor("defensive", { seed: 0, id: "crd_01" });
  const r = await a.decide(request("redeem_or_roll", creditorView(state, "crd_01"))) as {
    withdraw_probability: number;
  };
  return r.withdraw_probability;
}

Deno.test("mockCreditor() defensive redeems more when redemptions or low cash were disclosed", async () => {
  const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M0");
  s.round = 1;
  const calm = await redeemProbability(s);
  s.disclosed.last.redeemed = 1;
  const stressed = await redeemProbability(s);
  s.disclosed.last.redeemed = 0;
  s.disclosed.cash = 5;
  const liquid = await redeemProbability(s);
  const t = trait(0, "crd_01");
  const lowCash = 1 - 0.2 / 1.02;
  assertEquals(calm, Math.round((0.1 * t + 0.2 * lowCash) * 100));
  assertEquals(stressed, Math.round(Math.min(1, 0.1 * t + 0.2 * lowCash + 0.6) * 100));
  assertEquals(liquid, Math.round(0.1 * t * 100), "no fire sale needed: lowCash = 0");
});

Deno.test("mockBorrower() active offers premiums only to creditors due before the first tranche, within its margin", async () => {
  const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M1");
  s.round = 1;
  const r = await mockBorrower("active").decide(request("rollover_offer", borrowerView(s))) as {
    offers: { target: string; amount: number; lock_until: number }[];
  };
  assertEquals(r.offers.map((o) => o.target), ["crd_01", "crd_02", "crd_03", "crd_04"]);
  assertEquals(r.offers[0], { target: "crd_01", amount: 0.05, lock_until: 4 });
  // Contraction: margin 9.5 - 9.189 = 0.311, less the 0.1 buffer, leaves room for 4 x 0.05.
  const c = initialDebtRolloverState(parseDebtRolloverParams({ initialCash: 0 }), "M1");
  c.round = 1;
  const rc = await mockBorrower("active").decide(request("rollover_offer", borrowerView(c))) as {
    offers: unknown[];
  };
  assertEquals(rc.offers.length, 4);
});

Deno.test("debtRolloverMockPopulation() rejects an unknown role", () => {
  assertThrows(
    () => debtRolloverMockPopulation()({ id: "x", role: "bank" }),
    RangeError,
    'No debt-rollover mock policy for role "bank"',
  );
});

Deno.test("debtRolloverMockPopulation() defensive creditors fail most M0 episodes and every mechanism helps (100 seeds each)", async () => {
  const successes: Record<string, number> = {};
  for (const mechanism of MECHANISMS) {
    let ok = 0;
    for (let seed = 0; seed < 100; seed++) {
      const played = await play(debtRolloverMockPopulation({ seed }), { mechanism, seed });
      ok += played.outcome.success ? 1 : 0;
    }
    successes[mechanism] = ok;
  }
  // Seeded exact values (the paper: 83% of baseline LLM episodes fail; M2 leads).
  assertEquals(successes, { M0: 18, M1: 93, M2: 100, M3: 94 });
});

import { assertAlmostEquals, assertEquals, assertThrows } from "../../../_assert.ts";
import {
  CROWDFUNDING_REGIMES,
  crowdfundingBounds,
  lastDecisionRound,
  parseCrowdfundingParams,
} from "../../../../engine/games/crowdfunding/params.ts";
import { crowdfunding } from "../../../../engine/games/crowdfunding/environment.ts";

Deno.test("parseCrowdfundingParams() fills the stable regime of Table 4", () => {
  assertEquals(parseCrowdfundingParams({}), {
    backers: 15,
    unitPledge: 1,
    horizon: 10,
    goal: 14,
    reward: 1.15,
    margin: 0.05,
    riskFree: 0.03,
    withdrawalCapacity: 3.75,
    capacityRule: "expire",
  });
  assertEquals(lastDecisionRound(parseCrowdfundingParams({})), 9);
});

Deno.test("CROWDFUNDING_REGIMES holds Table 5's goal, reward and risk-free rate", () => {
  assertEquals(CROWDFUNDING_REGIMES, {
    expansion: { goal: 12, reward: 1.25, riskFree: 0.02 },
    stable: { goal: 14, reward: 1.15, riskFree: 0.03 },
    contraction: { goal: 15, reward: 1.1, riskFree: 0.04 },
  });
});

Deno.test("crowdfundingBounds() gives Appendix D.3's stable 15.450 and 22.802", () => {
  const b = crowdfunding.bounds(crowdfunding.parseParams({}));
  assertEquals(b.worst.toFixed(3), "15.450");
  assertEquals(b.best.toFixed(3), "22.802");
  assertAlmostEquals(b.worst, 15 * 1.03, 1e-12);
  assertAlmostEquals(b.best, 15 * 1.2 * 1.03 ** 8, 1e-12);
});

Deno.test("crowdfundingBounds() follows the closed forms in every regime and under overrides", () => {
  const at = (regime: keyof typeof CROWDFUNDING_REGIMES, extra = {}) =>
    crowdfundingBounds(parseCrowdfundingParams({ ...CROWDFUNDING_REGIMES[regime], ...extra }));
  // expansion: 15 x 1.02; 15 x 1.30 x 1.02^8
  assertEquals(at("expansion").worst.toFixed(3), "15.300");
  assertEquals(at("expansion").best.toFixed(3), "22.847");
  // contraction: 15 x 1.04; 15 x 1.15 x 1.04^8
  assertEquals(at("contraction").worst.toFixed(3), "15.600");
  assertEquals(at("contraction").best.toFixed(3), "23.608");
  // n = 10, T = 6: 10 x 1.03; 10 x 1.2 x 1.03^4
  const o = at("stable", { backers: 10, horizon: 6 });
  assertAlmostEquals(o.worst, 10.3, 1e-12);
  assertAlmostEquals(o.best, 12 * 1.03 ** 4, 1e-12);
});

Deno.test("parseCrowdfundingParams() throws a RangeError naming the bad field", () => {
  assertThrows(() => parseCrowdfundingParams({ goal: -1 }), RangeError, '"goal"');
  assertThrows(() => parseCrowdfundingParams({ horizon: 1 }), RangeError, '"horizon"');
  assertThrows(() => parseCrowdfundingParams({ rate: 0.1 }), RangeError, '"rate"');
  assertThrows(
    () => parseCrowdfundingParams({ capacityRule: "volume" }),
    RangeError,
    '"capacityRule"',
  );
});

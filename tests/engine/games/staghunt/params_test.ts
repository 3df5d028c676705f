import assert from "node:assert/strict";
import {
  parseStagHuntParams,
  roundWelfare,
  stagHuntBounds,
} from "../../../../engine/games/staghunt/params.ts";
import { toPayoffs } from "../../../../engine/games/staghunt/payoffs.ts";
import { throwsWith } from "./_fixtures.ts";

Deno.test("parseStagHuntParams() fills the focal defaults and reads payoff tuples", () => {
  assert.deepEqual(parseStagHuntParams({}), {
    N: 5,
    M: 3,
    T: 4,
    F: 0,
    payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 },
    corruption: "base",
  });
  assert.deepEqual(parseStagHuntParams({ payoffs: [5, 1, -1, 3] }).payoffs, {
    RS: 5,
    HS: 1,
    RF: -1,
    HF: 3,
  });
  assert.deepEqual(toPayoffs({ RS: 4, HS: 2, RF: 0, HF: 2 }), { RS: 4, HS: 2, RF: 0, HF: 2 });
});

Deno.test("parseStagHuntParams() names the bad field", () => {
  throwsWith(
    () => parseStagHuntParams({ M: 6 }),
    RangeError,
    /"M": must be in 1..N = 1..5 \(got 6\)/,
  );
  throwsWith(
    () => parseStagHuntParams({ N: 2, M: 1, F: 3 }),
    RangeError,
    /"F": must be in 0..N = 0..2/,
  );
  throwsWith(
    () => parseStagHuntParams({ payoffs: [4, 3, 0, 2] }),
    RangeError,
    /"payoffs": must satisfy/,
  );
  throwsWith(() => parseStagHuntParams({ corruption: "b2" }), RangeError, /"corruption"/);
  throwsWith(
    () => parseStagHuntParams({ rounds: 3 }),
    RangeError,
    /unknown field "rounds" \(allowed: "N", "M", "T", "F", "payoffs", "corruption"\)/,
  );
  throwsWith(() => parseStagHuntParams({ T: 0 }), RangeError, /"T"/);
});

Deno.test("stagHuntBounds() is T times the lowest and highest one-round welfare", () => {
  // (4, 2, 0, 2): worst = 2 T (N - M + 1) (M - 1 lone Stag players), best = T N R_S.
  for (const N of [2, 3, 5]) {
    for (let M = 1; M <= N; M++) {
      const b = stagHuntBounds(parseStagHuntParams({ N, M, T: 4 }));
      assert.deepEqual(b, { worst: 2 * 4 * (N - M + 1), best: 4 * N * 4 });
    }
  }
  // When H_S is far below H_F, a bare success can be the worst round: (10, 0, -1, 9), N = 5, M = 1:
  // W(0) = 45 (all Hare, failing), W(1) = 10 (one Stag succeeds, four Hare get H_S = 0).
  const p = parseStagHuntParams({ N: 5, M: 1, T: 2, payoffs: [10, 0, -1, 9] });
  assert.equal(roundWelfare(p, 0), 45);
  assert.equal(roundWelfare(p, 1), 10);
  assert.deepEqual(stagHuntBounds(p), { worst: 20, best: 100 });
});

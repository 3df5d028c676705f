import assert from "node:assert/strict";
import { ols, Z95 } from "../../../../engine/games/staghunt/metrics/ols.ts";
import {
  stagShareRegressions,
  stagShareRows,
} from "../../../../engine/games/staghunt/metrics/regression.ts";
import { HAND, near, throwsWith } from "./_fixtures.ts";

// Eligible turns of HAND (honest, at least one earlier report this round):
// E1 p03 rounds 1-4 and E2 p02, with
//   y (original Stag)      0    0    1    0    1
//   share (public Stag)    0.5  0.5  1    1    0
//   exposure (corrupted)   0.5  0.5  0.5  0.5  1
// Share alone: x-bar 0.6, y-bar 0.4, Sxx 0.7, Sxy -0.2: slope -2/7, intercept 4/7;
// residuals -3/7, -3/7, 5/7, -2/7, 3/7; SSR 8/7.

Deno.test("stagShareRows() builds honest turns with prior public Stag share and corruption exposure", () => {
  const rows = stagShareRows(HAND);
  assert.deepEqual(rows.map((r) => [r.stag, r.share, r.exposure]), [
    [0, 0.5, 0.5],
    [0, 0.5, 0.5],
    [1, 1, 0.5],
    [0, 1, 0.5],
    [1, 0, 1],
  ]);
  // The episode window adds every earlier report: E1 R2 p03 sees R1's three and R2's two.
  const e = stagShareRows(HAND, { window: "episode" });
  assert.equal(e.length, 9 - 1); // every honest turn but E1 R1 p01
  const r2 = e.find((r) =>
    r.turn.episode === "E1" && r.turn.round === 2 && r.turn.agent === "p03"
  )!;
  near(r2.share, 2 / 5);
  near(r2.exposure, 2 / 5);
});

Deno.test("stagShareRegressions() reproduces the hand-computed OLS fits with classical errors", () => {
  const fit = stagShareRegressions(HAND, { se: "classical" });
  const [b0, b1] = fit.share.coefficients;
  near(b0.estimate, 4 / 7);
  near(b1.estimate, -2 / 7);
  // SE(slope) = sqrt(s^2 / Sxx), s^2 = SSR / (n - 2) = (8/7)/3.
  near(b1.se, Math.sqrt(8 / 21 / 0.7));
  near(b1.lower, -2 / 7 - Z95 * Math.sqrt(8 / 21 / 0.7));
  near(b1.upper, -2 / 7 + Z95 * Math.sqrt(8 / 21 / 0.7));
  // Exposure alone: Sxx 0.2, Sxy 0.3: slope 1.5, intercept -0.5.
  near(fit.exposure.coefficients[0].estimate, -0.5);
  near(fit.exposure.coefficients[1].estimate, 1.5);
  // Jointly: E2's row is the only one with exposure 1, so it is fitted exactly; the four
  // E1 rows give a share slope of 1: (intercept, share, exposure) = (-2, 1, 3).
  assert.deepEqual(fit.joint.coefficients.map((c) => c.term), ["(intercept)", "share", "exposure"]);
  [-2, 1, 3].forEach((b, i) => near(fit.joint.coefficients[i].estimate, b, 1e-9));
  assert.equal(fit.joint.n, 5);
});

Deno.test("stagShareRegressions() gives HC1 errors by default and CR1 errors clustered by episode", () => {
  // HC1: n/(n-k) sum (x - x-bar)^2 e^2 / Sxx^2 = (5/3) (8.06/49) / 0.49.
  near(
    stagShareRegressions(HAND).share.coefficients[1].se,
    Math.sqrt((5 / 3) * (8.06 / 49) / 0.49),
  );
  // CR1: G/(G-1) (n-1)/(n-k) sum_g (sum_i (x - x-bar) e)^2 / Sxx^2 with cluster scores
  // E1 1.8/7, E2 -1.8/7.
  const cr1 = stagShareRegressions(HAND, { se: "cluster" }).share.coefficients[1].se;
  near(cr1, Math.sqrt(2 * (4 / 3) * (2 * (1.8 / 7) ** 2) / 0.49));
});

Deno.test("ols() recovers an exact line and rejects unusable designs", () => {
  const fit = ols({ y: [1, 3, 5, 7], x: [[0], [1], [2], [3]], terms: ["x"] }, { se: "classical" });
  assert.deepEqual(fit.coefficients.map((c) => c.estimate), [1, 2]);
  throwsWith(() => ols({ y: [1, 2, 3], x: [[1], [1], [1]], terms: ["x"] }), RangeError, /singular/);
  throwsWith(
    () => ols({ y: [1, 2], x: [[1], [2]], terms: ["x"] }),
    RangeError,
    /more observations/,
  );
  throwsWith(
    () => ols({ y: [1, 2, 3, 4], x: [[1], [2], [3], [5]], terms: ["x"] }, { se: "cluster" }),
    RangeError,
    /cluster label/,
  );
  throwsWith(() => ols({ y: [1], x: [[1, 2]], terms: ["x"] }), RangeError, /one row of 1/);
});

import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import { meanCi, meanSe, wilson } from "../../analysis/mod.ts";
import { acrossModelMeans, ciAggregations } from "../../analysis/stats.ts";

Deno.test("wilson() gives the FRAIL Table 8 brackets for k of five episodes", () => {
  const brackets = [0, 1, 2, 3, 4, 5].map((k) => {
    const { rate, lower, upper } = wilson(k, 5);
    return `${rate.toFixed(2)} [${lower.toFixed(2)}, ${upper.toFixed(2)}]`;
  });
  assert.deepEqual(brackets, [
    "0.00 [0.00, 0.43]",
    "0.20 [0.04, 0.62]",
    "0.40 [0.12, 0.77]",
    "0.60 [0.23, 0.88]",
    "0.80 [0.38, 0.96]",
    "1.00 [0.57, 1.00]",
  ]);
});

Deno.test("wilson() matches the closed form when z is given", () => {
  // k = 1, n = 2, z = 1: center 0.5, half = sqrt(0.125 + 0.0625) / 1.5
  const { lower, upper } = wilson(1, 2, { z: 1 });
  assert.equal(lower.toFixed(6), (0.5 - Math.sqrt(0.1875) / 1.5).toFixed(6));
  assert.equal(upper.toFixed(6), (0.5 + Math.sqrt(0.1875) / 1.5).toFixed(6));
});

Deno.test("wilson() throws a RangeError naming the bad argument", () => {
  assert.throws(() => wilson(1, 0), {
    name: "RangeError",
    message: "Wilson interval needs a positive integer n: received 0",
  });
  assert.throws(() => wilson(6, 5), {
    name: "RangeError",
    message: "Wilson interval needs an integer k from 0 to n (5): received 6",
  });
  assert.throws(() => wilson(1, 5, { z: -1 }), {
    name: "RangeError",
    message: "Wilson interval needs a positive finite z: received -1",
  });
});

Deno.test("meanSe() uses the sample standard deviation", () => {
  const { mean, sd, se, n } = meanSe([2, 4, 4, 4, 5, 5, 7, 9]);
  assert.equal(mean, 5);
  assert.equal(sd.toFixed(6), Math.sqrt(32 / 7).toFixed(6));
  assert.equal(se.toFixed(6), (Math.sqrt(32 / 7) / Math.sqrt(8)).toFixed(6));
  assert.equal(n, 8);
  assert.deepEqual(meanSe([3]), { mean: 3, sd: 0, se: 0, n: 1 });
  assert.ok(Number.isNaN(meanSe([]).mean));
});

Deno.test("meanSe() throws a TypeError for a value that is not a finite number", () => {
  assert.throws(() => meanSe([1, NaN]), {
    name: "TypeError",
    message: "Value 1 is not a finite number: NaN",
  });
});

Deno.test("meanCi() and ciAggregations() agree", () => {
  const values = [0, 1, 1, 0, 1];
  const ci = meanCi(values);
  const row = pl.DataFrame({ g: values.map(() => "a"), x: values })
    .groupBy("g").agg(...ciAggregations("x")).toRecords()[0];
  assert.equal(ci.mean, 0.6);
  assert.equal((row.mean as number).toFixed(9), ci.mean.toFixed(9));
  assert.equal((row.lower as number).toFixed(9), ci.lower.toFixed(9));
  assert.equal((row.upper as number).toFixed(9), ci.upper.toFixed(9));
  // sd = sqrt(0.3) = 0.5477, se = 0.2449, half-width 0.4801
  assert.equal(ci.lower.toFixed(4), "0.1199");
  assert.equal(row.n, 5);
});

Deno.test("acrossModelMeans() averages episodes per model first", () => {
  const df = pl.DataFrame({
    env: ["x", "x", "x", "x", "y"],
    model: ["a", "a", "a", "b", "a"],
    w: [0, 0, 0.9, 0.7, 1],
  });
  const rows = acrossModelMeans(df, { by: ["env"], value: "w" }).toRecords();
  // x: model means 0.3 and 0.7 -> mean 0.5, sd 0.2828, se 0.2; y: one model
  assert.equal(rows.length, 2);
  assert.equal((rows[0].mean as number).toFixed(6), "0.500000");
  assert.equal((rows[0].se as number).toFixed(6), "0.200000");
  // One model mean has no spread to estimate: the SE is null, not 0.
  assert.deepEqual(rows[1], { env: "y", mean: 1, se: null, models: 1 });
});

Deno.test("acrossModelMeans() names a missing column", () => {
  assert.throws(
    () => acrossModelMeans(pl.DataFrame({ env: ["x"], w: [1] }), { by: ["env"], value: "w" }),
    {
      name: "RangeError",
      message: 'acrossModelMeans() needs a column "model": the frame has "env", "w"',
    },
  );
});

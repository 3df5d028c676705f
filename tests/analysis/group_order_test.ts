// Two-stage aggregations (a mean per model, then a mean across models) must
// not depend on the order in which Polars returns the first stage's groups,
// which varies from call to call: otherwise the last digit of a table value
// or a chart's data changes when a notebook is executed again.
import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import { scorecard } from "../../analysis/mod.ts";
import { acrossModelMeans } from "../../analysis/stats.ts";

const MODELS = ["a", "b", "c", "d", "e", "f", "g"];
const MEANS = [0.1, 0.2, 0.3, 0.7, 0.11, 0.13, 0.17];
// Calls per check. Without the sorts that fix it (2026-12-01, 2 cores), the
// first differing result came at call 2-47 of acrossModelMeans() (30 trials
// per row order; each order alone catches it in 50 calls with probability
// about 0.99, the three together about 1 - 1e-6) and at call 2-6 of
// scorecard() (30 trials): 50 calls catch what 200 did at a quarter the time.
const CALLS = 50;

function distinct(compute: () => pl.DataFrame): Set<string> {
  const seen = new Set<string>();
  for (let i = 0; i < CALLS; i++) seen.add(JSON.stringify(compute().toRecords()));
  return seen;
}

Deno.test("acrossModelMeans() gives the same bits on every call and for any row order", () => {
  const orders = [MODELS, [...MODELS].reverse(), ["d", "a", "g", "c", "f", "b", "e"]];
  const results = new Set<string>();
  for (const order of orders) {
    const df = pl.DataFrame({
      env: order.map(() => "x"),
      model: order,
      w: order.map((m) => MEANS[MODELS.indexOf(m)]),
    });
    for (const r of distinct(() => acrossModelMeans(df, { by: ["env"], value: "w" }))) {
      results.add(r);
    }
  }
  assert.equal(results.size, 1, [...results].join("\n"));
  const [row] = JSON.parse([...results][0]);
  assert.equal(row.mean.toFixed(6), "0.244286"); // 1.71 / 7
  assert.equal(row.models, 7);
});

Deno.test("scorecard() gives the same bits on every call", () => {
  // Three models with three episodes each in every environment: means such
  // as (0.2 + 0.2 + 0.72) / 3 whose last digit depends on the order summed.
  const values = [0.1, 0.2, 0.3, 0.7, 0.11, 0.13, 0.17, 0.9, 0.45];
  const rows = ["bank_run", "debt_rollover", "crowdfunding"].flatMap((env, e) =>
    MODELS.slice(0, 3).flatMap((model, m) =>
      [0, 1, 2].map((k) => ({
        run: "r",
        episode: `${env}_${model}_${k}`,
        env,
        regime: "stable",
        mechanism: "M1",
        model,
        status: "ok",
        success: (m + e + k) % 3 === 0,
        welfare_realization: values[(m + e + 2 * k) % values.length],
        central_payoff_normalized: values[(m + 2 * e + k) % values.length],
        funding: 15,
      }))
    )
  );
  const episodes = pl.DataFrame(rows);
  const rounds = pl.DataFrame(rows.map((r, i) => ({
    run: r.run,
    episode: r.episode,
    mechanism: r.mechanism,
    round: 1,
    committed: values[i % values.length] * 15,
  })));
  const results = distinct(() => scorecard(episodes, rounds));
  assert.equal(results.size, 1, [...results].join("\n"));
});

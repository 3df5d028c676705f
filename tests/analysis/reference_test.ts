import assert from "node:assert/strict";
import pl from "npm:nodejs-polars@0.25.2";
import { compareWithReference, loadReference, welfareAverage, wilson } from "../../analysis/mod.ts";
import { acrossModelMeans } from "../../analysis/stats.ts";
import { type ReferenceName, referenceVerdict, withSeInterval } from "../../analysis/reference.ts";
import { withMarks } from "../../analysis/frail/welfare_table.ts";

function fixed(value: unknown, digits = 3): string {
  return (value as number).toFixed(digits);
}

Deno.test("welfareAverage() reproduces FRAIL Table 2's Average column from its model cells", () => {
  const cells = loadReference("frail_table2");
  assert.equal(cells.height, 84);
  const compared = compareWithReference(
    welfareAverage(cells),
    loadReference("frail_table2_average"),
    {
      keys: ["env", "regime", "mechanism"],
      values: ["mean", "se"],
      decimals: 3,
    },
  );
  assert.equal(compared.height, 24);
  const misses = compared.filter(pl.col("match").not()).toRecords();
  assert.deepEqual(misses, []);
  // A few cells spelled out, as printed in the paper.
  const printed = welfareAverage(cells).toRecords().map((row) =>
    `${row.env} ${row.mechanism} ${fixed(row.mean)} ± ${fixed(row.se)} (${row.models})`
  );
  assert.equal(printed[0], "bank_run M0 0.215 ± 0.139 (7)");
  assert.equal(printed[3], "bank_run M3 0.737 ± 0.169 (7)");
  assert.equal(printed[6], "debt_rollover M2 0.627 ± 0.177 (7)");
  assert.equal(printed[11], "crowdfunding M3 0.921 ± 0.056 (7)");
});

Deno.test("withMarks() reproduces every arrow of FRAIL Tables 2, 11 and 12", () => {
  for (const name of ["frail_table2", "frail_table11", "frail_table12"] as ReferenceName[]) {
    const paper = loadReference(name);
    const marked = withMarks(paper.rename({ mark: "paper_mark" }), { value: "welfare" });
    const wrong = marked.filter(pl.col("mark").neq(pl.col("paper_mark"))).toRecords();
    assert.deepEqual(wrong, [], name);
  }
  const arrows = loadReference("frail_table2").getColumn("mark").toArray();
  assert.equal(arrows.filter((m) => m === "up").length, 46);
  assert.equal(arrows.filter((m) => m === "down").length, 7);
});

Deno.test("wilson() reproduces every bracket of FRAIL Table 8 from Table 2's success counts", () => {
  const table8 = loadReference("frail_table8");
  const successes = new Map(
    loadReference("frail_table2").toRecords().map((row) => [
      `${row.env}|${row.model}|${row.mechanism}`,
      row.successes as number,
    ]),
  );
  assert.equal(table8.height, 84);
  for (const row of table8.toRecords()) {
    const k = successes.get(`${row.env}|${row.model}|${row.mechanism}`);
    assert.ok(k !== undefined, `${row.env} ${row.model} ${row.mechanism}`);
    const { rate, lower, upper } = wilson(k, 5);
    const cell = `${row.env} ${row.model_label} ${row.mechanism}`;
    assert.equal(fixed(rate, 2), fixed(row.rate, 2), cell);
    assert.equal(fixed(lower, 2), fixed(row.lower, 2), cell);
    assert.equal(fixed(upper, 2), fixed(row.upper, 2), cell);
  }
});

Deno.test("welfareAverage() reproduces Tables 10-12 within the rounding of their inputs", () => {
  // Table 10's Stable column is the four-model subset of Table 2.
  const subset = loadReference("frail_table2").filter(
    pl.col("model").isIn(["GPT-terra", "Claude-Sonnet", "GLM", "Qwen"]),
  );
  const cells = pl.concat([subset, loadReference("frail_table11"), loadReference("frail_table12")]);
  const compared = compareWithReference(welfareAverage(cells), loadReference("frail_table10"), {
    keys: ["env", "mechanism", "regime"],
    values: ["mean", "se"],
  });
  assert.equal(compared.height, 72);
  const diffs = compared.getColumn("diff").toArray() as number[];
  assert.ok(diffs.every((d) => Math.abs(d) <= 0.001 + 1e-12), String(Math.max(...diffs)));
  // Ties at the rounding boundary (0.7235 printed 0.723) count as matches; one SE
  // of the rounded inputs (0.07651) prints 0.077 where the paper has 0.076.
  const misses = compared.filter(pl.col("match").not()).toRecords()
    .map((r) => `${r.env} ${r.mechanism} ${r.regime} ${r.column}`);
  assert.deepEqual(misses, ["crowdfunding M0 stable se"]);
  for (
    const [table, average] of [
      ["frail_table11", "frail_table11_average"],
      ["frail_table12", "frail_table12_average"],
    ] as [ReferenceName, ReferenceName][]
  ) {
    const mine = acrossModelMeans(loadReference(table), {
      by: ["env", "regime", "mechanism"],
      value: "welfare",
    });
    const c = compareWithReference(mine, loadReference(average), {
      keys: ["env", "regime", "mechanism"],
      values: ["mean", "se"],
    });
    assert.equal(c.filter(pl.col("match")).height, 24, table);
  }
});

Deno.test("loadReference() reads Table 9 and the Stag Hunt Table 1 with numeric columns", () => {
  const table9 = loadReference("frail_table9");
  assert.deepEqual(
    table9.filter(pl.col("mechanism").eq(pl.lit("M3"))).select("measure", "mean", "se").toRecords(),
    [
      { measure: "withdrawal_rate", mean: 0.181, se: 0.112 },
      { measure: "redemption_rate", mean: 0.213, se: 0.041 },
      { measure: "first_launch_round", mean: 1.3, se: 0.191 },
    ],
  );
  assert.deepEqual(loadReference("staghunt_table1").getColumn("match_rate").toArray(), [
    0.829,
    0.846,
    0.85,
  ]);
});

Deno.test("loadReference() throws a RangeError for an unknown table", () => {
  assert.throws(() => loadReference("frail_table99" as ReferenceName), {
    name: "RangeError",
    message: /^Unknown reference table "frail_table99": expected one of "frail_table2", /,
  });
});

Deno.test("compareWithReference() keeps cells present on one side only", () => {
  const run = pl.DataFrame({ mechanism: ["M1", "M4"], mean: [0.5, 0.1] });
  const paper = pl.DataFrame({ mechanism: ["M0", "M1"], mean: [0.2, 0.5] });
  const rows = compareWithReference(run, paper, { keys: ["mechanism"], values: ["mean"] })
    .toRecords();
  assert.deepEqual(rows.map((r) => [r.mechanism, r.run, r.paper, r.match, r.verdict]), [
    ["M0", null, 0.2, false, "no_run"],
    ["M1", 0.5, 0.5, true, "printed"],
    ["M4", 0.1, null, false, "no_paper"],
  ]);
});

Deno.test("compareWithReference() names a missing column", () => {
  assert.throws(
    () =>
      compareWithReference(pl.DataFrame({ a: [1] }), pl.DataFrame({ a: [1], b: [2] }), {
        keys: ["a"],
        values: ["b"],
      }),
    { name: "RangeError", message: /^compareWithReference\(\) run table needs a column "b"/ },
  );
});

Deno.test("compareWithReference() keeps the run's regimes apart when keys omit regime", () => {
  const run = pl.DataFrame({
    env: ["bank_run", "bank_run"],
    regime: ["stable", "contraction"],
    mechanism: ["M0", "M0"],
    overrides_id: ["none", "none"],
    mean: [0.2, 0.1],
  });
  // FRAIL Table 2's average holds the stable regime only: the contraction cell has no paper value.
  const rows = compareWithReference(run, loadReference("frail_table2_average"), {
    keys: ["env", "mechanism"],
    values: ["mean"],
  }).filter(pl.col("env").eq(pl.lit("bank_run")).and(pl.col("mechanism").eq(pl.lit("M0"))));
  assert.deepEqual(rows.toRecords(), [
    {
      env: "bank_run",
      mechanism: "M0",
      regime: "stable",
      overrides_id: "none",
      column: "mean",
      run: 0.2,
      paper: 0.215,
      diff: 0.2 - 0.215,
      match: false,
      verdict: "outside",
    },
    {
      env: "bank_run",
      mechanism: "M0",
      regime: "contraction",
      overrides_id: "none",
      column: "mean",
      run: 0.1,
      paper: null,
      diff: null,
      match: false,
      verdict: "no_paper",
    },
  ]);
  const both = pl.concat([
    loadReference("frail_table2_average"),
    loadReference("frail_table12_average"),
  ]);
  const paired = compareWithReference(run, both, { keys: ["env", "mechanism"], values: ["mean"] })
    .filter(pl.col("run").isNotNull());
  assert.deepEqual(paired.select("regime", "run", "paper").toRecords(), [
    { regime: "stable", run: 0.2, paper: 0.215 },
    { regime: "contraction", run: 0.1, paper: 0 },
  ]);
});

Deno.test("compareWithReference() refuses a run key the paper lacks when it holds several values", () => {
  const run = pl.DataFrame({
    env: ["bank_run", "bank_run"],
    regime: ["stable", "contraction"],
    mechanism: ["M0", "M0"],
    mean: [0.2, 0.1],
  });
  const paper = pl.DataFrame({ env: ["bank_run"], mechanism: ["M0"], mean: [0.215] });
  assert.throws(
    () => compareWithReference(run, paper, { keys: ["env", "mechanism"], values: ["mean"] }),
    {
      name: "RangeError",
      message: "compareWithReference(): the run table holds 2 regime values (stable, " +
        'contraction) but the paper table has no "regime" column, so each would be compared ' +
        "with the same published value; filter the run to one regime, or compare with a paper " +
        'table that has a "regime" column',
    },
  );
  // One regime is carried as a column.
  const one = compareWithReference(run.head(1), paper, {
    keys: ["env", "mechanism"],
    values: ["mean"],
  });
  assert.deepEqual(one.columns, [
    "env",
    "mechanism",
    "regime",
    "column",
    "run",
    "paper",
    "diff",
    "match",
    "verdict",
  ]);
  assert.deepEqual(one.getColumn("regime").toArray(), ["stable"]);
});

Deno.test("compareWithReference() refuses two rows for one cell, naming what differs", () => {
  const run = pl.DataFrame({ mechanism: ["M0", "M0"], model: ["a", "b"], mean: [0.2, 0.3] });
  const paper = pl.DataFrame({ mechanism: ["M0"], mean: [0.215] });
  assert.throws(
    () => compareWithReference(run, paper, { keys: ["mechanism"], values: ["mean"] }),
    {
      name: "RangeError",
      message: 'compareWithReference(): the run table has two rows for mechanism "M0" (they ' +
        "differ in model, mean): add the column that tells them apart to keys, or aggregate " +
        "the table first",
    },
  );
});

Deno.test("referenceVerdict() applies the run's interval, then the paper's, then the printed precision", () => {
  // Hand-made cells, one per branch of the rule.
  assert.equal(referenceVerdict({ run: 0.2, paper: 0.3, runInterval: [0.1, 0.3] }), "run");
  assert.equal(referenceVerdict({ run: 0.2, paper: 0.1, runInterval: [0.1, 0.3] }), "run");
  assert.equal(
    referenceVerdict({ run: 0.2, paper: 0.31, runInterval: [0.1, 0.3], paperInterval: [0.2, 0.4] }),
    "paper",
  );
  assert.equal(
    referenceVerdict({
      run: 0.1999,
      paper: 0.31,
      runInterval: [0.1, 0.3],
      paperInterval: [0.2, 0.4],
    }),
    "outside",
  );
  // An interval with a null end (a one-model SE) is no interval.
  assert.equal(referenceVerdict({ run: 0.2, paper: 0.25, runInterval: [null, null] }), "outside");
  assert.equal(referenceVerdict({ run: 0.7235, paper: 0.723, decimals: 3 }), "printed");
  assert.equal(referenceVerdict({ run: 0.7236, paper: 0.723, decimals: 3 }), "outside");
  assert.equal(referenceVerdict({ run: 0.76, paper: 0.8, decimals: 1 }), "printed");
  assert.equal(referenceVerdict({ run: null, paper: 0.8 }), "no_run");
  assert.equal(referenceVerdict({ run: 0.8, paper: null }), "no_paper");
});

Deno.test("compareWithReference() gives a verdict per cell from both intervals", () => {
  const run = pl.DataFrame({
    mechanism: ["M0", "M1", "M2", "M3"],
    mean: [0.2, 0.5, 0.9, 0.3],
    lower: [0.1, 0.45, 0.85, null],
    upper: [0.3, 0.55, 0.95, null],
  });
  const paper = withSeInterval(
    pl.DataFrame({
      mechanism: ["M0", "M1", "M2", "M3"],
      mean: [0.25, 0.7, 0.2, 0.3],
      se: [0.01, 0.1, 0.01, 0.05],
    }),
    { into: ["p_lo", "p_hi"] },
  );
  const cells = compareWithReference(run, paper, {
    keys: ["mechanism"],
    values: ["mean"],
    runInterval: ["lower", "upper"],
    paperInterval: ["p_lo", "p_hi"],
  });
  assert.deepEqual(cells.columns, [
    "mechanism",
    "column",
    "run",
    "paper",
    "diff",
    "run_lower",
    "run_upper",
    "paper_lower",
    "paper_upper",
    "match",
    "verdict",
  ]);
  assert.deepEqual(cells.select("mechanism", "match", "verdict").toRecords(), [
    { mechanism: "M0", match: true, verdict: "run" },
    // 0.7 is not in [0.45, 0.55], and 0.5 falls just short of 0.7 ± 0.196 = [0.504, 0.896].
    { mechanism: "M1", match: false, verdict: "outside" },
    { mechanism: "M2", match: false, verdict: "outside" },
    // No run interval (null ends), 0.3 inside 0.3 ± 0.098.
    { mechanism: "M3", match: true, verdict: "paper" },
  ]);
  assert.throws(
    () =>
      compareWithReference(run, paper, {
        keys: ["mechanism"],
        values: ["mean", ["lower", "se"]],
        runInterval: ["lower", "upper"],
      }),
    {
      name: "RangeError",
      message: "compareWithReference(): an interval applies to one value column, got 2 " +
        "(mean, lower); compare one column at a time",
    },
  );
});

Deno.test("compareWithReference() lists cells only in the run in the run's row order", () => {
  // A full join returns the unmatched rows of the run in an order of its own,
  // which changed from call to call: a report built twice differed.
  const envs = ["bank_run", "debt_rollover", "crowdfunding"];
  const rows = envs.flatMap((env) =>
    ["M0", "M1", "M2", "M3"].flatMap((mechanism) =>
      ["a", "b"].map((model) => ({ env, mechanism, model, rate: 0.5 }))
    )
  );
  const run = pl.DataFrame(rows);
  const paper = loadReference("frail_table8");
  const expected = [
    ...paper.select("env", "mechanism", "model").rows(),
    ...rows.map((r) => [r.env, r.mechanism, r.model]),
  ];
  for (let attempt = 0; attempt < 8; attempt++) {
    const cells = compareWithReference(run, paper, {
      keys: ["env", "mechanism", "model"],
      values: ["rate"],
    });
    assert.deepEqual(cells.select("env", "mechanism", "model").rows(), expected);
  }
});

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import pl from "npm:nodejs-polars@0.25.2";
import {
  displayChart,
  displayTable,
  saveChart,
  settle,
  stateTrajectoryChart,
  type VegaLiteSpec,
} from "../../analysis/mod.ts";
import { type ChartBundle, chartBundle, tableBundle } from "../../analysis/display.ts";
import { VEGA_LITE_SCHEMA } from "../../analysis/charts/spec.ts";
import { countDarkPixels, decodePng, hasPngSignature, pngSize } from "./_png.ts";
import { tempDirRunner } from "./_temp_dir.ts";

const CHART_KEYS = ["application/vnd.vegalite.v5+json", "image/png", "text/plain"];

function chart(title?: string): VegaLiteSpec {
  return stateTrajectoryChart([
    { round: 0, series: "cash", value: 10 },
    { round: 1, series: "cash", value: 6 },
    { round: 0, series: "assets", value: 2 },
    { round: 1, series: "assets", value: 4 },
  ], { title, referenceLines: [{ y: 5, label: "threshold" }] });
}

function pngOf(bundle: ChartBundle): Uint8Array {
  return new Uint8Array(Buffer.from(bundle["image/png"], "base64"));
}

/** Runs `fn` with a fake `Deno.jupyter` that records `display` calls. */
async function withFakeJupyter(
  fn: (calls: [unknown, unknown][]) => Promise<void>,
): Promise<void> {
  const calls: [unknown, unknown][] = [];
  const deno = Deno as unknown as { jupyter: unknown };
  deno.jupyter = {
    display: (obj: unknown, options: unknown) => {
      calls.push([obj, options]);
      return Promise.resolve();
    },
  };
  try {
    await fn(calls);
  } finally {
    deno.jupyter = undefined; // back to the real getter, which throws outside Jupyter
  }
}

// ---- chartBundle / displayChart ------------------------------------------

Deno.test("chartBundle() has exactly the Vega-Lite, PNG and text MIME keys", async () => {
  const bundle = await chartBundle(chart("Bank state"));
  assert.deepEqual(Object.keys(bundle).sort(), CHART_KEYS);
  assert.equal("text/html" in bundle, false);
  assert.equal("image/svg+xml" in bundle, false);
});

Deno.test("chartBundle() forces the v5 $schema without changing the spec", async () => {
  const spec = { ...chart(), $schema: "https://vega.github.io/schema/vega-lite/v4.json" };
  const bundle = await chartBundle(spec);
  const embedded = bundle["application/vnd.vegalite.v5+json"];
  assert.equal(embedded.$schema, VEGA_LITE_SCHEMA);
  assert.equal(spec.$schema, "https://vega.github.io/schema/vega-lite/v4.json");
  const { $schema: _a, ...rest } = spec;
  const { $schema: _b, ...embeddedRest } = embedded;
  assert.deepEqual(embeddedRest, rest);

  const { $schema: _c, ...noSchema } = chart();
  const added = await chartBundle(noSchema as VegaLiteSpec);
  assert.equal(added["application/vnd.vegalite.v5+json"].$schema, VEGA_LITE_SCHEMA);
});

Deno.test("chartBundle() embeds a base64 PNG of the requested width", async () => {
  const png = pngOf(await chartBundle(chart("Bank state"), { width: 500 }));
  assert.ok(hasPngSignature(png));
  assert.equal(pngSize(png).width, 500);
  assert.ok(countDarkPixels(decodePng(png)) > 0);
});

Deno.test("chartBundle() describes the chart by its title in text/plain", async () => {
  assert.equal(
    (await chartBundle(chart("Bank state")))["text/plain"],
    "Vega-Lite chart: Bank state",
  );
  assert.equal((await chartBundle(chart()))["text/plain"], "Vega-Lite chart");
  const lines = { ...chart(), title: { text: ["Bank", "state"], subtitle: "run 3" } };
  assert.equal((await chartBundle(lines))["text/plain"], "Vega-Lite chart: Bank state");
});

Deno.test("chartBundle() throws RangeError for a bad PNG width", async () => {
  await assert.rejects(chartBundle(chart(), { width: -1 }), {
    name: "RangeError",
    message: "PNG width must be an integer from 1 to 16384: received -1",
  });
});

Deno.test("displayChart() returns the bundle outside Jupyter", async () => {
  const bundle = await displayChart(chart("Bank state"), { width: 320 });
  assert.ok(bundle !== undefined);
  assert.deepEqual(Object.keys(bundle).sort(), CHART_KEYS);
  assert.equal(pngSize(pngOf(bundle)).width, 320);
});

Deno.test("displayChart() sends the raw bundle to Deno.jupyter.display inside Jupyter", async () => {
  await withFakeJupyter(async (calls) => {
    const result = await displayChart(chart("Bank state"));
    assert.equal(result, undefined);
    assert.equal(calls.length, 1);
    const [obj, options] = calls[0];
    assert.deepEqual(options, { raw: true });
    assert.deepEqual(Object.keys(obj as object).sort(), CHART_KEYS);
  });
});

// ---- tableBundle / displayTable ------------------------------------------

Deno.test("tableBundle() escapes <script> in cells", () => {
  const df = pl.DataFrame({
    agent: [0, 1],
    reasoning: ["<script>alert('x')</script>", `I'll "withdraw" & run`],
  });
  const html = tableBundle(df)["text/html"];
  assert.ok(!html.includes("<script"));
  assert.ok(html.includes("<td>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</td>"));
  assert.ok(html.includes("<td>I&#39;ll &quot;withdraw&quot; &amp; run</td>"));
});

Deno.test("tableBundle() escapes column names and the caption", () => {
  const df = pl.DataFrame({ "<b>col</b>": [1] });
  const html = tableBundle(df, { caption: "<img src=x onerror=alert(1)>" })["text/html"];
  assert.ok(html.includes("<th>&lt;b&gt;col&lt;/b&gt;</th>"));
  assert.ok(html.includes("<caption>&lt;img src=x onerror=alert(1)&gt;</caption>"));
  assert.ok(!html.includes("<img") && !html.includes("<b>"));
});

Deno.test("tableBundle() returns HTML and an aligned text table", () => {
  const df = pl.DataFrame({ round: [1, 2], series: ["cash", "assets"] });
  const bundle = tableBundle(df);
  assert.deepEqual(Object.keys(bundle).sort(), ["text/html", "text/plain"]);
  assert.equal(
    bundle["text/plain"],
    [
      "shape: (2, 2)",
      "  round  series",
      "Float64  String",
      "-------  ------",
      "      1  cash",
      "      2  assets",
    ].join("\n"),
  );
  const html = bundle["text/html"];
  assert.ok(html.includes("<tr><th>round</th><th>series</th></tr>"));
  assert.ok(
    html.includes(
      `<tr class="dtype"><td><small>Float64</small></td><td><small>String</small></td></tr>`,
    ),
  );
  assert.ok(html.includes("<tr><td>1</td><td>cash</td></tr>"));
  assert.ok(html.includes("shape: (2, 2)"));
  assert.ok(!html.includes("not shown"));
});

Deno.test("tableBundle() shows nulls, dates and lists as text", () => {
  const df = pl.DataFrame({
    x: [1.5, null],
    at: [new Date(Date.UTC(2024, 0, 2)), null],
    ids: [[1, 2], []],
  });
  const html = tableBundle(df)["text/html"];
  assert.ok(
    html.includes("<tr><td>1.500</td><td>2024-01-02T00:00:00.000Z</td><td>[1,2]</td></tr>"),
  );
  assert.ok(html.includes("<tr><td>null</td><td>null</td><td>[]</td></tr>"));
});

Deno.test("tableBundle() shows at most maxRows rows and counts the rest", () => {
  const df = pl.DataFrame({ i: Array.from({ length: 60 }, (_, i) => i) });
  const byDefault = tableBundle(df)["text/html"];
  assert.equal(byDefault.split("<tr><td>").length - 1, 50);
  assert.ok(byDefault.includes("shape: (60, 1); 10 more rows not shown"));
  const three = tableBundle(df, { maxRows: 3 })["text/html"];
  assert.equal(three.split("<tr><td>").length - 1, 3);
  assert.ok(three.includes("<tr><td>2</td></tr>") && !three.includes("<tr><td>3</td></tr>"));
  assert.ok(three.includes("57 more rows not shown"));
});

Deno.test("tableBundle() throws RangeError for a maxRows that is not a non-negative integer", () => {
  const df = pl.DataFrame({ i: [1] });
  for (const maxRows of [-1, 1.5]) {
    assert.throws(() => tableBundle(df, { maxRows }), {
      name: "RangeError",
      message: `Table maxRows must be a non-negative integer: received ${maxRows}`,
    });
  }
});

Deno.test("tableBundle() rounds floats to 3 decimals, or as asked, in HTML and text", () => {
  // A Wilson bound as successTable() computes it for 1 success in 10.
  const df = pl.DataFrame({ lower: [0.01787574951572113, 0.7224598312333834, -1e-9] });
  const bundle = tableBundle(df);
  for (const cell of ["0.018", "0.722", "0.000"]) {
    assert.ok(bundle["text/html"].includes(`<td>${cell}</td>`), cell);
    assert.ok(bundle["text/plain"].includes(` ${cell}\n`) || bundle["text/plain"].endsWith(cell));
  }
  assert.ok(!bundle["text/html"].includes("0.0178757") && !bundle["text/plain"].includes("0.0178"));
  assert.ok(!bundle["text/html"].includes("-0.000"));
  const one = tableBundle(df, { decimals: 1 });
  assert.ok(one["text/html"].includes("<td>0.7</td>") && one["text/plain"].includes("0.7"));
  const zero = tableBundle(pl.DataFrame({ x: [2.5, 3.49] }), { decimals: 0 })["text/html"];
  assert.ok(zero.includes("<td>3</td>") && zero.includes("<td>3</td>"));
});

Deno.test("tableBundle() shows float columns of whole numbers as integers", () => {
  // Polars makes counts floats after some aggregations: N 5.0, tokens_in 954.0.
  const df = pl.DataFrame({
    N: [5, 10],
    tokens_in: [954, 1200],
    share: [1, 0.5],
  }).withColumns(pl.col("N").cast(pl.Float64), pl.col("tokens_in").cast(pl.Float64));
  const bundle = tableBundle(df);
  assert.ok(bundle["text/html"].includes("<tr><td>5</td><td>954</td><td>1.000</td></tr>"));
  assert.ok(bundle["text/html"].includes("<tr><td>10</td><td>1200</td><td>0.500</td></tr>"));
  assert.ok(!bundle["text/plain"].includes(".0 ") && !bundle["text/plain"].includes("954.0"));
  assert.ok(bundle["text/plain"].includes("    5        954    1.000"));
});

Deno.test("tableBundle() puts the condition key columns first and sorts rows stably", () => {
  const rows = [
    { rate: 0.5, rule: "carryover", regime: "stable", n: 2, env: "bank_run" },
    { rate: 0.25, rule: "naive", regime: "contraction", n: 1, env: "bank_run" },
    { rate: 0.75, rule: "naive", regime: "stable", n: 3, env: "bank_run" },
    { rate: 0.75, rule: "carryover", regime: "stable", n: 3, env: "bank_run" },
    { rate: 0.1, rule: "naive", regime: "stable", n: 3, env: "bank_run" },
    { rate: 0.9, rule: "my_rule", regime: "stable", n: 3, env: "bank_run" },
  ];
  const tables = [rows, [...rows].reverse(), [rows[2], rows[5], rows[0], rows[4], rows[1], rows[3]]]
    .map(
      (order) => tableBundle(pl.DataFrame(order)),
    );
  // The same rows in any order give the same bundle.
  assert.deepEqual(tables[1], tables[0]);
  assert.deepEqual(tables[2], tables[0]);
  assert.equal(
    tables[0]["text/plain"],
    [
      "shape: (6, 5)",
      "regime       env          rate  rule             n",
      "String       String    Float64  String     Float64",
      "-----------  --------  -------  ---------  -------",
      // Key columns first in the frame's order; regimes in the paper's order, then every
      // other column in turn.
      "stable       bank_run    0.100  naive            3",
      "stable       bank_run    0.500  carryover        2",
      "stable       bank_run    0.750  naive            3",
      "stable       bank_run    0.750  carryover        3", // the paper's rules in its order
      "stable       bank_run    0.900  my_rule          3",
      "contraction  bank_run    0.250  naive            1",
    ].join("\n"),
  );
  const kept = tableBundle(pl.DataFrame(rows), { sort: false })["text/plain"].split("\n");
  assert.equal(kept[4], "stable       bank_run    0.500  carryover        2");
  // A frame without key columns keeps its order.
  const labels = pl.DataFrame({ Regime: ["Stable", "Contraction"], W: [0.5, 0.25] });
  assert.ok(tableBundle(labels)["text/html"].includes("<td>Stable</td><td>0.500</td></tr>\n<tr>"));
});

Deno.test("tableBundle() throws RangeError for decimals that are not an integer from 0 to 15", () => {
  for (const decimals of [-1, 2.5, 16]) {
    assert.throws(() => tableBundle(pl.DataFrame({ x: [1] }), { decimals }), {
      name: "RangeError",
      message: `Table decimals must be an integer from 0 to 15: received ${decimals}`,
    });
  }
});

Deno.test("displayTable() returns the bundle outside Jupyter", async () => {
  const df = pl.DataFrame({ i: [1, 2] });
  assert.deepEqual(await displayTable(df), tableBundle(df));
});

Deno.test("displayTable() sends the raw bundle to Deno.jupyter.display inside Jupyter", async () => {
  const df = pl.DataFrame({ i: [1, 2] });
  await withFakeJupyter(async (calls) => {
    assert.equal(await displayTable(df, { caption: "c" }), undefined);
    assert.deepEqual(calls, [[tableBundle(df, { caption: "c" }), { raw: true }]]);
  });
});

// ---- saveChart --------------------------------------------------------------

const inTempDir = tempDirRunner("coordlab_display_test_");

Deno.test("saveChart() writes an SVG file for .svg", async () => {
  await inTempDir(async (dir) => {
    await saveChart(chart("Bank state"), `${dir}/chart.svg`);
    const svg = await Deno.readTextFile(`${dir}/chart.svg`);
    assert.ok(svg.startsWith("<svg"));
    assert.ok(svg.includes(">Bank state</text>"));
    assert.equal(svg.split(`aria-roledescription="line mark"`).length - 1, 2);
  });
});

Deno.test("saveChart() writes a PNG file for .png, case-insensitively", async () => {
  await inTempDir(async (dir) => {
    await saveChart(chart(), `${dir}/chart.png`, { width: 420 });
    await saveChart(chart(), `${dir}/upper.PNG`);
    const png = await Deno.readFile(`${dir}/chart.png`);
    assert.ok(hasPngSignature(png));
    assert.equal(pngSize(png).width, 420);
    assert.ok(hasPngSignature(await Deno.readFile(`${dir}/upper.PNG`)));
  });
});

Deno.test("saveChart() writes a self-contained HTML file for .html", async () => {
  await inTempDir(async (dir) => {
    const spec = chart("Bank state");
    await saveChart(spec, `${dir}/chart.html`, { width: 300 });
    const html = await Deno.readTextFile(`${dir}/chart.html`);
    assert.ok(html.startsWith("<!doctype html>"));
    assert.ok(html.includes("<title>Vega-Lite chart: Bank state</title>"));

    const image = html.match(/<img src="data:image\/png;base64,([A-Za-z0-9+/=]+)"/);
    assert.ok(image, "PNG data URI");
    const png = new Uint8Array(Buffer.from(image[1], "base64"));
    assert.equal(pngSize(png).width, 300);

    const script = html.match(
      /<script type="application\/vnd\.vegalite\.v5\+json"[^>]*>(.*)<\/script>/,
    );
    assert.ok(script, "embedded spec");
    assert.deepEqual(JSON.parse(script[1]), { ...spec, $schema: VEGA_LITE_SCHEMA });

    // Nothing is fetched: no src or href other than the data URI.
    assert.deepEqual(html.match(/\b(src|href)="/g), ['src="']);
  });
});

Deno.test("saveChart() keeps hostile titles inert in HTML", async () => {
  await inTempDir(async (dir) => {
    const title = `</script><script>alert("x")</script>`;
    await saveChart(chart(title), `${dir}/chart.html`);
    const html = await Deno.readTextFile(`${dir}/chart.html`);
    assert.equal(html.split("<script").length - 1, 1);
    assert.equal(html.split("</script>").length - 1, 1);
    const script = html.match(/<script [^>]*>(.*)<\/script>/)!;
    assert.equal(JSON.parse(script[1]).title, title);
  });
});

Deno.test("saveChart() throws RangeError naming an unknown extension", async () => {
  await inTempDir(async (dir) => {
    await assert.rejects(saveChart(chart(), `${dir}/chart.jpg`), {
      name: "RangeError",
      message: `Cannot save chart to "${dir}/chart.jpg": extension ".jpg" ` +
        `is not one of ".svg", ".png", ".html"`,
    });
    await assert.rejects(saveChart(chart(), `${dir}/chart`), {
      name: "RangeError",
      message: `Cannot save chart to "${dir}/chart": extension "" ` +
        `is not one of ".svg", ".png", ".html"`,
    });
    assert.deepEqual([...Deno.readDirSync(dir)], []);
  });
});

// ---- settle -----------------------------------------------------------------

Deno.test("settle() waits at least the given time", async () => {
  const start = performance.now();
  await settle(30);
  assert.ok(performance.now() - start >= 29);
});

Deno.test("settle() throws RangeError for a negative or non-finite time", async () => {
  for (const ms of [-1, Number.POSITIVE_INFINITY]) {
    await assert.rejects(settle(ms), {
      name: "RangeError",
      message: `Settle time must be a finite non-negative number: received ${ms}`,
    });
  }
});

import assert from "node:assert/strict";
import {
  renderPng,
  renderSvg,
  stateTrajectoryChart,
  type VegaLiteSpec,
} from "../../../analysis/mod.ts";
import { CHART_FONT_FAMILY } from "../../../analysis/charts/_font.ts";
import type { TrajectoryRow } from "../../../analysis/charts/state_trajectory.ts";
import { countDarkPixels, decodePng, hasPngSignature, pngSize } from "../_png.ts";

function trajectoryRows(series: string[], rounds: number): TrajectoryRow[] {
  return series.flatMap((name, s) =>
    Array.from({ length: rounds }, (_, round) => ({ round, series: name, value: s * 10 + round }))
  );
}

function textChart(text: string): VegaLiteSpec {
  return {
    width: 300,
    height: 60,
    data: { values: [{ text }] },
    mark: { type: "text", fontSize: 40, color: "black" },
    encoding: { text: { field: "text", type: "nominal" } },
    config: { view: { stroke: null } },
  };
}

function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

Deno.test("renderSvg() draws one path per series", async () => {
  const series = ["cash", "assets", "deposits_remaining"];
  const svg = await renderSvg(stateTrajectoryChart(trajectoryRows(series, 4)));
  assert.ok(svg.startsWith("<svg"));
  assert.equal(count(svg, `aria-roledescription="line mark"`), 3);
  assert.equal(count(svg, `aria-roledescription="point"`), 12);
  for (const name of series) assert.ok(svg.includes(`>${name}</text>`), name);
});

Deno.test("renderSvg() writes the chart and axis titles", async () => {
  const svg = await renderSvg(
    stateTrajectoryChart(trajectoryRows(["cash"], 3), { title: "Bank state", yTitle: "Units" }),
  );
  assert.ok(svg.includes(">Bank state</text>"));
  assert.ok(svg.includes(">Round</text>"));
  assert.ok(svg.includes(">Units</text>"));
});

Deno.test("renderSvg() escapes markup in data text", async () => {
  const svg = await renderSvg(textChart("<script>alert(1)</script>"));
  assert.ok(!svg.includes("<script"));
  assert.ok(svg.includes("&lt;script&gt;"));
});

Deno.test("renderSvg() sets text in the chart font unless the spec names one", async () => {
  assert.equal(CHART_FONT_FAMILY, "DejaVu Sans");
  const plain = await renderSvg(textChart("hello"));
  assert.ok(plain.includes(`font-family="DejaVu Sans"`));
  const spec = { ...textChart("hello"), config: { font: "Courier" } };
  const courier = await renderSvg(spec);
  assert.ok(courier.includes(`font-family="Courier"`));
  assert.ok(!courier.includes("DejaVu"));
});

Deno.test("renderSvg() leaves the spec unchanged", async () => {
  const spec = stateTrajectoryChart(trajectoryRows(["cash"], 2), { title: "T" });
  const before = structuredClone(spec);
  await renderSvg(spec);
  assert.deepEqual(spec, before);
});

Deno.test("renderPng() returns a PNG of the requested width", async () => {
  const spec = stateTrajectoryChart(trajectoryRows(["cash", "assets"], 3));
  const png = await renderPng(spec, { width: 640 });
  assert.ok(png instanceof Uint8Array);
  assert.ok(hasPngSignature(png));
  const { width, height } = pngSize(png);
  assert.equal(width, 640);
  const svg = await renderSvg(spec);
  const [, svgWidth, svgHeight] = svg.match(/width="(\d+)" height="(\d+)"/)!.map(Number);
  assert.equal(height, Math.round((640 * svgHeight) / svgWidth));
});

Deno.test("renderPng() keeps the chart's own size by default", async () => {
  const spec = stateTrajectoryChart(trajectoryRows(["cash"], 3));
  const svg = await renderSvg(spec);
  const [, svgWidth, svgHeight] = svg.match(/width="(\d+)" height="(\d+)"/)!.map(Number);
  assert.deepEqual(pngSize(await renderPng(spec)), { width: svgWidth, height: svgHeight });
});

Deno.test("renderPng() draws text with the bundled font", async () => {
  const withText = decodePng(await renderPng(textChart("Run threshold")));
  const withoutText = decodePng(await renderPng(textChart("")));
  assert.equal(countDarkPixels(withoutText), 0);
  assert.ok(countDarkPixels(withText) > 500, `dark pixels: ${countDarkPixels(withText)}`);
});

Deno.test("renderPng() paints white under a transparent chart unless told otherwise", async () => {
  const spec: VegaLiteSpec = { ...textChart(""), background: "transparent" };
  const white = decodePng(await renderPng(spec));
  assert.deepEqual([...white.pixels.subarray(0, 4)], [255, 255, 255, 255]);
  const clear = decodePng(await renderPng(spec, { background: "transparent" }));
  assert.equal(clear.pixels[3], 0);
  const red = decodePng(await renderPng(spec, { background: "#ff0000" }));
  assert.deepEqual([...red.pixels.subarray(0, 4)], [255, 0, 0, 255]);
});

Deno.test("renderPng() throws RangeError for a width that is not a positive integer", async () => {
  const spec = textChart("x");
  for (const width of [0, -3, 2.5, 16385, Number.NaN]) {
    await assert.rejects(renderPng(spec, { width }), {
      name: "RangeError",
      message: `PNG width must be an integer from 1 to 16384: received ${width}`,
    });
  }
});

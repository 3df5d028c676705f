/**
 * Headless rendering of Vega-Lite specs to SVG and PNG.
 *
 * Rendering needs no browser, canvas or system font: Vega draws the SVG with
 * its `"none"` renderer and resvg rasterizes it with DejaVu Sans, loaded from
 * the `dejavu-fonts-ttf` npm package.
 *
 * @module
 */

import { loadResvg, loadVega } from "./_vega.ts";
import { CHART_FONT_FAMILY, chartFontFiles } from "./_font.ts";
import type { VegaLiteSpec } from "./spec.ts";

export { CHART_FONT_FAMILY };

/**
 * The largest PNG width, in pixels, that {@linkcode renderPng} accepts.
 *
 * @example
 * ```ts
 * import { MAX_PNG_WIDTH } from "./render.ts";
 * if (MAX_PNG_WIDTH !== 16384) throw new Error();
 * ```
 */
export const MAX_PNG_WIDTH = 16384;

/** Options for {@linkcode renderPng}. */
export interface RenderPngOptions {
  /**
   * Width of the PNG in pixels; the height keeps the chart's aspect ratio.
   * An integer from 1 to {@linkcode MAX_PNG_WIDTH}.
   *
   * @default {the chart's own width in CSS pixels}
   */
  width?: number;
  /**
   * Color painted under the chart, any CSS color. It shows only where the
   * chart's own background is transparent: Vega-Lite paints white unless the
   * spec sets `background: "transparent"`.
   *
   * @default {"white"}
   */
  background?: string;
}

/**
 * Renders a Vega-Lite spec to an SVG document.
 *
 * Unless the spec's `config.font` says otherwise, text is set in
 * {@linkcode CHART_FONT_FAMILY}, the font that {@linkcode renderPng} embeds.
 * The spec itself, data included, is not modified.
 *
 * @param spec The Vega-Lite spec to render.
 * @returns The SVG markup, starting with `<svg`.
 *
 * @example Render a bar chart
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 *
 * const svg = await renderSvg({
 *   data: { values: [{ agent: "a", cash: 3 }, { agent: "b", cash: 5 }] },
 *   mark: "bar",
 *   encoding: {
 *     x: { field: "agent", type: "nominal" },
 *     y: { field: "cash", type: "quantitative" },
 *   },
 * });
 * assert.ok(svg.startsWith("<svg"));
 * assert.equal(svg.match(/aria-roledescription="bar"/g)?.length, 2);
 * ```
 */
export async function renderSvg(spec: VegaLiteSpec): Promise<string> {
  const { vega, compile } = await loadVega();
  // Vega tags every data object it ingests, so compile a copy of the spec.
  const vegaSpec = compile(withChartFont(structuredClone(spec))).spec;
  const view = new vega.View(vega.parse(vegaSpec), {
    renderer: "none",
    // Layout notes (e.g. "Maximum optimization runs(5) reached") are not the
    // reader's to act on; errors still throw.
    logLevel: vega.Error,
  });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/**
 * Renders a Vega-Lite spec to a PNG image.
 *
 * The SVG from {@linkcode renderSvg} is rasterized by resvg with only the
 * bundled DejaVu Sans fonts (no system fonts), so the image is the same on
 * every machine.
 *
 * @param spec The Vega-Lite spec to render.
 * @param options Width and background of the image.
 * @returns The PNG file's bytes.
 * @throws {RangeError} If `options.width` is not an integer from 1 to
 * {@linkcode MAX_PNG_WIDTH}.
 *
 * @example Render a 600-pixel-wide PNG
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderPng } from "./render.ts";
 *
 * const png = await renderPng({
 *   title: "Cash",
 *   data: { values: [{ round: 1, cash: 3 }, { round: 2, cash: 5 }] },
 *   mark: "line",
 *   encoding: {
 *     x: { field: "round", type: "quantitative" },
 *     y: { field: "cash", type: "quantitative" },
 *   },
 * }, { width: 600 });
 * assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]); // "PNG"
 * assert.equal(new DataView(png.buffer, png.byteOffset).getUint32(16), 600);
 * ```
 */
export async function renderPng(
  spec: VegaLiteSpec,
  options: RenderPngOptions = {},
): Promise<Uint8Array> {
  const { width, background = "white" } = options;
  if (width !== undefined && !(Number.isInteger(width) && width >= 1 && width <= MAX_PNG_WIDTH)) {
    throw new RangeError(
      `PNG width must be an integer from 1 to ${MAX_PNG_WIDTH}: received ${width}`,
    );
  }
  const svg = await renderSvg(spec);
  const Resvg = await loadResvg();
  const resvg = new Resvg(svg, {
    background,
    fitTo: width === undefined ? { mode: "original" } : { mode: "width", value: width },
    font: {
      loadSystemFonts: false,
      fontFiles: chartFontFiles(),
      defaultFontFamily: CHART_FONT_FAMILY,
      sansSerifFamily: CHART_FONT_FAMILY,
      serifFamily: CHART_FONT_FAMILY,
      monospaceFamily: CHART_FONT_FAMILY,
    },
  });
  return new Uint8Array(resvg.render().asPng());
}

function withChartFont(spec: VegaLiteSpec): VegaLiteSpec {
  if (spec.config?.font !== undefined) return spec;
  return { ...spec, config: { ...spec.config, font: CHART_FONT_FAMILY } };
}

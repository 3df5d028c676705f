/**
 * Notebook display: Jupyter MIME bundles for charts and tables, showing them
 * in the Deno kernel, and saving charts to files.
 *
 * Inside `deno jupyter` the `display*` functions send the bundle to the
 * notebook; anywhere else they return it, so scripts and tests can use them
 * too.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { extname } from "node:path";
import type pl from "npm:nodejs-polars@0.25.2";
import { jupyterDisplay } from "../engine/core/jupyter.ts";
import { escapeHtml, scriptJson } from "./_html.ts";
import { cellFormatter, displayFrame, isNumeric, textTable } from "./_table_format.ts";
import { renderPng, type RenderPngOptions, renderSvg } from "./charts/render.ts";
import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from "./charts/spec.ts";

/**
 * The MIME type under which a chart's Vega-Lite spec is sent.
 *
 * @example
 * ```ts
 * import { VEGA_LITE_MIME } from "./display.ts";
 * if (!VEGA_LITE_MIME.endsWith("v5+json")) throw new Error();
 * ```
 */
export const VEGA_LITE_MIME = "application/vnd.vegalite.v5+json";

/**
 * A Jupyter MIME bundle for one chart: the interactive Vega-Lite spec, a PNG
 * for front ends without Vega-Lite (and for saved notebooks), and a line of
 * text.
 */
export interface ChartBundle {
  /** The spec, with `$schema` set to the Vega-Lite v5 schema. */
  "application/vnd.vegalite.v5+json": VegaLiteSpec & { $schema: string };
  /** The PNG image, base64-encoded. */
  "image/png": string;
  /** A short description, e.g. `Vega-Lite chart: Bank state`. */
  "text/plain": string;
}

/** A Jupyter MIME bundle for one table. */
export interface TableBundle {
  /** An HTML table in which every cell and header is escaped. */
  "text/html": string;
  /** The same rows as a fixed-width text table. */
  "text/plain": string;
}

/** Options for {@linkcode chartBundle} and {@linkcode displayChart}: the PNG's width and background. */
export type ChartBundleOptions = RenderPngOptions;

/**
 * Options for {@linkcode saveChart}: the PNG's width and background, used for
 * `.png` and `.html` files.
 */
export type SaveChartOptions = RenderPngOptions;

/** Options for {@linkcode tableBundle} and {@linkcode displayTable}. */
export interface TableBundleOptions {
  /**
   * Most rows to put in the HTML table; later rows are counted, not shown.
   * A non-negative integer.
   *
   * @default {50}
   */
  maxRows?: number;
  /**
   * Caption drawn above the table.
   *
   * @default {no caption}
   */
  caption?: string;
  /**
   * Digits after the decimal point of floats (an integer from 0 to 15).
   * A float column whose values are all whole numbers (a count that Polars
   * made a float) shows them as integers.
   *
   * @default {3}
   */
  decimals?: number;
  /**
   * Sort the rows by the condition key columns (environments, mechanisms,
   * regimes and corruption modes in the papers' order), ties broken by
   * every other column in turn, so the same rows always show in the same
   * order. A frame without key columns keeps its order either way; `false`
   * keeps the frame's order.
   *
   * @default {true}
   */
  sort?: boolean;
}

/**
 * Builds the Jupyter MIME bundle of a chart: exactly the Vega-Lite spec (with
 * `$schema` forced to v5), a base64 PNG and a text description.
 *
 * @param spec The chart to show.
 * @param options The PNG's width and background.
 * @returns The bundle; the spec in it is a shallow copy of `spec`.
 * @throws {RangeError} If `options.width` is not an integer from 1 to 16384.
 *
 * @example Build a bundle
 * ```ts
 * import assert from "node:assert/strict";
 * import { chartBundle } from "./display.ts";
 *
 * const bundle = await chartBundle({
 *   title: "Cash",
 *   data: { values: [{ round: 1, cash: 3 }, { round: 2, cash: 5 }] },
 *   mark: "line",
 *   encoding: {
 *     x: { field: "round", type: "quantitative" },
 *     y: { field: "cash", type: "quantitative" },
 *   },
 * });
 * assert.deepEqual(Object.keys(bundle).sort(), [
 *   "application/vnd.vegalite.v5+json",
 *   "image/png",
 *   "text/plain",
 * ]);
 * assert.equal(bundle["text/plain"], "Vega-Lite chart: Cash");
 * ```
 */
export async function chartBundle(
  spec: VegaLiteSpec,
  options: ChartBundleOptions = {},
): Promise<ChartBundle> {
  const png = await renderPng(spec, options);
  return {
    [VEGA_LITE_MIME]: withV5Schema(spec),
    "image/png": Buffer.from(png).toString("base64"),
    "text/plain": describeChart(spec),
  };
}

/**
 * Shows a chart in the notebook: inside the Deno Jupyter kernel it sends
 * {@linkcode chartBundle}'s bundle with `Deno.jupyter.display` and returns
 * `undefined`; anywhere else it returns the bundle.
 *
 * @param spec The chart to show.
 * @param options The PNG's width and background.
 * @returns `undefined` in Jupyter, otherwise the bundle.
 * @throws {RangeError} If `options.width` is not an integer from 1 to 16384.
 *
 * @example Outside Jupyter the bundle comes back
 * ```ts
 * import assert from "node:assert/strict";
 * import { displayChart } from "./display.ts";
 *
 * const bundle = await displayChart({
 *   data: { values: [{ x: 1, y: 2 }] },
 *   mark: "point",
 *   encoding: { x: { field: "x", type: "quantitative" } },
 * });
 * assert.equal(bundle?.["text/plain"], "Vega-Lite chart");
 * ```
 */
export async function displayChart(
  spec: VegaLiteSpec,
  options: ChartBundleOptions = {},
): Promise<ChartBundle | undefined> {
  return await show(await chartBundle(spec, options));
}

/**
 * Builds the Jupyter MIME bundle of a Polars frame: an HTML table with every
 * header and cell escaped (cells may hold untrusted agent text) and the
 * same rows as fixed-width text.
 *
 * The table reads the same on every run: the condition key columns (`env`,
 * `mechanism`, `regime`, ..., `N`, `corruption`, ...) come first, the rows
 * are sorted (see `options.sort`), floats show `options.decimals` digits
 * (3 by default, so a Wilson bound reads `0.018`), and a float column of
 * whole numbers shows integers (`17`, not `17.0`). The HTML shows the dtype
 * of each column under its name, at most `options.maxRows` rows, and the
 * frame's shape. Nulls show as `null`, dates in ISO 8601, lists and structs
 * as JSON.
 *
 * @param df The frame to show.
 * @param options Row limit, caption, decimals and sorting.
 * @returns The bundle.
 * @throws {RangeError} If `options.maxRows` is not a non-negative integer or
 * `options.decimals` not an integer from 0 to 15.
 *
 * @example Untrusted text is escaped
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { tableBundle } from "./display.ts";
 *
 * const df = pl.DataFrame({ agent: [0, 1], reason: ["<b>run</b>", "stay"] });
 * const bundle = tableBundle(df, { caption: "Round 1" });
 * assert.ok(bundle["text/html"].includes("<td>&lt;b&gt;run&lt;/b&gt;</td>"));
 * assert.ok(!bundle["text/html"].includes("<b>run"));
 * ```
 *
 * @example Rounded floats, integer counts, key columns first
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { tableBundle } from "./display.ts";
 *
 * const df = pl.DataFrame({
 *   lower: [0.01787574951572113, 0.5], episodes: [10, 17], mechanism: ["M1", "M0"],
 * });
 * assert.equal(tableBundle(df)["text/plain"], [
 *   "shape: (2, 3)",
 *   "mechanism    lower  episodes",
 *   "String     Float64   Float64",
 *   "---------  -------  --------",
 *   "M0           0.500        17",
 *   "M1           0.018        10",
 * ].join("\n"));
 * assert.ok(tableBundle(df, { decimals: 1 })["text/html"].includes("<td>0.0</td>"));
 * ```
 */
export function tableBundle(df: pl.DataFrame, options: TableBundleOptions = {}): TableBundle {
  const { maxRows = 50, caption, decimals = 3, sort = true } = options;
  if (!(Number.isInteger(maxRows) && maxRows >= 0)) {
    throw new RangeError(`Table maxRows must be a non-negative integer: received ${maxRows}`);
  }
  if (!(Number.isInteger(decimals) && decimals >= 0 && decimals <= 15)) {
    throw new RangeError(`Table decimals must be an integer from 0 to 15: received ${decimals}`);
  }
  const table = displayFrame(df, sort);
  const columns = table.columns;
  const dtypes = table.dtypes.map((dtype) => dtype.variant);
  const formats = columns.map((name) => cellFormatter(table.getColumn(name), decimals));
  const shown = table.head(maxRows).rows().map((row) => row.map((cell, i) => formats[i](cell)));
  const hidden = table.height - shown.length;
  const shape = `shape: (${table.height}, ${table.width})`;
  const more = hidden > 0 ? `${hidden} more row${hidden === 1 ? "" : "s"} not shown` : "";
  const header = columns.map((name) => `<th>${escapeHtml(name)}</th>`).join("");
  const dtypeRow = dtypes.map((dtype) => `<td><small>${escapeHtml(dtype)}</small></td>`).join("");
  const body = shown.map((row) =>
    `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join("")}</tr>`
  ).join("\n");
  const html = [
    `<div class="coordlab-table">`,
    `<table>`,
    ...(caption === undefined ? [] : [`<caption>${escapeHtml(caption)}</caption>`]),
    `<thead>`,
    `<tr>${header}</tr>`,
    `<tr class="dtype">${dtypeRow}</tr>`,
    `</thead>`,
    `<tbody>`,
    body,
    `</tbody>`,
    `</table>`,
    `<p><small>${shape}${more === "" ? "" : `; ${more}`}</small></p>`,
    `</div>`,
  ].join("\n");
  const text = textTable({
    header: columns,
    dtypes,
    rows: shown,
    right: columns.map((name) => isNumeric(table.getColumn(name))),
    above: [...(caption === undefined ? [] : [caption]), shape],
    below: more === "" ? [] : [more],
  });
  return { "text/html": html, "text/plain": text };
}

/**
 * Shows a Polars frame in the notebook: inside the Deno Jupyter kernel it
 * sends {@linkcode tableBundle}'s bundle with `Deno.jupyter.display` and
 * returns `undefined`; anywhere else it returns the bundle.
 *
 * @param df The frame to show.
 * @param options Row limit, caption, decimals and sorting (see
 * {@linkcode tableBundle}).
 * @returns `undefined` in Jupyter, otherwise the bundle.
 * @throws {RangeError} If `options.maxRows` is not a non-negative integer or
 * `options.decimals` not an integer from 0 to 15.
 *
 * @example Outside Jupyter the bundle comes back
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { displayTable } from "./display.ts";
 *
 * const bundle = await displayTable(pl.DataFrame({ round: [1, 2, 3] }), { maxRows: 2 });
 * assert.ok(bundle?.["text/html"].includes("1 more row not shown"));
 * ```
 */
export async function displayTable(
  df: pl.DataFrame,
  options: TableBundleOptions = {},
): Promise<TableBundle | undefined> {
  return await show(tableBundle(df, options));
}

/**
 * Writes a chart to a file, choosing the format by the path's extension
 * (case-insensitive): `.svg` (vector), `.png` (image) or `.html` (a
 * self-contained page with the PNG as a data URI and the spec as JSON; it
 * loads nothing from the network).
 *
 * @param spec The chart to save.
 * @param path Where to write; the folder must exist.
 * @param options The PNG's width and background, for `.png` and `.html`.
 * @throws {RangeError} If the extension is none of `.svg`, `.png` and
 * `.html`, or `options.width` is out of range.
 *
 * @example Save a chart as SVG
 * ```ts
 * import assert from "node:assert/strict";
 * import { saveChart } from "./display.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/cash.svg`;
 * await saveChart({
 *   data: { values: [{ round: 1, cash: 3 }] },
 *   mark: "point",
 *   encoding: { x: { field: "round", type: "quantitative" } },
 * }, path);
 * assert.ok((await Deno.readTextFile(path)).startsWith("<svg"));
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function saveChart(
  spec: VegaLiteSpec,
  path: string,
  options: SaveChartOptions = {},
): Promise<void> {
  const extension = extname(path).toLowerCase();
  switch (extension) {
    case ".svg":
      return await Deno.writeTextFile(path, await renderSvg(spec));
    case ".png":
      return await Deno.writeFile(path, await renderPng(spec, options));
    case ".html":
      return await Deno.writeTextFile(path, await chartHtml(spec, options));
    default:
      throw new RangeError(
        `Cannot save chart to "${path}": extension "${extname(path)}" ` +
          `is not one of ".svg", ".png", ".html"`,
      );
  }
}

/**
 * Waits `ms` milliseconds. Await it at the end of a notebook cell that
 * displays something: the headless kernel can lose outputs sent just before
 * a cell ends.
 *
 * @param ms How long to wait, in milliseconds; finite and non-negative.
 * @throws {RangeError} If `ms` is negative or not finite.
 *
 * @example End a cell
 * ```ts
 * import { settle } from "./display.ts";
 *
 * await settle(10);
 * ```
 */
export async function settle(ms = 300): Promise<void> {
  if (!(Number.isFinite(ms) && ms >= 0)) {
    throw new RangeError(`Settle time must be a finite non-negative number: received ${ms}`);
  }
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Sends a bundle to the notebook inside Jupyter, otherwise returns it. */
async function show<T extends object>(bundle: T): Promise<T | undefined> {
  const display = jupyterDisplay();
  if (display === undefined) return bundle;
  await display(bundle, { raw: true });
  return undefined;
}

function withV5Schema(spec: VegaLiteSpec): VegaLiteSpec & { $schema: string } {
  const { $schema: _ignored, ...rest } = spec;
  return { $schema: VEGA_LITE_SCHEMA, ...rest } as VegaLiteSpec & { $schema: string };
}

function describeChart(spec: VegaLiteSpec): string {
  const title = titleText(spec.title);
  return title === "" ? "Vega-Lite chart" : `Vega-Lite chart: ${title}`;
}

function titleText(title: VegaLiteSpec["title"]): string {
  const text = typeof title === "object" && title !== null && !Array.isArray(title)
    ? title.text
    : title;
  if (typeof text === "string") return text;
  if (Array.isArray(text)) return text.join(" ");
  return "";
}

async function chartHtml(spec: VegaLiteSpec, options: SaveChartOptions): Promise<string> {
  const png = Buffer.from(await renderPng(spec, options)).toString("base64");
  const description = escapeHtml(describeChart(spec));
  return [
    `<!doctype html>`,
    `<html lang="en">`,
    `<head>`,
    `<meta charset="utf-8">`,
    `<title>${description}</title>`,
    `</head>`,
    `<body>`,
    `<img src="data:image/png;base64,${png}" alt="${description}">`,
    `<script type="${VEGA_LITE_MIME}" id="vega-lite-spec">${
      scriptJson(withV5Schema(spec))
    }</script>`,
    `</body>`,
    `</html>`,
    ``,
  ].join("\n");
}

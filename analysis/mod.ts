/**
 * Analysis of coordlab runs: chart builders, headless chart rendering and
 * notebook display.
 *
 * Chart builders are pure `(data, options) -> VegaLiteSpec` functions; the
 * renderers turn a spec into SVG or PNG without a browser or system fonts;
 * the display functions wrap charts and Polars frames into Jupyter MIME
 * bundles and send them to the Deno kernel.
 *
 * @example Build, render and display a state trajectory
 * ```ts
 * import assert from "node:assert/strict";
 * import { displayChart, renderSvg, stateTrajectoryChart } from "./mod.ts";
 *
 * const spec = stateTrajectoryChart([
 *   { round: 0, series: "cash", value: 10 },
 *   { round: 1, series: "cash", value: 6 },
 * ], { title: "Cash", referenceLines: [{ y: 5, label: "threshold" }] });
 * assert.ok((await renderSvg(spec)).includes("threshold"));
 * const bundle = await displayChart(spec); // undefined inside Jupyter
 * assert.equal(bundle?.["text/plain"], "Vega-Lite chart: Cash");
 * ```
 *
 * @module
 */

export * from "./charts/spec.ts";
export * from "./charts/render.ts";
export * from "./charts/state_trajectory.ts";
export * from "./display.ts";

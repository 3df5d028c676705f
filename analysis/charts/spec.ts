/**
 * The chart specification type shared by chart builders, renderers and the
 * notebook display.
 *
 * @module
 */

import type { TopLevelSpec } from "npm:vega-lite@5.23.0";

/**
 * A complete (top-level) Vega-Lite v5 specification, as returned by every
 * chart builder in `analysis/charts/` and accepted by the renderers.
 *
 * @example Type a hand-written spec
 * ```ts
 * import type { VegaLiteSpec } from "./spec.ts";
 *
 * const spec: VegaLiteSpec = {
 *   $schema: "https://vega.github.io/schema/vega-lite/v5.json",
 *   data: { values: [{ x: 1, y: 2 }] },
 *   mark: "point",
 *   encoding: { x: { field: "x", type: "quantitative" } },
 * };
 * ```
 */
export type VegaLiteSpec = TopLevelSpec;

/**
 * The `$schema` URL of Vega-Lite v5, which chart builders set and
 * `chartBundle()` forces in the notebook MIME bundle.
 *
 * @example Check a spec's schema
 * ```ts
 * import assert from "node:assert/strict";
 * import { VEGA_LITE_SCHEMA } from "./spec.ts";
 *
 * assert.ok(VEGA_LITE_SCHEMA.endsWith("/v5.json"));
 * ```
 */
export const VEGA_LITE_SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json";

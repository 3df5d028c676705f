/**
 * What every chart builder does last: legends whose labels and titles are
 * never cut (`carryover(lambda=0.5)` and `withdrawn (cumulative)` whole),
 * and a spec that shows itself as the chart when a notebook cell ends with
 * it. The spec stays plain data: the display method is a non-enumerable
 * `Symbol.for("Jupyter.display")` property, which `JSON.stringify`,
 * spreading and deep equality ignore.
 *
 * @module
 */

import { withJupyterDisplay } from "../../engine/core/jupyter.ts";
import { chartBundle } from "../display.ts";
import type { VegaLiteSpec } from "./spec.ts";

/**
 * The spec with `config.legend` set to draw labels and titles whole (any
 * legend config of the spec's own wins), and a
 * `Symbol.for("Jupyter.display")` method returning `chartBundle()`'s
 * bundle (Vega-Lite v5 spec, PNG fallback, text).
 *
 * @param spec A chart builder's spec.
 * @returns A new spec.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { finishChart } from "./_finish.ts";
 *
 * const spec = finishChart({ data: { values: [] }, mark: "point" });
 * assert.deepEqual(spec, {
 *   data: { values: [] },
 *   mark: "point",
 *   config: { legend: { labelLimit: 0, titleLimit: 0 } },
 * });
 * const show = (spec as unknown as Record<symbol, () => Promise<Record<string, unknown>>>)[
 *   Symbol.for("Jupyter.display")
 * ];
 * assert.ok("image/png" in await show());
 * ```
 */
export function finishChart(spec: VegaLiteSpec): VegaLiteSpec {
  const finished = {
    ...spec,
    config: {
      ...spec.config,
      legend: { labelLimit: 0, titleLimit: 0, ...spec.config?.legend },
    },
  } as VegaLiteSpec;
  return withJupyterDisplay(finished, () => chartBundle(finished));
}

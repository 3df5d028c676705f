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
import { agentsSubtitle, type ChartAgents } from "./agents.ts";
import type { VegaLiteSpec } from "./spec.ts";

/** Options for {@linkcode finishChart}. */
export interface FinishChartOptions {
  /**
   * The agents behind the chart: `"mock"` (or `"mixed"`) adds a line
   * saying so under the title (a chart without a title gets one of that
   * line alone).
   *
   * @default {unknown: no line}
   */
  agents?: ChartAgents;
}

/**
 * The spec with `config.legend` set to draw labels and titles whole (any
 * legend config of the spec's own wins), the agents named in the
 * subtitle when they are mock agents, and a
 * `Symbol.for("Jupyter.display")` method returning `chartBundle()`'s
 * bundle (Vega-Lite v5 spec, PNG fallback, text).
 *
 * @param spec A chart builder's spec.
 * @param options The agents behind it.
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
 *
 * const mock = finishChart({ title: "Cash", data: { values: [] }, mark: "point" }, {
 *   agents: "mock",
 * });
 * assert.deepEqual(mock.title, {
 *   text: "Cash",
 *   subtitle: ["Mock agents (scripted policies, no LLM)"],
 * });
 * ```
 */
export function finishChart(spec: VegaLiteSpec, options: FinishChartOptions = {}): VegaLiteSpec {
  const line = agentsSubtitle(options.agents);
  const finished = {
    ...spec,
    ...(line === undefined ? {} : { title: withSubtitleLine(spec.title, line) }),
    config: {
      ...spec.config,
      legend: { labelLimit: 0, titleLimit: 0, ...spec.config?.legend },
    },
  } as VegaLiteSpec;
  return withJupyterDisplay(finished, () => chartBundle(finished));
}

/** A title with `line` added under its text (after any subtitle of its own). */
function withSubtitleLine(title: VegaLiteSpec["title"], line: string): VegaLiteSpec["title"] {
  if (title === undefined) return { text: "", subtitle: [line] };
  if (typeof title === "string" || Array.isArray(title)) return { text: title, subtitle: [line] };
  const own = title.subtitle === undefined
    ? []
    : Array.isArray(title.subtitle)
    ? [...title.subtitle]
    : [title.subtitle as string];
  return { ...title, subtitle: [...own, line] };
}

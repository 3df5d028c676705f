/**
 * How chart builders keep conditions apart: rows of a chart may hold
 * several conditions (regimes, override sets, corruption modes, models,
 * ...). A chart never stacks or overplots them: it facets or colours by a
 * label of the condition keys that vary among its rows and that it does not
 * already draw, e.g. `Contraction · overrides p3ef882cc` or `N=5 M=3 · b3`.
 *
 * @module
 */

import { CONDITION_KEYS, sortKeyValues } from "../conditions.ts";
import { ENV_LABELS, REGIME_LABELS } from "../frail/env_profiles.ts";
import { finishChart } from "./_finish.ts";
import type { ChartAgents } from "./agents.ts";
import type { IntervalChartOptions } from "./_interval_options.ts";
import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from "./spec.ts";

/**
 * The field that {@linkcode conditionLabels} adds to each row.
 *
 * @example
 * ```ts
 * import { CONDITION_FIELD } from "./_condition_facet.ts";
 * if (CONDITION_FIELD !== "condition") throw new Error();
 * ```
 */
export const CONDITION_FIELD = "condition";

/** The result of {@linkcode conditionLabels}. */
export interface ConditionLabels {
  /** {@linkcode CONDITION_FIELD} when the rows hold more than one condition, else `undefined`. */
  field: string | undefined;
  /** The labels, in the keys' order. */
  order: string[];
  /** The keys that vary, in key order. */
  keys: string[];
  /** A title for a legend or facet of the labels: the varying keys, e.g. `regime · overrides_id`. */
  title: string;
  /** Copies of the rows, with the label added under `field` when there is one. */
  values: Record<string, unknown>[];
}

/** Keys a chart can be split by: the condition keys and the model. */
const SPLIT_KEYS: readonly string[] = [...CONDITION_KEYS, "model"];

/**
 * The label of one key's value: regimes and environments by name,
 * `N=5`-style for numbers, `overrides <id>` for an override set.
 *
 * @param key A key column.
 * @param value Its value.
 * @returns The label.
 *
 * @example
 * ```ts
 * import { keyLabel } from "./_condition_facet.ts";
 * if (keyLabel("regime", "contraction") !== "Contraction" || keyLabel("T", 4) !== "T=4") {
 *   throw new Error();
 * }
 * ```
 */
export function keyLabel(key: string, value: unknown): string {
  const text = String(value);
  switch (key) {
    case "env":
      return ENV_LABELS[text] ?? text;
    case "regime":
      return REGIME_LABELS[text] ?? text;
    case "overrides_id":
      return text === "none" ? "no overrides" : `overrides ${text}`;
    case "payoffs":
      return `payoffs ${text}`;
    default:
      return typeof value === "number" ? `${key}=${text}` : text;
  }
}

/**
 * Labels each row with the condition keys (and `model`) that vary among the
 * rows and are not in `encoded`, so a chart can facet or colour by them.
 *
 * @param rows Chart rows.
 * @param encoded Keys the chart already draws (its x, colour or facets).
 * @returns The label field (undefined when nothing varies), the labels in
 * order, the varying keys and the labelled rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { conditionLabels } from "./_condition_facet.ts";
 *
 * const { field, order } = conditionLabels([
 *   { env: "bank_run", regime: "stable", overrides_id: "none", mean: 1 },
 *   { env: "bank_run", regime: "contraction", overrides_id: "none", mean: 2 },
 *   { env: "bank_run", regime: "expansion", overrides_id: "none", mean: 3 },
 * ], ["env"]);
 * assert.equal(field, "condition");
 * assert.deepEqual(order, ["Expansion", "Stable", "Contraction"]);
 * ```
 */
export function conditionLabels(
  rows: readonly Record<string, unknown>[],
  encoded: readonly string[],
): ConditionLabels {
  const keys = SPLIT_KEYS.filter((key) =>
    !encoded.includes(key) && new Set(rows.map((row) => row[key] ?? null)).size > 1
  );
  const title = keys.join(" · ");
  if (keys.length === 0) {
    return { field: undefined, order: [], keys, title, values: rows.map((r) => ({ ...r })) };
  }
  const label = (row: Record<string, unknown>) =>
    keys.map((key) => keyLabel(key, row[key])).join(" · ");
  const orders = keys.map((key) => sortKeyValues(key, rows.map((row) => row[key] ?? null)));
  const sorted = [...rows].sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const diff = orders[i].indexOf(a[keys[i]] ?? null) - orders[i].indexOf(b[keys[i]] ?? null);
      if (diff !== 0) return diff;
    }
    return 0;
  });
  return {
    field: CONDITION_FIELD,
    order: [...new Set(sorted.map(label))],
    keys,
    title,
    values: rows.map((row) => ({ ...row, [CONDITION_FIELD]: label(row) })),
  };
}

/** The channel on which a chart shows the conditions it does not draw otherwise. */
export type FreeChannel = "column" | "row" | "color";

/** The result of {@linkcode splitConditions}. */
export interface SplitConditions {
  /** The labelled rows. */
  values: Record<string, unknown>[];
  /** Options of `intervalChart()` that put the label on the free channel (none when nothing varies). */
  options: Partial<IntervalChartOptions>;
}

/**
 * Labels rows with the condition keys that vary and are not in `encoded`
 * (see {@linkcode conditionLabels}), and gives the `intervalChart()`
 * options that show the label on the chart's free channel.
 *
 * @param rows Chart rows.
 * @param encoded Keys the chart already draws.
 * @param free The channel for the label: a facet column, a facet row or the colour.
 * @returns The labelled rows and the options.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitConditions } from "./_condition_facet.ts";
 *
 * const { options } = splitConditions(
 *   [{ regime: "stable", mean: 1 }, { regime: "contraction", mean: 2 }],
 *   [],
 *   "column",
 * );
 * assert.deepEqual(options, { column: "condition", sort: { column: ["Stable", "Contraction"] } });
 * ```
 */
export function splitConditions(
  rows: readonly Record<string, unknown>[],
  encoded: readonly string[],
  free: FreeChannel,
): SplitConditions {
  const { field, order, title, values } = conditionLabels(rows, encoded);
  if (field === undefined) return { values, options: {} };
  return {
    values,
    options: free === "color"
      ? { color: field, colorTitle: title, sort: { color: order } }
      : { [free]: field, sort: { [free]: order } },
  };
}

/**
 * `base` with `extra`'s fields on top and the `sort` orders merged.
 *
 * @param base A chart's own options.
 * @param extra The options of {@linkcode splitConditions}.
 * @returns The merged options.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withSplit } from "./_condition_facet.ts";
 *
 * const merged = withSplit({ x: "env", y: "mean", sort: { x: ["a"] } }, { row: "condition" });
 * assert.deepEqual(merged, { x: "env", y: "mean", row: "condition", sort: { x: ["a"] } });
 * ```
 */
export function withSplit(
  base: IntervalChartOptions,
  extra: Partial<IntervalChartOptions>,
): IntervalChartOptions {
  return { ...base, ...extra, sort: { ...base.sort, ...extra.sort } };
}

/** Options for {@linkcode layeredChart}. */
export interface LayeredChartOptions {
  /** Chart title. */
  title: string;
  /** Line under the title. @default {none} */
  subtitle?: string;
  /** The rows of every layer (layers pick theirs with a filter). */
  values: readonly Record<string, unknown>[];
  /** The layers (Vega-Lite unit specs without data). */
  layer: readonly object[];
  /** Width of one plot in pixels. */
  width: number;
  /** Height of one plot in pixels. */
  height: number;
  /** The facet field and its order, when the rows hold several conditions. */
  facet?: { field: string; order: readonly string[] };
  /** The agents behind the rows, named under the title when mock. @default {unknown} */
  agents?: ChartAgents;
}

/**
 * A layered chart, wrapped in a facet of at most three columns when the
 * rows hold several conditions.
 *
 * @param options Title, rows, layers, size and facet.
 * @returns A Vega-Lite spec.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { layeredChart } from "./_condition_facet.ts";
 *
 * const spec = layeredChart({
 *   title: "t", values: [{ x: 1, condition: "b3" }], width: 100, height: 80,
 *   layer: [{ mark: "point", encoding: { x: { field: "x", type: "quantitative" } } }],
 *   facet: { field: "condition", order: ["b3"] },
 * });
 * assert.ok("facet" in spec && "columns" in spec && spec.columns === 1);
 * ```
 */
export function layeredChart(options: LayeredChartOptions): VegaLiteSpec {
  const { title, subtitle, values, layer, width, height, facet, agents } = options;
  const head = {
    $schema: VEGA_LITE_SCHEMA,
    title: subtitle === undefined ? title : { text: title, subtitle },
    data: { values: [...values] },
  };
  if (facet === undefined) {
    return finishChart({ ...head, width, height, layer: [...layer] } as VegaLiteSpec, { agents });
  }
  return finishChart({
    ...head,
    facet: {
      field: facet.field,
      type: "nominal",
      title: null,
      sort: [...facet.order],
      header: { labelLimit: 0 },
    },
    columns: wrapColumns(facet.order.length),
    spec: { width, height, layer: [...layer] },
  } as VegaLiteSpec, { agents });
}

/**
 * The filter that every layer of a chart with {@linkcode facetPlaceholders}
 * applies first, so the placeholders draw nothing.
 *
 * @example
 * ```ts
 * import { SKIP_PLACEHOLDERS } from "./_condition_facet.ts";
 * if (!SKIP_PLACEHOLDERS.filter.includes("__placeholder")) throw new Error();
 * ```
 */
export const SKIP_PLACEHOLDERS = { filter: "datum.__placeholder !== true" } as const;

/**
 * Rows that make a facet of rows and columns complete: one placeholder per
 * (row, column) pair without data. Vega-Lite 5 lays out a row-and-column
 * facet with missing cells wrongly (the cells after a gap shift into it
 * under the wrong headers, vega/vega-lite#9702), so charts add these rows
 * and skip them in every layer ({@linkcode SKIP_PLACEHOLDERS}): the empty
 * cell stays empty, under its own headers.
 *
 * @param values The chart rows.
 * @param row The row facet's field.
 * @param column The column facet's field.
 * @returns The placeholder rows (none when every pair has data).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { facetPlaceholders } from "./_condition_facet.ts";
 *
 * const rows = [{ r: "a", c: "x" }, { r: "b", c: "y" }];
 * assert.deepEqual(facetPlaceholders(rows, "r", "c"), [
 *   { r: "a", c: "y", __placeholder: true },
 *   { r: "b", c: "x", __placeholder: true },
 * ]);
 * ```
 */
export function facetPlaceholders(
  values: readonly Record<string, unknown>[],
  row: string,
  column: string,
): Record<string, unknown>[] {
  const pairs = new Set(values.map((v) => JSON.stringify([v[row], v[column]])));
  const rows = [...new Set(values.map((v) => v[row]))];
  const columns = [...new Set(values.map((v) => v[column]))];
  return rows.flatMap((r) =>
    columns.filter((c) => !pairs.has(JSON.stringify([r, c])))
      .map((c) => ({ [row]: r, [column]: c, __placeholder: true }))
  );
}

/**
 * Columns of a wrapped facet of `panels` panels: all in one row up to
 * three, two rows of two for four, then rows of three.
 *
 * @param panels Number of panels.
 * @returns Panels per row.
 *
 * @example
 * ```ts
 * import { wrapColumns } from "./_condition_facet.ts";
 * if ([1, 3, 4, 9].map(wrapColumns).join() !== "1,3,2,3") throw new Error();
 * ```
 */
export function wrapColumns(panels: number): number {
  return panels === 4 ? 2 : Math.min(3, Math.max(1, panels));
}

/**
 * FRAIL Figure 4 as a chart: a grid with the three layers as rows
 * (financial state, committed amount, exit intent or share not yet
 * launched) and the environments as columns; one line per mechanism (in
 * its fixed colour) with its episode means, shaded 95% bands in the top
 * and middle rows (cut at 0: amounts are never negative), and the dashed
 * critical-boundary reference lines (in the stable regime 8.48 units,
 * round 4, goal 14). Rows of several conditions (regimes, parameter
 * override sets) get a block of three rows each, `Contraction · Financial
 * state`, with the reference lines of that condition.
 *
 * Reading it: each row is titled once, on the left (the y axes carry no
 * repeated title); each column is titled with its environment and what its
 * top and bottom rows measure (`top: cumulative withdrawals`), and has its
 * own round range on x (a bank run to 12, a debt rollover to 7); tooltips
 * give each point's mean, interval and episodes n.
 *
 * @module
 */

import { sortKeyValues } from "../conditions.ts";
import { ENV_ORDER, ENV_PROFILES } from "../frail/env_profiles.ts";
import type { TrajectoryReference } from "../frail/trajectories.ts";
import {
  CONDITION_FIELD,
  conditionLabels,
  facetPlaceholders,
  keyLabel,
} from "./_condition_facet.ts";
import { envName } from "./_frail_labels.ts";
import { finishChart } from "./_finish.ts";
import { lineDashes, mechanismColors } from "./_palette.ts";
import { agentsOfRows, type ChartAgents } from "./agents.ts";
import { referenceLayers } from "./_reference.ts";
import { type ChartRows, chartValues, checkSize } from "./interval.ts";
import { VEGA_LITE_SCHEMA, type VegaLiteSpec } from "./spec.ts";

/** Options for {@linkcode trajectoriesChart}. */
export interface TrajectoriesChartOptions {
  /** Chart title. @default {"Round-by-round dynamics"} */
  title?: string;
  /**
   * Reference lines, one per environment and condition, as logged by the
   * engine (pass `trajectoryReferences(episodes)`).
   *
   * @default {none}
   */
  references?: readonly TrajectoryReference[];
  /** Width of one panel in pixels. @default {220} */
  width?: number;
  /** Height of one panel in pixels. @default {140} */
  height?: number;
  /**
   * The agents behind the rows (`chartAgents(episodes)`): mock agents are
   * named under the title.
   *
   * @default {what the rows' `model` says, else nothing}
   */
  agents?: ChartAgents;
}

const ROW_LABELS: Record<string, string> = {
  financial: "Financial state",
  committed: "Committed amount",
  intent: "Exit intent / not launched",
  not_launched: "Exit intent / not launched",
};
const ROW_ORDER = ["Financial state", "Committed amount", "Exit intent / not launched"];

/** What an environment's column measures in its top and bottom rows. */
function columnSubtitle(env: string): string[] {
  const profile = ENV_PROFILES[env];
  if (profile === undefined) return [];
  return [
    `top: ${profile.financialLabel.toLowerCase()}`,
    profile.launchMetric === null ? "bottom: mean exit intent" : "bottom: share not yet launched",
  ];
}

/**
 * Builds the Figure 4 grid.
 *
 * @param rows Rows with `env`, `mechanism`, `panel`, `round`, `mean`,
 * `lower`, `upper` (from `trajectories()`), and the condition keys
 * (`regime`, `overrides_id`).
 * @param options Title, reference lines and panel size.
 * @returns A Vega-Lite spec: one column per environment (titled with what
 * its top and bottom rows measure, and its own rounds on x), one block of
 * three rows per condition (titled once, on the left), one line per panel
 * and mechanism in the mechanism's fixed colour, one band per line of the
 * top and middle rows, and dashed reference rules of the row's condition:
 * a level (bank run, crowdfunding) in the top-row panel, a round (debt
 * rollover) in all three panels. References of conditions without rows are
 * left out. Tooltips give each point's episodes n.
 * @throws {RangeError} If a size is not a positive integer, or the
 * references hold several regimes (or override sets) for an environment
 * while the rows carry no `regime` (or `overrides_id`) to tell them apart.
 *
 * @example Two mechanisms in the bank run
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { trajectoriesChart } from "./trajectories_chart.ts";
 *
 * const rows = ["M0", "M3"].flatMap((mechanism) =>
 *   [1, 2].map((round) => ({
 *     env: "bank_run", mechanism, panel: "financial", round,
 *     mean: round * 2, lower: round, upper: round * 3,
 *   }))
 * );
 * const svg = await renderSvg(trajectoriesChart(rows, {
 *   references: [{ env: "bank_run", regime: "stable", overrides_id: "none", axis: "y",
 *     value: 8.48, label: "insolvency boundary" }],
 * }));
 * assert.equal(svg.match(/aria-roledescription="line mark"/g)?.length, 2);
 * assert.equal(svg.match(/aria-roledescription="area mark"/g)?.length, 2);
 * assert.ok(svg.includes(">insolvency boundary</text>"));
 * ```
 *
 * @example Two regimes, each with its own boundary
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { trajectoriesChart } from "./trajectories_chart.ts";
 *
 * const rows = ["stable", "contraction"].flatMap((regime) =>
 *   [1, 2].map((round) => ({
 *     env: "bank_run", regime, overrides_id: "none", mechanism: "M0", panel: "financial", round,
 *     mean: round, lower: 0, upper: 3,
 *   }))
 * );
 * const reference = { env: "bank_run", overrides_id: "none", axis: "y", label: "boundary" } as const;
 * const svg = await renderSvg(trajectoriesChart(rows, {
 *   references: [
 *     { ...reference, regime: "stable", value: 8.48 },
 *     { ...reference, regime: "contraction", value: 3.65 },
 *     { ...reference, regime: "expansion", value: 11.53 },
 *   ],
 * }));
 * assert.ok(svg.includes("<tspan>Stable</tspan>") && svg.includes("<tspan>Contraction</tspan>"));
 * assert.equal(svg.match(/aria-roledescription="rule mark"/g)?.length, 2); // no expansion rows
 * ```
 */
export function trajectoriesChart(
  rows: ChartRows,
  options: TrajectoriesChartOptions = {},
): VegaLiteSpec {
  const { title = "Round-by-round dynamics", width = 220, height = 140 } = options;
  checkSize("width", width);
  checkSize("height", height);
  const raw = chartValues(rows);
  const labelled = raw.map((row) => ({ ...row, env: envName(row.env) }));
  const condition = conditionLabels(labelled, ["env", "mechanism"]);
  // One block of the three rows per condition, the condition named before the layer.
  const rowOf = (label: unknown, layer: string) =>
    condition.field === undefined ? layer : `${label} · ${layer}`;
  const series = condition.values.map((row) => {
    const layer = ROW_LABELS[String(row.panel)] ?? String(row.panel);
    const band = row.panel === "financial" || row.panel === "committed";
    return {
      ...row,
      // Amounts are never negative: a band is cut at 0.
      ...(band && typeof row.lower === "number" ? { lower: Math.max(0, row.lower) } : {}),
      kind: "series",
      row: rowOf(condition.field && row[condition.field], layer),
      band,
    };
  });
  const blocks = condition.field === undefined ? [undefined] : condition.order;
  const rowOrder = blocks.flatMap((label) => ROW_ORDER.map((layer) => rowOf(label, layer)));
  const references = placedReferences(options.references ?? [], series);
  // A horizontal boundary belongs to the financial state; a round boundary
  // is drawn in every row of its condition, labelled in the top one.
  const referenceRows = references.flatMap(({ reference, label }) =>
    (reference.axis === "y" ? ROW_ORDER.slice(0, 1) : ROW_ORDER).map((layer, index) => ({
      kind: `reference_${reference.axis}`,
      env: envName(reference.env),
      row: rowOf(label, layer),
      ref_value: reference.value,
      // A round's label stands right of its rule: lines of a few words keep it in the panel.
      ref_label: index > 0
        ? ""
        : reference.axis === "x"
        ? wrapWords(reference.label, 16)
        : reference.label,
    }))
  );
  // Environments present, in the paper's order; ids without a name last.
  const envIds = [...new Set(raw.map((row) => String(row.env)))];
  const envs = [
    ...ENV_ORDER.filter((env) => envIds.includes(env)),
    ...envIds.filter((env) => !ENV_ORDER.includes(env)),
  ];
  const x = {
    field: "round",
    type: "quantitative",
    title: "Round",
    axis: { format: "d", tickMinStep: 1 },
  } as const;
  const colors = mechanismColors(raw.map((row) => row.mechanism));
  const color = {
    field: "mechanism",
    type: "nominal",
    title: "Mechanism",
    sort: colors.domain,
    scale: { domain: colors.domain, range: colors.range },
  } as const;
  // Mechanisms on one another (M1 and M2 both at 0) keep apart by their
  // dashes; the legend shows each line's colour and dash, not its pale band.
  const strokeDash = {
    field: "mechanism",
    type: "nominal",
    title: "Mechanism",
    sort: colors.domain,
    scale: lineDashes(colors.domain),
  } as const;
  const lineLegend = {
    symbolType: "stroke",
    symbolStrokeWidth: 2,
    symbolOpacity: 1,
    symbolSize: 300,
  } as const;
  const tooltip = [
    { field: "mechanism", type: "nominal" },
    { field: "round", type: "quantitative" },
    { field: "mean", type: "quantitative", format: ".3~f" },
    { field: "lower", type: "quantitative", format: ".3~f" },
    { field: "upper", type: "quantitative", format: ".3~f" },
    { field: "n", type: "quantitative" },
  ].filter((tip) => raw.some((row) => row[tip.field] !== undefined));
  const [[ruleY, haloY, labelY], [ruleX, haloX, labelX]] = (["y", "x"] as const).map((axis) =>
    referenceLayers(axis, { value: "ref_value", label: "ref_label", fontSize: 9 }).map((layer) => ({
      transform: [{ filter: `datum.kind === 'reference_${axis}'` }],
      ...layer,
    }))
  );
  // The row's title says what its y axes measure, once, left of the first column.
  const rowHeader = (first: boolean) =>
    first
      ? {
        labelLimit: 0,
        labelFontWeight: "bold",
        labelFontSize: 11,
        labelExpr: "split(replace(replace(datum.label, ' · ', '|'), ' / ', ' /|'), '|')",
      }
      : { labels: false };
  const y = { type: "quantitative", title: null } as const;
  const column = (env: string, index: number) => ({
    title: {
      text: String(envName(env)),
      subtitle: columnSubtitle(env),
      fontSize: 12,
      anchor: "middle",
    },
    transform: [{ filter: { field: "env", equal: String(envName(env)) } }],
    facet: {
      row: {
        field: "row",
        type: "nominal",
        title: null,
        sort: rowOrder,
        header: rowHeader(index === 0),
      },
    },
    spec: {
      width,
      height,
      layer: [
        {
          transform: [{ filter: "datum.kind === 'series' && datum.band" }],
          mark: { type: "area", opacity: 0.2 },
          encoding: {
            x,
            y: { ...y, field: "lower" },
            y2: { field: "upper" },
            color: { ...color, legend: lineLegend },
          },
        },
        {
          transform: [{ filter: "datum.kind === 'series'" }],
          mark: { type: "line", point: { size: 12 } },
          encoding: {
            x,
            y: { ...y, field: "mean" },
            color: { ...color, legend: lineLegend },
            strokeDash: { ...strokeDash, legend: lineLegend },
            tooltip,
          },
        },
        ruleY,
        ruleX,
        haloY,
        haloX,
        labelY,
        labelX,
      ],
    },
    resolve: { scale: { y: "independent" } },
  });
  return finishChart({
    $schema: VEGA_LITE_SCHEMA,
    title: {
      text: title,
      subtitle: "Lines: mean across episodes; bands: 95% confidence intervals.",
    },
    data: { values: [...series, ...referenceRows, ...facetPlaceholders(series, "row", "env")] },
    hconcat: envs.map(column),
    resolve: { scale: { color: "shared", strokeDash: "shared" } },
  } as VegaLiteSpec, { agents: agentsOfRows(raw, options.agents, "trajectoriesChart") });
}

/** Words of `text` in lines of at most `width` characters (a longer word gets its own line). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= width) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** The condition keys a reference carries besides its environment. */
const REFERENCE_KEYS = ["regime", "overrides_id"] as const;

/**
 * The condition label of each reference: that of the series of its
 * environment and condition (references of conditions without series are
 * left out).
 */
function placedReferences(
  references: readonly TrajectoryReference[],
  series: readonly Record<string, unknown>[],
): { reference: TrajectoryReference; label: unknown }[] {
  const carried = REFERENCE_KEYS.filter((key) => series.some((row) => row[key] !== undefined));
  for (const key of REFERENCE_KEYS.filter((k) => !carried.includes(k))) {
    for (const env of new Set(references.map((r) => r.env))) {
      const values = sortKeyValues(
        key,
        references.filter((r) => r.env === env).map((r) => r[key]),
      );
      if (values.length > 1) {
        throw new RangeError(
          `trajectoriesChart: the references hold ${values.length} values of ${key} ` +
            `(${values.map((v) => keyLabel(key, v)).join(", ")}) for ${envName(env)} ` +
            `but the rows carry no ${key}; pass the rows of trajectories(), which carry it, ` +
            `or the references of one ${key}`,
        );
      }
    }
  }
  return references.flatMap((reference) => {
    const match = series.find((row) =>
      row.env === envName(reference.env) && carried.every((key) => row[key] === reference[key])
    );
    return match === undefined ? [] : [{ reference, label: match[CONDITION_FIELD] }];
  });
}

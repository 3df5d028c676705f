/**
 * Chart builders for the FRAIL tables and bar-style figures, all built on
 * {@linkcode intervalChart}: Figure 3a (welfare by environment with SE
 * bars), Figure 3b (mechanism scorecard), Table 8 (success rates with
 * Wilson intervals), Table 9 (action measures), Table 10 (welfare by
 * regime) and Figure 6 (early-commitment bins with 95% CIs and n labels).
 * Environment ids are shown with the paper's names.
 *
 * Rows of several conditions (regimes, parameter override sets, ...) are
 * never stacked: each builder facets or colours by the condition keys that
 * vary among its rows and that it does not draw already, e.g. Figure 3a
 * gets one panel per regime.
 *
 * @module
 */

import { SCORECARD_DIMENSIONS, SCORECARD_LABELS } from "../frail/scorecard.ts";
import { ENV_NAMES, envName, MECHANISM_ORDER } from "./_frail_labels.ts";
import { ENV_ORDER, ENV_PROFILES, REGIME_ORDER } from "../frail/env_profiles.ts";
import { splitConditions, withSplit } from "./_condition_facet.ts";
import type { ChartAgents } from "./agents.ts";
import { mechanismColors } from "./_palette.ts";
import {
  type ChartRows,
  chartValues,
  intervalChart,
  type IntervalChartOptions,
} from "./interval.ts";
import type { VegaLiteSpec } from "./spec.ts";

/** Options shared by the FRAIL chart builders. */
export interface FrailChartOptions {
  /** Chart title. @default {the figure or table name} */
  title?: string;
  /** Width of one plot in pixels. @default {240} */
  width?: number;
  /** Height of one plot in pixels. @default {180} */
  height?: number;
  /**
   * The agents behind the rows (`chartAgents(episodes)`): mock agents are
   * named under the title.
   *
   * @default {what the rows' `model` says, else nothing}
   */
  agents?: ChartAgents;
}

/** Options of the FRAIL charts of means ± SE (Figure 3a, Tables 9 and 10). */
export interface MeanSeChartOptions extends FrailChartOptions {
  /**
   * Published values to draw in the run's places, e.g.
   * `loadReference("frail_table10")`: rows with the chart's keys, `mean`
   * and `se`; each a black tick at its mean over a grey band of ± its SE.
   * Rows at places the run has not are left out.
   *
   * @default {none}
   */
  reference?: ChartRows;
  /** What the reference is, in the subtitle. @default {"the paper's values"} */
  referenceLabel?: string;
}

function labelled(rows: ChartRows): Record<string, unknown>[] {
  return chartValues(rows).map((row) => ({
    ...row,
    ...(typeof row.env === "string" ? { env: envName(row.env) } : {}),
  }));
}

/**
 * Bars of `mean` with a rule from mean - se to mean + se (no rule for a
 * row without `se`), cut to `range` when given (a share or a realization
 * cannot leave [0, 1]); the other options are {@linkcode intervalChart}'s.
 * The default title names `± SE` only when some bar has one: `titleFor(withSe)`; the
 * subtitle says which bars have none and why (an SE is across model means,
 * and one model has no spread).
 */
function meanSeBars(
  rows: readonly Record<string, unknown>[],
  options: Omit<IntervalChartOptions, "y" | "lower" | "upper" | "mark" | "reference"> & {
    titleFor: (withSe: boolean) => string;
    range?: readonly [number, number];
    reference?: { rows: ChartRows; label?: string };
  },
): VegaLiteSpec {
  const { titleFor, range = [-Infinity, Infinity], reference, ...rest } = options;
  const [min, max] = range;
  const hasSe = (row: Record<string, unknown>) => typeof row.se === "number";
  const withEnds = (row: Record<string, unknown>) => ({
    ...row,
    lower: hasSe(row) ? Math.max(min, (row.mean as number) - (row.se as number)) : null,
    upper: hasSe(row) ? Math.min(max, (row.mean as number) + (row.se as number)) : null,
  });
  const bounded = rows.map(withEnds);
  if (reference !== undefined && rows.some((row) => "condition" in row)) {
    throw new RangeError(
      `${options.name}: the rows hold several conditions, so the reference rows cannot be ` +
        "placed among them: pass the rows of one condition",
    );
  }
  const some = rows.some(hasSe);
  const all = rows.every(hasSe);
  const title = rest.title ?? titleFor(some);
  const why = "an SE is across model means, and one model has none";
  const note = all
    ? undefined
    : some
    ? `Bars without a rule: no SE (${why})`
    : `No SE bars: ${why}`;
  return intervalChart(bounded, {
    ...rest,
    title,
    ...(note === undefined ? {} : {
      subtitle: rest.subtitle === undefined ? note : `${rest.subtitle}; ${note}`,
    }),
    ...(reference === undefined ? {} : {
      reference: {
        rows: labelled(reference.rows).map(withEnds),
        label: reference.label ?? "the paper's values",
      },
    }),
    y: "mean",
    lower: "lower",
    upper: "upper",
    mark: "bar",
  });
}

/** The `reference` option of `meanSeBars()` from a builder's options. */
function referenceOf(options: MeanSeChartOptions) {
  return options.reference === undefined
    ? {}
    : { reference: { rows: options.reference, label: options.referenceLabel } };
}

/** The fixed colours of the mechanisms of `rows`. */
function byMechanism(rows: readonly Record<string, unknown>[]) {
  return {
    color: "mechanism",
    colorTitle: "Mechanism",
    colors: mechanismColors(rows.map((row) => row.mechanism)),
  };
}

/**
 * FRAIL Figure 3a: mean welfare realization across model means per
 * environment and mechanism, as bars with ± SE error bars; one panel per
 * condition (regime, parameter override set) when the rows hold several.
 *
 * @param averages Rows with `env`, `mechanism`, `mean`, `se` (from
 * `welfareAverage()`), and the condition keys.
 * @param options Title and size.
 * @returns A Vega-Lite spec: one bar and one rule per row.
 * @throws {RangeError} If two rows fall on one bar.
 *
 * @example Two regimes get a panel each
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { welfareBarsChart } from "./frail_estimates.ts";
 *
 * const svg = await renderSvg(welfareBarsChart([
 *   { env: "bank_run", regime: "stable", mechanism: "M0", mean: 0.215, se: 0.139 },
 *   { env: "bank_run", regime: "stable", mechanism: "M3", mean: 0.737, se: 0.169 },
 *   { env: "bank_run", regime: "contraction", mechanism: "M0", mean: 0.1, se: 0.05 },
 * ]));
 * assert.equal(svg.match(/aria-roledescription="bar"/g)?.length, 3);
 * assert.ok(svg.includes(">Bank run</text>"));
 * assert.ok(svg.includes(">Stable</text>") && svg.includes(">Contraction</text>"));
 * ```
 */
export function welfareBarsChart(
  averages: ChartRows,
  options: MeanSeChartOptions = {},
): VegaLiteSpec {
  const { values, options: split } = splitConditions(
    labelled(averages),
    ["env", "mechanism"],
    "column",
  );
  return meanSeBars(values, {
    ...withSplit({
      x: "env",
      y: "mean",
      ...byMechanism(values),
      sort: { x: ENV_NAMES },
      tooltip: ["se", "models"],
      title: options.title,
      xTitle: "Environment",
      yTitle: "Welfare realization W~",
      width: options.width ?? 360,
      height: options.height ?? 220,
      name: "welfareBarsChart",
      agents: options.agents,
    }, split),
    titleFor: (withSe) =>
      `Welfare realization by environment (mean of model means${withSe ? " ± SE" : ""})`,
    range: [0, 1],
    ...referenceOf(options),
  });
}

/**
 * FRAIL Table 8 as a chart: success rate per model and mechanism with 95%
 * Wilson intervals, one column per environment and one row per condition
 * (regime, parameter override set) when the rows hold several.
 *
 * @param table Rows with `env`, `model`, `mechanism`, `rate`, `lower`,
 * `upper` (from `successTable()`), and the condition keys.
 * @param options Title and size.
 * @returns A Vega-Lite spec: one point and one rule per row.
 * @throws {RangeError} If two rows fall on one point.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { successChart } from "./frail_estimates.ts";
 *
 * const svg = await renderSvg(successChart([
 *   { env: "bank_run", model: "GLM", mechanism: "M0", rate: 0, lower: 0, upper: 0.43 },
 *   { env: "bank_run", model: "GLM", mechanism: "M1", rate: 1, lower: 0.57, upper: 1 },
 * ]));
 * assert.equal(svg.match(/aria-roledescription="point"/g)?.length, 2);
 * ```
 */
export function successChart(table: ChartRows, options: FrailChartOptions = {}): VegaLiteSpec {
  const { values, options: split } = splitConditions(
    labelled(table),
    ["env", "model", "mechanism"],
    "row",
  );
  return intervalChart(
    values,
    withSplit({
      x: "model",
      y: "rate",
      lower: "lower",
      upper: "upper",
      ...byMechanism(values),
      column: "env",
      sort: { column: ENV_NAMES },
      tooltip: ["successes", "episodes"],
      yDomain: [0, 1],
      title: options.title ?? "Success rate with 95% Wilson intervals",
      xTitle: "Model",
      yTitle: "Success rate",
      width: options.width,
      height: options.height,
      name: "successChart",
      agents: options.agents,
    }, split),
  );
}

/** Panel titles of the action measures (Table 9): the environment and what is measured. */
const MEASURE_TITLES: Readonly<Record<string, string>> = {
  withdrawal_rate: "Bank run: withdrawal rate",
  redemption_rate: "Debt rollover: redemption rate",
  first_launch_round: "Reward crowdfunding: first launch round",
};

/**
 * FRAIL Table 9 as a chart: each action measure's mean across model means
 * ± SE per mechanism, one column (with its own scale) per measure; bars
 * coloured by condition (regime, parameter override set) when the rows hold
 * several.
 *
 * @param table Rows with `measure`, `mechanism`, `mean`, `se` (from
 * `actionMeasuresTable()`), and the condition keys.
 * @param options Title and size.
 * @returns A Vega-Lite spec: one bar and one rule per row.
 * @throws {RangeError} If two rows fall on one bar.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { actionMeasuresChart } from "./frail_estimates.ts";
 *
 * const svg = await renderSvg(actionMeasuresChart([
 *   { measure: "withdrawal_rate", mechanism: "M0", mean: 0.536, se: 0.092 },
 *   { measure: "first_launch_round", mechanism: "M0", mean: 3.392, se: 0.427 },
 * ]));
 * assert.equal(svg.match(/aria-roledescription="bar"/g)?.length, 2);
 * ```
 */
export function actionMeasuresChart(
  table: ChartRows,
  options: MeanSeChartOptions = {},
): VegaLiteSpec {
  // A measure belongs to one environment, so its column names the environment too.
  const { values: rows, options: split } = splitConditions(
    chartValues(table),
    ["env", "mechanism"],
    "row",
  );
  const values = rows.map((row) => ({
    ...row,
    measure: MEASURE_TITLES[String(row.measure)] ?? row.measure,
  }));
  return meanSeBars(values, {
    ...withSplit({
      x: "mechanism",
      y: "mean",
      column: "measure",
      independentY: true,
      ...byMechanism(values),
      tooltip: ["se", "models"],
      sort: {
        x: MECHANISM_ORDER,
        column: Object.values(MEASURE_TITLES),
      },
      title: options.title,
      xTitle: "Mechanism",
      yTitle: "Measure (mean of model means)",
      width: options.width ?? 180,
      height: options.height,
      name: "actionMeasuresChart",
      agents: options.agents,
    }, split),
    titleFor: (withSe) => `Action-level measures (mean of model means${withSe ? " ± SE" : ""})`,
    ...referenceOf(options),
  });
}

/**
 * FRAIL Table 10 as a chart: welfare realization per regime and mechanism
 * (mean of model means ± SE), one column per environment and one row per
 * parameter override set when the rows hold several.
 *
 * @param table Rows with `env`, `regime`, `mechanism`, `mean`, `se` (from
 * `regimeTable()`), and `overrides_id`.
 * @param options Title and size.
 * @returns A Vega-Lite spec: one bar and one rule per row.
 * @throws {RangeError} If two rows fall on one bar.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { regimeChart } from "./frail_estimates.ts";
 *
 * const svg = await renderSvg(regimeChart([
 *   { env: "bank_run", regime: "expansion", mechanism: "M3", mean: 0.981, se: 0.01 },
 *   { env: "bank_run", regime: "stable", mechanism: "M3", mean: 0.747, se: 0.249 },
 *   { env: "bank_run", regime: "contraction", mechanism: "M3", mean: 0.728, se: 0.108 },
 * ]));
 * assert.equal(svg.match(/aria-roledescription="bar"/g)?.length, 3);
 * ```
 */
export function regimeChart(table: ChartRows, options: MeanSeChartOptions = {}): VegaLiteSpec {
  const { values, options: split } = splitConditions(
    labelled(table),
    ["env", "regime", "mechanism"],
    "row",
  );
  return meanSeBars(values, {
    ...withSplit({
      x: "regime",
      y: "mean",
      ...byMechanism(values),
      column: "env",
      sort: { x: [...REGIME_ORDER], column: ENV_NAMES },
      tooltip: ["se", "models"],
      title: options.title,
      xTitle: "Regime",
      yTitle: "Welfare realization W~",
      width: options.width,
      height: options.height,
      name: "regimeChart",
      agents: options.agents,
    }, split),
    titleFor: (withSe) =>
      `Welfare realization across economic regimes (mean of model means${withSe ? " ± SE" : ""})`,
    range: [0, 1],
    ...referenceOf(options),
  });
}

/**
 * FRAIL Figure 3b: the mechanism scorecard as grouped bars, one group per
 * dimension (larger is better on every dimension); one panel per condition
 * (regime, parameter override set) when the rows hold several.
 *
 * @param card Rows with `mechanism`, `dimension`, `value` (from
 * `scorecard()`), and the condition keys.
 * @param options Title and size.
 * @returns A Vega-Lite spec: one bar per row.
 * @throws {RangeError} If two rows fall on one bar.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { scorecardChart } from "./frail_estimates.ts";
 *
 * const svg = await renderSvg(scorecardChart([
 *   { mechanism: "M0", dimension: "welfare", value: 0.39 },
 *   { mechanism: "M3", dimension: "welfare", value: 0.74 },
 *   { mechanism: "M3", dimension: "early_participation", value: 0.6 },
 * ]));
 * assert.equal(svg.match(/aria-roledescription="bar"/g)?.length, 3);
 * assert.ok(svg.includes(">Early participation</text>"));
 * ```
 */
export function scorecardChart(card: ChartRows, options: FrailChartOptions = {}): VegaLiteSpec {
  const rows = chartValues(card).map((row) => ({
    ...row,
    dimension: SCORECARD_LABELS[String(row.dimension)] ?? row.dimension,
  }));
  const { values, options: split } = splitConditions(rows, ["mechanism"], "column");
  // A dimension the rows cannot measure (one model: no cross-model spread)
  // stands on the axis without bars; the subtitle says why it is empty.
  const blank = [...new Set(values.map((row) => row.dimension))].filter((dimension) =>
    values.every((row) => row.dimension !== dimension || row.value == null)
  );
  return intervalChart(
    values,
    withSplit({
      x: "dimension",
      y: "value",
      ...byMechanism(values),
      mark: "bar",
      sort: { x: SCORECARD_DIMENSIONS.map((d) => SCORECARD_LABELS[d]) },
      title: options.title ?? "Mechanism scorecard",
      ...(blank.length === 0 ? {} : {
        subtitle: blank.map((dimension) =>
          dimension === SCORECARD_LABELS.consistency
            ? `${dimension}: no value (needs two or more models)`
            : `${dimension}: no value`
        ).join("; "),
      }),
      xTitle: "Dimension",
      yTitle: "Score (larger is better)",
      width: options.width ?? 480,
      height: options.height ?? 220,
      name: "scorecardChart",
      agents: options.agents,
    }, split),
  );
}

/**
 * FRAIL Figure 6: early-commitment bins with mean outcome, 95% CIs and n
 * labels, one column per environment, titled with what it measures
 * (`Bank run: success rate`, `Reward crowdfunding: launch round`), each
 * with its own scale; one row of panels per condition
 * (regime, parameter override set) when the rows hold several (from
 * `earlyCommitmentBins(..., { by: ["regime"] })`).
 *
 * @param bins Rows with `env`, `bin_start`, `bin_end`, `mean`, `lower`,
 * `upper`, `n` (from `earlyCommitmentBins()`), and the condition keys.
 * @param options Title and size.
 * @returns A Vega-Lite spec: one point, one rule and one `n=` label per row.
 * @throws {RangeError} If two rows fall on one point.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "./render.ts";
 * import { earlyCommitmentChart } from "./frail_estimates.ts";
 *
 * const svg = await renderSvg(earlyCommitmentChart([
 *   { env: "bank_run", bin_start: 0, bin_end: 0.2, mean: 0.3, lower: 0.1, upper: 0.5, n: 40 },
 *   { env: "bank_run", bin_start: 0.8, bin_end: 1, mean: 0.9, lower: 0.8, upper: 1, n: 25 },
 * ]));
 * assert.equal(svg.match(/aria-roledescription="point"/g)?.length, 2);
 * assert.ok(svg.includes(">n=40</text>") && svg.includes(">n=25</text>"));
 * ```
 */
export function earlyCommitmentChart(
  bins: ChartRows,
  options: FrailChartOptions = {},
): VegaLiteSpec {
  const binLabel = (start: number, end: number) => `${start.toFixed(1)}–${end.toFixed(1)}`;
  // Each environment's panel says what its y axis measures.
  const panel = (env: string) =>
    `${envName(env)}: ${ENV_PROFILES[env]?.launchMetric ? "launch round" : "success rate"}`;
  const rows = chartValues(bins).map((row) => ({
    ...row,
    env: typeof row.env === "string" ? panel(row.env) : row.env,
    share: binLabel(row.bin_start as number, row.bin_end as number),
  }));
  const order = [0, 1, 2, 3, 4].map((i) => binLabel(i / 5, (i + 1) / 5));
  // A row per condition: coloured points would crowd their n labels.
  const { values, options: split } = splitConditions(rows, ["env"], "row");
  return intervalChart(
    values,
    withSplit({
      x: "share",
      y: "mean",
      lower: "lower",
      upper: "upper",
      label: "n",
      column: "env",
      independentY: true,
      showAllX: true,
      sort: { x: order, column: ENV_ORDER.map(panel) },
      tooltip: ["bin_start", "bin_end"],
      title: options.title ?? "Early committed share (max over rounds 1-3) and outcomes",
      xTitle: "Early committed share",
      yTitle: "Mean outcome (95% CI)",
      width: options.width,
      height: options.height,
      name: "earlyCommitmentChart",
      agents: options.agents,
    }, split),
  );
}

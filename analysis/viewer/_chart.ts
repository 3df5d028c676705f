// The trajectory chart of one episode, built with the toolkit's state
// trajectory chart builder, by the kind of chart the game's descriptor names
// (`GameView.chart`): one renderer per kind, none per game.
//
// Choices:
// - "disclosure": the disclosure metrics the view lists (every numeric one
//   when it lists none), round by round, series named after the metric.
//   FRAIL views list the metrics drawn in the paper's Figure 4 (the
//   financial metric and the committed amount).
// - "transition": numeric fields of each round's transition of one kind (the
//   Stag Hunt's public and pre-flip Stag counts), with a level line from the
//   condition (the threshold M) when the condition holds a number there.
// - No reference line is taken from a paper constant: only values logged in
//   the episode are drawn. A disclosure chart draws the logged reference line
//   (`derived.reference`) where it is a level (the bank's insolvency
//   boundary, the crowdfunding goal); a round line (debt rollover's first
//   maturity) is left to the caption.

import type { ChartView, GameView } from "../../engine/core/game.ts";
import { stateTrajectoryChart, type TrajectoryRow } from "../charts/state_trajectory.ts";
import type { VegaLiteSpec } from "../charts/spec.ts";
import type { EpisodeModel } from "./_episode_model.ts";
import { gameView } from "./_game_view.ts";

/** A chart and its caption. */
export interface EpisodeChart {
  /** The Vega-Lite spec. */
  spec: VegaLiteSpec;
  /** What the chart shows, in a sentence. */
  caption: string;
}

/** Width and height of the chart's plotting area, in CSS pixels. */
export const CHART_SIZE = { width: 340, height: 120 } as const;

/**
 * The episode's trajectory chart, or `null` when the log has nothing to draw;
 * `view` is its game's (default: the registry's).
 */
export function episodeChart(
  model: EpisodeModel,
  view: GameView = gameView(model.header?.env ?? null, model.header?.game ?? null),
): EpisodeChart | null {
  const chart = view.chart;
  return chart.kind === "transition"
    ? transitionChart(model, chart)
    : disclosureChart(model, chart.metrics, chart.yTitle);
}

function disclosureChart(
  model: EpisodeModel,
  wanted: readonly string[] | null,
  yTitle: string,
): EpisodeChart | null {
  const rows: TrajectoryRow[] = [];
  for (const round of model.rounds) {
    const metrics = round.disclosure?.metrics;
    if (typeof metrics !== "object" || metrics === null) continue;
    for (const [series, value] of Object.entries(metrics as Record<string, unknown>)) {
      if (typeof value !== "number" || !Number.isFinite(value)) continue;
      if (wanted === null || wanted.includes(series)) {
        rows.push({ round: round.round, series: series.replaceAll("_", " "), value });
      }
    }
  }
  if (rows.length === 0) return null;
  const reference = model.header?.derived.reference as
    | { axis?: unknown; value?: unknown; label?: unknown }
    | undefined;
  const level = reference?.axis === "y" && typeof reference.value === "number"
    ? [{ y: reference.value, label: `${reference.label} ${+reference.value.toFixed(2)}` }]
    : [];
  const spec = withLegendBelow(
    stateTrajectoryChart(rows, { ...CHART_SIZE, yTitle, referenceLines: level }),
  );
  const names = [...new Set(rows.map((r) => r.series))].join(", ");
  const round = reference?.axis === "x" && typeof reference.value === "number"
    ? ` The ${reference.label} in round ${reference.value}.`
    : "";
  return { spec, caption: `Disclosure metrics by round: ${names}.${round}` };
}

function transitionChart(
  model: EpisodeModel,
  chart: Extract<ChartView, { kind: "transition" }>,
): EpisodeChart | null {
  const rows: TrajectoryRow[] = [];
  for (const round of model.rounds) {
    const outcome = round.transitions.find((t) => t.kind === chart.transition);
    if (outcome === undefined) continue;
    for (const { field, label } of chart.series) {
      const value = outcome[field];
      if (typeof value === "number") rows.push({ round: round.round, series: label, value });
    }
  }
  if (rows.length === 0) return null;
  const level = chart.level;
  const at = level === null ? undefined : model.header?.condition[level.condition];
  const spec = withLegendBelow(stateTrajectoryChart(rows, {
    ...CHART_SIZE,
    yTitle: chart.yTitle,
    referenceLines: level !== null && typeof at === "number"
      ? [{ y: at, label: `${level.label} = ${at}` }]
      : [],
  }));
  return { spec, caption: chart.caption };
}

function withLegendBelow(spec: VegaLiteSpec): VegaLiteSpec {
  return { ...spec, config: { ...spec.config, legend: { orient: "bottom", labelLimit: 260 } } };
}

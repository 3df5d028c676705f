// The trajectory chart of one episode, built with the toolkit's state
// trajectory chart builder.
//
// Choices:
// - FRAIL: the disclosure metrics drawn in the paper's Figure 4 for the
//   environment (its financial metric, e.g. cumulative withdrawals, and the
//   committed amount), round by round. For an environment the analysis has
//   no profile of, every disclosure metric is drawn.
// - Stag Hunt: the number of Stag actions per round in the public transcript
//   and before flips, with the threshold M of the condition as a dashed line.
// - No reference line is taken from a paper constant: only values logged in
//   the episode are drawn. A FRAIL episode's logged Figure 4 line
//   (`derived.reference`) is drawn where it is a level (the bank's insolvency
//   boundary, the crowdfunding goal); a round line (debt rollover's first
//   maturity) is left to the caption.

import { ENV_PROFILES } from "../frail/env_profiles.ts";
import { stateTrajectoryChart, type TrajectoryRow } from "../charts/state_trajectory.ts";
import type { VegaLiteSpec } from "../charts/spec.ts";
import type { EpisodeModel } from "./_episode_model.ts";

/** A chart and its caption. */
export interface EpisodeChart {
  /** The Vega-Lite spec. */
  spec: VegaLiteSpec;
  /** What the chart shows, in a sentence. */
  caption: string;
}

/** Width and height of the chart's plotting area, in CSS pixels. */
export const CHART_SIZE = { width: 340, height: 120 } as const;

/** The episode's trajectory chart, or `null` when the log has nothing to draw. */
export function episodeChart(model: EpisodeModel): EpisodeChart | null {
  return model.header?.game === "staghunt" ? stagHuntChart(model) : frailChart(model);
}

function frailChart(model: EpisodeModel): EpisodeChart | null {
  const condition = model.header?.condition ?? {};
  const profile = ENV_PROFILES[String(condition.env)];
  const wanted = profile === undefined
    ? null
    : [...new Set([profile.financialMetric, "committed"])];
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
    stateTrajectoryChart(rows, { ...CHART_SIZE, yTitle: "Amount", referenceLines: level }),
  );
  const names = [...new Set(rows.map((r) => r.series))].join(", ");
  const round = reference?.axis === "x" && typeof reference.value === "number"
    ? ` The ${reference.label} in round ${reference.value}.`
    : "";
  return { spec, caption: `Disclosure metrics by round: ${names}.${round}` };
}

function stagHuntChart(model: EpisodeModel): EpisodeChart | null {
  const rows: TrajectoryRow[] = [];
  for (const round of model.rounds) {
    const outcome = round.transitions.find((t) => t.kind === "round_outcome");
    if (outcome === undefined) continue;
    for (
      const [series, field] of [["public Stag", "public_stag"], ["pre-flip Stag", "preflip_stag"]]
    ) {
      const value = outcome[field];
      if (typeof value === "number") rows.push({ round: round.round, series, value });
    }
  }
  if (rows.length === 0) return null;
  const M = model.header?.condition.M;
  const spec = withLegendBelow(stateTrajectoryChart(rows, {
    ...CHART_SIZE,
    yTitle: "Stag actions",
    referenceLines: typeof M === "number" ? [{ y: M, label: `threshold M = ${M}` }] : [],
  }));
  return { spec, caption: "Stag actions per round, in the public transcript and before flips." };
}

function withLegendBelow(spec: VegaLiteSpec): VegaLiteSpec {
  return { ...spec, config: { ...spec.config, legend: { orient: "bottom", labelLimit: 260 } } };
}

/**
 * The minimum-effort game by round, across episodes: a table of the mean
 * minimum effort, mean effort and mean payoff of each round, and a chart of
 * mean effort and minimum by round (the picture of Van Huyck, Battalio and
 * Beil's Figure 1: the group minimum falling towards 1 over the rounds).
 *
 * The table reads the loader's frames: the `rounds` frame has one row per
 * episode and round with the round measures the environment writes in each
 * `disclosure` (`minimum`, `mean_effort`, `modal_effort`, `mean_payoff`,
 * `effort_1` ...; see `engine/games/min_effort/measures.ts`), keyed by the
 * episode and its condition (`N`, `T`, `a`, `b`, `c`, `efforts`, `model`).
 * Only episodes with `status` `ok` (and `degraded` when asked) count; every
 * condition and model has rows of its own.
 *
 * Choices: a round's value is the mean over the episodes that played it
 * (all of a condition do: the game has no early end); `minimum` is the mean
 * of the rounds' minima, not the minimum over episodes.
 *
 * @module
 */

import pl from "npm:nodejs-polars@0.25.2";
import { MIN_EFFORT_CONDITION_KEYS } from "../../engine/games/min_effort/descriptor.ts";
import { ROUND_MEASURE_COLUMNS } from "../../engine/games/min_effort/measures.ts";
import { MIN_EFFORT_ID } from "../../engine/games/min_effort/params.ts";
import { countedEpisodes, type EpisodeStatusOptions } from "../conditions.ts";
import { keyLabel, layeredChart } from "../charts/_condition_facet.ts";
import { agentsOfRows, type ChartAgents } from "../charts/agents.ts";
import { type ChartRows, chartValues, checkSize } from "../charts/interval.ts";
import type { VegaLiteSpec } from "../charts/spec.ts";
import { requireColumns } from "../stats.ts";

/** Options for {@linkcode roundMeasuresTable}. */
export type RoundMeasuresOptions = EpisodeStatusOptions;

/** The measures the table averages, in order, with their labels. */
const AVERAGED = ["minimum", "mean_effort", "mean_payoff"] as const;

/**
 * The labels of the table's measure columns.
 *
 * @example
 * ```ts
 * import { ROUND_TABLE_LABELS } from "./round_measures.ts";
 * if (ROUND_TABLE_LABELS.minimum !== "Minimum effort" || ROUND_TABLE_LABELS.episodes !== "Episodes") throw new Error();
 * ```
 */
export const ROUND_TABLE_LABELS: Readonly<Record<string, string>> = Object.freeze({
  ...Object.fromEntries(
    ROUND_MEASURE_COLUMNS.filter((c) => (AVERAGED as readonly string[]).includes(c.column))
      .map((c) => [c.column, c.label]),
  ),
  episodes: "Episodes",
});

const KEYS = [...MIN_EFFORT_CONDITION_KEYS, "model"];

/**
 * The minimum-effort rounds across episodes: one row per condition, model
 * and round, with the number of episodes and the means of the round's
 * minimum, mean effort and mean payoff.
 *
 * @param episodes The `episodes` frame of `loadRuns()` (`run`, `episode`, `env`, `status`).
 * @param rounds The `rounds` frame of `loadRuns()` (the key columns, `round` and the measures).
 * @param options Whether degraded episodes count.
 * @returns Columns `N`, `T`, `a`, `b`, `c`, `efforts`, `model`, `round`,
 * `episodes`, `minimum`, `mean_effort`, `mean_payoff`; sorted by those keys
 * and the round. Episodes of other games are left out.
 * @throws {RangeError} If a needed column is missing.
 *
 * @example Two episodes of one condition
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { roundMeasuresTable } from "./round_measures.ts";
 *
 * const key = { N: 2, T: 1, a: 0.2, b: 0.1, c: 0.6, efforts: 7, model: "mock:x" };
 * const episodes = pl.DataFrame({ run: ["r", "r"], episode: ["a", "b"],
 *   env: ["min_effort", "min_effort"], status: ["ok", "ok"] });
 * const rounds = pl.DataFrame([
 *   { run: "r", episode: "a", ...key, round: 1, minimum: 3, mean_effort: 5, mean_payoff: 0.6 },
 *   { run: "r", episode: "b", ...key, round: 1, minimum: 1, mean_effort: 2, mean_payoff: 0.8 },
 * ]);
 * const [row] = roundMeasuresTable(episodes, rounds).toRecords();
 * assert.equal(row.episodes, 2);
 * assert.equal(row.minimum, 2);
 * assert.equal(row.mean_effort, 3.5);
 * ```
 */
export function roundMeasuresTable(
  episodes: pl.DataFrame,
  rounds: pl.DataFrame,
  options: RoundMeasuresOptions = {},
): pl.DataFrame {
  requireColumns(episodes, ["run", "episode", "env", "status"], "roundMeasuresTable()");
  requireColumns(rounds, ["run", "episode", ...KEYS, "round", ...AVERAGED], "roundMeasuresTable()");
  const counted = countedEpisodes(episodes, options)
    .filter(pl.col("env").eq(pl.lit(MIN_EFFORT_ID)))
    .select("run", "episode");
  const played = rounds.join(counted, { on: ["run", "episode"], how: "inner" });
  const by = [...KEYS, "round"];
  return played.groupBy(by).agg(
    pl.col("episode").count().alias("episodes"),
    ...AVERAGED.map((m) => pl.col(m).mean().alias(m)),
  ).sort(by).select(...[...by, "episodes", ...AVERAGED].map((c) => pl.col(c)));
}

/** Options for {@linkcode roundMeasuresChart}. */
export interface RoundMeasuresChartOptions {
  /** Chart title. @default {"Mean effort and minimum effort by round"} */
  title?: string;
  /** Width of one plot in pixels. @default {360} */
  width?: number;
  /** Height of one plot in pixels. @default {220} */
  height?: number;
  /**
   * The agents behind the rows (`chartAgents(episodes)`): mock agents are
   * named under the title.
   *
   * @default {what the rows' `model` says, else nothing}
   */
  agents?: ChartAgents;
}

const SERIES = ["Mean effort", "Minimum effort"] as const;

/** The label of a row's condition: the keys that vary among the rows. */
function conditionOf(rows: readonly Record<string, unknown>[]) {
  const keys = KEYS.filter((k) => new Set(rows.map((r) => r[k] ?? null)).size > 1);
  const label = (row: Record<string, unknown>) => keys.map((k) => keyLabel(k, row[k])).join(" · ");
  return { keys, label, order: [...new Set(rows.map(label))] };
}

/**
 * Mean effort and minimum effort by round: two lines with points per plot,
 * rounds on the x axis, efforts 1..E on the y axis; one panel per condition
 * and model when the rows hold several.
 *
 * @param table Rows of {@linkcode roundMeasuresTable} (a frame or records).
 * @param options Title, size and the agents behind the rows.
 * @returns A Vega-Lite v5 spec; render it with `renderSvg()` or `renderPng()`.
 * @throws {RangeError} If a size is not a positive integer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSvg } from "../charts/render.ts";
 * import { roundMeasuresChart } from "./round_measures.ts";
 *
 * const key = { N: 7, T: 2, a: 0.2, b: 0.1, c: 0.6, efforts: 7, model: "mock:x" };
 * const svg = await renderSvg(roundMeasuresChart([
 *   { ...key, round: 1, episodes: 2, minimum: 3, mean_effort: 5.5, mean_payoff: 0.8 },
 *   { ...key, round: 2, episodes: 2, minimum: 2, mean_effort: 3, mean_payoff: 0.9 },
 * ]));
 * assert.equal(svg.match(/aria-roledescription="line mark"/g)?.length, 2);
 * assert.ok(svg.includes("Mock agents"));
 * ```
 */
export function roundMeasuresChart(
  table: ChartRows,
  options: RoundMeasuresChartOptions = {},
): VegaLiteSpec {
  const { width = 360, height = 220 } = options;
  checkSize("width", width);
  checkSize("height", height);
  const rows = chartValues(table);
  const condition = conditionOf(rows);
  const facet = condition.keys.length > 0;
  const values = rows.flatMap((row) =>
    SERIES.map((series) => ({
      ...(facet ? { condition: condition.label(row) } : {}),
      round: row.round,
      series,
      value: series === "Mean effort" ? row.mean_effort : row.minimum,
      episodes: row.episodes,
    }))
  );
  const highest = Math.max(2, ...rows.map((r) => Number(r.efforts)).filter(Number.isFinite));
  const rounds = rows.map((r) => Number(r.round)).filter(Number.isFinite);
  const last = rounds.length ? Math.max(...rounds) : 1;
  const legend = { symbolType: "stroke", symbolStrokeWidth: 2 } as const;
  return layeredChart({
    title: options.title ?? "Mean effort and minimum effort by round",
    values,
    width,
    height,
    agents: agentsOfRows(rows, options.agents, "roundMeasuresChart"),
    ...(facet ? { facet: { field: "condition", order: condition.order } } : {}),
    layer: [{
      mark: { type: "line", point: true },
      encoding: {
        x: {
          field: "round",
          type: "quantitative",
          title: "Round",
          scale: { domain: [1, last], nice: false, padding: 8 },
          axis: { format: "d", values: Array.from({ length: last }, (_, i) => i + 1) },
        },
        y: {
          field: "value",
          type: "quantitative",
          title: "Effort",
          scale: { domain: [1, highest], nice: false, padding: 8 },
          axis: { format: "d", values: Array.from({ length: highest }, (_, i) => i + 1) },
        },
        color: {
          field: "series",
          type: "nominal",
          title: null,
          sort: [...SERIES],
          scale: { domain: [...SERIES] },
          legend,
        },
        strokeDash: {
          field: "series",
          type: "nominal",
          title: null,
          sort: [...SERIES],
          scale: { domain: [...SERIES], range: [[1, 0], [6, 3]] },
          legend,
        },
        tooltip: [
          { field: "round", type: "quantitative" },
          { field: "series", type: "nominal" },
          { field: "value", type: "quantitative", format: ".3~f" },
          { field: "episodes", type: "quantitative" },
        ],
      },
    }],
  });
}

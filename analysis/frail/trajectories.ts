/**
 * FRAIL Figure 4: round-by-round trajectories per environment and
 * mechanism, in three panels, with the conventions of Appendix H.4:
 * - `financial` (top row): the environment's financial state
 *   (cumulative withdrawals, cumulative redemptions, or the pledged pool),
 *   last observation carried forward after an episode terminates;
 * - `committed` (middle row): the committed amount, averaged over the
 *   episodes observed at each round (no carrying forward);
 * - `intent` (bottom row, bank run and debt rollover): the mean reported
 *   exit probability (`reported` / 100) of participants who are not
 *   committed at that round, per episode, then averaged over episodes,
 *   carried forward after termination;
 * - `not_launched` (bottom row, crowdfunding): the share of episodes not yet
 *   launched, carried forward, so its last value is the share never
 *   launched.
 * Each point is the mean across episodes with a 95% normal-approximation
 * confidence interval (the paper draws bands in the top and middle rows).
 *
 * Every condition (environment, regime, parameter overrides, mechanism) has
 * trajectories of its own; models are pooled, as in the paper.
 *
 * Choices: trajectories run from round 1 to the last round observed in any
 * episode of the condition (environment, regime, override set); a round
 * inside an episode with no uncommitted participant deciding has no intent
 * value (it is not carried forward); participants with nothing left at
 * stake (`amount` 0) are not counted in the intent; only episodes with
 * `status` `ok` (and `degraded` when asked) count.
 *
 * @module
 */

import pl from "npm:nodejs-polars@0.25.2";
import { countedEpisodes, type EpisodeStatusOptions } from "../conditions.ts";
import { ciAggregations, type MeanCiOptions, requireColumns } from "../stats.ts";
import { ENV_ORDER, ENV_PROFILES, envProfile } from "./env_profiles.ts";
import { EPISODE_ID } from "./episode_measures.ts";
import { cellKeysOf, sortCells } from "./welfare_table.ts";

/**
 * Panels of Figure 4, top to bottom.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { TRAJECTORY_PANELS } from "./trajectories.ts";
 *
 * assert.equal(TRAJECTORY_PANELS[0], "financial");
 * ```
 */
export const TRAJECTORY_PANELS: readonly string[] = [
  "financial",
  "committed",
  "intent",
  "not_launched",
];

/** A frame, eager or lazy: lazy inputs (e.g. from `loadRunsLazy()`) read only the columns used. */
export type FrameInput = pl.DataFrame | pl.LazyDataFrame;

function asLazy(frame: FrameInput): pl.LazyDataFrame {
  return typeof (frame as pl.LazyDataFrame).collectSync === "function"
    ? frame as pl.LazyDataFrame
    : (frame as pl.DataFrame).lazy();
}

/** Options for {@linkcode trajectories}. */
export interface TrajectoriesOptions extends MeanCiOptions, EpisodeStatusOptions {}

/** One critical-boundary reference line of Figure 4. */
export interface TrajectoryReference {
  /** Environment id. */
  env: string;
  /** Regime of the episodes it belongs to. */
  regime: string;
  /** Parameter overrides id of the episodes it belongs to (`"none"` without overrides). */
  overrides_id: string;
  /** `"y"` for a horizontal level, `"x"` for a vertical round. */
  axis: "x" | "y";
  /** Position on that axis. */
  value: number;
  /** Text of the line's label. */
  label: string;
}

/**
 * Round-by-round trajectories of FRAIL Figure 4.
 *
 * @param episodes The `episodes` frame of `loadRuns()` (eager or lazy).
 * @param rounds The `rounds` frame of `loadRuns()` (eager or lazy).
 * @param decisions The `decisions` frame of `loadRuns()` (eager or lazy;
 * for the intent panel).
 * @param options The normal quantile of the intervals and whether degraded
 * episodes count.
 * @returns Columns `env`, `regime`, `overrides_id` (when the frame has it),
 * `mechanism`, `panel`, `round`, `mean`, `lower`, `upper`, `n` (episodes
 * behind the point).
 * @throws {RangeError} If a needed column is missing.
 *
 * @example A bank run that fails in round 1 is carried forward to round 2
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { trajectories } from "./trajectories.ts";
 *
 * const key = { env: "bank_run", regime: "stable", mechanism: "M0", model: "m" };
 * const episodes = pl.DataFrame([
 *   { run: "r", episode: "a", ...key, status: "ok" },
 *   { run: "r", episode: "b", ...key, status: "ok" },
 * ]);
 * const rounds = pl.DataFrame([
 *   { run: "r", episode: "a", ...key, round: 1, cumulative_withdrawn: 9, committed: 0 },
 *   { run: "r", episode: "b", ...key, round: 1, cumulative_withdrawn: 1, committed: 0 },
 *   { run: "r", episode: "b", ...key, round: 2, cumulative_withdrawn: 3, committed: 0 },
 * ]);
 * const decisions = pl.DataFrame([
 *   { run: "r", episode: "b", ...key, round: 2, reported: 30, committed: false, amount: 1 },
 * ]);
 * const out = trajectories(episodes, rounds, decisions)
 *   .filter(pl.col("round").eq(2)).sort("panel").toRecords();
 * assert.deepEqual(out.map((r) => [r.panel, r.mean, r.n]), [
 *   ["committed", 0, 1], // only episode b is observed in round 2
 *   ["financial", 6, 2], // (9 carried forward + 3) / 2
 *   ["intent", 0.3, 1],
 * ]);
 * ```
 */
export function trajectories(
  episodes: FrameInput,
  rounds: FrameInput,
  decisions: FrameInput,
  options: TrajectoriesOptions = {},
): pl.DataFrame {
  const episodesL = asLazy(episodes);
  const roundsL = asLazy(rounds);
  const decisionsL = asLazy(decisions);
  const { includeDegraded, ...ci } = options;
  const keys = cellKeysOf(episodesL, "trajectories()");
  const condition = keys.filter((key) => key !== "mechanism");
  requireColumns(episodesL, [...EPISODE_ID, "status"], "trajectories()");
  requireColumns(roundsL, [...EPISODE_ID, "env", "round"], "trajectories()");
  const ok = countedEpisodes(episodesL, { includeDegraded, game: "frail" })
    .select(...[...EPISODE_ID, ...keys].map((name) => pl.col(name)))
    .collectSync();
  const okRounds = roundsL.join(ok.lazy().select(...EPISODE_ID.map((n) => pl.col(n))), {
    on: [...EPISODE_ID],
    how: "semi",
  }).withColumns(pl.col("round").cast(pl.Int32));
  const lastRounds = okRounds.groupBy([...EPISODE_ID]).agg(
    pl.col("round").max().alias("__last"),
  );
  // Each condition runs to the last round observed in any of its episodes.
  const horizons = ok.lazy().join(lastRounds, { on: [...EPISODE_ID] })
    .groupBy(condition).agg(pl.col("__last").max().alias("__horizon")).collectSync();
  const longest = horizons.height === 0 ? 0 : Number(horizons.getColumn("__horizon").max());
  const allRounds = pl.DataFrame([pl.Series("round", range(1, longest), pl.Int32)]).lazy();
  const roundColumns = roundsL.columns;
  const roundKeys: string[] = [...EPISODE_ID, "round"];
  const parts: pl.LazyDataFrame[] = [];
  const envs = (horizons.getColumn("env").unique().toArray() as string[]).filter((env) =>
    env in ENV_PROFILES
  );
  for (const env of envs) {
    const profile = ENV_PROFILES[env];
    const envRounds = okRounds.filter(pl.col("env").eq(pl.lit(env)));
    const grid = ok.filter(pl.col("env").eq(pl.lit(env))).lazy()
      .join(horizons.lazy(), { on: condition })
      .join(allRounds, { how: "cross" })
      .filter(pl.col("round").ltEq(pl.col("__horizon")))
      .drop("__horizon");
    const carried = (frame: pl.LazyDataFrame) =>
      grid.join(frame, { on: roundKeys, how: "left" })
        .join(lastRounds, { on: [...EPISODE_ID], how: "left" })
        .sort([...EPISODE_ID, "round"])
        .withColumns(
          pl.when(pl.col("round").gt(pl.col("__last")))
            .then(pl.col("__value").forwardFill().over(EPISODE_ID[0], ...EPISODE_ID.slice(1)))
            .otherwise(pl.col("__value"))
            .alias("__value"),
        );
    const summarize = (frame: pl.LazyDataFrame, panel: string) =>
      frame.filter(pl.col("__value").isNotNull())
        .groupBy([...keys, "round"])
        .agg(...ciAggregations("__value", ci))
        .withColumns(pl.lit(panel).alias("panel"));
    const metricRows = (value: pl.Expr) =>
      envRounds.select(...roundKeys.map((n) => pl.col(n)), value.cast(pl.Float64).alias("__value"));
    if (roundColumns.includes(profile.financialMetric)) {
      parts.push(summarize(carried(metricRows(pl.col(profile.financialMetric))), "financial"));
    }
    if (roundColumns.includes("committed")) {
      const observed = grid.join(metricRows(pl.col("committed")), { on: roundKeys, how: "inner" });
      parts.push(summarize(observed, "committed"));
    }
    if (profile.launchMetric !== null && roundColumns.includes(profile.launchMetric)) {
      const notLaunched = pl.when(pl.col(profile.launchMetric).gtEq(1)).then(pl.lit(0.0))
        .otherwise(pl.lit(1.0));
      parts.push(summarize(carried(metricRows(notLaunched)), "not_launched"));
    } else if (profile.launchMetric === null) {
      const decisionColumns = decisionsL.columns;
      requireColumns(
        decisionsL,
        [...EPISODE_ID, "env", "round", "reported", "committed"],
        "trajectories()",
      );
      const hasAmount = decisionColumns.includes("amount");
      const stake = hasAmount ? pl.col("amount").isNull().or(pl.col("amount").gt(0)) : pl.lit(true);
      const intent = decisionsL
        .select(
          ...[...roundKeys, "env", "reported", "committed", ...(hasAmount ? ["amount"] : [])]
            .map((n) => pl.col(n)),
        )
        .filter(pl.col("env").eq(pl.lit(env)).and(pl.col("committed").not()).and(stake))
        .groupBy(roundKeys)
        .agg(pl.col("reported").cast(pl.Float64).div(100).mean().alias("__value"))
        .withColumns(pl.col("round").cast(pl.Int32));
      parts.push(summarize(carried(intent), "intent"));
    }
  }
  if (parts.length === 0) return emptyTrajectories(keys);
  const all = pl.concat(parts, { how: "vertical" }).collectSync();
  return sortCells(all.withColumns(panelRank()), ["__panel", "round"]).select(
    ...keys.map((n) => pl.col(n)),
    pl.col("panel"),
    pl.col("round"),
    pl.col("mean"),
    pl.col("lower"),
    pl.col("upper"),
    pl.col("n"),
  );
}

/**
 * The critical-boundary reference lines of Figure 4, one per environment
 * and condition present (regime, parameter overrides): the bank's
 * insolvency boundary (cumulative withdrawals), the first asset maturity
 * (a round) and the crowdfunding goal (the pledged pool). Each is read from
 * the episodes' logged `derived.reference` (the `reference` column of the
 * episodes frame), never from a paper constant: under contraction the
 * bank's boundary is 3.65, under expansion 11.53, stable 8.48.
 *
 * @param episodes The `episodes` frame (uses `env`, `regime`, `overrides_id` and `reference`).
 * @returns One reference line per environment and condition, in the paper's order; none for a
 * condition whose parameters put the line out of range (a null `reference`).
 * @throws {RangeError} When a column is missing, or when episodes of one condition disagree on it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { trajectoryReferences } from "./trajectories.ts";
 *
 * const episodes = pl.DataFrame({
 *   env: ["crowdfunding", "bank_run", "bank_run"],
 *   regime: ["stable", "contraction", "stable"],
 *   overrides_id: ["none", "none", "none"],
 *   reference: [14, 3.653, 8.479],
 * });
 * assert.deepEqual(trajectoryReferences(episodes).map((r) => [r.env, r.regime, r.axis, r.value]), [
 *   ["bank_run", "stable", "y", 8.479],
 *   ["bank_run", "contraction", "y", 3.653],
 *   ["crowdfunding", "stable", "y", 14],
 * ]);
 * ```
 */
export function trajectoryReferences(episodes: pl.DataFrame): TrajectoryReference[] {
  const keys = ["env", "regime", "overrides_id"];
  requireColumns(episodes, [...keys, "reference"], "trajectoryReferences()");
  const frail = episodes.filter(pl.col("env").isIn(ENV_ORDER as string[]));
  const cells = frail.groupBy(keys).agg(
    pl.col("reference").min().alias("value"),
    pl.col("reference").max().alias("__max"),
  );
  const out: TrajectoryReference[] = [];
  for (const row of sortCells(cells).toRecords()) {
    if (row.value !== row.__max) {
      throw new RangeError(
        `trajectoryReferences(): episodes of ${row.env} / ${row.regime} / ${row.overrides_id} ` +
          `log different reference values (${row.value} and ${row.__max})`,
      );
    }
    if (row.value === null || row.value === undefined) continue;
    const profile = envProfile(String(row.env));
    out.push({
      env: profile.env,
      regime: String(row.regime),
      overrides_id: String(row.overrides_id),
      axis: profile.referenceAxis,
      value: Number(row.value),
      label: profile.referenceLabel,
    });
  }
  return out;
}

function panelRank(): pl.Expr {
  let expr: pl.Expr = pl.lit(TRAJECTORY_PANELS.length);
  for (let i = TRAJECTORY_PANELS.length - 1; i >= 0; i--) {
    expr = pl.when(pl.col("panel").eq(pl.lit(TRAJECTORY_PANELS[i]))).then(pl.lit(i))
      .otherwise(expr);
  }
  return expr.alias("__panel");
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}

function emptyTrajectories(keys: readonly string[]): pl.DataFrame {
  return pl.DataFrame([
    ...keys.map((key) => pl.Series(key, [], pl.Utf8)),
    pl.Series("panel", [], pl.Utf8),
    pl.Series("round", [], pl.Int32),
    pl.Series("mean", [], pl.Float64),
    pl.Series("lower", [], pl.Float64),
    pl.Series("upper", [], pl.Float64),
    pl.Series("n", [], pl.Int32),
  ]);
}

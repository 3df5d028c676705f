/**
 * The Stag Hunt paper's tables and figures as Polars frames, computed from
 * turn records (see `stagHuntTurnRecords()`) with the engine's metric
 * functions (`roundOutcomes`, `benchmarkRows`, `payoffPerTurn`,
 * `expectedCalibrationError`), which define every quantity as in the paper:
 * - Figure 1: pre-flip versus public success by corrupted fraction F / N,
 *   with the all-Stag inversion boundary 1 - M / N;
 * - the honest original Stag rate by corrupted fraction;
 * - Table 1 (and per model, Table A4): benchmark match rates per rule on
 *   honest turns with common support;
 * - Figure 3: P(Stag) against the benchmark margin q-hat - q* in bins, per
 *   rule;
 * - Figure A2: match rates with the public versus the hidden original-action
 *   history, by corrupted fraction;
 * - Figure A5: realised versus truthful-implementation payoff per honest
 *   turn, by corrupted fraction;
 * - calibration: confidence against outcome alignment in bins, with the
 *   expected calibration error.
 *
 * Conditions: every figure carries the condition keys it does not pool as
 * columns (`N`, `M`, `T`, `F`, `corruption`, `heterogeneity`, `payoffs`, as
 * the loader's key columns hold them), and refuses records that mix
 * conditions it was not told to split, with one `RangeError` naming the
 * keys and their values (see `analysis/conditions.ts`). The paper's primary
 * analysis is the base condition with homogeneous groups: `b3` is never
 * averaged with `base`, nor `h2` with `h1`. The figures by corrupted
 * fraction (Figures 1, A2, A5 and the honest Stag rate) split by N, M and F
 * and take `by` for the other keys, or `pool: ["T"]` to pool horizons as
 * the paper's focal setting does; Table 1, Figure 3 and the calibration
 * pool every setting (N, M, T, F) by design, as the paper does, and take
 * `by` to split them or the other keys.
 *
 * Choices: rates carry 95% Wilson intervals (match rates, Stag rates);
 * margins are binned with width 0.1 by default, bins closed on the left;
 * a turn's model is its speaker's policy, so heterogeneous groups split by
 * model correctly.
 *
 * @module
 */

import pl from "npm:nodejs-polars@0.25.2";
import type { BeliefRule } from "../../engine/games/staghunt/beliefs/rule.ts";
import { benchmarkRows } from "../../engine/games/staghunt/metrics/benchmarks.ts";
import {
  type CalibrationOptions,
  expectedCalibrationError,
} from "../../engine/games/staghunt/metrics/calibration.ts";
import { payoffPerTurn } from "../../engine/games/staghunt/metrics/choices.ts";
import { outcomesByRound, roundOutcomes } from "../../engine/games/staghunt/metrics/rounds.ts";
import { payoffOf } from "../../engine/games/staghunt/payoffs.ts";
import { roundKey } from "../../engine/games/staghunt/turns.ts";
import { sortByConditions } from "../conditions.ts";
import { clusteredMeanSe, wilson } from "../stats.ts";
import {
  groupOf,
  keySeries,
  type KeyValue,
  type TurnConditionOptions,
  turnConditions,
} from "./_turn_conditions.ts";
import type { ModelTurn } from "./turn_records.ts";

/** Options for the functions that split by model. */
export interface ByModelOptions {
  /**
   * Split the results by the speaker's model (a `model` column).
   *
   * @default {false}
   */
  byModel?: boolean;
}

/** How a Stag Hunt table or figure treats the condition keys it does not split by itself. */
export interface StagHuntSplitOptions extends ByModelOptions {
  /**
   * Condition keys to split by besides the function's own grouping, e.g.
   * `["corruption"]` to put `base` and `b3` side by side (or `"model"`,
   * like `byModel`). Records that mix a key named neither here nor among
   * the keys the function pools are refused.
   *
   * @default {[]}
   */
  by?: readonly string[];
}

/** Options of the figures by corrupted fraction. */
export interface ByFractionOptions extends StagHuntSplitOptions {
  /**
   * Keys to pool over deliberately: only `"T"`, to pool horizons as the
   * paper's focal-setting figures do.
   *
   * @default {[]}
   */
  pool?: readonly "T"[];
}

/** Options for {@linkcode matchRateTable} and {@linkcode stagByMargin}. */
export interface BenchmarkTableOptions extends StagHuntSplitOptions {
  /**
   * Belief rules to evaluate.
   *
   * @default {the paper's three: naive, carryover, outcome alignment}
   */
  rules?: readonly BeliefRule[];
}

/** Options for {@linkcode historyMatchRates}. */
export interface HistoryMatchOptions extends BenchmarkTableOptions, ByFractionOptions {}

/** The keys the figures by corrupted fraction split by themselves. */
const BY_FRACTION: TurnConditionOptions = { groups: ["N", "M", "F"], poolable: ["T"] };

/** The setting keys that Table 1, Figure 3 and the calibration pool by design. */
const OVERALL: TurnConditionOptions = { groups: [], pooled: ["N", "M", "T", "F"] };

function conditionsOf(
  records: readonly ModelTurn[],
  fn: string,
  design: TurnConditionOptions,
  options: StagHuntSplitOptions & { pool?: readonly string[] },
): string[] {
  return turnConditions(records, fn, {
    ...design,
    by: options.by,
    pool: options.pool,
    byModel: options.byModel,
  });
}

function rateColumns(rows: { k: number; n: number }[]) {
  const intervals = rows.map(({ k, n }) => wilson(k, n));
  return {
    rate: intervals.map((i) => i.rate),
    lower: intervals.map((i) => i.lower),
    upper: intervals.map((i) => i.upper),
  };
}

/** The value of a group column in a group's values. */
function valueOf(columns: readonly string[], values: readonly KeyValue[], column: string): number {
  return Number(values[columns.indexOf(column)]);
}

/** The `fraction` column, F / N, of groups split by N and F. */
function fractionSeries(
  columns: readonly string[],
  rows: readonly { values: readonly KeyValue[] }[],
): pl.Series {
  return pl.Series(
    "fraction",
    rows.map((g) => valueOf(columns, g.values, "F") / valueOf(columns, g.values, "N")),
    pl.Float64,
  );
}

/**
 * Figure 1: pre-flip and public success rates (over rounds) per game
 * setting and corrupted fraction, with the all-Stag inversion boundary.
 *
 * @param records Turn records from `stagHuntTurnRecords()`.
 * @param options Split by model, by further condition keys, or pool horizons.
 * @returns Columns (`model`,) the condition keys the records carry and do
 * not pool (`N`, `M`, `T`, `F`, `corruption`, `heterogeneity`, `payoffs`),
 * `fraction` (F / N), `boundary` (1 - M / N), `rounds`, `preflip`,
 * `public` and `executed` (the success of the executed actions: `public`,
 * but `preflip` under `communication_only`), sorted by those keys.
 * @throws {RangeError} If the records mix conditions not split or pooled,
 * e.g. `successByCorruption: the turn records hold 2 corruption modes
 * (base, b3); filter to one or pass by: ["corruption"]`.
 *
 * @example One round of three players, one corrupted Stag flipped to Hare
 * ```ts
 * import assert from "node:assert/strict";
 * import { successByCorruption } from "./figures.ts";
 *
 * const turn = (position: number, corrupted: boolean, publicAction: string, corruption = "base") => ({
 *   run: "r", episode: corruption, N: 3, M: 3, F: 1, corruption, round: 1, position, corrupted,
 *   originalAction: "Stag", publicAction, model: "m",
 * });
 * const base = [turn(1, true, "Hare"), turn(2, false, "Stag"), turn(3, false, "Stag")];
 * const rows = successByCorruption(base as never[]).toRecords();
 * assert.deepEqual(rows.map((r) => [r.corruption, r.fraction, r.preflip, r.public]), [
 *   ["base", 1 / 3, 1, 0],
 * ]);
 * const b3 = [turn(1, true, "Stag", "b3"), turn(2, false, "Stag", "b3"), turn(3, false, "Stag", "b3")];
 * assert.throws(() => successByCorruption([...base, ...b3] as never[]), {
 *   message: "successByCorruption: the turn records hold 2 corruption modes (base, b3); " +
 *     'filter to one or pass by: ["corruption"]',
 * });
 * const split = successByCorruption([...base, ...b3] as never[], { by: ["corruption"] });
 * assert.deepEqual(split.getColumn("public").toArray(), [0, 1]);
 * ```
 */
export function successByCorruption(
  records: readonly ModelTurn[],
  options: ByFractionOptions = {},
): pl.DataFrame {
  const columns = conditionsOf(records, "successByCorruption", BY_FRACTION, options);
  // A turn of each episode gives the round's condition (and, by model, the episode's last speaker's).
  const episodeTurn = new Map(records.map((t) => [`${t.run}\u0000${t.episode}`, t]));
  const groups = new Map<
    string,
    { values: KeyValue[]; n: number; pre: number; pub: number; exe: number }
  >();
  for (const row of roundOutcomes(records)) {
    const { key, values } = groupOf(episodeTurn.get(`${row.run}\u0000${row.episode}`)!, columns);
    const g = groups.get(key) ?? { values, n: 0, pre: 0, pub: 0, exe: 0 };
    g.n++;
    if (row.preflipSuccess) g.pre++;
    if (row.publicSuccess) g.pub++;
    if (row.executedSuccess) g.exe++;
    groups.set(key, g);
  }
  const rows = [...groups.values()];
  return sortByConditions(
    pl.DataFrame([
      ...keySeries(columns, rows),
      fractionSeries(columns, rows),
      pl.Series(
        "boundary",
        rows.map((g) => 1 - valueOf(columns, g.values, "M") / valueOf(columns, g.values, "N")),
        pl.Float64,
      ),
      pl.Series("rounds", rows.map((g) => g.n), pl.Int32),
      pl.Series("preflip", rows.map((g) => g.pre / g.n), pl.Float64),
      pl.Series("public", rows.map((g) => g.pub / g.n), pl.Float64),
      pl.Series("executed", rows.map((g) => g.exe / g.n), pl.Float64),
    ]),
    columns,
  );
}

/**
 * The honest original Stag rate per game setting and corrupted fraction:
 * the share of honest turns whose original (pre-flip) action is Stag.
 *
 * @param records Turn records from `stagHuntTurnRecords()`.
 * @param options Split by model, by further condition keys, or pool horizons.
 * @returns Columns (`model`,) the condition keys the records carry and do
 * not pool, `fraction`, `turns`, `stag`, `rate`, `lower`, `upper` (95%
 * Wilson).
 * @throws {RangeError} If the records mix conditions not split or pooled.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { honestStagRates } from "./figures.ts";
 *
 * const turn = (corrupted: boolean, originalAction: string) => ({
 *   N: 3, M: 2, F: 1, corrupted, originalAction, model: "m",
 * });
 * const [row] = honestStagRates(
 *   [turn(true, "Stag"), turn(false, "Stag"), turn(false, "Hare")] as never[],
 * ).toRecords();
 * assert.deepEqual([row.turns, row.stag, row.rate], [2, 1, 0.5]);
 * ```
 */
export function honestStagRates(
  records: readonly ModelTurn[],
  options: ByFractionOptions = {},
): pl.DataFrame {
  const columns = conditionsOf(records, "honestStagRates", BY_FRACTION, options);
  const groups = new Map<string, { values: KeyValue[]; n: number; k: number }>();
  for (const t of records) {
    if (t.corrupted) continue;
    const { key, values } = groupOf(t, columns);
    const g = groups.get(key) ?? { values, n: 0, k: 0 };
    g.n++;
    if (t.originalAction === "Stag") g.k++;
    groups.set(key, g);
  }
  const rows = [...groups.values()];
  const rates = rateColumns(rows);
  return sortByConditions(
    pl.DataFrame([
      ...keySeries(columns, rows),
      fractionSeries(columns, rows),
      pl.Series("turns", rows.map((g) => g.n), pl.Int32),
      pl.Series("stag", rows.map((g) => g.k), pl.Int32),
      pl.Series("rate", rates.rate, pl.Float64),
      pl.Series("lower", rates.lower, pl.Float64),
      pl.Series("upper", rates.upper, pl.Float64),
    ]),
    columns,
  );
}

/**
 * Table 1 (and per model, Table A4): the share of eligible honest turns
 * whose original action matches each rule's benchmark action. Every game
 * setting (N, M, T, F) is pooled, as in the paper's "overall" table.
 *
 * @param records Turn records from `stagHuntTurnRecords()`.
 * @param options Rules, the split by model and by further keys.
 * @returns Columns (`model`,) the condition keys the records carry and do
 * not pool (`corruption`, `heterogeneity`, `payoffs`, and any `by` key),
 * `rule`, `turns`, `matches`, `rate`, `lower`, `upper` (95% Wilson), rules
 * in the order given.
 * @throws {RangeError} If the records mix conditions not split.
 *
 * @example See the Stag Hunt figure tests for a hand-computed log.
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchRateTable } from "./figures.ts";
 *
 * assert.equal(matchRateTable([]).height, 0);
 * ```
 */
export function matchRateTable(
  records: readonly ModelTurn[],
  options: BenchmarkTableOptions = {},
): pl.DataFrame {
  const columns = conditionsOf(records, "matchRateTable", OVERALL, options);
  const rows = benchmarkFrame(records, options.rules, "public", columns);
  const grouped = rows.groupBy([...columns, "rule"]).agg(
    pl.col("match").count().cast(pl.Int32).alias("turns"),
    pl.col("match").cast(pl.Int32).sum().cast(pl.Int32).alias("matches"),
  );
  return withWilson(
    sortByConditions(grouped.withColumns(ruleRank(rows)), [...columns, "__rule"]).drop("__rule"),
    "matches",
    "turns",
  );
}

/** Options for {@linkcode stagByMargin}. */
export interface StagByMarginOptions extends BenchmarkTableOptions {
  /**
   * Width of the margin bins.
   *
   * @default {0.1}
   */
  binWidth?: number;
}

/**
 * Figure 3: the probability of choosing Stag (original action, honest
 * turns) against the benchmark margin q-hat - q*, in bins, per rule. Every
 * game setting (N, M, T, F) is pooled, as in the paper.
 *
 * @param records Turn records from `stagHuntTurnRecords()`.
 * @param options Rules, bin width, the split by model and by further keys.
 * @returns Columns (`model`,) the condition keys the records carry and do
 * not pool, `rule`, `bin_start`, `bin_end`, `margin` (bin middle), `turns`,
 * `stag`, `rate`, `lower`, `upper`, sorted by those keys, rule and bin.
 * @throws {RangeError} If `binWidth` is not a positive finite number, or
 * the records mix conditions not split.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stagByMargin } from "./figures.ts";
 *
 * assert.throws(() => stagByMargin([], { binWidth: 0 }), RangeError);
 * ```
 */
export function stagByMargin(
  records: readonly ModelTurn[],
  options: StagByMarginOptions = {},
): pl.DataFrame {
  const { binWidth = 0.1 } = options;
  if (!(Number.isFinite(binWidth) && binWidth > 0)) {
    throw new RangeError(`Margin bin width must be a positive finite number: received ${binWidth}`);
  }
  const columns = conditionsOf(records, "stagByMargin", OVERALL, options);
  const rows = benchmarkFrame(records, options.rules, "public", columns);
  const binned = rows.withColumns(
    pl.col("margin").div(binWidth).add(1e-9).floor().cast(pl.Int32).alias("__bin"),
    pl.col("original").eq(pl.lit("Stag")).cast(pl.Int32).alias("__stag"),
  ).groupBy([...columns, "rule", "__bin"]).agg(
    pl.col("__stag").count().cast(pl.Int32).alias("turns"),
    pl.col("__stag").sum().cast(pl.Int32).alias("stag"),
  ).withColumns(ruleRank(rows));
  return withWilson(
    sortByConditions(binned, [...columns, "__rule", "__bin"]).withColumns(
      pl.col("__bin").cast(pl.Float64).mul(binWidth).alias("bin_start"),
      pl.col("__bin").add(1).cast(pl.Float64).mul(binWidth).alias("bin_end"),
      pl.col("__bin").cast(pl.Float64).add(0.5).mul(binWidth).alias("margin"),
    ).select(
      ...[...columns, "rule", "bin_start", "bin_end", "margin", "turns", "stag"].map((c) =>
        pl.col(c)
      ),
    ),
    "stag",
    "turns",
  );
}

/**
 * Figure A2: match rates with the public history against the hidden
 * original-action history, per rule and corrupted fraction.
 *
 * @param records Turn records from `stagHuntTurnRecords()`.
 * @param options Rules, the split by model and by further keys, or pool
 * horizons.
 * @returns Columns (`model`,) the condition keys the records carry and do
 * not pool, `rule`, `layer` (`"public"` or `"original"`), `turns`,
 * `matches`, `rate`, `lower`, `upper`, `fraction`.
 * @throws {RangeError} If the records mix conditions not split or pooled.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historyMatchRates } from "./figures.ts";
 *
 * assert.deepEqual(historyMatchRates([]).columns.slice(-4), ["rate", "lower", "upper", "fraction"]);
 * ```
 */
export function historyMatchRates(
  records: readonly ModelTurn[],
  options: HistoryMatchOptions = {},
): pl.DataFrame {
  const columns = conditionsOf(records, "historyMatchRates", BY_FRACTION, options);
  const both = pl.concat([
    benchmarkFrame(records, options.rules, "public", columns),
    benchmarkFrame(records, options.rules, "original", columns),
  ], { how: "vertical" });
  const grouped = both.groupBy([...columns, "rule", "layer"]).agg(
    pl.col("match").count().cast(pl.Int32).alias("turns"),
    pl.col("match").cast(pl.Int32).sum().cast(pl.Int32).alias("matches"),
  ).withColumns(ruleRank(both), pl.col("layer").eq(pl.lit("original")).alias("__layer"));
  const fraction = columns.includes("F") && columns.includes("N")
    ? pl.col("F").cast(pl.Float64).div(pl.col("N"))
    : pl.lit(null).cast(pl.Float64);
  return withWilson(
    sortByConditions(grouped, [...columns, "__rule", "__layer"]).drop("__rule", "__layer"),
    "matches",
    "turns",
  ).withColumns(fraction.alias("fraction"));
}

/**
 * Figure A5: mean realised payoff (public action, public success) and
 * truthful-implementation payoff (original action, pre-flip success) per
 * honest turn, by game setting and corrupted fraction.
 *
 * @param records Turn records from `stagHuntTurnRecords()`.
 * @param options Split by model (by the turn's speaker), by further keys,
 * or pool horizons.
 * Each mean carries its episode-clustered standard error (the turns of one
 * episode are not independent; `clusteredMeanSe()`), `null` where the cell
 * has fewer than two episodes; `gap` is truthful minus realised, the same
 * per-turn difference averaged, with its own clustered SE.
 *
 * @returns Columns (`model`,) the condition keys the records carry and do
 * not pool, `fraction`, `turns`, `episodes`, `realised`, `realised_se`,
 * `truthful`, `truthful_se`, `gap`, `gap_se`.
 * @throws {RangeError} If the records mix conditions not split or pooled.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { payoffGap } from "./figures.ts";
 *
 * const payoffs = { RS: 4, HS: 2, RF: 0, HF: 2 };
 * const turn = (position: number, corrupted: boolean, publicAction: string) => ({
 *   run: "r", episode: "e", N: 2, M: 2, F: 1, payoffs, round: 1, position, corrupted,
 *   originalAction: "Stag", publicAction, model: "m",
 * });
 * const [row] = payoffGap([turn(1, true, "Hare"), turn(2, false, "Stag")] as never[]).toRecords();
 * assert.deepEqual([row.payoffs, row.turns, row.realised, row.truthful], ["4-2-0-2", 1, 0, 4]);
 * ```
 */
export function payoffGap(
  records: readonly ModelTurn[],
  options: ByFractionOptions = {},
): pl.DataFrame {
  const columns = conditionsOf(records, "payoffGap", BY_FRACTION, options);
  const settings = columns.filter((c) => c !== "model");
  const bySetting = new Map<string, { values: KeyValue[]; turns: ModelTurn[] }>();
  for (const t of records) {
    const { key, values } = groupOf(t, settings);
    const group = bySetting.get(key) ?? { values, turns: [] };
    group.turns.push(t);
    bySetting.set(key, group);
  }
  const byModel = columns.includes("model");
  const rows: ({ values: KeyValue[] } & PayoffGapCell)[] = [];
  for (const { values, turns } of bySetting.values()) {
    const models = byModel ? [...new Set(turns.map((t) => t.model))].sort() : [undefined];
    for (const model of models) {
      // Outcomes need every turn of a round; the payoffs count only this model's honest turns.
      const gap = payoffPerTurnFor(turns, model);
      rows.push({ values: byModel ? [model!, ...values] : values, ...gap });
    }
  }
  return sortByConditions(
    pl.DataFrame([
      ...keySeries(columns, rows),
      fractionSeries(columns, rows),
      pl.Series("turns", rows.map((g) => g.turns), pl.Int32),
      pl.Series("episodes", rows.map((g) => g.episodes), pl.Int32),
      pl.Series("realised", rows.map((g) => g.realised), pl.Float64),
      pl.Series("realised_se", rows.map((g) => g.realised_se), pl.Float64),
      pl.Series("truthful", rows.map((g) => g.truthful), pl.Float64),
      pl.Series("truthful_se", rows.map((g) => g.truthful_se), pl.Float64),
      pl.Series("gap", rows.map((g) => g.gap), pl.Float64),
      pl.Series("gap_se", rows.map((g) => g.gap_se), pl.Float64),
    ]),
    columns,
  );
}

/** One cell of {@linkcode payoffGap}. */
interface PayoffGapCell {
  turns: number;
  episodes: number;
  realised: number;
  realised_se: number | null;
  truthful: number;
  truthful_se: number | null;
  gap: number;
  gap_se: number | null;
}

function payoffPerTurnFor(
  turns: readonly ModelTurn[],
  model: string | undefined,
): PayoffGapCell {
  // Mark other models' turns corrupted for the average only: outcomes still use every turn.
  const masked = model === undefined
    ? turns
    : turns.map((t) => t.model === model ? t : { ...t, corrupted: true });
  const means = payoffPerTurn(masked);
  // The same honest turns, one payoff each, clustered by episode.
  const outcomes = outcomesByRound(masked);
  const honest = masked.filter((t) => !t.corrupted);
  const realised = honest.map((t) =>
    payoffOf(t.publicAction, outcomes.get(roundKey(t))!.publicSuccess, t.payoffs)
  );
  const truthful = honest.map((t) =>
    payoffOf(t.originalAction, outcomes.get(roundKey(t))!.preflipSuccess, t.payoffs)
  );
  const episodes = honest.map((t) => `${t.run}\u0000${t.episode}`);
  const gap = clusteredMeanSe(truthful.map((u, i) => u - realised[i]), episodes);
  return {
    turns: means.turns,
    episodes: gap.clusters,
    realised: means.realised,
    realised_se: clusteredMeanSe(realised, episodes).se,
    truthful: means.truthful,
    truthful_se: clusteredMeanSe(truthful, episodes).se,
    gap: gap.mean,
    gap_se: gap.se,
  };
}

/** Options for {@linkcode calibrationTable}. */
export interface CalibrationTableOptions extends CalibrationOptions {
  /**
   * Condition keys to split by (e.g. `["corruption"]`, or setting keys such
   * as `["N"]`); records that mix `corruption`, `heterogeneity` or `payoffs`
   * not named here are refused. Settings (N, M, T, F) are pooled otherwise.
   *
   * @default {[]}
   */
  by?: readonly string[];
}

/**
 * Calibration of honest agents' confidence against outcome alignment (the
 * original action matches the round's public outcome), in equal-width
 * bins, with the expected calibration error. Every game setting (N, M, T,
 * F) is pooled.
 *
 * @param records Turn records from `stagHuntTurnRecords()`.
 * @param options Number of bins (default 8), unit (`"agent"`: agent-episode
 * means, the default; or `"turn"`) and the split.
 * @returns Columns: the condition keys the records carry and do not pool,
 * `bin_start`, `bin_end`, `units`, `confidence`, `alignment` (NaN for empty
 * bins) and `ece` (the same on every row of a condition).
 * @throws {RangeError} If the records mix conditions not split.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { calibrationTable } from "./figures.ts";
 *
 * const turn = (episode: string, confidence: number, originalAction: string) => ({
 *   run: "r", episode, N: 1, M: 1, F: 0, round: 1, position: 1, agent: "p01",
 *   corrupted: false, confidence, originalAction, publicAction: originalAction, model: "m",
 * });
 * const table = calibrationTable([turn("a", 0.9, "Stag"), turn("b", 0.9, "Hare")] as never[]);
 * assert.equal((table.getColumn("ece").get(0) as number).toFixed(3), "0.100");
 * ```
 */
export function calibrationTable(
  records: readonly ModelTurn[],
  options: CalibrationTableOptions = {},
): pl.DataFrame {
  const { by, ...calibration } = options;
  const columns = conditionsOf(records, "calibrationTable", OVERALL, { by });
  const groups = new Map<string, { values: KeyValue[]; turns: ModelTurn[] }>();
  for (const t of records) {
    const { key, values } = groupOf(t, columns);
    const group = groups.get(key) ?? { values, turns: [] };
    group.turns.push(t);
    groups.set(key, group);
  }
  const parts = [...(groups.size === 0 ? [{ values: [], turns: [] }] : groups.values())];
  const rows = parts.flatMap(({ values, turns }) => {
    const { ece, bins } = expectedCalibrationError(turns, calibration);
    return bins.map((b) => ({ values, bin: b, ece }));
  });
  return sortByConditions(
    pl.DataFrame([
      ...keySeries(columns, rows),
      pl.Series("bin_start", rows.map((r) => r.bin.lower), pl.Float64),
      pl.Series("bin_end", rows.map((r) => r.bin.upper), pl.Float64),
      pl.Series("units", rows.map((r) => r.bin.count), pl.Int32),
      pl.Series("confidence", rows.map((r) => r.bin.confidence), pl.Float64),
      pl.Series("alignment", rows.map((r) => r.bin.alignment), pl.Float64),
      pl.Series("ece", rows.map((r) => r.ece), pl.Float64),
    ]),
    [...columns, "bin_start"],
  );
}

function benchmarkFrame(
  records: readonly ModelTurn[],
  rules: readonly BeliefRule[] | undefined,
  layer: "public" | "original",
  columns: readonly string[],
): pl.DataFrame {
  const speakers = new Map(records.map((t) => [`${t.run}\u0000${t.episode}\u0000${t.agent}`, t]));
  const rows = benchmarkRows(records, { layer, ...(rules ? { rules } : {}) }).map((r) => ({
    row: r,
    values: groupOf(speakers.get(`${r.run}\u0000${r.episode}\u0000${r.agent}`)!, columns).values,
  }));
  return pl.DataFrame([
    ...keySeries(columns, rows),
    pl.Series("rule", rows.map((r) => r.row.rule), pl.Utf8),
    pl.Series("layer", rows.map(() => layer), pl.Utf8),
    pl.Series("margin", rows.map((r) => r.row.margin), pl.Float64),
    pl.Series("original", rows.map((r) => r.row.original), pl.Utf8),
    pl.Series("match", rows.map((r) => r.row.match), pl.Bool),
  ]);
}

/** A `__rule` rank column: rules in the order they first appear in `rows`. */
function ruleRank(rows: pl.DataFrame): pl.Expr {
  const order = [...new Set(rows.getColumn("rule").toArray() as string[])];
  let rank: pl.Expr = pl.lit(order.length);
  for (let i = order.length - 1; i >= 0; i--) {
    rank = pl.when(pl.col("rule").eq(pl.lit(order[i]))).then(pl.lit(i)).otherwise(rank);
  }
  return rank.alias("__rule");
}

function withWilson(df: pl.DataFrame, successes: string, trials: string): pl.DataFrame {
  const rows = df.toRecords().map((row) => ({ k: Number(row[successes]), n: Number(row[trials]) }));
  const rates = rateColumns(rows);
  return df.withColumns(
    pl.Series("rate", rates.rate, pl.Float64),
    pl.Series("lower", rates.lower, pl.Float64),
    pl.Series("upper", rates.upper, pl.Float64),
  );
}

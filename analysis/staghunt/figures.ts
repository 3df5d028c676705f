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
 * Choices: rates carry 95% Wilson intervals (match rates, Stag rates);
 * margins are binned with width 0.1 by default, bins closed on the left;
 * a turn's model is its speaker's policy, so heterogeneous groups split by
 * model correctly.
 *
 * @module
 */

import pl from "npm:nodejs-polars@0.25.2";
import type { BeliefRule } from "../../engine/staghunt/beliefs/rule.ts";
import { benchmarkRows } from "../../engine/staghunt/metrics/benchmarks.ts";
import {
  type CalibrationOptions,
  expectedCalibrationError,
} from "../../engine/staghunt/metrics/calibration.ts";
import { payoffPerTurn } from "../../engine/staghunt/metrics/choices.ts";
import { roundOutcomes } from "../../engine/staghunt/metrics/rounds.ts";
import { wilson } from "../stats.ts";
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

/** Options for {@linkcode matchRateTable}, {@linkcode stagByMargin} and {@linkcode historyMatchRates}. */
export interface BenchmarkTableOptions extends ByModelOptions {
  /**
   * Belief rules to evaluate.
   *
   * @default {the paper's three: naive, carryover, outcome alignment}
   */
  rules?: readonly BeliefRule[];
}

function groupKey(parts: readonly unknown[]): string {
  return parts.map(String).join("\u0000");
}

/** `keys`, after `"model"` when splitting by model. */
function modelFirst(options: ByModelOptions, keys: readonly string[]): string[] {
  return [...(options.byModel ? ["model"] : []), ...keys];
}

/** The leading columns of a per-setting frame: (`model`,) `N`, `M`, `F`, `fraction`. */
function settingColumns(
  rows: readonly { model: string; N: number; M: number; F: number }[],
  options: ByModelOptions,
) {
  return {
    ...(options.byModel ? { model: rows.map((g) => g.model) } : {}),
    N: rows.map((g) => g.N),
    M: rows.map((g) => g.M),
    F: rows.map((g) => g.F),
    fraction: rows.map((g) => g.F / g.N),
  };
}

function rateColumns(rows: { k: number; n: number }[]) {
  const intervals = rows.map(({ k, n }) => wilson(k, n));
  return {
    rate: intervals.map((i) => i.rate),
    lower: intervals.map((i) => i.lower),
    upper: intervals.map((i) => i.upper),
  };
}

/**
 * Figure 1: pre-flip and public success rates (over rounds) per game
 * setting and corrupted fraction, with the all-Stag inversion boundary.
 *
 * @param records Turn records from `stagHuntTurnRecords()`.
 * @param options Split by model.
 * @returns Columns (`model`,) `N`, `M`, `F`, `fraction` (F / N),
 * `boundary` (1 - M / N), `rounds`, `preflip`, `public`, sorted by N, M, F.
 *
 * @example One round of three players, one corrupted Stag flipped to Hare
 * ```ts
 * import assert from "node:assert/strict";
 * import { successByCorruption } from "./figures.ts";
 *
 * const turn = (position: number, corrupted: boolean, publicAction: string) => ({
 *   run: "r", episode: "e", N: 3, M: 3, F: 1, round: 1, position, corrupted,
 *   originalAction: "Stag", publicAction, model: "m",
 * });
 * const rows = successByCorruption(
 *   [turn(1, true, "Hare"), turn(2, false, "Stag"), turn(3, false, "Stag")] as never[],
 * ).toRecords();
 * assert.deepEqual(rows.map((r) => [r.fraction, r.preflip, r.public]), [[1 / 3, 1, 0]]);
 * ```
 */
export function successByCorruption(
  records: readonly ModelTurn[],
  options: ByModelOptions = {},
): pl.DataFrame {
  const models = new Map(records.map((t) => [`${t.run}\u0000${t.episode}`, t.model]));
  const groups = new Map<
    string,
    { model: string; N: number; M: number; F: number; n: number; pre: number; pub: number }
  >();
  for (const row of roundOutcomes(records)) {
    const model = options.byModel ? models.get(`${row.run}\u0000${row.episode}`)! : "";
    const key = groupKey([model, row.N, row.M, row.F]);
    const g = groups.get(key) ?? { model, N: row.N, M: row.M, F: row.F, n: 0, pre: 0, pub: 0 };
    g.n++;
    if (row.preflipSuccess) g.pre++;
    if (row.publicSuccess) g.pub++;
    groups.set(key, g);
  }
  const rows = [...groups.values()];
  return sortFrame(
    pl.DataFrame({
      ...settingColumns(rows, options),
      boundary: rows.map((g) => 1 - g.M / g.N),
      rounds: rows.map((g) => g.n),
      preflip: rows.map((g) => g.pre / g.n),
      public: rows.map((g) => g.pub / g.n),
    }),
    modelFirst(options, ["N", "M", "F"]),
  );
}

/**
 * The honest original Stag rate per game setting and corrupted fraction:
 * the share of honest turns whose original (pre-flip) action is Stag.
 *
 * @param records Turn records from `stagHuntTurnRecords()`.
 * @param options Split by model.
 * @returns Columns (`model`,) `N`, `M`, `F`, `fraction`, `turns`, `stag`,
 * `rate`, `lower`, `upper` (95% Wilson).
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
  options: ByModelOptions = {},
): pl.DataFrame {
  const groups = new Map<
    string,
    { model: string; N: number; M: number; F: number; n: number; k: number }
  >();
  for (const t of records) {
    if (t.corrupted) continue;
    const model = options.byModel ? t.model : "";
    const key = groupKey([model, t.N, t.M, t.F]);
    const g = groups.get(key) ?? { model, N: t.N, M: t.M, F: t.F, n: 0, k: 0 };
    g.n++;
    if (t.originalAction === "Stag") g.k++;
    groups.set(key, g);
  }
  const rows = [...groups.values()];
  const rates = rateColumns(rows);
  return sortFrame(
    pl.DataFrame({
      ...settingColumns(rows, options),
      turns: rows.map((g) => g.n),
      stag: rows.map((g) => g.k),
      ...rates,
    }),
    modelFirst(options, ["N", "M", "F"]),
  );
}

/**
 * Table 1 (and per model, Table A4): the share of eligible honest turns
 * whose original action matches each rule's benchmark action.
 *
 * @param records Turn records from `stagHuntTurnRecords()`.
 * @param options Rules and the split by model.
 * @returns Columns (`model`,) `rule`, `turns`, `matches`, `rate`, `lower`,
 * `upper` (95% Wilson), rules in the order given.
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
  const rows = benchmarkFrame(records, options.rules, "public");
  const keys = modelFirst(options, ["rule"]);
  const grouped = rows.groupBy(keys).agg(
    pl.col("match").count().cast(pl.Int32).alias("turns"),
    pl.col("match").cast(pl.Int32).sum().cast(pl.Int32).alias("matches"),
  );
  return withWilson(
    grouped.withColumns(ruleRank(rows)).sort(modelFirst(options, ["__rule"]))
      .drop("__rule"),
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
 * turns) against the benchmark margin q-hat - q*, in bins, per rule.
 *
 * @param records Turn records from `stagHuntTurnRecords()`.
 * @param options Rules, bin width and the split by model.
 * @returns Columns (`model`,) `rule`, `bin_start`, `bin_end`, `margin`
 * (bin middle), `turns`, `stag`, `rate`, `lower`, `upper`, sorted by
 * (model,) rule and bin.
 * @throws {RangeError} If `binWidth` is not a positive finite number.
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
  const rows = benchmarkFrame(records, options.rules, "public");
  const keys = modelFirst(options, ["rule", "__bin"]);
  const binned = rows.withColumns(
    pl.col("margin").div(binWidth).add(1e-9).floor().cast(pl.Int32).alias("__bin"),
    pl.col("original").eq(pl.lit("Stag")).cast(pl.Int32).alias("__stag"),
  ).groupBy(keys).agg(
    pl.col("__stag").count().cast(pl.Int32).alias("turns"),
    pl.col("__stag").sum().cast(pl.Int32).alias("stag"),
  ).withColumns(ruleRank(rows))
    .sort(modelFirst(options, ["__rule", "__bin"]));
  return withWilson(
    binned.withColumns(
      pl.col("__bin").cast(pl.Float64).mul(binWidth).alias("bin_start"),
      pl.col("__bin").add(1).cast(pl.Float64).mul(binWidth).alias("bin_end"),
      pl.col("__bin").cast(pl.Float64).add(0.5).mul(binWidth).alias("margin"),
    ).select(
      ...(options.byModel ? [pl.col("model")] : []),
      pl.col("rule"),
      pl.col("bin_start"),
      pl.col("bin_end"),
      pl.col("margin"),
      pl.col("turns"),
      pl.col("stag"),
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
 * @param options Rules and the split by model.
 * @returns Columns (`model`,) `N`, `M`, `F`, `fraction`, `rule`, `layer`
 * (`"public"` or `"original"`), `turns`, `matches`, `rate`, `lower`,
 * `upper`.
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
  options: BenchmarkTableOptions = {},
): pl.DataFrame {
  const keys = modelFirst(options, ["N", "M", "F", "rule", "layer"]);
  const both = pl.concat([
    benchmarkFrame(records, options.rules, "public"),
    benchmarkFrame(records, options.rules, "original"),
  ], { how: "vertical" });
  return withWilson(
    both.groupBy(keys).agg(
      pl.col("match").count().cast(pl.Int32).alias("turns"),
      pl.col("match").cast(pl.Int32).sum().cast(pl.Int32).alias("matches"),
    ).withColumns(ruleRank(both), pl.col("layer").eq(pl.lit("original")).alias("__layer"))
      .sort(modelFirst(options, ["N", "M", "F", "__rule", "__layer"]))
      .drop("__rule", "__layer"),
    "matches",
    "turns",
  ).withColumns(pl.col("F").cast(pl.Float64).div(pl.col("N")).alias("fraction"));
}

/**
 * Figure A5: mean realised payoff (public action, public success) and
 * truthful-implementation payoff (original action, pre-flip success) per
 * honest turn, by game setting and corrupted fraction.
 *
 * @param records Turn records from `stagHuntTurnRecords()`.
 * @param options Split by model (by the turn's speaker).
 * @returns Columns (`model`,) `N`, `M`, `F`, `fraction`, `turns`,
 * `realised`, `truthful`.
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
 * assert.deepEqual([row.turns, row.realised, row.truthful], [1, 0, 4]);
 * ```
 */
export function payoffGap(
  records: readonly ModelTurn[],
  options: ByModelOptions = {},
): pl.DataFrame {
  const byEpisodeGroup = new Map<string, ModelTurn[]>();
  for (const t of records) {
    const key = groupKey([t.N, t.M, t.F]);
    const list = byEpisodeGroup.get(key) ?? [];
    list.push(t);
    byEpisodeGroup.set(key, list);
  }
  const rows: Record<string, unknown>[] = [];
  for (const turns of byEpisodeGroup.values()) {
    const { N, M, F } = turns[0];
    const models = options.byModel ? [...new Set(turns.map((t) => t.model))].sort() : [""];
    for (const model of models) {
      // Outcomes need every turn of a round; the payoffs count only this model's honest turns.
      const gap = payoffPerTurnFor(turns, options.byModel ? model : undefined);
      rows.push({ ...(options.byModel ? { model } : {}), N, M, F, fraction: F / N, ...gap });
    }
  }
  if (rows.length === 0) {
    return pl.DataFrame({
      N: [],
      M: [],
      F: [],
      fraction: [],
      turns: [],
      realised: [],
      truthful: [],
    });
  }
  return sortFrame(pl.DataFrame(rows), modelFirst(options, ["N", "M", "F"]));
}

function payoffPerTurnFor(
  turns: readonly ModelTurn[],
  model: string | undefined,
): { turns: number; realised: number; truthful: number } {
  if (model === undefined) return payoffPerTurn(turns);
  // Mark other models' turns corrupted for the average only: outcomes still use every turn.
  const masked = turns.map((t) => t.model === model ? t : { ...t, corrupted: true });
  const result = payoffPerTurn(masked);
  return result;
}

/**
 * Calibration of honest agents' confidence against outcome alignment (the
 * original action matches the round's public outcome), in equal-width
 * bins, with the expected calibration error.
 *
 * @param records Turn records from `stagHuntTurnRecords()`.
 * @param options Number of bins (default 8) and unit (`"agent"`:
 * agent-episode means, the default; or `"turn"`).
 * @returns Columns `bin_start`, `bin_end`, `units`, `confidence`,
 * `alignment` (NaN for empty bins) and `ece` (the same on every row).
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
  options: CalibrationOptions = {},
): pl.DataFrame {
  const { ece, bins } = expectedCalibrationError(records, options);
  return pl.DataFrame({
    bin_start: bins.map((b) => b.lower),
    bin_end: bins.map((b) => b.upper),
    units: bins.map((b) => b.count),
    confidence: bins.map((b) => b.confidence),
    alignment: bins.map((b) => b.alignment),
    ece: bins.map(() => ece),
  });
}

function benchmarkFrame(
  records: readonly ModelTurn[],
  rules: readonly BeliefRule[] | undefined,
  layer: "public" | "original",
): pl.DataFrame {
  const models = new Map(
    records.map((t) => [`${t.run}\u0000${t.episode}\u0000${t.agent}`, t.model]),
  );
  const rows = benchmarkRows(records, { layer, ...(rules ? { rules } : {}) });
  return pl.DataFrame([
    pl.Series(
      "model",
      rows.map((r) => models.get(`${r.run}\u0000${r.episode}\u0000${r.agent}`) ?? "unknown"),
      pl.Utf8,
    ),
    pl.Series("N", rows.map((r) => r.N), pl.Int32),
    pl.Series("M", rows.map((r) => r.M), pl.Int32),
    pl.Series("F", rows.map((r) => r.F), pl.Int32),
    pl.Series("rule", rows.map((r) => r.rule), pl.Utf8),
    pl.Series("layer", rows.map(() => layer), pl.Utf8),
    pl.Series("margin", rows.map((r) => r.margin), pl.Float64),
    pl.Series("original", rows.map((r) => r.original), pl.Utf8),
    pl.Series("match", rows.map((r) => r.match), pl.Bool),
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

function sortFrame(df: pl.DataFrame, by: string[]): pl.DataFrame {
  return df.height === 0 ? df : df.sort(by);
}

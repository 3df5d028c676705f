/**
 * Conditions in the analysis: which columns identify an episode's condition,
 * which episodes a table counts, and the one check every table and figure
 * function uses so that results of different conditions are never pooled
 * without a word.
 *
 * The key columns, which `loadRuns()` puts on every frame, come from the
 * games' descriptors: {@linkcode FRAIL_CONDITION_KEYS} (`env`, `mechanism`,
 * `regime`, `overrides_id`) and {@linkcode STAGHUNT_CONDITION_KEYS} (`N`,
 * `M`, `T`, `F`, `corruption`, `heterogeneity`, `payoffs`). Every function
 * does one of two things with them:
 * - **split**: a table whose rows are per condition (the welfare, success
 *   and action tables, the per-episode frames, the scorecard, the
 *   trajectories) groups by every key column the frame has and carries them
 *   all in its result;
 * - **refuse**: a figure that pools across some keys by design (Figure 6
 *   pools mechanisms, the Stag Hunt figures pool players' models or
 *   settings) takes a `by` option, and throws one `RangeError` naming every
 *   other key that holds more than one value, with the values found, e.g.
 *   `earlyCommitmentBins: the frame holds 3 regimes (expansion, stable,
 *   contraction); filter to one or pass by: ["regime"]`.
 *
 * A key column the frame lacks (a hand-built frame, a published table) is
 * taken to hold one value. Episodes count only with status `"ok"`, or also
 * `"degraded"` when asked ({@linkcode countedEpisodes}).
 *
 * @module
 */

import pl from "npm:nodejs-polars@0.25.2";
import { FRAIL_CONDITION_KEYS } from "../engine/frail/descriptor.ts";
import { REGIMES } from "../engine/frail/params.ts";
import { MECHANISMS } from "../engine/frail/types.ts";
import { GAMES } from "../engine/games/registry.ts";
import { STAGHUNT_CONDITION_KEYS } from "../engine/games/staghunt/descriptor.ts";
import { CORRUPTION_MODES } from "../engine/games/staghunt/params.ts";
import { requireColumns } from "./stats.ts";

export { FRAIL_CONDITION_KEYS, STAGHUNT_CONDITION_KEYS };

/**
 * Every condition key of every built-in game, in the games' order without
 * repeats: the FRAIL keys, the Stag Hunt's, then the minimum-effort game's
 * (read when this module loads: a game registered later is not in it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CONDITION_KEYS } from "./conditions.ts";
 *
 * assert.deepEqual(CONDITION_KEYS, [
 *   "env", "mechanism", "regime", "overrides_id", "N", "M", "T", "F", "corruption",
 *   "heterogeneity", "payoffs", "a", "b", "c", "efforts",
 * ]);
 * ```
 */
export const CONDITION_KEYS: readonly string[] = [
  ...new Set(GAMES.flatMap((g) => g.conditionKeys)),
];

/** A frame, eager or lazy. */
type AnyFrame = pl.DataFrame | pl.LazyDataFrame;

function columnsOf(frame: AnyFrame | { readonly columns: string[] }): string[] {
  return frame.columns;
}

function asLazy(frame: AnyFrame): pl.LazyDataFrame {
  return typeof (frame as pl.LazyDataFrame).collectSync === "function"
    ? frame as pl.LazyDataFrame
    : (frame as pl.DataFrame).lazy();
}

/**
 * The condition key columns a frame has, in the order of
 * {@linkcode CONDITION_KEYS}.
 *
 * @param frame A frame (eager or lazy) or anything with `columns`.
 * @returns The key columns present.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { conditionKeysOf } from "./conditions.ts";
 *
 * const df = pl.DataFrame({ model: ["m"], regime: ["stable"], env: ["bank_run"] });
 * assert.deepEqual(conditionKeysOf(df), ["env", "regime"]);
 * ```
 */
export function conditionKeysOf(frame: { readonly columns: string[] }): string[] {
  const present = new Set(columnsOf(frame));
  return CONDITION_KEYS.filter((key) => present.has(key));
}

/**
 * Known orders of key values: the engine's lists of environments, mechanisms,
 * regimes and corruption modes.
 */
const VALUE_ORDER: Readonly<Record<string, readonly string[]>> = {
  env: GAMES.map((g) => g.id),
  mechanism: MECHANISMS,
  regime: REGIMES,
  corruption: CORRUPTION_MODES,
};

/**
 * Sorts values of a key column: environments, mechanisms, regimes and
 * corruption modes in the papers' order, numbers by value, anything else
 * alphabetically; nulls last. Repeated values are kept once.
 *
 * @param key The key column.
 * @param values Its values.
 * @returns The distinct values in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sortKeyValues } from "./conditions.ts";
 *
 * assert.deepEqual(sortKeyValues("regime", ["stable", "contraction", "expansion", "stable"]), [
 *   "expansion", "stable", "contraction",
 * ]);
 * assert.deepEqual(sortKeyValues("N", [5, 10, 2]), [2, 5, 10]);
 * ```
 */
export function sortKeyValues<T>(key: string, values: Iterable<T>): T[] {
  const order = VALUE_ORDER[key] ?? [];
  const rank = (v: unknown) => {
    const i = order.indexOf(String(v));
    return i < 0 ? order.length : i;
  };
  return [...new Set(values)].sort((a, b) => {
    if (a === null || a === undefined) return b === null || b === undefined ? 0 : 1;
    if (b === null || b === undefined) return -1;
    const byRank = rank(a) - rank(b);
    if (byRank !== 0) return byRank;
    if (typeof a === "number" && typeof b === "number") return a - b;
    return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  });
}

/**
 * Sorts a frame by columns, key columns in the order of
 * {@linkcode sortKeyValues} (environments, mechanisms, regimes and
 * corruption modes in the papers' order), other columns by value.
 *
 * @param df The frame.
 * @param by Columns to sort by, in order; those the frame lacks are skipped.
 * @returns The sorted frame.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { sortByConditions } from "./conditions.ts";
 *
 * const df = pl.DataFrame({ corruption: ["b3", "base", "b3"], F: [2, 1, 1] });
 * const sorted = sortByConditions(df, ["corruption", "F"]).toRecords();
 * assert.deepEqual(sorted.map((r) => `${r.corruption}/${r.F}`), ["base/1", "b3/1", "b3/2"]);
 * ```
 */
export function sortByConditions(df: pl.DataFrame, by: readonly string[]): pl.DataFrame {
  const columns = [...new Set(by)].filter((name) => df.columns.includes(name));
  if (columns.length === 0 || df.height === 0) return df;
  const ranked = columns.filter((name) => name in VALUE_ORDER);
  const rank = (name: string) => {
    const order = VALUE_ORDER[name];
    let expr: pl.Expr = pl.lit(order.length);
    for (let i = order.length - 1; i >= 0; i--) {
      expr = pl.when(pl.col(name).eq(pl.lit(order[i]))).then(pl.lit(i)).otherwise(expr);
    }
    return expr.alias(`__rank_${name}`);
  };
  const keys = columns.flatMap((name) => ranked.includes(name) ? [`__rank_${name}`, name] : [name]);
  return df.withColumns(...ranked.map(rank)).sort(keys)
    .drop(ranked.map((name) => `__rank_${name}`));
}

/**
 * The distinct values of a key column, in the order of
 * {@linkcode sortKeyValues}.
 *
 * @param frame A frame (eager or lazy).
 * @param key The key column.
 * @returns Its distinct values.
 * @throws {RangeError} If the frame lacks the column.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { conditionValues } from "./conditions.ts";
 *
 * const df = pl.DataFrame({ regime: ["contraction", "stable", "contraction"] });
 * assert.deepEqual(conditionValues(df, "regime"), ["stable", "contraction"]);
 * ```
 */
export function conditionValues(frame: AnyFrame, key: string): unknown[] {
  requireColumns(frame, [key], "conditionValues()");
  const distinct = asLazy(frame).select(pl.col(key)).unique().collectSync();
  return sortKeyValues(key, distinct.getColumn(key).toArray() as unknown[]);
}

/** Which episodes the table and figure functions count, by status. */
export interface EpisodeStatusOptions {
  /**
   * Count episodes with status `"degraded"` too (episodes that finished, but
   * with a fallback the log records) besides those with status `"ok"`.
   * Episodes that are `"error"` or `"incomplete"` never count: they have no
   * outcome.
   *
   * @default {false}
   */
  includeDegraded?: boolean;
}

/** Options for {@linkcode countedEpisodes}. */
export interface CountedEpisodesOptions extends EpisodeStatusOptions {
  /**
   * Keep only the episodes of this family of games (`"frail"` or
   * `"staghunt"`), by their `env`.
   *
   * @default {every game}
   */
  game?: string;
}

/**
 * The episodes a table counts: those with status `"ok"` (and `"degraded"`
 * with `includeDegraded`), optionally of one family of games. Every table
 * and figure function filters its input with this.
 *
 * Tables group by the condition keys and `model`, the participants' policy.
 * Episodes of one condition and model whose central player (bank, borrower,
 * founder) was played by different policies would be pooled without a word,
 * so a frame with `central_policy` that mixes them is refused, naming the
 * condition and the policies (filter on `central_policy` to pick one).
 *
 * @param episodes The `episodes` frame of `loadRuns()` (eager or lazy), or
 * any frame with `status` (and `env` when `game` is given).
 * @param options Whether degraded episodes count, and the family of games.
 * @returns The rows that count, of the same kind (eager or lazy) as the input.
 * @throws {RangeError} If a needed column is missing or `game` is unknown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { countedEpisodes } from "./conditions.ts";
 *
 * const episodes = pl.DataFrame({
 *   env: ["bank_run", "bank_run", "bank_run", "staghunt"],
 *   status: ["ok", "degraded", "error", "ok"],
 * });
 * assert.equal(countedEpisodes(episodes).height, 2);
 * assert.equal(countedEpisodes(episodes, { includeDegraded: true, game: "frail" }).height, 2);
 * ```
 */
export function countedEpisodes<F extends AnyFrame>(
  episodes: F,
  options: CountedEpisodesOptions = {},
): F {
  const { includeDegraded = false, game } = options;
  requireColumns(episodes, ["status", ...(game === undefined ? [] : ["env"])], "countedEpisodes()");
  const statuses = includeDegraded ? ["ok", "degraded"] : ["ok"];
  let keep = pl.col("status").isIn(statuses);
  if (game !== undefined) {
    const envs = GAMES.filter((g) => g.game === game).map((g) => g.id);
    if (envs.length === 0) {
      const families = [...new Set(GAMES.map((g) => `"${g.game}"`))].join(", ");
      throw new RangeError(`Unknown game "${game}": expected one of ${families}`);
    }
    keep = keep.and(pl.col("env").isIn(envs));
  }
  const counted = (episodes as pl.DataFrame).filter(keep) as F;
  assertOneCentralPolicy(counted);
  return counted;
}

/** Refuses a frame in which one condition and model mixes central players' policies. */
function assertOneCentralPolicy(frame: AnyFrame): void {
  if (!frame.columns.includes("central_policy") || !frame.columns.includes("model")) return;
  const keys = [...conditionKeysOf(frame), "model"];
  const mixed = asLazy(frame)
    .filter(pl.col("central_policy").isNotNull())
    .groupBy(keys)
    .agg(pl.col("central_policy").unique().sort().alias("__policies"))
    .filter(pl.col("__policies").lst.lengths().gt(1))
    .collectSync();
  if (mixed.height === 0) return;
  const row = mixed.toRecords()[0];
  const where = keys.map((k) => String(row[k])).join(" / ");
  throw new RangeError(
    `countedEpisodes: the episodes of ${where} were played with different central players ` +
      `(${
        (row.__policies as unknown as string[]).join(", ")
      }), which the tables would pool; filter the ` +
      `frame on central_policy to one of them`,
  );
}

/** Options for {@linkcode assertSingleCondition}. */
export interface SingleConditionOptions {
  /**
   * The condition keys to check.
   *
   * @default {conditionKeysOf(frame)}
   */
  keys?: readonly string[];
  /**
   * Columns the function splits by (its own grouping and the caller's `by`):
   * a key only has to hold one value within each of their groups. Keys named
   * here are split even when `pooled` names them too.
   *
   * @default {[]}
   */
  by?: readonly string[];
  /**
   * Keys the function pools over, by design or because the caller asked.
   *
   * @default {[]}
   */
  pooled?: readonly string[];
  /**
   * Keys the caller may pool over with a `pool` option; the message offers
   * it for them.
   *
   * @default {[]}
   */
  poolable?: readonly string[];
  /**
   * What the input is called in the message.
   *
   * @default {"frame"}
   */
  subject?: string;
}

/** Plural nouns of the key columns in messages; other keys read "values of <key>". */
const NOUNS: Readonly<Record<string, string>> = {
  env: "environments",
  mechanism: "mechanisms",
  regime: "regimes",
  overrides_id: "override sets",
  corruption: "corruption modes",
  heterogeneity: "heterogeneity modes",
  payoffs: "payoff sets",
  model: "models",
};

/**
 * Checks that a function's input does not mix conditions it was not told to
 * split: within each group of the `by` columns, every condition key that is
 * neither split nor pooled must hold one value. Returns the keys the
 * result should carry as columns: every key present that is not pooled.
 *
 * @param frame The input (eager or lazy).
 * @param fn The function's name, first in the message.
 * @param options The keys to check, the split and pooled ones, and wording.
 * @returns The condition keys to group by and carry, in key order.
 * @throws {RangeError} Naming every mixed key with its values and what to
 * pass, e.g. `f: the frame holds 3 regimes (expansion, stable,
 * contraction); filter to one or pass by: ["regime"]`; or when a `by`
 * column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { assertSingleCondition } from "./conditions.ts";
 *
 * const df = pl.DataFrame({
 *   env: ["bank_run", "bank_run", "bank_run"],
 *   mechanism: ["M0", "M3", "M3"],
 *   regime: ["stable", "expansion", "contraction"],
 * });
 * assert.throws(() => assertSingleCondition(df, "f", { by: ["env"], pooled: ["mechanism"] }), {
 *   name: "RangeError",
 *   message: 'f: the frame holds 3 regimes (expansion, stable, contraction); ' +
 *     'filter to one or pass by: ["regime"]',
 * });
 * const keys = assertSingleCondition(df, "f", { by: ["env", "regime"], pooled: ["mechanism"] });
 * assert.deepEqual(keys, ["env", "regime"]);
 * ```
 */
export function assertSingleCondition(
  frame: AnyFrame,
  fn: string,
  options: SingleConditionOptions = {},
): string[] {
  const {
    by = [],
    pooled = [],
    poolable = [],
    subject = "frame",
  } = options;
  requireColumns(frame, by, `${fn}()`);
  const present = new Set(columnsOf(frame));
  const keys = (options.keys ?? conditionKeysOf(frame)).filter((key) => present.has(key));
  const carried = keys.filter((key) => by.includes(key) || !pooled.includes(key));
  const checked = carried.filter((key) => !by.includes(key));
  if (checked.length === 0) return carried;
  const columns = [...new Set([...by, ...checked])];
  const combos = asLazy(frame).select(...columns.map((c) => pl.col(c))).unique().collectSync()
    .toRecords();
  const mixed: { key: string; values: unknown[] }[] = [];
  for (const key of checked) {
    const perGroup = new Map<string, Set<unknown>>();
    for (const row of combos) {
      const group = JSON.stringify(by.map((c) => row[c]));
      const values = perGroup.get(group) ?? new Set<unknown>();
      values.add(row[key] ?? null);
      perGroup.set(group, values);
    }
    const offending = [...perGroup.values()].filter((values) => values.size > 1);
    if (offending.length > 0) {
      mixed.push({ key, values: sortKeyValues(key, offending.flatMap((values) => [...values])) });
    }
  }
  if (mixed.length === 0) return carried;
  throw new RangeError(mixedConditionsMessage(fn, mixed, { subject, poolable }));
}

function mixedConditionsMessage(
  fn: string,
  mixed: readonly { key: string; values: unknown[] }[],
  wording: { subject: string; poolable: readonly string[] },
): string {
  const parts = mixed.map(({ key, values }) =>
    `${values.length} ${NOUNS[key] ?? `values of ${key}`} (${values.map(String).join(", ")})`
  );
  const listed = parts.length === 1
    ? parts[0]
    : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
  const names = (keys: readonly string[]) => `[${keys.map((k) => `"${k}"`).join(", ")}]`;
  const keys = mixed.map((m) => m.key);
  const poolable = keys.filter((key) => wording.poolable.includes(key));
  const remedy = poolable.length === 0
    ? `filter to one or pass by: ${names(keys)}`
    : `filter to one, pass by: ${names(keys)} or pool: ${names(poolable)}`;
  const verb = wording.subject.endsWith("s") ? "hold" : "holds";
  return `${fn}: the ${wording.subject} ${verb} ${listed}; ${remedy}`;
}

// Builds Polars frames from a scan result (see _event_scan.ts): the
// episodes frame from the start and end events, and each child frame from
// its columns, with the episode's keys (run, episode, game, env, the
// condition keys of the games present, model) repeated on every row. Costs
// carry their currency (`currency`, on `episodes` and `calls`): the one the
// manifest in the log's own folder records (`_run_currency.ts`), null where
// none is recorded.

import { dirname } from "node:path";
import pl from "npm:nodejs-polars@0.25.2";
import { folderCurrencies } from "./_run_currency.ts";
import { gameDescriptor, GAMES } from "../../engine/games/registry.ts";
import {
  CHILD_COLUMNS,
  type ChildFrame,
  type ColumnData,
  type EpisodeMeta,
  type FrameName,
  type ScanResult,
  type TableData,
} from "./_event_scan.ts";

/** Columns that identify an episode, first on every frame. */
const BASE_KEYS: readonly string[] = ["run", "episode", "game", "env"];

/**
 * The key column of a condition key, typed by its values: Int32 when every
 * value present is an integer (the Stag Hunt's N, M, T, F; null where an
 * episode's game has no such key, e.g. a FRAIL episode's N), Float64 when
 * every value present is a number (the minimum-effort game's payoffs a, b,
 * c), else text, numbers written as text; a key no episode has is a text
 * column of nulls. A value is never lost (a number in a text column would
 * read as null) and never made up (an Int32 series built from values with
 * nulls reads them as 0, so it is built as Float64 and cast).
 *
 * @example
 * ```ts
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { conditionColumn } from "./_frames.ts";
 * const a = conditionColumn("a", [0.2, null, 0.5]);
 * if (a.dtype.toString() !== pl.Float64.toString() || a.toArray()[2] !== 0.5) throw new Error();
 * if (conditionColumn("x", ["M1", 2]).toArray()[1] !== "2") throw new Error();
 * if (conditionColumn("N", [5, null]).toArray()[1] !== null) throw new Error();
 * ```
 */
export function conditionColumn(
  key: string,
  values: readonly (string | number | null)[],
): pl.Series {
  const present = values.filter((v) => v !== null);
  if (present.length > 0 && present.every((v) => typeof v === "number")) {
    const floats = pl.Series(key, values as number[], pl.Float64);
    const integers = present.every((v) => Number.isInteger(v) && Math.abs(v as number) < 2 ** 31);
    return integers ? floats.cast(pl.Int32) : floats;
  }
  return pl.Series(key, values.map((v) => (v === null ? null : String(v))), pl.Utf8);
}

/**
 * Every condition key of every game, in registry order without repeats
 * (`env` is a base key); read on each call, so a game registered after this
 * module loaded counts.
 */
function allConditionKeys(): string[] {
  return [
    ...new Set(GAMES.flatMap((g) => g.conditionKeys).filter((k) => !BASE_KEYS.includes(k))),
  ];
}

/**
 * The key columns of a frame set: run, episode, game, env, the condition keys
 * of the games whose columns the episodes frame has, and model.
 */
export function keyColumns(episodes: pl.DataFrame): string[] {
  const present = new Set(episodes.columns);
  return [
    ...BASE_KEYS,
    ...allConditionKeys().filter((k) => present.has(k)),
    "model",
  ].filter((k) => present.has(k));
}

/** Builds the frames asked for from a scan result. */
export function buildFrames(
  result: ScanResult,
  frames: readonly FrameName[],
): Partial<Record<FrameName, pl.DataFrame>> {
  const episodes = episodeFrame(result.episodes);
  const keys = keyColumns(episodes);
  const out: Partial<Record<FrameName, pl.DataFrame>> = { episodes };
  const keyFrame = episodes.select(...keys.map((name) => pl.col(name))).withColumn(
    pl.Series(
      "__episode",
      Uint32Array.from({ length: episodes.height }, (_, i) => i) as unknown as number[],
      pl.UInt32,
    ),
  );
  for (const name of frames) {
    if (name === "episodes") continue;
    const parts = (result.tables[name] ?? []).filter((table) => table.episode.length > 0);
    const built = (parts.length === 0 ? [emptyTable(name)] : parts).map((table) =>
      childFrame(table, name, keyFrame, keys)
    );
    let frame = built.length === 1 ? built[0] : pl.concat(built, { how: "diagonal" });
    if (name === "calls") frame = withCallCurrency(frame, episodes);
    if (name === "rounds" && built.length > 1) {
      const metrics = frame.columns.filter((c) => !keys.includes(c) && c !== "round");
      frame = frame.select(...[...keys, "round", ...metrics.sort()].map((c) => pl.col(c)));
    }
    out[name] = frame;
  }
  return out;
}

/**
 * The calls frame (eager or lazy) with each row's `currency`, its episode's
 * (placed after `cost`); a frame that has one is returned as it is. Joined
 * on the episode's run and id only when some episode records a currency.
 */
export function withCallCurrency<F extends pl.DataFrame | pl.LazyDataFrame>(
  calls: F,
  episodes: pl.DataFrame,
): F {
  const columns = calls.columns;
  if (columns.includes("currency")) return calls;
  const known = episodes.columns.includes("currency") &&
    episodes.getColumn("currency").nullCount() < episodes.height;
  const order = afterColumn(columns, "cost", "currency").map((c) => pl.col(c));
  const nulls = pl.lit(null).cast(pl.Utf8).alias("currency");
  const on = { on: ["run", "episode"], how: "left" as const };
  const currencies = () => episodes.select(pl.col("run"), pl.col("episode"), pl.col("currency"));
  if ("collectSync" in calls) {
    const lazy = calls as pl.LazyDataFrame;
    return (known ? lazy.join(currencies().lazy(), on) : lazy.withColumns(nulls))
      .select(...order) as F;
  }
  const eager = calls as pl.DataFrame;
  return (known ? eager.join(currencies(), on) : eager.withColumns(nulls)).select(...order) as F;
}

/**
 * The episodes frame (eager or lazy) of a set written before costs carried
 * their currency, with a `currency` of nulls after `cost` ("not recorded");
 * a frame that has one is returned as it is.
 */
export function withEpisodeCurrency<F extends pl.DataFrame | pl.LazyDataFrame>(episodes: F): F {
  const columns = episodes.columns;
  if (columns.includes("currency")) return episodes;
  const order = afterColumn(columns, "cost", "currency").map((c) => pl.col(c));
  const nulls = pl.lit(null).cast(pl.Utf8).alias("currency");
  return ("collectSync" in episodes
    ? (episodes as pl.LazyDataFrame).withColumns(nulls).select(...order)
    : (episodes as pl.DataFrame).withColumns(nulls).select(...order)) as F;
}

/** `columns` with `added` placed after `anchor` (at the end without it). */
function afterColumn(columns: readonly string[], anchor: string, added: string): string[] {
  const at = columns.indexOf(anchor);
  return at < 0
    ? [...columns, added]
    : [...columns.slice(0, at + 1), added, ...columns.slice(at + 1)];
}

function emptyTable(name: ChildFrame): TableData {
  const columns: Record<string, ColumnData> = {};
  for (const [column, kind] of CHILD_COLUMNS[name]) {
    columns[column] = kind === "str"
      ? { kind, codes: new Uint32Array(0), words: [null] }
      : kind === "bool"
      ? { kind, values: new Uint8Array(0) }
      : kind === "text"
      ? { kind, values: [] }
      : { kind, values: new Float64Array(0) };
  }
  return { episode: new Uint32Array(0), columns };
}

function childFrame(
  table: TableData,
  name: ChildFrame,
  keyFrame: pl.DataFrame,
  keys: readonly string[],
): pl.DataFrame {
  const fixed = CHILD_COLUMNS[name].map(([column]) => column);
  const metrics = Object.keys(table.columns).filter((c) => !fixed.includes(c)).sort();
  const order = [...fixed, ...metrics];
  const series: pl.Series[] = [
    pl.Series("__episode", table.episode as unknown as number[], pl.UInt32),
  ];
  const decoded: [string, (string | null)[]][] = [];
  const bools: string[] = [];
  const nanToNull: string[] = [];
  const integers: string[] = [];
  for (const column of order) {
    const data = table.columns[column];
    switch (data.kind) {
      case "f64":
        series.push(pl.Series(column, data.values as unknown as number[], pl.Float64));
        nanToNull.push(column);
        break;
      case "i32":
        series.push(
          pl.Series(column, new Int32Array(data.values) as unknown as number[], pl.Int32),
        );
        break;
      case "int":
        series.push(pl.Series(column, data.values as unknown as number[], pl.Float64));
        integers.push(column);
        break;
      case "bool":
        series.push(pl.Series(column, data.values as unknown as number[], pl.UInt8));
        bools.push(column);
        break;
      case "str":
        series.push(pl.Series(`__${column}`, data.codes as unknown as number[], pl.UInt32));
        decoded.push([column, data.words]);
        break;
      case "text":
        series.push(pl.Series(column, data.values, pl.Utf8));
        break;
    }
  }
  let df = pl.DataFrame(series).join(keyFrame, { on: "__episode", how: "left" });
  for (const [column, words] of decoded) {
    const dictionary = pl.DataFrame([
      pl.Series(
        `__${column}`,
        Uint32Array.from(words, (_, i) => i) as unknown as number[],
        pl.UInt32,
      ),
      pl.Series(column, words, pl.Utf8),
    ]);
    df = df.join(dictionary, { on: `__${column}`, how: "left" });
  }
  const converted = [
    ...bools.map((column) =>
      pl.when(pl.col(column).eq(2)).then(pl.lit(null).cast(pl.Bool))
        .otherwise(pl.col(column).eq(1)).alias(column)
    ),
    ...nanToNull.map((column) => pl.col(column).fillNan(null).alias(column)),
    ...integers.map((column) => pl.col(column).fillNan(null).cast(pl.Int64).alias(column)),
  ];
  if (converted.length > 0) df = df.withColumns(...converted);
  return df.select(...[...keys, ...order].map((column) => pl.col(column)));
}

function episodeFrame(metas: readonly EpisodeMeta[]): pl.DataFrame {
  const currencyOf = folderCurrencies();
  const rows = metas.map((meta) => episodeRow(meta, currencyOf(dirname(meta.file))));
  const column = <K extends keyof EpisodeRow>(name: K, dtype: pl.DataType) =>
    pl.Series(name, rows.map((row) => row[name]), dtype);
  const games = new Set(rows.map((row) => row.env).filter((env) => env !== null));
  const conditionKeys = allConditionKeys().filter((key) =>
    [...games].some((env) => gameDescriptor(env!).conditionKeys.includes(key))
  );
  const conditionColumns = conditionKeys.map((key) =>
    conditionColumn(key, rows.map((row) => row.condition[key] ?? null))
  );
  return pl.DataFrame([
    column("run", pl.Utf8),
    column("episode", pl.Utf8),
    column("game", pl.Utf8),
    column("env", pl.Utf8),
    ...conditionColumns,
    column("model", pl.Utf8),
    column("condition_id", pl.Utf8),
    column("seed", pl.Float64),
    column("file", pl.Utf8),
    column("status", pl.Utf8),
    column("success", pl.Bool),
    column("failure", pl.Utf8),
    column("rounds", pl.Int32),
    column("welfare", pl.Float64),
    column("welfare_realization", pl.Float64),
    column("worst", pl.Float64),
    column("best", pl.Float64),
    column("central_id", pl.Utf8),
    column("central_policy", pl.Utf8),
    column("central_payoff", pl.Float64),
    column("central_payoff_normalized", pl.Float64),
    column("participant_payoff", pl.Float64),
    column("participants", pl.Int32),
    column("funding", pl.Float64),
    column("central_best", pl.Float64),
    column("reference", pl.Float64),
    column("q_star", pl.Float64),
    column("model_calls", pl.Int64),
    column("tokens_in", pl.Int64),
    column("tokens_out", pl.Int64),
    column("tokens_reasoning", pl.Int64),
    column("cost", pl.Float64),
    column("currency", pl.Utf8),
    column("overrides", pl.Utf8),
    column("params", pl.Utf8),
    column("derived", pl.Utf8),
    column("agents", pl.Utf8),
    column("error", pl.Utf8),
    column("branch_of_run", pl.Utf8),
    column("branch_of", pl.Utf8),
    column("branch_round", pl.Int32),
    column("branch_change", pl.Utf8),
  ]);
}

interface EpisodeRow {
  run: string;
  episode: string;
  game: string | null;
  env: string | null;
  condition: Record<string, string | number | null>;
  model: string | null;
  condition_id: string | null;
  seed: number | null;
  file: string;
  status: string;
  success: boolean | null;
  failure: string | null;
  rounds: number | null;
  welfare: number | null;
  welfare_realization: number | null;
  worst: number | null;
  best: number | null;
  central_id: string | null;
  central_policy: string | null;
  central_payoff: number | null;
  central_payoff_normalized: number | null;
  participant_payoff: number | null;
  participants: number | null;
  funding: number | null;
  central_best: number | null;
  reference: number | null;
  q_star: number | null;
  model_calls: number;
  tokens_in: number | null;
  tokens_out: number | null;
  tokens_reasoning: number | null;
  cost: number | null;
  /** The currency of `cost`, from the log's folder's manifest; null when none records it. */
  currency: string | null;
  overrides: string | null;
  params: string | null;
  derived: string | null;
  agents: string | null;
  error: string | null;
  branch_of_run: string | null;
  branch_of: string | null;
  branch_round: number | null;
  branch_change: string | null;
}

interface AgentInfo {
  id: string;
  role: string;
  policy: string;
}

/** A field the log must have: its absence is an error naming the log and the field. */
function required(
  meta: EpisodeMeta,
  record: Record<string, unknown>,
  field: string,
  where: string,
) {
  if (!(field in record)) {
    throw new RangeError(
      `${meta.file}: episode "${meta.episode}" has no ${where}field "${field}" in episode_start; ` +
        `the log is incomplete or was not written by this version of coordlab`,
    );
  }
  return record[field];
}

/** A condition value as a key column holds it: numbers and strings as they are, objects as their values joined by `-`. */
function keyValue(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "string") return value;
  if (typeof value === "object") return Object.values(value).join("-");
  return String(value);
}

function episodeRow(meta: EpisodeMeta, currency: string | null): EpisodeRow {
  const start = meta.start ?? {};
  const end = meta.end;
  const hasStart = meta.start !== undefined;
  const env = typeof start.env === "string" ? start.env : null;
  const game = typeof start.game === "string" ? start.game : null;
  const condition: Record<string, string | number | null> = {};
  let derived: Record<string, unknown> = {};
  if (hasStart) {
    const descriptor = gameDescriptor(String(required(meta, start, "env", "")));
    const fields = required(meta, start, "condition", "") as Record<string, unknown>;
    for (const key of descriptor.conditionKeys) {
      if (key !== "env") condition[key] = keyValue(required(meta, fields, key, "condition "));
    }
    derived = required(meta, start, "derived", "") as Record<string, unknown>;
    for (const field of descriptor.derivedKeys ?? ["bounds"]) {
      required(meta, derived, field, "derived ");
    }
    required(meta, start, "model", "");
    required(meta, start, "central_role", "");
    required(meta, start, "central_id", "");
  }
  const agents = Array.isArray(start.agents) ? (start.agents as AgentInfo[]) : [];
  // The central player has a payoff in every episode, but is an agent only
  // under the mechanisms where it decides (the bank and the borrower under M1
  // and M2): its id comes from the log, its policy from its agent if any.
  const centralId = typeof start.central_id === "string" ? start.central_id : null;
  const central = centralId === null ? undefined : agents.find((agent) => agent.id === centralId);
  const participants = agents.filter((agent) => agent.id !== centralId);
  const outcome = (end?.outcome ?? null) as Record<string, unknown> | null;
  const payoffs = (outcome?.payoffs ?? null) as Record<string, number> | null;
  const startBounds = (start.bounds ?? null) as { worst?: number; best?: number } | null;
  const bounds = (outcome?.bounds ?? startBounds) as { worst?: number; best?: number } | null;
  const best = numberOrNull(bounds?.best);
  const centralPayoff = payoffs && centralId !== null ? numberOrNull(payoffs[centralId]) : null;
  let participantPayoff: number | null = null;
  if (payoffs) {
    participantPayoff = 0;
    for (const [id, value] of Object.entries(payoffs)) {
      if (id !== centralId && typeof value === "number") participantPayoff += value;
    }
  }
  const centralBest = numberOrNull(derived.central_best);
  const reference = (derived.reference ?? null) as { value?: unknown } | null;
  const status = end === undefined
    ? "incomplete"
    : typeof end.status === "string"
    ? end.status
    : "ok";
  const fields = (start.condition ?? {}) as Record<string, unknown>;
  const branchOf = typeof start.branch_of === "object" && start.branch_of !== null
    ? start.branch_of as Record<string, unknown>
    : null;
  return {
    run: meta.run,
    episode: meta.episode,
    game,
    env,
    condition,
    model: stringOrNull(start.model),
    condition_id: stringOrNull(start.condition_id),
    seed: numberOrNull(start.seed),
    file: meta.file,
    status,
    success: typeof outcome?.success === "boolean" ? outcome.success : null,
    failure: stringOrNull(outcome?.failure),
    rounds: numberOrNull(outcome?.rounds) ?? (meta.lastRound || null),
    welfare: numberOrNull(outcome?.welfare),
    welfare_realization: numberOrNull(outcome?.welfareRealization),
    worst: numberOrNull(bounds?.worst),
    best,
    central_id: centralId,
    central_policy: central ? String(central.policy) : null,
    central_payoff: centralPayoff,
    central_payoff_normalized: centralPayoff !== null && centralBest !== null && centralBest > 0
      ? centralPayoff / centralBest
      : null,
    participant_payoff: participantPayoff,
    participants: agents.length === 0 ? null : participants.length,
    funding: numberOrNull(derived.funding),
    central_best: centralBest,
    reference: numberOrNull(reference?.value),
    q_star: numberOrNull(derived.q_star),
    model_calls: meta.usage.calls,
    tokens_in: meta.usage.tokensIn,
    tokens_out: meta.usage.tokensOut,
    tokens_reasoning: meta.usage.tokensReasoning,
    cost: meta.usage.cost,
    currency,
    overrides: "overrides" in fields ? JSON.stringify(fields.overrides) : null,
    params: start.params === undefined ? null : JSON.stringify(start.params),
    derived: hasStart ? JSON.stringify(derived) : null,
    agents: agents.length === 0 ? null : JSON.stringify(agents),
    error: end && typeof end.error === "string" ? end.error : null,
    branch_of_run: stringOrNull(branchOf?.run),
    branch_of: stringOrNull(branchOf?.episode),
    branch_round: numberOrNull(branchOf?.round),
    branch_change: branchOf === null ? null : JSON.stringify(start.change ?? {}),
  };
}

function numberOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

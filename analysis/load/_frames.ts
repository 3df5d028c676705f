// Builds Polars frames from a scan result (see _event_scan.ts): the
// episodes frame from the start and end events, and each child frame from
// its columns, with the episode's keys repeated on every row.

import pl from "npm:nodejs-polars@0.25.2";
import { ENV_PROFILES } from "../frail/env_profiles.ts";
import {
  CHILD_COLUMNS,
  type ChildFrame,
  type ColumnData,
  type EpisodeMeta,
  type FrameName,
  type ScanResult,
  type TableData,
} from "./_event_scan.ts";

/** Episode columns repeated on every row of the child frames. */
export const EPISODE_KEYS: readonly string[] = [
  "run",
  "episode",
  "env",
  "mechanism",
  "regime",
  "model",
];

/** Builds the frames asked for from a scan result. */
export function buildFrames(
  result: ScanResult,
  frames: readonly FrameName[],
): Partial<Record<FrameName, pl.DataFrame>> {
  const episodes = episodeFrame(result.episodes);
  const out: Partial<Record<FrameName, pl.DataFrame>> = { episodes };
  const keyFrame = episodes.select(...EPISODE_KEYS.map((name) => pl.col(name))).withColumn(
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
      childFrame(table, name, keyFrame)
    );
    let frame = built.length === 1 ? built[0] : pl.concat(built, { how: "diagonal" });
    if (name === "rounds" && built.length > 1) {
      const metrics = frame.columns.filter((c) => !EPISODE_KEYS.includes(c) && c !== "round");
      frame = frame.select(...[...EPISODE_KEYS, "round", ...metrics.sort()].map((c) => pl.col(c)));
    }
    out[name] = frame;
  }
  return out;
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

function childFrame(table: TableData, name: ChildFrame, keyFrame: pl.DataFrame): pl.DataFrame {
  const fixed = CHILD_COLUMNS[name].map(([column]) => column);
  const metrics = Object.keys(table.columns).filter((c) => !fixed.includes(c)).sort();
  const order = [...fixed, ...metrics];
  const series: pl.Series[] = [
    pl.Series("__episode", table.episode as unknown as number[], pl.UInt32),
  ];
  const decoded: [string, (string | null)[]][] = [];
  const bools: string[] = [];
  const nanToNull: string[] = [];
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
  ];
  if (converted.length > 0) df = df.withColumns(...converted);
  return df.select(...[...EPISODE_KEYS, ...order].map((column) => pl.col(column)));
}

function episodeFrame(metas: readonly EpisodeMeta[]): pl.DataFrame {
  const rows = metas.map(episodeRow);
  const column = <K extends keyof EpisodeRow>(name: K, dtype: pl.DataType) =>
    pl.Series(name, rows.map((row) => row[name]), dtype);
  return pl.DataFrame([
    column("run", pl.Utf8),
    column("episode", pl.Utf8),
    column("env", pl.Utf8),
    column("mechanism", pl.Utf8),
    column("regime", pl.Utf8),
    column("model", pl.Utf8),
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
    column("params", pl.Utf8),
    column("agents", pl.Utf8),
    column("error", pl.Utf8),
  ]);
}

interface EpisodeRow {
  run: string;
  episode: string;
  env: string | null;
  mechanism: string | null;
  regime: string | null;
  model: string | null;
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
  params: string | null;
  agents: string | null;
  error: string | null;
}

interface AgentInfo {
  id: string;
  role: string;
  policy: string;
}

function episodeRow(meta: EpisodeMeta): EpisodeRow {
  const start = meta.start ?? {};
  const end = meta.end;
  const env = typeof start.env === "string" ? start.env : null;
  const profile = env === null ? undefined : ENV_PROFILES[env];
  const agents = Array.isArray(start.agents) ? (start.agents as AgentInfo[]) : [];
  const centralRole = profile?.centralRole;
  const central = agents.find((agent) => agent.role === centralRole);
  const centralId = central?.id ?? centralRole ?? null;
  const participants = agents.filter((agent) => agent.id !== centralId);
  const policies = [...new Set(participants.map((agent) => String(agent.policy)))].sort();
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
  const centralBest = profile && best !== null ? profile.centralBest(start.params, best) : null;
  const status = end === undefined
    ? "incomplete"
    : typeof end.status === "string"
    ? end.status
    : "ok";
  return {
    run: meta.run,
    episode: meta.episode,
    env,
    mechanism: stringOrNull(start.mechanism),
    regime: stringOrNull(start.regime),
    model: policies.length === 0 ? null : policies.join("+"),
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
    funding: profile ? profile.funding(start.params) : null,
    params: start.params === undefined ? null : JSON.stringify(start.params),
    agents: agents.length === 0 ? null : JSON.stringify(agents),
    error: end && typeof end.error === "string" ? end.error : null,
  };
}

function numberOrNull(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

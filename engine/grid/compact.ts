/**
 * Compaction: a run folder's NDJSON logs (any depth, so a folder of shard
 * folders compacts their union) become Parquet tables that the analysis
 * loaders read directly (`loadRuns` / `loadRunsLazy` on the output folder).
 *
 * Tables (`<out>/<table>.parquet`):
 * - the loader's frames, built by the loader itself and written by its
 *   writer (`writeRunsParquet`), so both paths agree: `episodes`, `rounds`,
 *   `decisions`, `mechanisms`, `corrections`, `calls` and `turns` (one row
 *   per Stag Hunt `turn` event, empty for FRAIL runs); `rounds` (one row per
 *   `disclosure` event: its `metrics`, one column each) gains `public`, the
 *   disclosed snapshot as JSON;
 * - `events`: every event, one row each: `run`, `episode`, `seq`, `round`,
 *   `step`, `type`, `time`, `agent` (or null) and `data` (every other field,
 *   as JSON; checkpoints keep their full state).
 *
 * Choices: malformed lines stop the compaction (strict loading) rather than
 * being skipped; two logs of one (run, episode) are refused (a union of shard
 * folders must be disjoint); the output must lie outside the input (the
 * loader reads a folder recursively, so a compacted set inside it would be
 * read twice); tables are written into a temporary sibling folder that is
 * then renamed. Default output: `<dir>-parquet`.
 *
 * @module
 */
import { basename, dirname, join, relative, resolve } from "node:path";
import pl from "npm:nodejs-polars@0.25.2";
import { loadRuns, writeRunsParquet } from "../../analysis/load/load_runs.ts";
import type { EngineEvent } from "../core/events.ts";
import { parseEpisodeLog } from "../core/log_file.ts";
import { readCommittedBytes } from "./segments.ts";

/** Options of {@linkcode compactRun}. */
export interface CompactRunOptions {
  /** Output folder. Default `<dir>-parquet`. */
  out?: string;
  /** Replace an existing compacted set at `out`. Default `true`. */
  overwrite?: boolean;
}

/** What {@linkcode compactRun} wrote. */
export interface CompactResult {
  /** Output folder. */
  out: string;
  /** NDJSON logs read. */
  logs: number;
  /** Rows per table. */
  rows: Record<string, number>;
}

const BASE_KEYS = new Set([
  "schema",
  "run",
  "episode",
  "round",
  "step",
  "seq",
  "time",
  "type",
  "agent",
]);

async function walk(dir: string, found: { ndjson: string[]; parquet: string[] }): Promise<void> {
  const entries = await Array.fromAsync(Deno.readDir(dir));
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory) await walk(path, found);
    else if (e.isFile && e.name.endsWith(".ndjson")) found.ndjson.push(path);
    else if (e.isFile && e.name === "episodes.parquet") found.parquet.push(dir);
  }
}

class Table {
  readonly columns = new Map<string, { dtype: pl.DataType; values: unknown[] }>();
  constructor(spec: [string, pl.DataType][]) {
    for (const [name, dtype] of spec) this.columns.set(name, { dtype, values: [] });
  }
  push(row: Record<string, unknown>): void {
    for (const [name, c] of this.columns) c.values.push(row[name] ?? null);
  }
  frame(): pl.DataFrame {
    return pl.DataFrame(
      [...this.columns].map(([name, c]) => pl.Series(name, c.values, c.dtype)),
    );
  }
}

/**
 * Compacts the NDJSON logs under a folder into Parquet tables.
 *
 * @example
 * ```ts
 * import { loadRuns } from "../../analysis/load/load_runs.ts";
 * import { compactRun } from "./compact.ts";
 * import { runGrid } from "./run_grid.ts";
 * const root = await Deno.makeTempDir();
 * await runGrid({ name: "demo", episodes: 1, blocks: [
 *   { game: "frail", envs: ["bank_run"], mechanisms: ["M0", "M2"] },
 *   { game: "staghunt", N: [3], M: [2], T: [2], F: [1] },
 * ] }, { out: `${root}/demo`, workers: 0, progress: false });
 * const r = await compactRun(`${root}/demo`);
 * if (r.out !== `${root}/demo-parquet` || r.rows.episodes !== 3 || r.rows.turns !== 6) throw new Error();
 * const back = await loadRuns(r.out);
 * if (back.episodes.height !== 3) throw new Error();
 * ```
 * @throws {RangeError} When the output lies inside the input, the input holds a compacted set, or two logs share a (run, episode).
 * @throws {SyntaxError} For a malformed line, naming the file and line.
 */
export async function compactRun(
  dir: string,
  options: CompactRunOptions = {},
): Promise<CompactResult> {
  const input = resolve(dir);
  const out = options.out ?? `${dir.replace(/\/+$/, "")}-parquet`;
  const rel = relative(input, resolve(out));
  if (rel === "" || (!rel.startsWith("..") && !rel.startsWith("/"))) {
    throw new RangeError(
      `Compaction output "${out}" lies inside its input "${dir}": choose a folder outside it`,
    );
  }
  const found = { ndjson: [] as string[], parquet: [] as string[] };
  await walk(dir, found);
  if (found.parquet.length > 0) {
    throw new RangeError(
      `Folder "${dir}" holds a compacted set at "${
        found.parquet[0]
      }": compaction reads NDJSON logs only`,
    );
  }
  const events = new Table([
    ["run", pl.Utf8],
    ["episode", pl.Utf8],
    ["seq", pl.Int32],
    ["round", pl.Int32],
    ["step", pl.Utf8],
    ["type", pl.Utf8],
    ["time", pl.Utf8],
    ["agent", pl.Utf8],
    ["data", pl.Utf8],
  ]);
  const disclosed = new Map<string, string>();
  const owners = new Map<string, string>();
  const decoder = new TextDecoder();
  for (const file of found.ndjson) {
    const log: EngineEvent[] = parseEpisodeLog(decoder.decode(readCommittedBytes(file)), file);
    for (const id of new Set(log.map((e) => `${e.run}\u0000${e.episode}`))) {
      const prior = owners.get(id);
      if (prior !== undefined) {
        const [run, episode] = id.split("\u0000");
        throw new RangeError(
          `Episode "${episode}" of run "${run}" has two logs ("${prior}" and "${file}"): ` +
            `the folders compacted together must hold disjoint episodes`,
        );
      }
      owners.set(id, file);
    }
    for (const e of log) {
      const data: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(e)) if (!BASE_KEYS.has(k)) data[k] = v;
      const agent = (e as { agent?: unknown }).agent;
      events.push({
        ...e,
        agent: typeof agent === "string" ? agent : null,
        data: JSON.stringify(data),
      });
      if (e.type === "disclosure") {
        disclosed.set(`${e.run}\u0000${e.episode}\u0000${e.round}`, JSON.stringify(e.public));
      }
    }
  }
  const frames = await loadRuns(dir, { strict: true });
  const rounds = frames.rounds!;
  const run = rounds.getColumn("run").toArray() as string[];
  const episode = rounds.getColumn("episode").toArray() as string[];
  const round = rounds.getColumn("round").toArray() as number[];
  const publicColumn = run.map((r, i) =>
    disclosed.get(`${r}\u0000${episode[i]}\u0000${round[i]}`) ?? null
  );
  const tables: Record<string, pl.DataFrame> = { events: events.frame() };
  const loaderFrames = {
    ...frames,
    rounds: rounds.withColumn(pl.Series("public", publicColumn, pl.Utf8)),
  };

  const tmp = join(dirname(resolve(out)), `.${basename(out)}.${crypto.randomUUID()}.tmp`);
  await Deno.mkdir(tmp, { recursive: true });
  try {
    for (const [name, df] of Object.entries(tables)) df.writeParquet(join(tmp, `${name}.parquet`));
    await writeRunsParquet(loaderFrames, tmp);
    let exists = false;
    try {
      exists = (await Deno.stat(out)).isDirectory;
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
    if (exists) {
      const names = (await Array.fromAsync(Deno.readDir(out))).map((e) => e.name);
      if (
        !(options.overwrite ?? true) || (names.length > 0 && !names.includes("episodes.parquet"))
      ) {
        throw new RangeError(
          `Compaction output "${out}" already exists${
            names.length ? " and is not a compacted set" : ""
          }: choose another folder`,
        );
      }
      await Deno.remove(out, { recursive: true });
    }
    await Deno.mkdir(dirname(resolve(out)), { recursive: true });
    await Deno.rename(tmp, out);
  } catch (err) {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    throw err;
  }
  const rows: Record<string, number> = {};
  for (const [name, df] of Object.entries({ ...loaderFrames, ...tables })) {
    const height = (df as { height?: unknown } | undefined)?.height;
    if (typeof height === "number") rows[name] = height;
  }
  return { out, logs: found.ndjson.length, rows };
}

/**
 * Compaction: a run folder's NDJSON logs (any depth, so a folder of shard
 * folders compacts their union; grid segments and per-episode files alike)
 * become Parquet tables that the analysis loaders read directly (`loadRuns`
 * / `loadRunsLazy` on the output folder).
 *
 * Tables (`<table>.parquet` in the output's current set):
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
 * Atomic: the output folder holds `compacted.json`, which names its current
 * set (`set-<stamp>-<id>/`) and lists its tables with their row counts. A
 * compaction writes a new set beside the current one, then replaces
 * `compacted.json` by a rename, and only then removes the old set. Loaders
 * read a set only through `compacted.json`, so at every moment (a SIGKILL
 * included) the output loads as the old set or the new one, never as a part
 * of either; the next compaction removes what a killed one left (sets that
 * `compacted.json` does not name, temporary files of its own naming, and
 * the hidden `.<name>.<uuid>.tmp` folders of earlier versions beside the
 * output). The output folder is locked while it is written (`lockFolder`):
 * a second compaction into it is refused. A write that fails (a full or
 * failing disk) leaves the current set as it was: the new set is removed
 * and a `FolderWriteError` names the output folder and the error; running
 * the compaction again resumes from the logs.
 *
 * Choices: malformed lines stop the compaction (strict loading) rather than
 * being skipped; two logs of one (run, episode) are refused (a union of shard
 * folders must be disjoint), and so is a folder of shards that does not hold
 * its grid exactly once (a missing shard or episode, a shard twice, two plans:
 * a `ShardSetError` from the loader, never a partial set); the output must lie outside the input (the
 * loader reads a folder recursively, so a compacted set inside it would be
 * read twice). An output folder holding a flat set (tables at its top, as
 * `writeRunsParquet` and earlier versions wrote) is converted: the new set
 * and `compacted.json` go beside the flat tables, which are then removed.
 * Default output: `<dir>-parquet`.
 *
 * @module
 */
import { EVENT_BASE_FIELDS } from "../../engine/core/events.ts";
import { basename, dirname, join, relative, resolve } from "node:path";
import pl from "npm:nodejs-polars@0.25.2";
import {
  COMPACTED_FILE,
  type CompactedManifest,
  FRAME_NAMES,
  loadRuns,
  writeRunsParquet,
} from "./load_runs.ts";
import type { EngineEvent } from "../../engine/core/events.ts";
import { LogLineDecoder } from "../../engine/core/event_layout.ts";
import { parseEpisodeLog } from "../../engine/core/log_file.ts";
import { pathInside } from "../../engine/names.ts";
import { LOCK_FILE, lockFolder } from "../../engine/grid/lock.ts";
import { FolderWriteError, isOsError } from "../../engine/grid/write_error.ts";
import { readLogTexts, sessionTag } from "../../engine/grid/segments.ts";

/** Options of {@linkcode compactRun}. */
export interface CompactRunOptions {
  /** Output folder. Default `<dir>-parquet`. */
  out?: string;
  /** Replace an existing compacted set at `out`. Default `true`. */
  overwrite?: boolean;
  /** Take over an output lock that names another host (see `lockFolder`). Default `false`. */
  takeOverLock?: boolean;
}

/** What {@linkcode compactRun} wrote. */
export interface CompactResult {
  /** Output folder. */
  out: string;
  /** The new current set, a subfolder of `out`. */
  set: string;
  /** NDJSON log files read. */
  logs: number;
  /** Rows per table. */
  rows: Record<string, number>;
  /** Leftovers of earlier, killed compactions (and replaced sets) that were removed. */
  removed: string[];
}

/** Fields the `events` table has columns of its own for; the rest go to `data`. */
const BASE_KEYS = new Set([...EVENT_BASE_FIELDS, "agent"]);

/** Tables of a set: the loader's frames and `events`. */
const TABLES = [...FRAME_NAMES, "events"];
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
/** Sets this toolkit names (`sessionTag`). */
const SET_NAME = /^set-\d{8}T\d{6}-[0-9a-f]{6}$/;
const POINTER_TEMPORARY = new RegExp(`^${COMPACTED_FILE.replace(".", "\\.")}\\.${UUID}\\.tmp$`);

async function walk(dir: string, found: { ndjson: string[]; parquet: string[] }): Promise<void> {
  const entries = await Array.fromAsync(Deno.readDir(dir));
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory) await walk(path, found);
    else if (e.isFile && e.name.endsWith(".ndjson")) found.ndjson.push(path);
    else if (e.isFile && (e.name === "episodes.parquet" || e.name === COMPACTED_FILE)) {
      found.parquet.push(dir);
    }
  }
}

/** Rows a table holds in JavaScript arrays before they become a Polars part. */
const PART_ROWS = 1 << 17;

/** Columns built row by row, moved into Polars every `PART_ROWS` rows (logs of any size). */
class Table {
  readonly columns = new Map<string, { dtype: pl.DataType; values: unknown[] }>();
  readonly #parts: pl.DataFrame[] = [];
  #rows = 0;
  constructor(spec: [string, pl.DataType][]) {
    for (const [name, dtype] of spec) this.columns.set(name, { dtype, values: [] });
  }
  push(row: Record<string, unknown>): void {
    for (const [name, c] of this.columns) c.values.push(row[name] ?? null);
    if (++this.#rows === PART_ROWS) this.#flush();
  }
  #flush(): void {
    this.#parts.push(pl.DataFrame(
      [...this.columns].map(([name, c]) => pl.Series(name, c.values, c.dtype)),
    ));
    for (const c of this.columns.values()) c.values = [];
    this.#rows = 0;
  }
  frame(): pl.DataFrame {
    if (this.#rows > 0 || this.#parts.length === 0) this.#flush();
    const parts = this.#parts.splice(0);
    return parts.length === 1 ? parts[0] : pl.concat(parts, { how: "vertical", rechunk: true });
  }
}

/** What an output folder holds now. */
interface OutputState {
  /** Whether the folder exists. */
  exists: boolean;
  /** Its `compacted.json`, or `null`. */
  manifest: CompactedManifest | null;
  /** Whether tables lie at its top (a flat set). */
  flat: boolean;
  /** Entries that are neither this toolkit's nor a flat set's. */
  foreign: string[];
}

async function outputState(out: string): Promise<OutputState> {
  const state: OutputState = { exists: false, manifest: null, flat: false, foreign: [] };
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(out));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return state;
    throw err;
  }
  state.exists = true;
  for (const e of entries) {
    if (e.isFile && e.name === COMPACTED_FILE) {
      state.manifest = JSON.parse(await Deno.readTextFile(join(out, e.name)));
    } else if (e.isFile && TABLES.some((t) => e.name === `${t}.parquet`)) {
      state.flat = true;
    } else if (
      !(e.isDirectory && SET_NAME.test(e.name)) && !(e.isFile && POINTER_TEMPORARY.test(e.name)) &&
      e.name !== LOCK_FILE
    ) {
      state.foreign.push(e.name);
    }
  }
  return state;
}

/**
 * Removes what no reader can see in an output folder: sets other than
 * `keep`, temporary pointer files, flat tables once a pointer exists, and
 * earlier versions' hidden temporary folders beside it.
 */
async function removeLeftovers(out: string, keep: string | null): Promise<string[]> {
  const removed: string[] = [];
  const pointed = keep !== null;
  for await (const e of Deno.readDir(out)) {
    const own = (e.isDirectory && SET_NAME.test(e.name) && e.name !== keep) ||
      (e.isFile && POINTER_TEMPORARY.test(e.name)) ||
      (pointed && e.isFile && TABLES.some((t) => e.name === `${t}.parquet`));
    if (own) {
      await Deno.remove(join(out, e.name), { recursive: true });
      removed.push(join(out, e.name));
    }
  }
  const parent = dirname(resolve(out));
  const earlier = new RegExp(`^\\.${escape(basename(out))}\\.${UUID}\\.tmp$`);
  for await (const e of Deno.readDir(parent)) {
    if (e.isDirectory && earlier.test(e.name)) {
      await Deno.remove(join(parent, e.name), { recursive: true });
      removed.push(join(parent, e.name));
    }
  }
  return removed.sort();
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Reads every log under `dir` into the events table and the loader's frames. */
async function readInput(dir: string, files: readonly string[]) {
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
  // Each file is read in chunks of whole lines, so a log of any size is read.
  for (const file of files) {
    const decoder = new LogLineDecoder();
    for (const chunk of readLogTexts(file)) {
      const log: EngineEvent[] = parseEpisodeLog(chunk.text, file, {
        firstLine: chunk.line,
        decoder,
      });
      for (const id of new Set(log.map((e) => `${e.run}\u0000${e.episode}`))) {
        const prior = owners.get(id);
        if (prior !== undefined && prior !== file) {
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
  }
  const frames = await loadRuns(dir, { strict: true });
  const rounds = frames.rounds!;
  const run = rounds.getColumn("run").toArray() as string[];
  const episode = rounds.getColumn("episode").toArray() as string[];
  const round = rounds.getColumn("round").toArray() as number[];
  const publicColumn = run.map((r, i) =>
    disclosed.get(`${r}\u0000${episode[i]}\u0000${round[i]}`) ?? null
  );
  return {
    events: events.frame(),
    frames: { ...frames, rounds: rounds.withColumn(pl.Series("public", publicColumn, pl.Utf8)) },
  };
}

/**
 * Compacts the NDJSON logs under a folder into Parquet tables.
 *
 * @example
 * ```ts
 * import { loadRuns } from "./load_runs.ts";
 * import { compactRun } from "./compact.ts";
 * import { runGrid } from "../../engine/grid/run_grid.ts";
 * const root = await Deno.makeTempDir();
 * await runGrid({ name: "demo", episodes: 1, blocks: [
 *   { game: "frail", envs: ["bank_run"], mechanisms: ["M0", "M2"] },
 *   { game: "staghunt", N: [3], M: [2], T: [2], F: [1] },
 * ] }, { out: `${root}/demo`, workers: 0, progress: false });
 * const r = await compactRun(`${root}/demo`);
 * if (r.out !== `${root}/demo-parquet` || r.rows.episodes !== 3 || r.rows.turns !== 6) throw new Error();
 * const back = await loadRuns(r.out);
 * if (back.episodes.height !== 3) throw new Error();
 * await Deno.remove(root, { recursive: true });
 * ```
 * @throws {RangeError} When the output lies inside the input, the input holds a compacted set, two logs share a (run, episode), or the output holds other files.
 * @throws {SyntaxError} For a malformed line, naming the file and line.
 * @throws {FolderLockedError} When another process is writing the output folder.
 * @throws {FolderWriteError} When the output folder cannot be written (its current set is kept).
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
  checkOutput(out, await outputState(out), options.overwrite ?? true);
  const { events, frames } = await readInput(dir, found.ndjson);

  const lock = lockFolder(out, `compaction of "${dir}"`, { takeOver: options.takeOverLock });
  /** The new set, once made, until it is current. */
  let partial: string | null = null;
  try {
    const before = await outputState(out);
    checkOutput(out, before, options.overwrite ?? true);
    const removed = await removeLeftovers(out, before.manifest?.set ?? null);
    const name = `set-${sessionTag()}`;
    const set = pathInside(out, name);
    await Deno.mkdir(set);
    partial = set;
    events.writeParquet(join(set, "events.parquet"));
    await writeRunsParquet(frames, set);
    const rows: Record<string, number> = { events: events.height };
    for (const t of FRAME_NAMES) {
      const height = (frames[t] as { height?: unknown } | undefined)?.height;
      if (typeof height === "number") rows[t] = height;
    }
    const manifest: CompactedManifest = {
      compacted: 1,
      set: name,
      tables: rows,
      source: dir,
      written: new Date().toISOString(),
    };
    // The swap: one rename makes the new set current.
    const pointer = pathInside(out, COMPACTED_FILE);
    const tmp = `${pointer}.${crypto.randomUUID()}.tmp`;
    try {
      await Deno.writeTextFile(tmp, JSON.stringify(manifest, null, 2) + "\n");
      await Deno.rename(tmp, pointer);
    } catch (err) {
      await Deno.remove(tmp).catch(() => {});
      throw err;
    }
    partial = null;
    removed.push(...await removeLeftovers(out, name));
    return { out, set, logs: found.ndjson.length, rows, removed };
  } catch (err) {
    if (!isWriteFailure(err)) throw err;
    // compacted.json still names the set it named: the new one goes (the next run would remove it).
    if (partial !== null) await Deno.remove(partial, { recursive: true }).catch(() => {});
    throw new FolderWriteError(out, err, { what: "the compacted set" });
  } finally {
    lock.release();
  }
}

/** Whether an error is a failed write: the system's, or Polars' wrapping of one. */
function isWriteFailure(err: unknown): boolean {
  return isOsError(err) ||
    (err instanceof Error && /\(os error \d+\)|Os \{ code: \d+/.test(err.message));
}

function checkOutput(out: string, state: OutputState, overwrite: boolean): void {
  if (!state.exists) return;
  const isSet = state.manifest !== null || state.flat;
  if (state.foreign.length > 0 || (isSet && !overwrite)) {
    throw new RangeError(
      `Compaction output "${out}" already exists${
        state.foreign.length ? " and is not a compacted set" : ""
      }: choose another folder`,
    );
  }
}

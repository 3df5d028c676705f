/**
 * Loaders: every event log under a folder into tidy Polars frames.
 *
 * A folder may hold NDJSON episode logs (`runs/<run>/<episode>.ndjson`, any
 * depth) and compacted frame sets: folders holding `episodes.parquet` and the
 * other frames as `<frame>.parquet`, as written by
 * {@linkcode writeRunsParquet}. Both are read and concatenated.
 *
 * Every frame starts with the episode's key columns, read from its
 * `episode_start`: `run`, `episode`, `game` (`frail` or `staghunt`), `env`,
 * the condition keys of the games loaded (FRAIL: `mechanism`, `regime`,
 * `overrides_id`; Stag Hunt: `N`, `M`, `T`, `F`, `corruption`,
 * `heterogeneity`, `payoffs` as `RS-HS-RF-HF`; see `FRAIL_CONDITION_KEYS`
 * and `STAGHUNT_CONDITION_KEYS`) and `model` (the participants' policy).
 * The frames:
 * - `episodes`: one row per episode: `condition_id`, seed, `status` (`ok`,
 *   `degraded` when some decision took its neutral default because its agent
 *   failed, e.g. a model call that failed after its last retry; `error`; or
 *   `incomplete` when the log has no `episode_end`; tables keep `ok` only),
 *   `success`, `failure`, `rounds`, `welfare` (W), `welfare_realization`
 *   (W~), the bounds, the central player (`central_id`, `central_policy`,
 *   `central_payoff`, `central_payoff_normalized`: its payoff over the logged
 *   `derived.central_best`), `participant_payoff` (sum over the other
 *   players), `participants`, and from the logged derived quantities
 *   `funding` (total initial funding, the denominator of shares),
 *   `central_best`, `reference` (Figure 4's line) and `q_star`; then
 *   `overrides`, `params` and `derived` (JSON) and `file`. A log whose
 *   `episode_start` lacks a condition or derived field is an error naming
 *   the file and the field; a log of event schema 1 is refused by name.
 * - `rounds`: one row per episode and round, from the `disclosure` events:
 *   `round` and one Float64 column per engine metric (`committed`, `cash`,
 *   `cumulative_withdrawn`, `pool`, `launched`, ...; null where an
 *   environment has no such metric).
 * - `decisions`: one row per `decision` event: `round`, `step`, `seq`,
 *   `agent`, `call`, `action`, `alternative`, `reported` (0-100),
 *   `probability`, `draw`, `realized`, `committed`, `amount`.
 * - `mechanisms`: one row per `mechanism` event: `round`, `step`, `seq`,
 *   `action`, `agent`, `target`, `amount` and `fields` (every other field,
 *   as JSON with sorted keys).
 * - `corrections`: one row per `correction`: `agent`, `call`, `field`,
 *   `reason`, `raw` and `applied` (JSON).
 * - `calls`: one row per agent call (LLM or mock): a `report` (`status`
 *   `ok`) or an `agent_error` (`status` `error`, with `message`).
 * - `turns`: one row per Stag Hunt `turn` event: `round`, `seq`,
 *   `position`, `agent`, `corrupted`, both action layers
 *   (`original_action`, `public_action`), `confidence` and both
 *   justifications.
 *
 * Choices:
 * - The `model` of an episode is the policy of its participants (every
 *   player but the central one); if they differ, their distinct policies
 *   sorted and joined with `+`.
 * - Loading is cheap by design: a line is parsed only if a requested frame
 *   needs it (ask only for the frames you use). Lines of other types
 *   (checkpoints, messages, transitions, and reports unless `calls` is
 *   requested) are checked for shape only (a `{...}` object starting with
 *   schema 1 and carrying a type); replay an episode (`replayEpisode`) to
 *   verify them in full. Decision lines in the engine's key order are read
 *   without building objects; any other line goes through `JSON.parse`.
 *   From 32 files on, the files are shared among worker threads (one per
 *   core, at most 4) and their results merged in file order, so the frames
 *   are identical to a single-threaded load.
 * - Malformed lines are skipped and listed in `malformed` with file and line
 *   number; `strict: true` throws a `SyntaxError` naming the first one.
 *
 * @module
 */

import { join } from "node:path";
import pl from "npm:nodejs-polars@0.25.2";
import {
  type FrameName,
  type MalformedLine,
  mergeScans,
  scanFiles,
  type ScanResult,
} from "./_event_scan.ts";
import { buildFrames, keyColumns } from "./_frames.ts";

export type { FrameName, MalformedLine };

/**
 * All frame names, in the order they are listed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FRAME_NAMES } from "./load_runs.ts";
 *
 * assert.equal(FRAME_NAMES[0], "episodes");
 * ```
 */
export const FRAME_NAMES: readonly FrameName[] = [
  "episodes",
  "rounds",
  "decisions",
  "mechanisms",
  "corrections",
  "calls",
  "turns",
];

/** What {@linkcode loadRuns} returns: the frames asked for (always `episodes`). */
export interface RunFrames {
  /** One row per episode. */
  episodes: pl.DataFrame;
  /** One row per episode and round (disclosure metrics). */
  rounds?: pl.DataFrame;
  /** One row per decision event. */
  decisions?: pl.DataFrame;
  /** One row per mechanism event. */
  mechanisms?: pl.DataFrame;
  /** One row per correction. */
  corrections?: pl.DataFrame;
  /** One row per agent call. */
  calls?: pl.DataFrame;
  /** One row per Stag Hunt turn. */
  turns?: pl.DataFrame;
  /** Lines that were skipped, with file and line number. */
  malformed: MalformedLine[];
  /** Number of NDJSON files and Parquet frame sets read. */
  sources: number;
}

/** The lazy frames of {@linkcode loadRunsLazy}. */
export interface LazyRunFrames {
  /** One row per episode. */
  episodes: pl.LazyDataFrame;
  /** One row per episode and round. */
  rounds?: pl.LazyDataFrame;
  /** One row per decision event. */
  decisions?: pl.LazyDataFrame;
  /** One row per mechanism event. */
  mechanisms?: pl.LazyDataFrame;
  /** One row per correction. */
  corrections?: pl.LazyDataFrame;
  /** One row per agent call. */
  calls?: pl.LazyDataFrame;
  /** One row per Stag Hunt turn. */
  turns?: pl.LazyDataFrame;
  /** Lines that were skipped (NDJSON sources only). */
  malformed: MalformedLine[];
  /** Number of NDJSON files and Parquet frame sets found. */
  sources: number;
}

/** Options for {@linkcode loadRuns} and {@linkcode loadRunsLazy}. */
export interface LoadRunsOptions {
  /**
   * Frames to build besides `episodes`, which is always built. Asking for
   * fewer frames makes NDJSON loading faster: lines no frame needs are not
   * parsed.
   *
   * @default {all frames}
   */
  frames?: readonly FrameName[];
  /**
   * Throw a `SyntaxError` naming the file and line of the first malformed
   * line, instead of skipping and listing it.
   *
   * @default {false}
   */
  strict?: boolean;
  /**
   * Called after each source is read with the number read so far and the
   * total, e.g. the `update` of `progressDisplay()`.
   *
   * @default {no progress reports}
   */
  onProgress?: (done: number, total: number) => void;
  /**
   * Worker threads that read NDJSON logs in parallel; 1 reads them in the
   * calling thread. Workers are used only for 32 files or more.
   *
   * @default {the number of cores, at most 4}
   */
  workers?: number;
}

interface Sources {
  ndjson: string[];
  parquet: string[];
}

/**
 * Reads every event log under a folder into Polars frames.
 *
 * @param dir The folder to search, recursively.
 * @param options Frames to build, strictness and progress reporting.
 * @returns The frames, the malformed lines that were skipped and the number
 * of sources read.
 * @throws {Deno.errors.NotFound} If `dir` does not exist.
 * @throws {SyntaxError} In strict mode, for the first malformed line, as
 * `file:line: message`.
 *
 * @example Load two mock episodes
 * ```ts
 * import assert from "node:assert/strict";
 * import { runEpisode } from "../../engine/run_episode.ts";
 * import { loadRuns } from "./load_runs.ts";
 *
 * const dir = await Deno.makeTempDir();
 * for (const mechanism of ["M0", "M3"] as const) {
 *   await runEpisode({ env: "bank_run", mechanism, seed: 1, run: "demo", outDir: dir });
 * }
 * const { episodes, decisions, malformed } = await loadRuns(dir, { frames: ["decisions"] });
 * assert.equal(episodes.height, 2);
 * assert.deepEqual(episodes.getColumn("mechanism").sort().toArray(), ["M0", "M3"]);
 * assert.ok(decisions!.height > 0);
 * assert.equal(malformed.length, 0);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadRuns(dir: string, options: LoadRunsOptions = {}): Promise<RunFrames> {
  const { strict = false, onProgress } = options;
  const frames = wantedFrames(options.frames);
  workerCount(options.workers);
  const sources = await findSources(dir);
  const total = sources.ndjson.length + sources.parquet.length;
  let done = 0;
  const progress = onProgress === undefined ? undefined : () => onProgress(++done, total);
  const scan = await scanNdjson(sources.ndjson, frames, strict, options.workers, progress);
  const parts: Partial<Record<FrameName, pl.DataFrame>>[] = [];
  if (sources.ndjson.length > 0 || sources.parquet.length === 0) {
    parts.push(buildFrames(scan, frames));
  }
  for (const folder of sources.parquet) {
    parts.push(readParquetSet(folder, frames));
    progress?.();
  }
  const out: RunFrames = {
    episodes: concatFrames(parts.map((part) => part.episodes!)),
    malformed: scan.malformed,
    sources: total,
  };
  for (const name of frames) {
    if (name === "episodes") continue;
    const found = parts.map((part) => part[name]).filter((df) => df !== undefined);
    out[name] = found.length === 0 ? emptyFrame(name) : concatFrames(found);
  }
  return out;
}

/**
 * Like {@linkcode loadRuns}, but returns lazy frames: Parquet frame sets are
 * scanned (only the columns and rows a query uses are read), NDJSON logs are
 * read eagerly and wrapped.
 *
 * @param dir The folder to search, recursively.
 * @param options Frames to build, strictness and progress reporting.
 * @returns Lazy frames, the malformed lines that were skipped and the number
 * of sources found.
 * @throws {Deno.errors.NotFound} If `dir` does not exist.
 * @throws {SyntaxError} In strict mode, for the first malformed NDJSON line.
 *
 * @example Scan a compacted run
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { runEpisode } from "../../engine/run_episode.ts";
 * import { loadRuns, loadRunsLazy, writeRunsParquet } from "./load_runs.ts";
 *
 * const dir = await Deno.makeTempDir();
 * await runEpisode({ env: "bank_run", seed: 2, run: "demo", outDir: `${dir}/logs` });
 * await writeRunsParquet(await loadRuns(`${dir}/logs`), `${dir}/compact`);
 * const lazy = await loadRunsLazy(`${dir}/compact`, { frames: ["decisions"] });
 * const realized = lazy.decisions!.filter(pl.col("realized")).collectSync();
 * assert.ok(realized.height >= 0);
 * assert.equal(lazy.episodes.collectSync().height, 1);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadRunsLazy(
  dir: string,
  options: LoadRunsOptions = {},
): Promise<LazyRunFrames> {
  const frames = wantedFrames(options.frames);
  workerCount(options.workers);
  const sources = await findSources(dir);
  const parts: Partial<Record<FrameName, pl.LazyDataFrame>>[] = [];
  let malformed: MalformedLine[] = [];
  if (sources.ndjson.length > 0 || sources.parquet.length === 0) {
    const eager = await loadNdjsonOnly(sources.ndjson, frames, options);
    malformed = eager.malformed;
    const part: Partial<Record<FrameName, pl.LazyDataFrame>> = {};
    for (const name of frames) {
      const df = eager[name];
      if (df !== undefined) part[name] = df.lazy();
    }
    parts.push(part);
  }
  for (const folder of sources.parquet) {
    const part: Partial<Record<FrameName, pl.LazyDataFrame>> = {};
    for (const name of frames) {
      const path = join(folder, `${name}.parquet`);
      if (exists(path)) part[name] = pl.scanParquet(path);
    }
    parts.push(part);
  }
  const concat = (items: pl.LazyDataFrame[]) =>
    items.length === 1 ? items[0] : pl.concat(items, { how: "diagonal" });
  const out: LazyRunFrames = {
    episodes: concat(parts.map((part) => part.episodes!)),
    malformed,
    sources: sources.ndjson.length + sources.parquet.length,
  };
  for (const name of frames) {
    if (name === "episodes") continue;
    const found = parts.map((part) => part[name]).filter((df) => df !== undefined);
    out[name] = found.length === 0 ? emptyFrame(name).lazy() : concat(found);
  }
  return out;
}

/**
 * Writes frames as a compacted frame set: `<dir>/<frame>.parquet` for each
 * frame present, which {@linkcode loadRuns} and {@linkcode loadRunsLazy}
 * read back. The folder is created if needed.
 *
 * @param frames Frames from {@linkcode loadRuns}.
 * @param dir The folder to write into.
 *
 * @example Round trip through Parquet
 * ```ts
 * import assert from "node:assert/strict";
 * import { runEpisode } from "../../engine/run_episode.ts";
 * import { loadRuns, writeRunsParquet } from "./load_runs.ts";
 *
 * const dir = await Deno.makeTempDir();
 * await runEpisode({ env: "bank_run", seed: 3, run: "demo", outDir: `${dir}/logs` });
 * const frames = await loadRuns(`${dir}/logs`);
 * await writeRunsParquet(frames, `${dir}/compact`);
 * const back = await loadRuns(`${dir}/compact`);
 * assert.deepEqual(back.decisions!.toRecords(), frames.decisions!.toRecords());
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeRunsParquet(
  frames: Pick<RunFrames, FrameName>,
  dir: string,
): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  for (const name of FRAME_NAMES) {
    const df = frames[name];
    if (df !== undefined) df.writeParquet(join(dir, `${name}.parquet`));
  }
}

async function loadNdjsonOnly(
  files: readonly string[],
  frames: readonly FrameName[],
  options: LoadRunsOptions,
): Promise<RunFrames> {
  const scan = await scanNdjson(files, frames, options.strict ?? false, options.workers);
  const built = buildFrames(scan, frames);
  return { ...built, episodes: built.episodes!, malformed: scan.malformed, sources: files.length };
}

const MIN_FILES_PER_WORKER = 16;

/** Scans NDJSON files, in worker threads when there are enough of them. */
async function scanNdjson(
  files: readonly string[],
  frames: readonly FrameName[],
  strict: boolean,
  workers: number | undefined,
  onFile?: () => void,
): Promise<ScanResult> {
  const wanted = workerCount(workers);
  const count = Math.min(wanted, Math.floor(files.length / MIN_FILES_PER_WORKER));
  if (count < 2) return scanFiles(files, frames, strict, onFile);
  const chunks = balancedChunks(files, count);
  const results = await Promise.all(
    chunks.map((chunk) => scanInWorker(chunk, frames, strict, onFile)),
  );
  for (const result of results) {
    if ("error" in result) {
      if (result.error.name === "SyntaxError") throw new SyntaxError(result.error.message);
      if (result.error.name === "RangeError") throw new RangeError(result.error.message);
      throw new Error(result.error.message);
    }
  }
  return mergeScans(results.map((result) => (result as { result: ScanResult }).result));
}

function workerCount(workers: number | undefined): number {
  const wanted = workers ?? Math.min(4, Math.max(1, navigator.hardwareConcurrency ?? 1));
  if (!(Number.isInteger(wanted) && wanted >= 1)) {
    throw new RangeError(`Loader workers must be a positive integer: received ${workers}`);
  }
  return wanted;
}

/** Splits files into contiguous chunks of about equal total size. */
function balancedChunks(files: readonly string[], count: number): string[][] {
  const sizes = files.map((file) => Deno.statSync(file).size);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const chunks: string[][] = [[]];
  let acc = 0;
  files.forEach((file, i) => {
    const target = (total * chunks.length) / count;
    if (acc >= target && chunks.length < count) chunks.push([]);
    chunks[chunks.length - 1].push(file);
    acc += sizes[i];
  });
  return chunks;
}

function scanInWorker(
  files: string[],
  frames: readonly FrameName[],
  strict: boolean,
  onFile?: () => void,
): Promise<{ result: ScanResult } | { error: { name: string; message: string } }> {
  const worker = new Worker(new URL("./_scan_worker.ts", import.meta.url).href, {
    type: "module",
  });
  return new Promise<{ result: ScanResult } | { error: { name: string; message: string } }>(
    (resolve) => {
      worker.onmessage = (message) => {
        const data = message.data;
        if ("progress" in data) {
          onFile?.();
          return;
        }
        resolve(data);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        resolve({ error: { name: "Error", message: event.message } });
      };
      worker.postMessage({ files, frames: [...frames], strict });
    },
  ).finally(() => worker.terminate());
}

function wantedFrames(frames: readonly FrameName[] | undefined): FrameName[] {
  const wanted = new Set<FrameName>(["episodes", ...(frames ?? FRAME_NAMES)]);
  for (const name of wanted) {
    if (!FRAME_NAMES.includes(name)) {
      throw new RangeError(
        `Unknown frame "${name}": expected one of ${FRAME_NAMES.map((n) => `"${n}"`).join(", ")}`,
      );
    }
  }
  return FRAME_NAMES.filter((name) => wanted.has(name));
}

async function findSources(dir: string): Promise<Sources> {
  const sources: Sources = { ndjson: [], parquet: [] };
  const walk = async (folder: string) => {
    const entries: Deno.DirEntry[] = [];
    for await (const entry of Deno.readDir(folder)) entries.push(entry);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (entries.some((entry) => entry.isFile && entry.name === "episodes.parquet")) {
      sources.parquet.push(folder);
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile && entry.name.endsWith(".ndjson")) sources.ndjson.push(path);
    }
  };
  await walk(dir);
  return sources;
}

function readParquetSet(
  folder: string,
  frames: readonly FrameName[],
): Partial<Record<FrameName, pl.DataFrame>> {
  const out: Partial<Record<FrameName, pl.DataFrame>> = {};
  const episodes = pl.readParquet(join(folder, "episodes.parquet"));
  out.episodes = episodes;
  for (const name of frames) {
    if (name === "episodes" || !exists(join(folder, `${name}.parquet`))) continue;
    out[name] = withEpisodeKeys(pl.readParquet(join(folder, `${name}.parquet`)), episodes);
  }
  return out;
}

/** Adds the episode key columns a child frame written by another tool lacks. */
function withEpisodeKeys(df: pl.DataFrame, episodes: pl.DataFrame): pl.DataFrame {
  const keys = keyColumns(episodes);
  const missing = keys.filter((key) => !df.columns.includes(key));
  if (missing.length === 0 || !df.columns.includes("run") || !df.columns.includes("episode")) {
    return df;
  }
  const keyFrame = episodes.select(
    pl.col("run"),
    pl.col("episode"),
    ...missing.map((key) => pl.col(key)),
  );
  const joined = df.join(keyFrame, { on: ["run", "episode"], how: "left" });
  const order = [...keys, ...df.columns.filter((c) => !keys.includes(c))];
  return joined.select(...order.map((c) => pl.col(c)));
}

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function emptyFrame(name: FrameName): pl.DataFrame {
  return buildFrames({ episodes: [], tables: {}, malformed: [] }, [name])[name]!;
}

function concatFrames(items: pl.DataFrame[]): pl.DataFrame {
  if (items.length === 0) throw new RangeError("No frames to concatenate");
  if (items.length === 1) return items[0];
  const nonEmpty = items.filter((df) => df.height > 0);
  if (nonEmpty.length === 0) return items[0];
  if (nonEmpty.length === 1) return nonEmpty[0];
  return pl.concat(nonEmpty, { how: "diagonal" });
}

/**
 * Loaders: every event log under a folder into tidy Polars frames.
 *
 * A folder may hold NDJSON event logs (any depth): per-episode files
 * (`runs/<run>/<episode>.ndjson`) and grid segments (many episodes per file,
 * read up to their last indexed block; see `engine/grid/segments.ts`); and
 * compacted frame sets: folders holding `episodes.parquet` and the other
 * frames as `<frame>.parquet`, as written by {@linkcode writeRunsParquet},
 * or a compaction's folder, whose `compacted.json` names its current set and
 * lists its tables. All are read and concatenated, each episode once.
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
 *   `central_best`, `reference` (Figure 4's line) and `q_star`; the
 *   episode's model calls summed from its `llm_call` events: `model_calls`,
 *   `tokens_in`, `tokens_out`, `tokens_reasoning` and `cost` (a sum is null
 *   when one of its calls' values is unknown: no valid token counts, no
 *   price; 0 for an episode without model calls), `currency` (the ISO 4217
 *   code of `cost`: the one the `manifest.json` in the log's own folder
 *   records, `spend.currency`; null where none is recorded: a log outside a
 *   grid's folder, a mock grid, a compacted set written before currencies
 *   were loaded); then `overrides`,
 *   `params` and `derived` (JSON) and `file`; for a branch
 *   (`episode_start.branch_of`), `branch_of_run`, `branch_of` (the parent's
 *   run and episode), `branch_round` and `branch_change` (JSON), null
 *   otherwise. A log whose
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
 * - `calls`: one row per model call (`llm_call` event) and one per agent
 *   call that made none (a rule-based agent's, or one that failed before
 *   calling a model): `round`, `step`, `seq`, `agent`, `role`, `call`,
 *   `status` (the model call's `ok` or `error`, else the agent call's),
 *   `message` (the agent call's error, from its `agent_error`), and from the
 *   `llm_call`: `model_id` (the models file's id), `provider`,
 *   `provider_model`, `cache` (`hit`, `miss`, `off`), `attempts`,
 *   `tokens_in`, `tokens_out`, `tokens_reasoning` (null when the provider
 *   sent no valid counts), `cost` (null without a price), `currency` (its
 *   episode's), `latency_ms`,
 *   `wall_ms`, `finish_reason`, `usage_warning` and `error`.
 * - `turns`: one row per Stag Hunt `turn` event: `round`, `seq`,
 *   `position`, `agent`, `corrupted`, both action layers
 *   (`original_action`, `public_action`, `executed_action`), `confidence` and both
 *   justifications.
 *
 * Choices:
 * - The `model` of an episode is the policy of its participants (every
 *   player but the central one); if they differ, their distinct policies
 *   sorted and joined with `+`.
 * - Loading is cheap by design: a line is parsed only if a requested frame
 *   needs it (ask only for the frames you use; `llm_call` lines are always
 *   parsed, for the episodes' usage). Lines of other types
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
 *   Besides text that is not an event, these are malformed: an
 *   `episode_end` with an unknown status or an outcome field of the wrong
 *   type (a skipped end leaves the episode `incomplete`); a second
 *   `episode_start` or `episode_end` of an episode in one file; an
 *   `llm_call` whose model, status, cache, attempts, token counts or cost
 *   have the wrong type (its episode's usage is then unknown).
 * - Nothing loads quietly empty or partial: a folder without logs throws
 *   `Deno.errors.NotFound` naming what was looked for, and a folder whose
 *   `writer.lock` a live process holds (in it, a subfolder or a parent)
 *   throws {@linkcode LiveRunError} unless `allowLive: true`, which loads
 *   it with a warning and `complete: false`. A folder of shards (grid folders
 *   whose manifests name a shard `i/n`) loads only as its whole grid: a
 *   missing shard or episode, a shard in two folders, two plans or an episode
 *   in two shards throws {@linkcode ShardSetError} naming them, unless
 *   `partial: true`, which loads it with a warning and `complete: false`.
 * - Load exactly once: an episode is its (run, episode); when several
 *   sources hold it (a log and a compacted set of it, a copy of a log in a
 *   subfolder, two compactions), the first is kept, in this order: log files
 *   in path order, then compacted sets in path order. Copies with the same
 *   content (for logs: `episode_start` and `episode_end` without their times
 *   and the last checkpoint's events hash; against or between compacted
 *   sets: the `episodes` row but its `file` and `currency`) are dropped and listed in
 *   `duplicates`; copies whose content differs raise one `RangeError`
 *   listing them, unless `duplicates: "first"` keeps the first copy of each
 *   (and lists the others with `same: false`).
 * - A compacted set never loads silently empty: a folder holding frame
 *   tables but no `episodes.parquet`, or a compaction whose `compacted.json`
 *   lists a table its set lacks, raises a `RangeError` naming it. Sets a
 *   compaction wrote but never made current (`set-<stamp>-<id>/` that no
 *   `compacted.json` names) and the `.<name>.<uuid>.tmp` folders of earlier
 *   versions' compactions are skipped; a folder holding nothing else raises
 *   a `RangeError` (an interrupted first compaction).
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import { FolderLockedError, LOCK_FILE, type LockHolder } from "../../engine/grid/lock.ts";
import pl from "npm:nodejs-polars@0.25.2";
import { canonicalJson } from "../../engine/core/canonical_json.ts";
import { awaitHint } from "../../engine/core/jupyter.ts";
import {
  dedupeEpisodes,
  type DuplicateEpisode,
  type FrameName,
  type MalformedLine,
  mergeScans,
  scanFiles,
  type ScanResult,
} from "./_event_scan.ts";
import { buildFrames, keyColumns, withCallCurrency, withEpisodeCurrency } from "./_frames.ts";
import { MANIFEST_FILE } from "../../engine/grid/manifest.ts";
import { checkShardSet, ShardSetError } from "./_shard_set.ts";

export type { DuplicateEpisode, FrameName, MalformedLine };
export { ShardSetError };

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
  /** One row per model call, and per agent call that made none. */
  calls?: pl.DataFrame;
  /** One row per Stag Hunt turn. */
  turns?: pl.DataFrame;
  /** Lines that were skipped, with file and line number. */
  malformed: MalformedLine[];
  /** Number of NDJSON files and Parquet frame sets read. */
  sources: number;
  /** Copies of episodes that were left out (each episode is loaded once). */
  duplicates: DuplicateEpisode[];
  /**
   * `false` when a writer was still writing the folder (loaded with
   * `allowLive: true`): the frames hold what was written so far.
   */
  complete: boolean;
  /** The writers that held the folder's lock while it was read (see `allowLive`). */
  writers: LiveWriter[];
}

/** A process that held a run folder's `writer.lock` while the folder was read. */
export interface LiveWriter {
  /** The folder whose lock it holds. */
  dir: string;
  /** What its lock file says (pid, host, purpose, since), or `null` if unreadable. */
  holder: LockHolder | null;
}

/** What a load found in a folder a writer is still writing. */
export interface LiveFound {
  /** Episodes found so far. */
  episodes: number;
  /** Of them, those whose log has its `episode_end`. */
  finished: number;
  /** NDJSON files and compacted sets read. */
  sources: number;
}

/**
 * {@linkcode loadRuns} refuses a folder that a live writer (a grid, a
 * compaction) holds the lock of: its frames would be a part of the run,
 * without a word. The message names the writer and what was found so far.
 *
 * @example
 * ```ts
 * import { LiveRunError } from "./load_runs.ts";
 * const e = new LiveRunError(
 *   { dir: "out", holder: { pid: 7, host: "lab", purpose: "grid \"demo\"", since: "2026-01-01T00:00:00Z" } },
 *   { episodes: 7, finished: 6, sources: 1 },
 * );
 * if (!e.message.startsWith('Folder "out" is being written by process 7 on lab (grid "demo", since 2026-01-01T00:00:00Z): 7 episodes found so far (6 finished)')) throw new Error(e.message);
 * ```
 */
export class LiveRunError extends FolderLockedError {
  /** What was found so far. */
  readonly found: LiveFound;
  /** Builds the message from the writer and the counts. */
  constructor(writer: LiveWriter, found: LiveFound) {
    super(writer.dir, writer.holder);
    this.name = "LiveRunError";
    this.found = found;
    this.message = `Folder "${writer.dir}" is being written by ${holderText(writer.holder)}: ` +
      `${found.episodes} episode${found.episodes === 1 ? "" : "s"} found so far ` +
      `(${found.finished} finished) in ${found.sources} source${found.sources === 1 ? "" : "s"}; ` +
      `wait for the writer to finish, or pass { allowLive: true } to load them marked ` +
      `complete: false`;
  }
}

function holderText(holder: LockHolder | null): string {
  return holder
    ? `process ${holder.pid} on ${
      holder.host ?? "an unnamed host"
    } (${holder.purpose}, since ${holder.since})`
    : "another process";
}

/** The frames besides `episodes`. */
export type ChildFrameName = Exclude<FrameName, "episodes">;

/**
 * What {@linkcode loadRuns} returns for the frames asked for (every frame
 * when no `frames` option is given): those frames are always there.
 */
export type LoadedFrames<F extends ChildFrameName> = RunFrames & { [K in F]: pl.DataFrame };

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
  /** One row per model call, and per agent call that made none. */
  calls?: pl.LazyDataFrame;
  /** One row per Stag Hunt turn. */
  turns?: pl.LazyDataFrame;
  /** Lines that were skipped (NDJSON sources only). */
  malformed: MalformedLine[];
  /** Number of NDJSON files and Parquet frame sets found. */
  sources: number;
  /** Copies of episodes that were left out (each episode is loaded once). */
  duplicates: DuplicateEpisode[];
  /** `false` when a live writer was still writing the folder (see `allowLive`). */
  complete: boolean;
  /** The writers that held the folder's lock while it was read. */
  writers: LiveWriter[];
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
  /**
   * What to do with copies of an episode whose content differs: `"error"`
   * raises one `RangeError` listing them; `"first"` keeps the first copy
   * (log files in path order, then compacted sets) and lists the others in
   * `duplicates`. Identical copies are always loaded once.
   *
   * @default {"error"}
   */
  duplicates?: "error" | "first";
  /**
   * Load a folder whose `writer.lock` a live process holds (a grid still
   * playing, in the folder, a subfolder or a parent folder): what is written
   * so far is loaded, with a warning on the console, `complete: false` and
   * the writers in `writers`. Without it such a load throws
   * {@linkcode LiveRunError}. A lock file no process holds (left by a killed
   * writer) does not count.
   *
   * @default {false}
   */
  allowLive?: boolean;
  /**
   * Load a folder of shards that does not hold its grid exactly once (a
   * missing shard or episode, a shard in two folders, two plans, an episode
   * in two shards): what is there is loaded, with a warning on the console
   * and `complete: false`. Without it such a load throws
   * {@linkcode ShardSetError} naming the shards. Every grid folder's
   * manifest records its plan (spec hash, shard, episode count and the hash
   * of its episode ids); a run none of whose folders is a shard is not
   * checked, and neither is a compacted set (compaction refuses a partial
   * shard set).
   *
   * @default {false}
   */
  partial?: boolean;
}

/**
 * Checks the shard sets among the grid folders read (see `_shard_set.ts`):
 * returns whether they are whole; throws a {@linkcode ShardSetError} unless
 * `partial` (or `live`: a live load, already allowed, is partial anyway),
 * which warn on the console instead.
 */
function settleShards(
  manifests: readonly string[],
  episodes: pl.DataFrame,
  duplicates: readonly DuplicateEpisode[],
  { partial, live }: { partial: boolean | undefined; live: boolean },
): boolean {
  if (partial !== undefined && typeof partial !== "boolean") {
    throw new TypeError(`Loader option "partial" must be a boolean, got ${partial}`);
  }
  if (manifests.length === 0) return true;
  const { problems } = checkShardSet(manifests, episodes, duplicates);
  if (problems.length === 0) return true;
  const error = new ShardSetError(problems);
  if (partial !== true && !live) throw error;
  console.warn(
    `Loading a partial shard set, marked complete: false:\n- ${problems.join("\n- ")}`,
  );
  return false;
}

/** One source's frames: NDJSON logs (`source` `null`: each row names its file) or a compacted set. */
interface Part<F> {
  source: string | null;
  frames: Partial<Record<FrameName, F>>;
}

interface Sources {
  ndjson: string[];
  parquet: string[];
  /** Folders holding a `writer.lock` (outside compactions, whose sets are replaced atomically). */
  locks: string[];
  /** Grid folders: those holding a `manifest.json`. */
  manifests: string[];
}

/**
 * Reads every event log under a folder into Polars frames.
 *
 * @param dir The folder to search, recursively.
 * @param options Frames to build, strictness and progress reporting.
 * @returns The frames, the malformed lines that were skipped and the number
 * of sources read.
 * @throws {Deno.errors.NotFound} If `dir` does not exist or holds no logs.
 * @throws {LiveRunError} If a live writer holds its lock (unless
 * `allowLive: true`).
 * @throws {SyntaxError} In strict mode, for the first malformed line, as
 * `file:line: message`.
 * @throws {RangeError} For copies of an episode whose content differs
 * (unless `duplicates: "first"`), or a compacted set with missing parts.
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
 * assert.ok(decisions.height > 0); // a frame asked for is there
 * const all = await loadRuns(dir); // every frame
 * assert.equal(all.turns.height, 0); // no Stag Hunt episodes
 * // One calls row per agent call; mock agents call no model, so none has a model_id.
 * assert.equal(all.calls.getColumn("model_id").nullCount(), all.calls.height);
 * assert.deepEqual(episodes.getColumn("cost").toArray(), [0, 0]);
 * assert.equal(malformed.length, 0);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function loadRuns<F extends ChildFrameName = ChildFrameName>(
  dir: string,
  options?: LoadRunsOptions & { frames?: readonly F[] },
): Promise<LoadedFrames<F>>;
/** Reads every event log under a folder into Polars frames (see the first signature). */
export function loadRuns(dir: string, options?: LoadRunsOptions): Promise<RunFrames>;
export function loadRuns(dir: string, options: LoadRunsOptions = {}): Promise<RunFrames> {
  // A notebook that forgets `await` is told so (awaitHint).
  return awaitHint(readRuns(dir, options), "loadRuns(...)", [
    "episodes",
    "rounds",
    "decisions",
    "mechanisms",
    "corrections",
    "calls",
    "turns",
    "malformed",
    "sources",
    "duplicates",
  ]);
}

async function readRuns(dir: string, options: LoadRunsOptions): Promise<RunFrames> {
  const { strict = false, onProgress } = options;
  const policy = duplicatePolicy(options.duplicates);
  const frames = wantedFrames(options.frames);
  workerCount(options.workers);
  const sources = await findSources(dir);
  const writers = liveWriters(dir, sources.locks);
  const total = sources.ndjson.length + sources.parquet.length;
  let done = 0;
  const progress = onProgress === undefined ? undefined : () => onProgress(++done, total);
  const scanned = await scanNdjson(sources.ndjson, frames, strict, options.workers, progress);
  const { result: scan, duplicates } = dedupeEpisodes(scanned);
  const parts: Part<pl.DataFrame>[] = [];
  if (sources.ndjson.length > 0 || sources.parquet.length === 0) {
    parts.push({ source: null, frames: buildFrames(scan, frames) });
  }
  for (const folder of sources.parquet) {
    parts.push({ source: folder, frames: readParquetSet(folder, frames) });
    progress?.();
  }
  const drop = crossDuplicates(parts.map((p) => ({ ...p, episodes: p.frames.episodes! })));
  duplicates.push(...drop.duplicates);
  checkDuplicates(duplicates, policy);
  parts.forEach((part, i) => dropKeys(part.frames, drop.keys[i]));
  const episodes = inLogOrder(concatFrames(parts.map((part) => part.frames.episodes!)));
  settleLive(writers, [episodes], total, options.allowLive);
  const whole = settleShards(sources.manifests, episodes, duplicates, {
    partial: options.partial,
    live: writers.length > 0,
  });
  const out: RunFrames = {
    episodes,
    malformed: scan.malformed,
    sources: total,
    duplicates,
    complete: writers.length === 0 && whole,
    writers,
  };
  for (const name of frames) {
    if (name === "episodes") continue;
    const found = parts.map((part) => part.frames[name]).filter((df) => df !== undefined);
    out[name] = inLogOrder(found.length === 0 ? emptyFrame(name) : concatFrames(found));
  }
  return out;
}

/**
 * Rows in a fixed order: by run and episode, then by round or event
 * sequence (stable, so events that share a `seq` keep their log order). A
 * grid played by several workers logs its episodes in whatever order they
 * finish; without this, a mean over a frame would sum in that order and
 * change in its last bits from run to run.
 */
function inLogOrder(frame: pl.DataFrame): pl.DataFrame {
  const columns = frame.columns;
  const by = ["run", "episode", columns.includes("seq") ? "seq" : "round"].filter((c) =>
    columns.includes(c)
  );
  // Compacted sets were written in this order, and per-episode logs mostly
  // are: checking costs a fraction of sorting again.
  if (by.length === 0 || alreadyInOrder(frame, by)) return frame;
  return frame.sort({ by, maintainOrder: true });
}

/** Column types whose comparison (`gt`, `eq`) orders as `sort` does. */
const ORDERED_TYPES = new Set(
  ["String", "Utf8", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"],
);

/**
 * Whether no row comes before the row above it by `by` (strings by their
 * bytes, integers by value, no nulls): then the stable sort would leave the
 * frame as it is. Other column types answer false, so the frame is sorted.
 */
function alreadyInOrder(frame: pl.DataFrame, by: readonly string[]): boolean {
  if (frame.height < 2) return true;
  if (!by.every((c) => ORDERED_TYPES.has(frame.getColumn(c).dtype.variant))) return false;
  let notBefore: pl.Expr = pl.lit(true);
  for (const c of [...by].reverse()) {
    const [here, above] = [pl.col(c), pl.col(c).shift(1)];
    notBefore = here.gt(above).or(here.eq(above).and(notBefore));
  }
  const [ordered, ...nulls] = frame.select(
    notBefore.slice(1, frame.height - 1).all().alias("ordered"),
    ...by.map((c) => pl.col(c).nullCount().alias(`${c}_nulls`)),
  ).row(0);
  return ordered === true && nulls.every((n) => n === 0);
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
 * @throws {Deno.errors.NotFound} If `dir` does not exist or holds no logs.
 * @throws {LiveRunError} If a live writer holds its lock (unless
 * `allowLive: true`).
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
  const policy = duplicatePolicy(options.duplicates);
  const frames = wantedFrames(options.frames);
  workerCount(options.workers);
  const sources = await findSources(dir);
  const writers = liveWriters(dir, sources.locks);
  const parts: Part<pl.LazyDataFrame>[] = [];
  const episodes: pl.DataFrame[] = [];
  let malformed: MalformedLine[] = [];
  let duplicates: DuplicateEpisode[] = [];
  if (sources.ndjson.length > 0 || sources.parquet.length === 0) {
    const eager = await loadNdjsonOnly(sources.ndjson, frames, options);
    malformed = eager.malformed;
    duplicates = eager.duplicates;
    const part: Partial<Record<FrameName, pl.LazyDataFrame>> = {};
    for (const name of frames) {
      const df = eager[name];
      // Compacted sets were written in this order already (see loadRuns).
      if (df !== undefined) part[name] = inLogOrder(df).lazy();
    }
    parts.push({ source: null, frames: part });
    episodes.push(eager.episodes);
  }
  for (const folder of sources.parquet) {
    // Episodes frames are small: read them to find the copies to leave out.
    const read = withEpisodeCurrency(pl.readParquet(join(folder, "episodes.parquet")));
    const part: Partial<Record<FrameName, pl.LazyDataFrame>> = {};
    for (const name of frames) {
      const path = join(folder, `${name}.parquet`);
      if (!exists(path)) continue;
      const scan = pl.scanParquet(path);
      part[name] = name === "episodes"
        ? withEpisodeCurrency(scan)
        : name === "calls"
        ? withCallCurrency(scan, read)
        : scan;
    }
    parts.push({ source: folder, frames: part });
    episodes.push(read);
  }
  const drop = crossDuplicates(parts.map((p, i) => ({ source: p.source, episodes: episodes[i] })));
  duplicates.push(...drop.duplicates);
  checkDuplicates(duplicates, policy);
  const total = sources.ndjson.length + sources.parquet.length;
  settleLive(writers, episodes, total, options.allowLive);
  const whole = settleShards(sources.manifests, concatFrames(episodes), duplicates, {
    partial: options.partial,
    live: writers.length > 0,
  });
  parts.forEach((part, i) => dropKeys(part.frames, drop.keys[i]));
  const concat = (items: pl.LazyDataFrame[]) =>
    items.length === 1 ? items[0] : pl.concat(items, { how: "diagonal" });
  const out: LazyRunFrames = {
    episodes: concat(parts.map((part) => part.frames.episodes!)),
    malformed,
    sources: total,
    duplicates,
    complete: writers.length === 0 && whole,
    writers,
  };
  for (const name of frames) {
    if (name === "episodes") continue;
    const found = parts.map((part) => part.frames[name]).filter((df) => df !== undefined);
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
  const scanned = await scanNdjson(files, frames, options.strict ?? false, options.workers);
  const { result: scan, duplicates } = dedupeEpisodes(scanned);
  const built = buildFrames(scan, frames);
  return {
    ...built,
    episodes: built.episodes!,
    malformed: scan.malformed,
    sources: files.length,
    duplicates,
    complete: true,
    writers: [],
  };
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
  const sources: Sources = { ndjson: [], parquet: [], locks: [], manifests: [] };
  const unfinished: string[] = [];
  const walk = async (folder: string) => {
    const entries: Deno.DirEntry[] = [];
    for await (const entry of Deno.readDir(folder)) entries.push(entry);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const files = new Set(entries.filter((e) => e.isFile).map((e) => e.name));
    if (files.has(COMPACTED_FILE)) {
      // A compaction's folder: only its current set counts.
      sources.parquet.push(await compactedSet(folder));
      return;
    }
    if (files.has(LOCK_FILE)) sources.locks.push(folder);
    if (files.has(MANIFEST_FILE)) sources.manifests.push(folder);
    if (files.has("episodes.parquet")) {
      sources.parquet.push(folder);
    } else {
      const parts = SET_TABLES.filter((t) => files.has(`${t}.parquet`));
      if (parts.length > 0) {
        throw new RangeError(
          `Folder "${folder}" holds ${parts.map((t) => `${t}.parquet`).join(", ")} but no ` +
            `episodes.parquet: a compacted set with missing parts (compact again, or remove it)`,
        );
      }
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory && COMPACTION_UNFINISHED.test(entry.name)) unfinished.push(path);
      else if (entry.isDirectory) await walk(path);
      else if (entry.isFile && entry.name.endsWith(".ndjson")) sources.ndjson.push(path);
    }
  };
  await walk(dir);
  if (sources.ndjson.length + sources.parquet.length === 0 && unfinished.length > 0) {
    throw new RangeError(
      `Folder "${dir}" holds only "${unfinished[0]}", a set no ${COMPACTED_FILE} names: ` +
        `an interrupted compaction (compact again)`,
    );
  }
  if (sources.ndjson.length + sources.parquet.length === 0) {
    throw new Deno.errors.NotFound(
      `No event logs in "${dir}": looked in it and every subfolder for NDJSON logs (*.ndjson: ` +
        `per-episode logs and grid segments), compacted sets (a folder with episodes.parquet) ` +
        `and compactions (a folder with ${COMPACTED_FILE}); check the path`,
    );
  }
  return sources;
}

/**
 * The writers that hold a lock of the folder, of a subfolder read or of a
 * parent folder. A lock is held when the operating system's lock on the file
 * is (see `engine/grid/lock.ts`): a shared lock is tried without waiting and
 * released at once; a lock file left by a killed writer is free.
 */
function liveWriters(dir: string, locks: readonly string[]): LiveWriter[] {
  const folders = [...locks];
  let folder = resolve(dir);
  while (dirname(folder) !== folder) {
    folder = dirname(folder);
    if (exists(join(folder, LOCK_FILE))) folders.push(folder);
  }
  const writers: LiveWriter[] = [];
  for (const lockDir of folders) {
    const path = join(lockDir, LOCK_FILE);
    let file: Deno.FsFile;
    try {
      file = Deno.openSync(path, { read: true });
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) continue; // released meanwhile
      throw err;
    }
    try {
      if (file.tryLockSync(false)) {
        file.unlockSync();
        continue;
      }
    } finally {
      file.close();
    }
    writers.push({ dir: lockDir, holder: lockHolder(path) });
  }
  return writers;
}

function lockHolder(path: string): LockHolder | null {
  try {
    const value = JSON.parse(Deno.readTextFileSync(path));
    return typeof value?.pid === "number" ? value as LockHolder : null;
  } catch {
    return null;
  }
}

/**
 * Refuses a load of a folder being written (a {@linkcode LiveRunError} with
 * the counts so far), or with `allowLive` says on the console that the
 * frames are a part of the run.
 */
function settleLive(
  writers: readonly LiveWriter[],
  episodes: readonly pl.DataFrame[],
  sources: number,
  allowLive: boolean | undefined,
): void {
  if (allowLive !== undefined && typeof allowLive !== "boolean") {
    throw new TypeError(`Loader option "allowLive" must be a boolean, got ${allowLive}`);
  }
  if (writers.length === 0) return;
  const count = (df: pl.DataFrame) =>
    df.height === 0 ? 0 : df.filter(pl.col("status").neq(pl.lit("incomplete"))).height;
  const found: LiveFound = {
    episodes: episodes.reduce((n, df) => n + df.height, 0),
    finished: episodes.reduce((n, df) => n + count(df), 0),
    sources,
  };
  const error = new LiveRunError(writers[0], found);
  if (allowLive !== true) throw error;
  console.warn(
    `Loading a folder still being written: ${
      error.message.slice(0, error.message.indexOf(";"))
    }; ` +
      `the frames are marked complete: false`,
  );
}

/**
 * The file that makes a folder a compaction's output: it names the current
 * set (a subfolder) and lists its tables with their row counts.
 *
 * @example
 * ```ts
 * import { COMPACTED_FILE } from "./load_runs.ts";
 * if (COMPACTED_FILE !== "compacted.json") throw new Error();
 * ```
 */
export const COMPACTED_FILE = "compacted.json";

/** What `compacted.json` holds. */
export interface CompactedManifest {
  /** Format version (1). */
  compacted: number;
  /** The current set: a subfolder `set-<...>`. */
  set: string;
  /** Rows of each table of the set (`<table>.parquet`). */
  tables: Record<string, number>;
  /** The folder that was compacted. */
  source: string;
  /** When the set was written (ISO 8601). */
  written: string;
}

/** Tables a compacted set may hold: the loader's frames and compaction's `events`. */
const SET_TABLES = [...FRAME_NAMES, "events"];
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
/**
 * Folders of a compaction that no reader may see: a set outside any
 * `compacted.json` (named `set-<stamp>-<id>` by `sessionTag`), and the
 * temporary folders of earlier versions.
 */
const COMPACTION_UNFINISHED = new RegExp(`^(set-\\d{8}T\\d{6}-[0-9a-f]{6}|\\..+\\.${UUID}\\.tmp)$`);

/** The set a compaction's folder names, after checking every table it lists is there. */
async function compactedSet(folder: string): Promise<string> {
  const path = join(folder, COMPACTED_FILE);
  let manifest: CompactedManifest;
  try {
    manifest = JSON.parse(await Deno.readTextFile(path));
  } catch (err) {
    throw new RangeError(`${path}: not a compaction manifest (${(err as Error).message})`);
  }
  if (typeof manifest?.set !== "string" || !/^set-[\w.-]+$/.test(manifest.set)) {
    throw new RangeError(`${path}: "set" must name a set-<...> subfolder, got ${manifest?.set}`);
  }
  const set = join(folder, manifest.set);
  const missing = Object.keys(manifest.tables ?? {}).filter(
    (t) => !exists(join(set, `${t}.parquet`)),
  );
  if (missing.length > 0 || !exists(join(set, "episodes.parquet"))) {
    throw new RangeError(
      `Compacted set "${folder}" lacks ${
        (missing.length ? missing : ["episodes"]).map((t) => `${manifest.set}/${t}.parquet`)
          .join(", ")
      }, which ${COMPACTED_FILE} lists: compact again`,
    );
  }
  return set;
}

function duplicatePolicy(policy: LoadRunsOptions["duplicates"]): "error" | "first" {
  if (policy === undefined || policy === "error" || policy === "first") return policy ?? "error";
  throw new RangeError(`Loader option "duplicates" must be "error" or "first", got ${policy}`);
}

/**
 * Copies of episodes across parts (the NDJSON part is already de-duplicated
 * within itself): the first part holding an episode keeps it; for every
 * later part, the (run, episode) keys to drop, and the copies found, whose
 * content is compared on the `episodes` columns both have, but `file`.
 */
function crossDuplicates(
  parts: { source: string | null; episodes: pl.DataFrame }[],
): { duplicates: DuplicateEpisode[]; keys: (pl.DataFrame | null)[] } {
  const seen = new Map<string, { part: number; row: number }>();
  const records: (Record<string, unknown>[] | undefined)[] = [];
  const rowOf = (part: number, row: number) => {
    records[part] ??= parts[part].episodes.toRecords() as Record<string, unknown>[];
    return records[part][row];
  };
  const sourceOf = (part: number, row: number) =>
    parts[part].source ?? String(rowOf(part, row).file);
  const duplicates: DuplicateEpisode[] = [];
  const keys = parts.map((p, i) => {
    const runs = p.episodes.getColumn("run").toArray() as string[];
    const ids = p.episodes.getColumn("episode").toArray() as string[];
    const dropped: number[] = [];
    runs.forEach((run, row) => {
      const key = `${run}\u0000${ids[row]}`;
      const first = seen.get(key);
      if (first === undefined) {
        seen.set(key, { part: i, row });
        return;
      }
      dropped.push(row);
      // Where a copy lies (its file, and the currency its folder's manifest records) is not content.
      const common = p.episodes.columns.filter((c) =>
        c !== "file" && c !== "currency" && parts[first.part].episodes.columns.includes(c)
      );
      const content = (part: number, r: number) =>
        canonicalJson(common.map((c) => rowOf(part, r)[c] ?? null));
      duplicates.push({
        run,
        episode: ids[row],
        kept: sourceOf(first.part, first.row),
        dropped: sourceOf(i, row),
        same: content(first.part, first.row) === content(i, row),
      });
    });
    return dropped.length === 0 ? null : pl.DataFrame({
      run: dropped.map((r) => runs[r]),
      episode: dropped.map((r) => ids[r]),
    });
  });
  return { duplicates, keys };
}

/** Removes the rows of these (run, episode) keys from every frame of a part. */
function dropKeys<F extends pl.DataFrame | pl.LazyDataFrame>(
  frames: Partial<Record<FrameName, F>>,
  keys: pl.DataFrame | null,
): void {
  if (keys === null) return;
  for (const name of Object.keys(frames) as FrameName[]) {
    const df: pl.DataFrame | pl.LazyDataFrame = frames[name]!;
    frames[name] = ("collectSync" in df
      ? df.join(keys.lazy(), { on: ["run", "episode"], how: "anti" })
      : (df as pl.DataFrame).join(keys, { on: ["run", "episode"], how: "anti" })) as F;
  }
}

/** Raises one error listing the copies whose content differs, unless the policy keeps the first. */
function checkDuplicates(duplicates: readonly DuplicateEpisode[], policy: "error" | "first") {
  const differing = duplicates.filter((d) => !d.same);
  if (differing.length === 0 || policy === "first") return;
  const shown = differing.slice(0, 10).map((d) =>
    `run "${d.run}" episode "${d.episode}" in "${d.kept}" and "${d.dropped}"`
  );
  const more = differing.length > 10 ? `; and ${differing.length - 10} more` : "";
  throw new RangeError(
    `${differing.length} episode${differing.length === 1 ? " is" : "s are"} logged more than ` +
      `once with different content: ${shown.join("; ")}${more}. Remove the extra copies, or ` +
      `pass { duplicates: "first" } to keep the first of each`,
  );
}

function readParquetSet(
  folder: string,
  frames: readonly FrameName[],
): Partial<Record<FrameName, pl.DataFrame>> {
  const out: Partial<Record<FrameName, pl.DataFrame>> = {};
  const episodes = withEpisodeCurrency(pl.readParquet(join(folder, "episodes.parquet")));
  out.episodes = episodes;
  for (const name of frames) {
    if (name === "episodes" || !exists(join(folder, `${name}.parquet`))) continue;
    const frame = withEpisodeKeys(pl.readParquet(join(folder, `${name}.parquet`)), episodes);
    out[name] = name === "calls" ? withCallCurrency(frame, episodes) : frame;
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

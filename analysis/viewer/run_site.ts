/**
 * `writeRunSite`: a self-contained static site for a whole run, to open from
 * disk without a server or a network: `view/index.html` lists every episode
 * with its condition columns and outcome (filterable and sortable), and
 * `view/episodes/<run>/<episode>.html` shows each episode as
 * {@linkcode showEpisode} does, with the chart as inline SVG; a branch
 * (`episode_start.branch_of`) also gets `view/diffs/<run>/<episode>.html`,
 * beside its parent, linked from its page.
 *
 * Choices:
 * - Every `*.ndjson` file under the run folder is read (except the site
 *   folder itself) as a sequence of episodes grouped by (run, episode), so
 *   one-file-per-episode logs and segment files holding many episodes both
 *   work.
 * - A (run, episode) that occurs more than once (an episode played again,
 *   or the same episode in two files) gets one page per occurrence,
 *   `<episode>~1.html`, `<episode>~2.html`, ..., each listed in the index.
 * - Episode pages run no script (a Content-Security-Policy forbids it); the
 *   index runs one inline script, allowed by its hash, over rows embedded as
 *   JSON, and draws 100 rows at a time, so it opens fast for 10,000
 *   episodes.
 * - The site folder is cleared and rewritten on every build, but only if the
 *   viewer made it (it holds a `.coordlab-view` marker); any other non-empty
 *   folder is refused.
 * - From 16 log files on, pages are written by worker threads (one per
 *   core, at most 4).
 *
 * @module
 */

import { basename, dirname, isAbsolute, join, relative } from "node:path";
import { humanKey } from "./_format.ts";
import { familyLabel, viewedGames } from "./_game_view.ts";
import {
  type IndexColumn,
  type IndexData,
  type IndexNotes,
  indexPage,
  type RunUsage,
} from "./_index_html.ts";
import {
  findLogFiles,
  type LoggedEpisode,
  type MalformedLine,
  readLogFile,
} from "./_log_source.ts";
import {
  diffPagePath,
  type FilePagesResult,
  type IndexEntry,
  type PageContext,
  resetMadeFolders,
  searchShardPath,
  writeFilePages,
} from "./_site_pages.ts";
import { diffEpisodes } from "../../engine/core/episode_diff.ts";
import type { EngineEvent } from "../../engine/core/events.ts";
import { diffPage, missingParentPage } from "./_diff_html.ts";
import type { SiteJob } from "./_site_worker.ts";
import { filesCurrency } from "./_currency.ts";
import { addUsage, type CallUsage, costText, emptyUsage } from "./_usage.ts";
import { emptySpendTotals, type SpendTotals } from "../../engine/agents/llm/accounting.ts";
import { readSpendLedger, SPEND_LEDGER_FILE } from "../../engine/agents/llm/spend_ledger.ts";

/** Options for {@linkcode writeRunSite}. */
export interface RunSiteOptions {
  /**
   * The site folder.
   *
   * @default {`<dir>/view`}
   */
  out?: string;
  /**
   * Draw each episode's trajectory chart.
   *
   * @default {true}
   */
  charts?: boolean;
  /**
   * Worker threads writing pages; 1 writes them in the calling thread.
   * Workers are used only from 16 log files on.
   *
   * @default {the number of cores, at most 4}
   */
  workers?: number;
  /**
   * Make the messages sent to the model searchable too (when the logs hold
   * them), not only the replies and reasoning. Prompts are most of a
   * transcript's text: the search files grow by about the size of the logs'
   * `messages`, and the index loads them all on the first search.
   *
   * @default {false}
   */
  searchPrompts?: boolean;
  /**
   * Called after each log file with the number done and the total.
   *
   * @default {no progress reports}
   */
  onProgress?: (done: number, total: number) => void;
}

/** What {@linkcode writeRunSite} wrote. */
export interface RunSiteSummary {
  /** The site folder. */
  out: string;
  /** The index page. */
  index: string;
  /** Episode pages written (one per episode block). */
  episodes: number;
  /** Log files read. */
  files: number;
  /** (run, episode) pairs that occur more than once, each with a page per occurrence. */
  repeated: number;
  /** Lines that were skipped (also listed on the index page). */
  malformed: MalformedLine[];
  /** Diff pages written (one per branch, beside its parent). */
  diffs: number;
}

const MARKER = ".coordlab-view";

/**
 * Writes the static site of a run folder.
 *
 * @param dir The run folder, e.g. `runs/demo`; searched recursively for `*.ndjson`.
 * @param options Site folder, charts, workers and progress.
 * @returns What was written.
 * @throws {Deno.errors.NotFound} If `dir` does not exist or holds no `.ndjson` log.
 * @throws {Deno.errors.AlreadyExists} If the site folder exists, is not empty
 * and was not made by the viewer.
 * @throws {RangeError} If `options.workers` is not a positive integer.
 *
 * @example Build the site of two episodes
 * ```ts
 * import assert from "node:assert/strict";
 * import { runEpisode } from "../../engine/run_episode.ts";
 * import { writeRunSite } from "./run_site.ts";
 *
 * const dir = await Deno.makeTempDir();
 * for (const mechanism of ["M0", "M2"] as const) {
 *   await runEpisode({ env: "debt_rollover", mechanism, seed: 4, run: "demo", outDir: dir });
 * }
 * const site = await writeRunSite(`${dir}/demo`);
 * assert.equal(site.episodes, 2);
 * assert.ok((await Deno.readTextFile(site.index)).includes("debt_rollover_M2_stable_s4"));
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeRunSite(
  dir: string,
  options: RunSiteOptions = {},
): Promise<RunSiteSummary> {
  const workers = options.workers ?? Math.min(4, Math.max(1, navigator.hardwareConcurrency ?? 1));
  if (!(Number.isInteger(workers) && workers >= 1)) {
    throw new RangeError(`Site workers must be a positive integer: received ${options.workers}`);
  }
  const out = options.out ?? join(dir, "view");
  const inside = relative(dir, out);
  const skip = inside.startsWith("..") || isAbsolute(inside) ? [] : [inside];
  let files: string[];
  try {
    files = await findLogFiles(dir, skip);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      throw new Deno.errors.NotFound(`Run folder "${dir}" does not exist`);
    }
    throw err;
  }
  if (files.length === 0) {
    throw new Deno.errors.NotFound(`Run folder "${dir}" holds no .ndjson event log`);
  }
  await prepareOut(out);
  const currency = filesCurrency(files);
  const ctx: PageContext = {
    dir,
    out,
    currency,
    charts: options.charts ?? true,
    searchPrompts: options.searchPrompts ?? false,
    games: viewedGames(),
  };
  const results = workers > 1 && files.length >= 16
    ? await inWorkers(files, ctx, workers, options.onProgress)
    : await inThread(files, ctx, options.onProgress);
  const byFile = results.map((r) => r.entries);
  const malformed = results.flatMap((r) => r.malformed);
  const repeated = await renameRepeated(files, byFile, ctx);
  const entries = byFile.flat();
  // The transcript search: one shard per log file with model-call texts; a
  // shard's rows point at entries by their position in the file.
  const search: IndexData["search"] = [];
  let first = 0;
  results.forEach((result, i) => {
    if (result.searchTexts > 0) search.push({ shard: i, first, src: searchShardPath(i) });
    first += byFile[i].length;
  });
  const diffs = await writeDiffPages(entries, ctx);
  const index = join(out, "index.html");
  await Deno.writeTextFile(
    index,
    indexPage({ ...indexData(dir, entries, currency.code), search, currency: currency.code }, {
      malformed,
      files: files.length,
      statuses: [...Map.groupBy(entries, (e) => e.status)].map(([status, list]) => [
        status,
        list.length,
      ]),
      usage: runUsage(entries),
      ledger: runLedgers(files),
      currency,
      prompts: results.some((r) => r.searchPrompts),
    }),
  );
  return {
    out,
    index,
    episodes: entries.length,
    files: files.length,
    repeated,
    malformed,
    diffs,
  };
}

/**
 * Writes a diff page per branch (`diffs/<run>/<episode>.html`, which its
 * episode page links to): the branch beside its parent, or, when the
 * parent's log is not in the folder, a page that says so.
 */
async function writeDiffPages(entries: readonly IndexEntry[], ctx: PageContext): Promise<number> {
  const byId = new Map<string, IndexEntry[]>();
  for (const e of entries) {
    const k = `${e.run}\u0000${e.episode}`;
    byId.set(k, [...(byId.get(k) ?? []), e]);
  }
  const eventsOf = async (e: IndexEntry) => {
    const contents = await readLogFile(join(ctx.dir, e.file));
    return contents.episodes.find((b) =>
      b.run === e.run && b.episode === e.episode && b.block === e.block
    )!.events as unknown as EngineEvent[];
  };
  let written = 0;
  for (const e of entries) {
    if (e.branchOf === null) continue;
    const path = diffPagePath(e.page);
    const parents = byId.get(`${e.branchOf.run}\u0000${e.branchOf.episode}`) ?? [];
    const up = "../".repeat(path.split("/").length - 1);
    let html: string;
    if (parents.length === 1) {
      const parent = parents[0];
      const [a, b] = [await eventsOf(parent), await eventsOf(e)];
      html = diffPage(diffEpisodes(a, b), a, b, {
        hrefA: `${up}${parent.page}`,
        hrefB: `${up}${e.page}`,
        index: `${up}index.html`,
      });
    } else {
      const why = parents.length === 0
        ? `The parent episode "${e.branchOf.run}/${e.branchOf.episode}" is not in this run folder.`
        : `The parent episode "${e.branchOf.run}/${e.branchOf.episode}" occurs ${parents.length} times in this run folder; which one is the parent is unknown.`;
      html = missingParentPage(e, why, `${up}${e.page}`, `${up}index.html`);
    }
    await Deno.mkdir(join(ctx.out, path.slice(0, path.lastIndexOf("/"))), { recursive: true });
    await Deno.writeTextFile(join(ctx.out, path), html);
    written++;
  }
  return written;
}

async function prepareOut(out: string): Promise<void> {
  let names: string[] = [];
  try {
    for await (const entry of Deno.readDir(out)) names.push(entry.name);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
    names = [];
  }
  if (names.length > 0 && !names.includes(MARKER)) {
    throw new Deno.errors.AlreadyExists(
      `Refusing to write the site into "${out}": the folder is not empty and was not made by the viewer`,
    );
  }
  for (const folder of ["episodes", "search"]) {
    if (names.includes(folder)) await Deno.remove(join(out, folder), { recursive: true });
  }
  resetMadeFolders();
  await Deno.mkdir(out, { recursive: true });
  await Deno.writeTextFile(
    join(out, MARKER),
    "Made by the coordlab viewer; rebuilt by `deno task view`.\n",
  );
}

type FileResult = FilePagesResult;

async function inThread(
  files: readonly string[],
  ctx: PageContext,
  onProgress?: (done: number, total: number) => void,
): Promise<FileResult[]> {
  const results: FileResult[] = [];
  for (const file of files) {
    results.push(await writeFilePages(file, ctx, { shard: results.length }));
    onProgress?.(results.length, files.length);
  }
  return results;
}

function inWorkers(
  files: readonly string[],
  ctx: PageContext,
  count: number,
  onProgress?: (done: number, total: number) => void,
): Promise<FileResult[]> {
  const results: FileResult[] = new Array(files.length);
  const pool = Array.from(
    { length: Math.min(count, files.length) },
    () => new Worker(new URL("./_site_worker.ts", import.meta.url).href, { type: "module" }),
  );
  let next = 0;
  let done = 0;
  return new Promise<FileResult[]>((resolve, reject) => {
    const stop = (error?: Error) => {
      for (const worker of pool) worker.terminate();
      if (error) reject(error);
      else resolve(results);
    };
    const feed = (worker: Worker) => {
      if (next < files.length) {
        const job: SiteJob = { file: files[next], index: next };
        next++;
        worker.postMessage(job);
      }
    };
    for (const worker of pool) {
      worker.onmessage = (message) => {
        const data = message.data as FileResult & {
          index: number;
          error?: { name: string; message: string };
        };
        if (data.error !== undefined) {
          stop(new Error(data.error.message));
          return;
        }
        results[data.index] = {
          entries: data.entries,
          malformed: data.malformed,
          searchTexts: data.searchTexts,
          searchPrompts: data.searchPrompts,
        };
        done++;
        onProgress?.(done, files.length);
        if (done === files.length) stop();
        else feed(worker);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        stop(new Error(`Site worker failed: ${event.message}`));
      };
      const init: SiteJob = { context: ctx };
      worker.postMessage(init);
      feed(worker);
    }
  });
}

/**
 * Gives every occurrence of a repeated (run, episode) its own page and
 * replaces their entries in `byFile`; returns the number of repeated pairs.
 */
async function renameRepeated(
  files: readonly string[],
  byFile: IndexEntry[][],
  ctx: PageContext,
): Promise<number> {
  const counts = new Map<string, number>();
  for (const entry of byFile.flat()) counts.set(entry.page, (counts.get(entry.page) ?? 0) + 1);
  const repeated = new Set([...counts].filter(([, n]) => n > 1).map(([page]) => page));
  if (repeated.size === 0) return 0;
  const numbers = new Map<string, number>();
  const renamed = new Map<string, string>();
  byFile.forEach((entries, fileIndex) => {
    for (const entry of entries) {
      if (!repeated.has(entry.page)) continue;
      const k = (numbers.get(entry.page) ?? 0) + 1;
      numbers.set(entry.page, k);
      renamed.set(blockKey(fileIndex, entry), `${entry.page.slice(0, -".html".length)}~${k}.html`);
    }
  });
  for (let fileIndex = 0; fileIndex < files.length; fileIndex++) {
    if (!byFile[fileIndex].some((entry) => repeated.has(entry.page))) continue;
    const rewritten = await writeFilePages(files[fileIndex], ctx, {
      pagePath: (block: LoggedEpisode, base) =>
        repeated.has(base) ? renamed.get(blockKey(fileIndex, block))! : null,
    });
    const byKey = new Map(rewritten.entries.map((e) => [blockKey(fileIndex, e), e]));
    byFile[fileIndex] = byFile[fileIndex].map((e) => byKey.get(blockKey(fileIndex, e)) ?? e);
  }
  for (const page of repeated) await Deno.remove(join(ctx.out, page)).catch(() => {});
  return repeated.size;
}

function blockKey(
  fileIndex: number,
  item: { run: string; episode: string; block: number },
): string {
  return `${fileIndex}\u0000${item.run}\u0000${item.episode}\u0000${item.block}`;
}

/**
 * The index columns and rows. Columns empty for every episode are left out;
 * condition columns (and run and model) with one value for every episode are
 * shown once above the table instead.
 */
/**
 * What the run's spend ledgers say was billed (every session, abandoned
 * episodes included), summed over the folders that hold the logs, or `null`
 * when none holds a ledger.
 */
function runLedgers(files: readonly string[]): IndexNotes["ledger"] {
  const total = emptySpendTotals();
  let folders = 0, torn = 0;
  for (const folder of new Set(files.map((f) => dirname(f)))) {
    const path = join(folder, SPEND_LEDGER_FILE);
    try {
      if (!Deno.statSync(path).isFile) continue;
    } catch {
      continue;
    }
    const reading = readSpendLedger(path);
    const add = reading.spend.total;
    for (const k of Object.keys(total) as (keyof SpendTotals)[]) total[k] += add[k];
    if (reading.torn !== null) torn++;
    folders++;
  }
  return folders === 0 ? null : { folders, total, torn };
}

/** Model-call totals of the run and per model id, or `null` when no episode called a model. */
function runUsage(entries: readonly IndexEntry[]): RunUsage | null {
  if (!entries.some((e) => e.usage.total.calls > 0)) return null;
  const total = emptyUsage();
  const byModel = new Map<string, CallUsage>();
  for (const entry of entries) {
    addUsage(total, entry.usage.total);
    for (const [model, usage] of Object.entries(entry.usage.byModel)) {
      if (!byModel.has(model)) byModel.set(model, emptyUsage());
      addUsage(byModel.get(model)!, usage);
    }
  }
  const models = [...byModel].sort(([a], [b]) => a.localeCompare(b, "en", { numeric: true }));
  return { total, models };
}

function indexData(
  dir: string,
  entries: readonly IndexEntry[],
  currency: string | null,
): Omit<IndexData, "search" | "currency"> {
  const runs = [...new Set(entries.map((e) => e.run))];
  const columns: [IndexColumn, (e: IndexEntry) => string | number | boolean | null][] = [];
  const constants: [string, string][] = [];
  type Get = (e: IndexEntry) => string | number | boolean | null;
  const add = (
    column: Omit<IndexColumn, "facet"> & { facet?: boolean },
    get: Get,
    keep = entries.some((e) => get(e) !== null),
  ) => {
    if (keep) columns.push([{ facet: false, ...column }, get]);
  };
  /** A condition-like column: listed once when constant, else a column with a filter menu. */
  const facet = (key: string, label: string, get: Get) => {
    const values = new Set(entries.map((e) => JSON.stringify(get(e))));
    if (values.size === 1 && entries.length > 1) {
      const value = get(entries[0]);
      if (value !== null) constants.push([label, String(value)]);
      return;
    }
    // A key of one game only (Stag Hunt's N in a run that also plays FRAIL),
    // the same in every episode of that game: listed once, naming the game.
    const set = entries.filter((e) => get(e) !== null);
    const games = new Set(set.map((e) => e.game));
    const [game] = games;
    if (
      values.size === 2 && values.has("null") && games.size === 1 && game !== null &&
      set.length === entries.filter((e) => e.game === game).length
    ) {
      constants.push([`${label} (${familyLabel(game)})`, String(get(set[0]))]);
      return;
    }
    const present = entries.map(get).filter((v) => v !== null);
    const numeric = present.length > 0 && present.every((v) => typeof v === "number");
    add({ key, label, kind: numeric ? "num" : "text", facet: true }, get);
  };
  add({ key: "episode", label: "episode", kind: "link" }, (e) => e.episode);
  facet("run", "run", (e) => e.run);
  const fixed = new Set(["episode", "run", "condition", "model", "seed", "status", "success"]);
  for (const key of [...new Set(entries.flatMap((e) => Object.keys(e.condition)))]) {
    const name = fixed.has(key) ? `condition.${key}` : key;
    facet(name, fixed.has(key) ? name : humanKey(key), (e) => e.condition[key] ?? null);
  }
  facet("model", "model", (e) => e.model);
  add({ key: "seed", label: "seed", kind: "num" }, (e) => e.seed);
  facet("status", "status", (e) => e.status);
  add({ key: "success", label: "success", kind: "text", facet: true }, (e) => e.success);
  add({ key: "failure", label: "failure", kind: "text", facet: true }, (e) => e.failure);
  add({ key: "rounds", label: "rounds", kind: "num" }, (e) => e.rounds);
  add({ key: "w", label: "W", kind: "num" }, (e) => e.welfare);
  add({ key: "w~", label: "W~", kind: "num" }, (e) => e.realization);
  const any = (get: (e: IndexEntry) => boolean) => entries.some(get);
  add(
    { key: "flips", label: "flips", kind: "num" },
    (e) => e.flips,
    any((e) => e.flipsShown),
  );
  // A count the same for every episode (no corrections anywhere) is listed once.
  const counted = (key: string, label: string, get: (e: IndexEntry) => number) => {
    const values = new Set(entries.map(get));
    if (values.size === 1 && entries.length > 1) constants.push([label, String(get(entries[0]))]);
    else add({ key, label, kind: "num" }, get);
  };
  counted("corrections", "corrections", (e) => e.corrections);
  add(
    { key: "overrides", label: "overrides", kind: "num" },
    (e) => e.overrides,
    any((e) => e.overrides > 0),
  );
  add(
    { key: "errors", label: "agent errors", kind: "num" },
    (e) => e.agentErrors,
    any((e) => e.agentErrors > 0),
  );
  const llm = any((e) => e.usage.total.calls > 0);
  add({ key: "calls", label: "model calls", kind: "count" }, (e) => e.usage.total.calls, llm);
  add({ key: "tokens_in", label: "tokens in", kind: "count" }, (e) => e.usage.total.tokensIn, llm);
  add(
    { key: "tokens_out", label: "tokens out", kind: "count" },
    (e) => e.usage.total.tokensOut,
    llm,
  );
  // A number when every network call had a price, else its text ("no price").
  add({ key: "cost", label: "cost", kind: "cost" }, (e) => {
    const u = e.usage.total;
    if (u.calls === 0) return null;
    return u.unpricedCalls === 0 ? u.cost : costText(u, currency);
  }, llm);
  add(
    { key: "branch", label: "branch of", kind: "text" },
    (e) => e.branchOf === null ? null : `${e.branchOf.episode} @${e.branchOf.round}`,
  );
  const logNamed = (e: IndexEntry) => e.blocks === 1 && basename(e.file) === `${e.episode}.ndjson`;
  if (!entries.every(logNamed)) {
    facet("log", "log", (e) => e.blocks > 1 ? `${e.file} #${e.block}` : e.file);
  }
  return {
    title: runs.length === 1 ? runs[0] : basename(dir),
    constants,
    columns: columns.map(([column]) => column),
    rows: entries.map((e) => [e.page, ...columns.map(([, get]) => get(e))]),
  };
}

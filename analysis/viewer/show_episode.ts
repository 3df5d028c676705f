/**
 * `showEpisode`: one episode as HTML in a notebook, round by round: what the
 * agents saw, said and did.
 *
 * The HTML runs no JavaScript and escapes every logged string, so it renders
 * in untrusted notebooks, JupyterLab, VS Code and exported HTML. The chart is
 * a PNG data URI.
 *
 * @module
 */

import { dirname } from "node:path";
import { checkCurrency } from "../../engine/agents/llm/model_config.ts";
import { knownCurrency, UNRECORDED_CURRENCY } from "./_currency.ts";
import { folderCurrency } from "../load/_run_currency.ts";
import type { EngineEvent } from "../../engine/core/events.ts";
import { Buffer } from "node:buffer";
import type pl from "npm:nodejs-polars@0.25.2";
import { jupyterDisplay } from "../../engine/core/jupyter.ts";
import { renderPng } from "../charts/render.ts";
import { CHART_SIZE, episodeChart } from "./_chart.ts";
import { isRecord } from "./_condition.ts";
import { episodeFragment } from "./_episode_html.ts";
import { type EpisodeModel, episodeModel } from "./_episode_model.ts";
import { esc, fmtNumber } from "./_format.ts";
import {
  checkEvent,
  findEpisode,
  groupEvents,
  type LogEvent,
  type LoggedEpisode,
  type MalformedLine,
  readLogFile,
} from "./_log_source.ts";

/**
 * A row naming an episode: a record of an episodes (or any loader) frame,
 * e.g. `frame.toRecords()[i]`, with `run`, `episode` and, in the episodes
 * frame, the `file` its log was read from.
 */
export interface EpisodeRow {
  /** Run id. */
  run: string;
  /** Episode id. */
  episode: string;
  /** The log file, when known. */
  file?: string | null;
  /** Any other column. */
  [column: string]: unknown;
}

/**
 * What {@linkcode showEpisode} can show:
 * - an episode result (`runEpisode()`, `runStagHuntEpisode()`: anything
 *   with an `events` array),
 * - the events themselves,
 * - the path of an NDJSON log (one episode per file, or a segment holding
 *   many: pick one with `options.episode`),
 * - a frame row: `frame.row(i)` of a loader frame (positional, read as
 *   run and episode, the loaders' first two columns), a record such as
 *   `frame.toRecords()[i]` ({@linkcode EpisodeRow}: string `run` and
 *   `episode`, checked when shown), or a one-row frame such as
 *   `frame.slice(i, 1)`.
 */
export type EpisodeSource =
  | string
  | { events: readonly unknown[] }
  | readonly unknown[]
  | EpisodeRow
  | Readonly<Record<string, unknown>>
  | pl.DataFrame;

/** Options for {@linkcode showEpisode} and {@linkcode episodeBundle}. */
export interface ShowEpisodeOptions {
  /**
   * The episode to show when the source holds several (a segment file or
   * the events of several episodes).
   *
   * @default {the only episode of the source}
   */
  episode?: string;
  /**
   * Folder searched recursively for the log of a row. A row's `file` is read
   * when this is not given.
   *
   * @default {the row's `file`, else `runs/<run>`}
   */
  dir?: string;
  /**
   * Draw the trajectory chart (a PNG).
   *
   * @default {true}
   */
  chart?: boolean;
  /**
   * The currency of the episode's costs (ISO 4217) when the source is not a
   * log in a run folder whose manifest records it (an episode result, its
   * events). A log's run manifest wins.
   *
   * @default {not recorded: costs are shown as bare numbers, and the page says why}
   */
  currency?: string;
}

/** The Jupyter MIME bundle of an episode. */
export interface EpisodeBundle {
  /** The episode as HTML: escaped, without JavaScript. */
  "text/html": string;
  /** One line: episode, run, status and outcome. */
  "text/plain": string;
}

/**
 * Builds the MIME bundle of one episode: its HTML and a line of text.
 *
 * @param source An episode result, its events, a log path or a frame row.
 * @param options Which episode, where to find a row's log, whether to chart.
 * @returns The bundle.
 * @throws {TypeError} If the source is none of the accepted kinds.
 * @throws {RangeError} If the source holds no episode, or several and
 * `options.episode` does not pick one.
 * @throws {Deno.errors.NotFound} If a row's log cannot be found.
 *
 * @example An episode result
 * ```ts
 * import assert from "node:assert/strict";
 * import { runEpisode } from "../../engine/run_episode.ts";
 * import { episodeBundle } from "./show_episode.ts";
 *
 * const result = await runEpisode({ env: "bank_run", mechanism: "M3", seed: 1 });
 * const bundle = await episodeBundle(result, { chart: false });
 * assert.ok(bundle["text/html"].includes("Round 1"));
 * assert.ok(!bundle["text/html"].includes("<script"));
 * assert.match(bundle["text/plain"], /^Episode bank_run_M3_stable_s1 of run adhoc: ok/);
 * ```
 */
export async function episodeBundle(
  source: EpisodeSource,
  options: ShowEpisodeOptions = {},
): Promise<EpisodeBundle> {
  const { found, malformed, file } = await resolveSource(source, options);
  const model = episodeModel(found.events);
  const recorded = file === null ? null : folderCurrency(dirname(file));
  const stated = options.currency === undefined
    ? null
    : checkCurrency(options.currency, "the options'");
  const code = recorded ?? stated;
  const notes = sourceNotes(found, malformed);
  const chart = options.chart === false ? null : episodeChart(model);
  let chartHtml: string | undefined;
  if (chart !== null) {
    const png = await renderPng(chart.spec, { width: 2 * (CHART_SIZE.width + 120) });
    chartHtml = `<img src="data:image/png;base64,${Buffer.from(png).toString("base64")}" width="${
      CHART_SIZE.width + 120
    }" alt="${esc(chart.caption)}">`;
  }
  return {
    "text/html": episodeFragment(model, {
      chart: chartHtml,
      chartCaption: chart?.caption,
      notes,
      currency: code === null ? UNRECORDED_CURRENCY : knownCurrency(code),
    }),
    "text/plain": plainLine(model),
  };
}

/**
 * Shows one episode in the notebook: inside the Deno Jupyter kernel it sends
 * {@linkcode episodeBundle}'s bundle with `Deno.jupyter.display` and returns
 * `undefined`; anywhere else it returns the bundle.
 *
 * @param source An episode result, its events, a log path or a frame row.
 * @param options Which episode, where to find a row's log, whether to chart.
 * @returns `undefined` in Jupyter, otherwise the bundle.
 * @throws {TypeError} If the source is none of the accepted kinds.
 * @throws {RangeError} If the source holds no episode, or several and
 * `options.episode` does not pick one.
 * @throws {Deno.errors.NotFound} If a row's log cannot be found.
 *
 * @example A row of the episodes frame
 * ```ts
 * import assert from "node:assert/strict";
 * import { runStagHuntEpisode } from "../../engine/run_staghunt_episode.ts";
 * import { loadRuns } from "../load/load_runs.ts";
 * import { showEpisode } from "./show_episode.ts";
 *
 * const dir = await Deno.makeTempDir();
 * await runStagHuntEpisode({ F: 2, corruption: "b3", seed: 3, run: "sh", outDir: dir });
 * const { episodes } = await loadRuns(dir, { frames: [] });
 * const bundle = await showEpisode(episodes.row(0), { dir, chart: false });
 * assert.ok(bundle?.["text/html"].includes("Speaking order"));
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function showEpisode(
  source: EpisodeSource,
  options: ShowEpisodeOptions = {},
): Promise<EpisodeBundle | undefined> {
  const bundle = await episodeBundle(source, options);
  const display = jupyterDisplay();
  if (display === undefined) return bundle;
  await display(bundle, { raw: true });
  return undefined;
}

function plainLine(model: EpisodeModel): string {
  const o = model.outcome;
  const outcome = o === null
    ? ""
    : `, ${o.success === true ? "success" : `failure${o.failure ? ` (${o.failure})` : ""}`}` +
      (o.realization === null ? "" : `, W~ ${fmtNumber(o.realization)}`);
  return `Episode ${model.episode} of run ${model.run}: ${model.status}${outcome}`;
}

function sourceNotes(found: LoggedEpisode, malformed: readonly MalformedLine[]): string[] {
  const notes: string[] = [];
  if (found.blocks > 1) {
    notes.push(
      `${found.source} holds ${found.blocks} blocks of this episode (it was played more than once); this is block ${found.block}.`,
    );
  }
  if (malformed.length > 0) {
    const first = malformed.slice(0, 3).map((m) => `line ${m.line}: ${m.message}`).join("; ");
    notes.push(
      `${malformed.length} malformed line${malformed.length === 1 ? "" : "s"} skipped in ${
        malformed[0].file
      } (${first}${malformed.length > 3 ? "; ..." : ""}).`,
    );
  }
  return notes;
}

/**
 * The events of one episode, from any source {@linkcode showEpisode}
 * accepts: an episode result, its events, a log path (per-episode file or
 * segment), or a frame row. For replaying or inspecting the episode behind a
 * table row.
 *
 * @param source An episode result, its events, a log path or a frame row.
 * @param options Which episode (for a source holding several) and where to find a row's log.
 * @returns The episode's events, in log order.
 * @throws {SyntaxError} If the episode's log file has a malformed line (naming file and line).
 * @throws {RangeError} If the source holds no such episode, or several and none is picked.
 *
 * @example Replay the episode of a frame row
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRuns } from "../load/load_runs.ts";
 * import { replayEpisode, runEpisode } from "../../engine/run_episode.ts";
 * import { episodeEvents } from "./show_episode.ts";
 *
 * const dir = await Deno.makeTempDir();
 * await runEpisode({ env: "debt_rollover", mechanism: "M2", seed: 4, outDir: dir });
 * const { episodes } = await loadRuns(dir, { frames: [] });
 * const events = await episodeEvents(episodes.toRecords()[0] as never);
 * assert.ok((await replayEpisode(events)).ok);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function episodeEvents(
  source: EpisodeSource,
  options: Pick<ShowEpisodeOptions, "episode" | "dir"> = {},
): Promise<EngineEvent[]> {
  const { found, malformed } = await resolveSource(source, options);
  if (malformed.length > 0) {
    const m = malformed[0];
    throw new SyntaxError(`${m.file}:${m.line}: ${m.message}`);
  }
  return found.events as unknown as EngineEvent[];
}

async function resolveSource(
  source: EpisodeSource,
  options: ShowEpisodeOptions,
): Promise<{ found: LoggedEpisode; malformed: MalformedLine[]; file: string | null }> {
  if (typeof source === "string") {
    const contents = await readLogFile(source);
    return {
      found: pick(contents.episodes, source, options.episode),
      malformed: contents.malformed,
      file: source,
    };
  }
  if (Array.isArray(source)) {
    if (source.length > 0 && source.every((item) => isRecord(item))) {
      return {
        found: pick(groupEvents(eventsOf(source, "events"), "events"), "events", options.episode),
        malformed: [],
        file: null,
      };
    }
    if (typeof source[0] === "string" && typeof source[1] === "string") {
      return await fromRow({ run: source[0], episode: source[1] }, options);
    }
    throw new TypeError(
      source.length === 0
        ? "Cannot show an episode from an empty array"
        : "An array source must hold events, or be a loader frame row (frame.row(i)) starting with run and episode",
    );
  }
  if (isDataFrame(source)) {
    if (source.height !== 1) {
      throw new RangeError(
        `A frame source must have exactly one row (use frame.slice(i, 1)): it has ${source.height}`,
      );
    }
    return await fromRow(source.toRecords()[0] as EpisodeRow, options);
  }
  if (isRecord(source) && Array.isArray(source.events)) {
    return {
      found: pick(
        groupEvents(eventsOf(source.events, "result.events"), "result"),
        "the result",
        options.episode,
      ),
      malformed: [],
      file: null,
    };
  }
  const row = source as Record<string, unknown>;
  if (isRecord(row) && typeof row.run === "string" && typeof row.episode === "string") {
    return await fromRow(row as EpisodeRow, options);
  }
  throw new TypeError(
    "Cannot show an episode from this source: pass an episode result, its events, a log path, or a frame row with run and episode",
  );
}

async function fromRow(
  row: EpisodeRow,
  options: ShowEpisodeOptions,
): Promise<{ found: LoggedEpisode; malformed: MalformedLine[]; file: string }> {
  if (typeof row.run !== "string" || typeof row.episode !== "string") {
    throw new TypeError("A row must have string run and episode columns");
  }
  if (options.dir === undefined && typeof row.file === "string" && row.file !== "") {
    const contents = await readLogFile(row.file);
    const blocks = contents.episodes.filter((b) => b.run === row.run && b.episode === row.episode);
    if (blocks.length === 0) {
      throw new RangeError(
        `The log "${row.file}" named by the row holds no episode "${row.episode}" of run "${row.run}"`,
      );
    }
    return { found: blocks[blocks.length - 1], malformed: contents.malformed, file: row.file };
  }
  const found = await findEpisode(options.dir ?? `runs/${row.run}`, row.run, row.episode);
  // A log found in a folder: its source is the file read.
  return { ...found, file: found.found.source };
}

function eventsOf(items: readonly unknown[], label: string): LogEvent[] {
  return items.map((item, i) => {
    const checked = checkEvent(item);
    if (typeof checked === "string") throw new TypeError(`${label}[${i}]: ${checked}`);
    return checked;
  });
}

function pick(blocks: readonly LoggedEpisode[], label: string, wanted?: string): LoggedEpisode {
  if (blocks.length === 0) throw new RangeError(`${label} holds no episode`);
  if (wanted !== undefined) {
    const matching = blocks.filter((b) => b.episode === wanted);
    if (matching.length === 0) {
      throw new RangeError(`${label} holds no episode "${wanted}"`);
    }
    return matching[matching.length - 1];
  }
  const ids = [...new Set(blocks.map((b) => b.episode))];
  if (ids.length > 1) {
    throw new RangeError(
      `${label} holds ${ids.length} episodes (${ids.slice(0, 3).join(", ")}${
        ids.length > 3 ? ", ..." : ""
      }): pick one with options.episode`,
    );
  }
  return blocks[blocks.length - 1];
}

function isDataFrame(value: unknown): value is pl.DataFrame {
  return typeof value === "object" && value !== null &&
    typeof (value as { toRecords?: unknown }).toRecords === "function" &&
    typeof (value as { height?: unknown }).height === "number";
}

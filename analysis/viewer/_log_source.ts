// The viewer's one door to event logs on disk. Everything the viewer knows
// about the NDJSON format lives here, so a format change touches this file
// (and `_condition.ts` for the `episode_start` fields) only.
//
// Choices:
// - Any NDJSON file is read as a sequence of episodes grouped by the
//   (run, episode) that every line carries; a file may hold one episode (the
//   per-episode logs) or many (append-only segment files). Lines of several
//   episodes may interleave.
// - A second `episode_start` for a (run, episode) already seen opens a new
//   block (an episode played again, e.g. after a failure); every block is
//   kept and numbered, none is dropped.
// - Lines that are not JSON objects with a string `type`, `run` and
//   `episode` and a known schema version are not guessed at: they are
//   listed as malformed with file and line, and the caller shows them.
// - Files are read in chunks of whole lines (`readLogTexts`, every byte, as
//   the file is), so a log of any size is read; a grid writer's roll-over
//   files (`segment-<tag>_2.ndjson`, ...) are logs like any other.
// - Folders are searched recursively for `*.ndjson`, in natural name order; the
//   caller may name folders to skip (the site writer skips its own `view/`).

import { join } from "node:path";
import { LogLineDecoder } from "../../engine/core/event_layout.ts";
import { readLogTexts } from "../../engine/grid/segments.ts";

/**
 * File names in natural order (`e2` before `e10`), the same on every machine.
 * Built on first use: a collator takes about 7 ms to build (ICU's collation
 * data), which every program importing the viewer paid at load.
 */
let nameOrder: Intl.Collator | undefined;
function compareNames(a: string, b: string): number {
  nameOrder ??= new Intl.Collator("en", { numeric: true, sensitivity: "variant" });
  return nameOrder.compare(a, b);
}

/** Event-schema versions the viewer reads (2: today's logs; 1: read so that `episodeHeader` refuses them by name). */
export const VIEWER_SCHEMAS: readonly number[] = [1, 2];

/** One event as read from a log: a JSON object with at least these fields. */
export interface LogEvent {
  /** Event type, e.g. `"report"`. */
  type: string;
  /** Run id. */
  run: string;
  /** Episode id. */
  episode: string;
  /** Every other field of the event. */
  [field: string]: unknown;
}

/** A line that could not be read as an event. */
export interface MalformedLine {
  /** The file (or source label) it came from. */
  file: string;
  /** Line number, from 1. */
  line: number;
  /** What is wrong with it. */
  message: string;
}

/** The events of one episode block in one source. */
export interface LoggedEpisode {
  /** Run id. */
  run: string;
  /** Episode id. */
  episode: string;
  /** The file (or source label) the events came from. */
  source: string;
  /** Which block of this (run, episode) in the source this is, from 1. */
  block: number;
  /** How many blocks of this (run, episode) the source holds. */
  blocks: number;
  /** The events, in log order. */
  events: LogEvent[];
}

/** What reading one source gives. */
export interface LogContents {
  /** Episode blocks in order of their first line. */
  episodes: LoggedEpisode[];
  /** Lines that were skipped. */
  malformed: MalformedLine[];
}

/**
 * Checks one parsed value and returns it as an event, or the reason it is
 * not one.
 */
export function checkEvent(value: unknown): LogEvent | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return "an event must be a JSON object";
  }
  const event = value as Record<string, unknown>;
  if (!VIEWER_SCHEMAS.includes(event.schema as number)) {
    return `event schema ${JSON.stringify(event.schema)} is not one of ${
      VIEWER_SCHEMAS.join(", ")
    }`;
  }
  for (const field of ["type", "run", "episode"]) {
    if (typeof event[field] !== "string") return `the "${field}" field must be a string`;
  }
  return event as LogEvent;
}

/**
 * Groups events into episode blocks by (run, episode), in order of first
 * appearance; a repeated `episode_start` opens a new block.
 */
export function groupEvents(events: readonly LogEvent[], source: string): LoggedEpisode[] {
  const blocks: LoggedEpisode[] = [];
  const open = new Map<string, LoggedEpisode>();
  const counts = new Map<string, number>();
  for (const event of events) {
    const key = `${event.run}\u0000${event.episode}`;
    let block = open.get(key);
    if (block === undefined || (event.type === "episode_start" && block.events.length > 0)) {
      const number = (counts.get(key) ?? 0) + 1;
      counts.set(key, number);
      block = {
        run: event.run,
        episode: event.episode,
        source,
        block: number,
        blocks: 0,
        events: [],
      };
      open.set(key, block);
      blocks.push(block);
    }
    block.events.push(event);
  }
  for (const block of blocks) block.blocks = counts.get(`${block.run}\u0000${block.episode}`)!;
  return blocks;
}

/** Parses NDJSON text into episode blocks, listing the lines that are not events. */
export function parseLogText(text: string, source: string): LogContents {
  const events: LogEvent[] = [];
  const malformed: MalformedLine[] = [];
  parseLines(text, source, { events, malformed, line: 0 });
  return { episodes: groupEvents(events, source), malformed };
}

/** Where {@linkcode parseLines} puts what it reads, and the lines read so far. */
interface ParseState {
  events: LogEvent[];
  malformed: MalformedLine[];
  line: number;
  /** Keeps only the events it accepts (all when absent). */
  keep?: (event: LogEvent) => boolean;
  /** The file's open block (`"lines-v5"`, `"lines-v6"`: its header), carried from chunk to chunk. */
  decoder?: LogLineDecoder;
}

/** Parses whole lines of NDJSON text (a file, or a chunk of one) into `state`. */
function parseLines(text: string, source: string, state: ParseState): void {
  const { events, malformed, keep } = state;
  const decoder = state.decoder ??= new LogLineDecoder();
  let start = 0;
  let line = state.line;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    line++;
    const raw = text.slice(start, end).trim();
    start = end + 1;
    if (raw === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      malformed.push({ file: source, line, message: `not JSON (${(err as Error).message})` });
      decoder.lost(); // a "lines-v6" block's later lines cannot be rebuilt without it
      continue;
    }
    // A block's header gives no event; its lines are rebuilt from it as the old layout holds them.
    const decoded = decoder.decode(value);
    if (decoded === undefined) continue;
    if (typeof decoded === "string") {
      malformed.push({ file: source, line, message: decoded });
      continue;
    }
    const checked = checkEvent(decoded);
    if (typeof checked === "string") malformed.push({ file: source, line, message: checked });
    else if (keep === undefined || keep(checked)) events.push(checked);
  }
  state.line = line;
}

/** Reads one NDJSON log file (of any size: in chunks) into episode blocks. */
export function readLogFile(path: string): Promise<LogContents> {
  const state: ParseState = { events: [], malformed: [], line: 0 };
  try {
    for (const { text } of readLogTexts(path, { committed: false })) parseLines(text, path, state);
  } catch (err) {
    return Promise.reject(err);
  }
  return Promise.resolve({ episodes: groupEvents(state.events, path), malformed: state.malformed });
}

/** Whether a file's text holds a string, read in chunks of whole lines. */
function fileIncludes(path: string, needle: string): boolean {
  for (const { text } of readLogTexts(path, { committed: false })) {
    if (text.includes(needle)) return true;
  }
  return false;
}

/**
 * Lists every `*.ndjson` file under a folder, recursively and sorted, skipping
 * the folders whose path relative to `dir` is in `skip`.
 */
export async function findLogFiles(dir: string, skip: readonly string[] = []): Promise<string[]> {
  const files: string[] = [];
  const walk = async (folder: string, relative: string) => {
    const entries: Deno.DirEntry[] = [];
    for await (const entry of Deno.readDir(folder)) entries.push(entry);
    entries.sort((a, b) => compareNames(a.name, b.name));
    for (const entry of entries) {
      const rel = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory && !skip.includes(rel)) await walk(join(folder, entry.name), rel);
      else if (entry.isFile && entry.name.endsWith(".ndjson")) files.push(join(folder, entry.name));
    }
  };
  await walk(dir, "");
  return files;
}

/**
 * Finds the last block of one episode in the logs under a folder. A file
 * named `<episode>.ndjson` is tried first (today's one-file-per-episode
 * layout); otherwise every log is read, cheaply skipping those that do not
 * mention the episode id.
 *
 * @throws {Deno.errors.NotFound} If no log under `dir` holds the episode.
 */
export async function findEpisode(
  dir: string,
  run: string,
  episode: string,
): Promise<{ found: LoggedEpisode; malformed: MalformedLine[] }> {
  let files: string[];
  try {
    files = await findLogFiles(dir);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
    throw new Deno.errors.NotFound(
      `Cannot look for episode "${episode}": folder "${dir}" does not exist (pass the folder of the run's logs as options.dir)`,
    );
  }
  const named = files.filter((file) => file.endsWith(`/${episode}.ndjson`));
  const needle = JSON.stringify(episode);
  for (const file of [...named, ...files.filter((file) => !named.includes(file))]) {
    if (!fileIncludes(file, needle)) continue;
    // Only this episode's events are kept: its blocks are what they would
    // be among all the file's (blocks are numbered per episode).
    const state: ParseState = {
      events: [],
      malformed: [],
      line: 0,
      keep: (e) => e.run === run && e.episode === episode,
    };
    for (const { text } of readLogTexts(file, { committed: false })) parseLines(text, file, state);
    const blocks = groupEvents(state.events, file);
    if (blocks.length > 0) {
      return { found: blocks[blocks.length - 1], malformed: state.malformed };
    }
  }
  throw new Deno.errors.NotFound(
    `No log under "${dir}" holds episode "${episode}" of run "${run}" (searched ${files.length} .ndjson files)`,
  );
}

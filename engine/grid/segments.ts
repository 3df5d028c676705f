/**
 * Segment files: how a grid stores its episode logs.
 *
 * A run folder holds `segment-<session>-<writer>.ndjson` files, one per
 * worker and session, append-only. Every finished episode is appended as one
 * block: its events as NDJSON lines, from its `episode_start` to its
 * `episode_end` (an episode that crashed before it started has only the
 * latter), every line carrying `run` and `episode`, written with one
 * synchronous write of one buffer (no file created, renamed or folder made
 * per episode: creating and renaming a file costs about 0.8 ms on ext4,
 * which alone capped a core near 1,200 logged episodes/s). Beside each
 * segment, `segment-<...>.idx` lists its blocks, one JSON line appended after
 * each block: `{"run","episode","offset","bytes","status"}` (byte offset and
 * length in the segment, and the status of its `episode_end`); a line
 * `{"retire":offset,"bytes":n}` retires a block (a failed episode that is
 * played again), whose bytes are then overwritten with spaces.
 *
 * A writer rolls over to a new segment file, with its own index, before a
 * block that would take the current file past {@linkcode SEGMENT_MAX_BYTES}
 * (256 MiB; an option of the writer), so no file comes near V8's limit on
 * one string (about 512 MiB) and a block is never split: the second file of
 * writer `<tag>` is `segment-<tag>_2.ndjson`, then `_3`, and so on. Every
 * file is a segment of its own (readers and resume need not know which
 * writer wrote it); a single block larger than the limit gets a file of its
 * own.
 *
 * Readers (the loaders, compaction, {@linkcode readLogEpisodes}) read a
 * segment in chunks of bytes split at newlines ({@linkcode readLogChunks}),
 * so a file of any size is read, only up to the end of its last indexed block, with retired blocks
 * blanked: a block being written, or torn by a kill, is never seen, as a
 * half-written per-episode file never was. A segment without its index (a
 * copy) is read whole. Recovery ({@linkcode recoverSegment}, run by resume
 * under the folder lock) adds to the index the complete blocks that a kill
 * left unindexed, truncates a torn tail (a block without its `episode_end`,
 * or a half line) so its episode is played again, and completes retirements.
 * Anything else that does not parse (a damaged line followed by more lines)
 * is refused, naming the file and byte offset, rather than cut away.
 *
 * Choices: no `fsync` (as before: a killed process loses nothing, a power
 * cut may lose the last blocks, which resume then replays); a block's lines
 * are those of `JSON.stringify` of each event; offsets are bytes.
 *
 * @module
 */
import { basename, join } from "node:path";
import type { EngineEvent } from "../core/events.ts";
import {
  isBlockHeaderLine,
  isBlockHeaderSchema,
  isBlockLine,
  LogLineDecoder,
} from "../core/event_layout.ts";
import { parseEpisodeLog } from "../core/log_file.ts";
import { checkName, pathInside } from "../names.ts";

/** One block of a segment, as its index lists it. */
export interface SegmentEntry {
  /** Run id. */
  run: string;
  /** Episode id. */
  episode: string;
  /** Byte offset of the block in the segment. */
  offset: number;
  /** Byte length of the block (its last byte is a newline). */
  bytes: number;
  /** Status of its `episode_end`. */
  status: string;
}

/** What a reader may read of a segment: up to `end`, with `retired` ranges blanked. */
export interface CommittedView {
  /** End of the last indexed block. */
  end: number;
  /** Retired blocks as `[offset, bytes]`. */
  retired: [number, number][];
}

const SEGMENT_NAME = /^segment-[\w.-]+\.ndjson$/;

/**
 * The size past which a {@linkcode SegmentWriter} starts a new segment file:
 * 256 MiB, half of V8's limit on one string's length, so a file read as one
 * string by an older reader still fits, with room to spare.
 */
export const SEGMENT_MAX_BYTES = 256 * 1024 * 1024;

/**
 * Bytes {@linkcode readLogChunks} reads at a time (a chunk is then cut at its
 * last newline; a longer line grows it): 16 MiB.
 */
export const LOG_CHUNK_BYTES = 16 * 1024 * 1024;
const NEWLINE = 10;
const SPACE = 32;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The status of an `episode_end` line of the episode, or undefined when it is
 * not one. A block line (`blocks`: the log starts with the episode's block
 * header) carries no run or episode of its own: the header names them.
 */
function statusOf(line: string, run: string, episode: string, blocks: boolean): string | undefined {
  let end: { type?: unknown; run?: unknown; episode?: unknown; status?: unknown } | undefined;
  try {
    end = line === "" ? undefined : JSON.parse(line);
  } catch {
    return undefined;
  }
  const named = blocks
    ? isBlockLine(line) && end?.run === undefined
    : end?.run === run && end.episode === episode;
  return end?.type === "episode_end" && named && typeof end.status === "string"
    ? end.status
    : undefined;
}

/**
 * Whether a file name is a segment's.
 *
 * @example
 * ```ts
 * import { isSegmentName } from "./segments.ts";
 * if (!isSegmentName("segment-20260101T000000-ab12cd-w0.ndjson") || isSegmentName("ep.ndjson")) {
 *   throw new Error();
 * }
 * ```
 */
export function isSegmentName(name: string): boolean {
  return SEGMENT_NAME.test(name);
}

/**
 * The index path of a segment.
 *
 * @example
 * ```ts
 * import { segmentIndexPath } from "./segments.ts";
 * if (segmentIndexPath("runs/x/segment-a.ndjson") !== "runs/x/segment-a.idx") throw new Error();
 * ```
 */
export function segmentIndexPath(path: string): string {
  return `${path.slice(0, -".ndjson".length)}.idx`;
}

/**
 * A tag that names one writer of one session, e.g. `20260101T120000-3f9a1c`
 * (sortable by start time); writers append `-w<k>` or `-main`.
 *
 * @example
 * ```ts
 * import { sessionTag } from "./segments.ts";
 * if (!/^\d{8}T\d{6}-[0-9a-f]{6}$/.test(sessionTag(new Date(0)))) throw new Error(sessionTag());
 * ```
 */
export function sessionTag(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").slice(0, 15);
  return `${stamp}-${crypto.randomUUID().slice(0, 6)}`;
}

function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += file.writeSync(bytes.subarray(done));
}

/** Options of {@linkcode SegmentWriter.append}. */
export interface AppendOptions {
  /**
   * The events already serialised as NDJSON (one `JSON.stringify` line per
   * event, each ending in a newline), when the caller has built them: they
   * are written as they are, instead of serialising the events again.
   * Default: the events are serialised here.
   */
  text?: string;
}

/**
 * One episode's complete log as NDJSON, for {@linkcode SegmentWriter.appendText}:
 * its `text` or, as the engine encoded it, its `bytes` (one of the two).
 */
export interface LogText {
  /** Run id. */
  run: string;
  /** Episode id. */
  episode: string;
  /**
   * Its lines, from its `episode_start` (or, for an episode that crashed
   * before starting, its `episode_end`) to its `episode_end`, each ending in
   * a newline, as the engine writes them: every one carrying the base fields
   * first (`{"schema":2,"run":...,"episode":...,`), or (`"lines-v5"`) a block
   * header (`{"schema":3,"run":...,"episode":...,`) and then lines without
   * them (`{"round":...`), or (`"lines-v6"` on) a delta block's header
   * (`{"schema":4,...`; `{"schema":5,...` from `"lines-v8"`) and lines that
   * leave out what the lines before imply.
   */
  text?: string;
  /** The same lines as UTF-8 (`runEpisode(...).ndjsonBytes`), written as they are; wins over `text`. */
  bytes?: Uint8Array;
  /**
   * The status of its `episode_end`, when the caller knows it (the engine's
   * tally does): the last line is then checked to carry it rather than parsed.
   */
  status?: string;
  /**
   * Whether the block may wait in the writer's memory until its next
   * {@linkcode SegmentWriter.flush} (a writer created with `holdBytes`): an
   * episode without model calls, which a kill before the flush only makes
   * resume play again. Default false: the block is written at once (after
   * the blocks held before it), as every episode with model calls is.
   */
  mayWait?: boolean;
}

/** Options of {@linkcode SegmentWriter.create}. */
export interface SegmentWriterOptions {
  /**
   * Start a new segment file before a block that would take the current one
   * past this many bytes (a file with no block yet takes any block). Default
   * {@linkcode SEGMENT_MAX_BYTES}.
   */
  maxBytes?: number;
  /**
   * Blocks appended with `mayWait` are held in memory, up to this many bytes,
   * and written together (their data with one write, then their index lines
   * with one) by {@linkcode SegmentWriter.flush}, by the next block that may
   * not wait, or once they would pass this size: a write costs several
   * microseconds beyond its bytes, against a few hundred microseconds to play
   * and log a mock episode. The
   * caller counts a held block as logged only after the flush. Default 0:
   * every block is written at once.
   */
  holdBytes?: number;
}

/**
 * Appends episodes to a new segment file, synchronously, rolling over to a
 * new file (`segment-<tag>_2.ndjson`, ...) before one would pass its
 * `maxBytes`.
 *
 * @example
 * ```ts
 * import { readLogEpisodes, SegmentWriter } from "./segments.ts";
 * import { runEpisode } from "../run_episode.ts";
 * const dir = await Deno.makeTempDir();
 * const writer = SegmentWriter.create(dir, "demo-w0");
 * for (const seed of [1, 2]) writer.append((await runEpisode({ env: "bank_run", seed, run: "demo" })).events);
 * // Lines the caller already built are written as they are.
 * const { events } = await runEpisode({ env: "bank_run", seed: 3, run: "demo" });
 * writer.append(events, { text: events.map((e) => JSON.stringify(e) + "\n").join("") });
 * // So is the text the engine built, without its events.
 * const r = await runEpisode({ env: "bank_run", seed: 4, run: "demo", ndjson: true, events: false });
 * writer.appendText({ run: "demo", episode: "bank_run_M0_stable_s4", text: r.ndjson! });
 * writer.close();
 * const episodes = await readLogEpisodes(writer.path);
 * if (episodes.length !== 4 || episodes[2].events.length !== events.length) throw new Error();
 * if (episodes[3].events.at(-1)?.type !== "episode_end") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class SegmentWriter {
  /** Every segment file written so far, in order (the last is being written). */
  readonly paths: string[];
  readonly #dir: string;
  readonly #tag: string;
  readonly #maxBytes: number;
  readonly #holdBytes: number;
  #data: Deno.FsFile | null;
  #index: Deno.FsFile | null;
  #size = 0;
  #buffer = new Uint8Array(1 << 16);
  // Blocks held for the next flush: their bytes, how many, and their index lines.
  #held = new Uint8Array(0);
  #heldBytes = 0;
  #heldBlocks = 0;
  #heldIndex = "";
  /** The write error that closed the segment, thrown again by later appends. */
  #failure: unknown = null;

  private constructor(dir: string, tag: string, maxBytes: number, holdBytes: number) {
    this.#dir = dir;
    this.#tag = tag;
    this.#maxBytes = maxBytes;
    this.#holdBytes = holdBytes;
    const [path, data, index] = openSegment(dir, `segment-${tag}.ndjson`);
    this.paths = [path];
    this.#data = data;
    this.#index = index;
  }

  /**
   * Creates `<dir>/segment-<tag>.ndjson` and its index; both must be new.
   *
   * @throws {RangeError} For a tag that is not a name, a `maxBytes` that is
   * not a positive integer, or a `holdBytes` that is not an integer >= 0.
   * @throws {Deno.errors.AlreadyExists} When the segment exists.
   */
  static create(dir: string, tag: string, options: SegmentWriterOptions = {}): SegmentWriter {
    const maxBytes = options.maxBytes ?? SEGMENT_MAX_BYTES;
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
      throw new RangeError(
        `Segment maxBytes must be a positive integer: received ${JSON.stringify(maxBytes)}`,
      );
    }
    const holdBytes = options.holdBytes ?? 0;
    if (!Number.isSafeInteger(holdBytes) || holdBytes < 0) {
      throw new RangeError(
        `Segment holdBytes must be an integer >= 0: received ${JSON.stringify(holdBytes)}`,
      );
    }
    return new SegmentWriter(dir, checkName("segment tag", tag), maxBytes, holdBytes);
  }

  /** Path of the segment file being written (the last of {@linkcode SegmentWriter.paths}). */
  get path(): string {
    return this.paths[this.paths.length - 1];
  }

  /** Index path of the segment file being written. */
  get indexPath(): string {
    return segmentIndexPath(this.path);
  }

  /** Bytes appended so far to the segment file being written (held blocks included). */
  get size(): number {
    return this.#size;
  }

  /** The write error that closed the segment (its held blocks dropped, not logged), or `null`. */
  get writeError(): unknown {
    return this.#failure;
  }

  /** Blocks appended but held, not yet written (see `holdBytes`); 0 after a flush. */
  get heldBlocks(): number {
    return this.#heldBlocks;
  }

  /**
   * Appends one episode's complete log as a block, then its index line. The
   * events are written one whole line each (the old layout; `options.text`
   * as it is): every reader reads it, and a `"lines-v5"` log's hashes are
   * fixed by its events, so it verifies in either layout. The engine's own
   * bytes ({@linkcode SegmentWriter.appendText}) are the block layout.
   *
   * @throws {TypeError} Unless the events end with an `episode_end` of the
   * (run, episode) of the first.
   * @throws {Error} When the writer is closed; the operating system's error
   * (e.g. `ENOSPC`) when the write fails, and again on every later append.
   */
  append(events: readonly EngineEvent[], options: AppendOptions = {}): SegmentEntry {
    const first = events[0];
    const last = events[events.length - 1];
    if (last?.type !== "episode_end" || first.run !== last.run || first.episode !== last.episode) {
      throw new TypeError(
        `A segment block must end with the episode_end of its episode ` +
          `(got ${first?.type ?? "nothing"} ... ${last?.type ?? "nothing"})`,
      );
    }
    let text = options.text;
    if (text === undefined) {
      text = "";
      for (const e of events) text += JSON.stringify(e) + "\n";
    }
    return this.#appendText(first.run, first.episode, last.status, text);
  }

  /**
   * Appends one episode's complete log, as the engine built it
   * (`runEpisode({ ndjson: true })`: its `ndjsonBytes`, written from the
   * buffer they were encoded into, or its text), as a block, then its index
   * line. The first and last lines must name the episode, and the last be
   * its `episode_end`: with `status` given, only checked to carry it; else
   * parsed for the status the index records.
   *
   * @throws {TypeError} Unless the log's first line is of the episode and
   * its last line is the episode's `episode_end` (of `status`, when given),
   * or when it has neither `text` nor `bytes`.
   * @throws {Error} When the writer is closed; the operating system's error
   * (e.g. `ENOSPC`) when the write fails, and again on every later append.
   */
  appendText(log: LogText): SegmentEntry {
    const { run, episode, bytes } = log;
    const text = bytes === undefined ? log.text : undefined;
    if (bytes === undefined && text === undefined) {
      throw new TypeError(`The log of episode "${episode}" has neither text nor bytes`);
    }
    const names = `"run":${JSON.stringify(run)},"episode":${JSON.stringify(episode)},`;
    // Only the first and the last line are looked at (decoded from bytes, they are short).
    let first: string;
    let last: string;
    if (bytes !== undefined) {
      const n = bytes.length;
      let from = n - 2;
      while (from >= 0 && bytes[from] !== NEWLINE) from--;
      last = n > 0 && bytes[n - 1] === NEWLINE ? decoder.decode(bytes.subarray(from + 1)) : "";
      first = decoder.decode(bytes.subarray(0, Math.min(n, 64 + names.length * 3)));
    } else {
      last = text!.endsWith("\n") ? text!.slice(text!.lastIndexOf("\n", text!.length - 2) + 1) : "";
      first = text!;
    }
    // A status given is checked where the engine writes it; else the last line is parsed for it.
    const blocks = isBlockHeaderLine(first);
    const status = log.status ?? statusOf(last, run, episode, blocks);
    if (
      status === undefined || !first.startsWith(names, first.indexOf(",") + 1) ||
      (log.status !== undefined &&
        (!(blocks ? isBlockLine(last) : last.startsWith(names, last.indexOf(",") + 1)) ||
          !last.includes(`"type":"episode_end","status":${JSON.stringify(status)}`)))
    ) {
      throw new TypeError(
        `A segment block must be the lines of episode "${episode}" of run "${run}", ` +
          `ending with its episode_end` +
          (log.status === undefined ? "" : ` of status "${status}"`),
      );
    }
    const wait = log.mayWait === true;
    return bytes === undefined
      ? this.#appendText(run, episode, status, text!, wait)
      : this.#appendBytes(run, episode, status, bytes, wait);
  }

  #appendText(
    run: string,
    episode: string,
    status: string,
    text: string,
    wait = false,
  ): SegmentEntry {
    // A failed write closed the segment: every later block meets the same error.
    if (this.#failure !== null) throw this.#failure;
    if (this.#data === null || this.#index === null) {
      throw new Error(`The segment "${this.path}" is closed`);
    }
    if (this.#buffer.length < text.length * 3) {
      this.#buffer = new Uint8Array(Math.max(text.length * 3, this.#buffer.length * 2));
    }
    const { written } = encoder.encodeInto(text, this.#buffer);
    return this.#appendBytes(run, episode, status, this.#buffer.subarray(0, written), wait);
  }

  #appendBytes(
    run: string,
    episode: string,
    status: string,
    block: Uint8Array,
    wait = false,
  ): SegmentEntry {
    if (this.#failure !== null) throw this.#failure;
    if (this.#data === null || this.#index === null) {
      throw new Error(`The segment "${this.path}" is closed`);
    }
    const written = block.length;
    const hold = wait && this.#holdBytes > 0;
    try {
      // What is held goes first: before a block that may not wait, or one that would take the
      // held bytes past their limit or the file past its size (the roll-over below).
      const rolls = this.#size > 0 && this.#size + written > this.#maxBytes;
      if (this.#heldBlocks > 0 && (!hold || rolls || this.#heldBytes + written > this.#holdBytes)) {
        this.#writeHeld();
      }
      // Roll over at a block boundary: the block goes whole to a new file.
      if (rolls) this.#rollOver();
      const entry: SegmentEntry = { run, episode, offset: this.#size, bytes: written, status };
      if (hold) {
        if (this.#held.length < this.#heldBytes + written) {
          const grown = new Uint8Array(Math.max(this.#holdBytes, this.#heldBytes + written));
          grown.set(this.#held.subarray(0, this.#heldBytes));
          this.#held = grown;
        }
        this.#held.set(block, this.#heldBytes);
        this.#heldBytes += written;
        this.#heldBlocks++;
        this.#heldIndex += JSON.stringify(entry) + "\n";
      } else {
        writeAll(this.#data!, block);
        writeAll(this.#index!, encoder.encode(JSON.stringify(entry) + "\n"));
      }
      this.#size += written;
      return entry;
    } catch (err) {
      this.#fail(err);
      throw err;
    }
  }

  /**
   * Writes the held blocks (see `holdBytes`): their bytes with one write,
   * then their index lines with one. A no-op when none is held.
   *
   * @throws {Error} The operating system's error (e.g. `ENOSPC`) when the
   * write fails (the held blocks are then not logged, and every later append
   * throws it again); the error that closed the segment before.
   */
  flush(): void {
    if (this.#failure !== null) throw this.#failure;
    if (this.#heldBlocks === 0) return;
    try {
      this.#writeHeld();
    } catch (err) {
      this.#fail(err);
      throw err;
    }
  }

  #writeHeld(): void {
    if (this.#data === null || this.#index === null) {
      throw new Error(`The segment "${this.path}" is closed`);
    }
    const bytes = this.#held.subarray(0, this.#heldBytes);
    const index = this.#heldIndex;
    this.#heldBytes = 0;
    this.#heldBlocks = 0;
    this.#heldIndex = "";
    writeAll(this.#data, bytes);
    writeAll(this.#index, encoder.encode(index));
  }

  /**
   * A write failed: a block may be torn now, and appending after it would
   * misplace every later block, so this segment takes no more (resume cuts
   * the tail); what was held is dropped (not logged).
   */
  #fail(err: unknown): void {
    this.#heldBytes = 0;
    this.#heldBlocks = 0;
    this.#heldIndex = "";
    this.close();
    this.#failure = err;
  }

  /** Closes the current file and opens the next one (`segment-<tag>_<n>.ndjson`). */
  #rollOver(): void {
    this.close();
    const [path, data, index] = openSegment(
      this.#dir,
      `segment-${this.#tag}_${this.paths.length + 1}.ndjson`,
    );
    this.paths.push(path);
    this.#data = data;
    this.#index = index;
    this.#size = 0;
  }

  /**
   * Writes the held blocks (see {@linkcode SegmentWriter.flush}), then closes
   * both files; later appends throw.
   *
   * @throws {Error} The operating system's error when writing the held blocks fails.
   */
  close(): void {
    if (this.#heldBlocks > 0) this.flush();
    this.#data?.close();
    this.#index?.close();
    this.#data = null;
    this.#index = null;
  }
}

/** Creates a new segment file and its index (both must be new). */
function openSegment(dir: string, name: string): [string, Deno.FsFile, Deno.FsFile] {
  const path = pathInside(dir, name);
  // The index first: a kill in between leaves an empty index, which recovery removes.
  const index = Deno.openSync(segmentIndexPath(path), { createNew: true, append: true });
  try {
    return [path, Deno.openSync(path, { createNew: true, append: true }), index];
  } catch (err) {
    index.close();
    throw err;
  }
}

/** An index parsed: valid block lines in order, retirements, and where validity ends. */
interface ParsedIndex {
  blocks: SegmentEntry[];
  retired: Map<number, number>;
  /** Characters of the index text made of valid lines. */
  valid: number;
}

function isEntry(v: unknown, offset: number, size: number): v is SegmentEntry {
  const e = v as Partial<SegmentEntry>;
  return typeof e === "object" && e !== null && typeof e.run === "string" &&
    typeof e.episode === "string" && typeof e.status === "string" && e.offset === offset &&
    Number.isSafeInteger(e.bytes) && e.bytes! > 0 && offset + e.bytes! <= size;
}

/**
 * Parses index text: block lines must be contiguous from offset 0 and end
 * within `size` bytes; retire lines must name an indexed block. Parsing
 * stops at the first line that breaks a rule (a torn or stale tail).
 */
function parseIndex(text: string, size: number): ParsedIndex {
  const out: ParsedIndex = { blocks: [], retired: new Map(), valid: 0 };
  const starts = new Set<number>();
  let at = 0;
  let end = 0;
  while (at < text.length) {
    const nl = text.indexOf("\n", at);
    if (nl === -1) break;
    let value: unknown;
    try {
      value = JSON.parse(text.slice(at, nl));
    } catch {
      break;
    }
    const retire = value as { retire?: unknown; bytes?: unknown };
    if (typeof retire?.retire === "number") {
      if (!starts.has(retire.retire)) break;
      out.retired.set(retire.retire, retire.bytes as number);
    } else if (isEntry(value, end, size)) {
      out.blocks.push(value);
      starts.add(end);
      end += value.bytes;
    } else {
      break;
    }
    at = nl + 1;
    out.valid = at;
  }
  return out;
}

function readTextIfExists(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
}

/**
 * What readers may read of a file: for a segment with an index, the end of
 * its last indexed block and its retired blocks; `null` for any other file
 * (read it whole).
 *
 * @example
 * ```ts
 * import { committedView } from "./segments.ts";
 * if (committedView("/nonexistent/ep.ndjson") !== null) throw new Error();
 * ```
 */
export function committedView(path: string): CommittedView | null {
  if (!isSegmentName(basename(path))) return null;
  const text = readTextIfExists(segmentIndexPath(path));
  if (text === null) return null;
  const index = parseIndex(text, Number.MAX_SAFE_INTEGER);
  const last = index.blocks.at(-1);
  return { end: last ? last.offset + last.bytes : 0, retired: [...index.retired] };
}

/**
 * Overwrites the retired ranges of a buffer holding a segment from offset 0
 * with spaces, keeping each range's final newline.
 *
 * @example
 * ```ts
 * import { blankRetired } from "./segments.ts";
 * const bytes = new TextEncoder().encode('{"a":1}\n{"b":2}\n');
 * blankRetired(bytes, { end: 16, retired: [[0, 8]] });
 * if (new TextDecoder().decode(bytes) !== '       \n{"b":2}\n') throw new Error();
 * ```
 */
export function blankRetired(bytes: Uint8Array, view: CommittedView): void {
  for (const [offset, length] of view.retired) {
    const stop = Math.min(offset + length - 1, bytes.length);
    if (offset < stop) bytes.fill(SPACE, offset, stop);
  }
}

/**
 * The bytes of a log file that readers may read: a whole file, or a
 * segment's committed part with retired blocks blanked, in one buffer (a
 * file past 512 MiB cannot then be decoded as one string: read such files
 * with {@linkcode readLogChunks}).
 *
 * @example
 * ```ts
 * import { readCommittedBytes } from "./segments.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/ep.ndjson`, "{}\n");
 * if (readCommittedBytes(`${dir}/ep.ndjson`).length !== 3) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function readCommittedBytes(path: string): Uint8Array {
  const view = committedView(path);
  if (view === null) return Deno.readFileSync(path);
  const bytes = readRange(path, 0, view.end);
  blankRetired(bytes, view);
  return bytes;
}

/** Options of {@linkcode readLogChunks} and {@linkcode LogChunkReader}. */
export interface LogChunkOptions {
  /**
   * Read a segment as readers do (its committed part, retired blocks
   * blanked); `false` reads every file whole, as it is. Default `true`.
   */
  committed?: boolean;
  /** Bytes read at a time. Default {@linkcode LOG_CHUNK_BYTES}. */
  chunkBytes?: number;
}

/**
 * Reads log files in chunks of bytes, each ending just after a newline (the
 * last chunk of a file may end without one), reusing one buffer for every
 * chunk and file: a file of any size is read in memory of about one chunk
 * (or of its longest line, when longer). Newlines are never inside a UTF-8
 * character, so every chunk decodes on its own.
 *
 * @example
 * ```ts
 * import { LogChunkReader } from "./segments.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.ndjson`, '{"a":1}\n{"b":22}\n{"c":3}');
 * const reader = new LogChunkReader({ chunkBytes: 10 });
 * // A chunk is a view of the reader's buffer: decode (or copy) it before the next.
 * const pieces: string[] = [];
 * for (const bytes of reader.read(`${dir}/a.ndjson`)) pieces.push(new TextDecoder().decode(bytes));
 * if (pieces.join("|") !== '{"a":1}\n|{"b":22}\n|{"c":3}') throw new Error(pieces.join("|"));
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class LogChunkReader {
  readonly #committed: boolean;
  readonly #chunkBytes: number;
  #buffer = new Uint8Array(0);

  /** @throws {RangeError} For a `chunkBytes` that is not a positive integer. */
  constructor(options: LogChunkOptions = {}) {
    this.#committed = options.committed ?? true;
    this.#chunkBytes = options.chunkBytes ?? LOG_CHUNK_BYTES;
    if (!Number.isSafeInteger(this.#chunkBytes) || this.#chunkBytes < 1) {
      throw new RangeError(
        `Log chunkBytes must be a positive integer: received ${JSON.stringify(options.chunkBytes)}`,
      );
    }
  }

  /**
   * The chunks of one file, in order. Each is a view of the reader's buffer,
   * valid until the next chunk is asked for (copy it to keep it).
   *
   * @throws {Deno.errors.NotFound} When the file does not exist.
   */
  *read(path: string): Generator<Uint8Array, void, undefined> {
    const view = this.#committed ? committedView(path) : null;
    using file = Deno.openSync(path, { read: true });
    const end = Math.min(file.statSync().size, view?.end ?? Infinity);
    // A small file needs a small buffer; the buffer only grows.
    if (this.#buffer.length < Math.min(this.#chunkBytes, end)) {
      this.#buffer = new Uint8Array(Math.min(this.#chunkBytes, end));
    }
    let offset = 0; // file offset of the buffer's first byte
    let held = 0; // bytes at the buffer's start: a line not ended yet
    while (offset + held < end) {
      if (held === this.#buffer.length) {
        const grown = new Uint8Array(Math.min(this.#buffer.length * 2, end - offset));
        grown.set(this.#buffer);
        this.#buffer = grown;
      }
      const buffer = this.#buffer;
      let filled = held;
      const want = Math.min(buffer.length, end - offset);
      while (filled < want) {
        const n = file.readSync(buffer.subarray(filled, want));
        if (n === null || n === 0) break;
        filled += n;
      }
      if (filled === held) break; // the file shrank under us: what was read is all there is
      if (view !== null) blankWindow(buffer, offset, held, filled, view);
      const last = offset + filled >= end;
      const cut = last ? filled : buffer.lastIndexOf(NEWLINE, filled - 1) + 1;
      if (cut > 0) yield buffer.subarray(0, cut);
      buffer.copyWithin(0, cut, filled);
      held = filled - cut;
      offset += cut;
      if (last) break;
    }
    if (held > 0) yield this.#buffer.subarray(0, held);
  }
}

/** Blanks the retired ranges that fall in `buffer[from, to)` (file offset `offset` at 0). */
function blankWindow(
  buffer: Uint8Array,
  offset: number,
  from: number,
  to: number,
  view: CommittedView,
): void {
  for (const [start, length] of view.retired) {
    // Each range keeps its final newline, as blankRetired does.
    const a = Math.max(start - offset, from);
    const b = Math.min(start + length - 1 - offset, to);
    if (a < b) buffer.fill(SPACE, a, b);
  }
}

/**
 * The chunks of bytes of one log file (see {@linkcode LogChunkReader}).
 *
 * @example
 * ```ts
 * import { readLogChunks } from "./segments.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.ndjson`, "{}\n{}\n");
 * let bytes = 0;
 * for (const chunk of readLogChunks(`${dir}/a.ndjson`)) bytes += chunk.length;
 * if (bytes !== 6) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function readLogChunks(
  path: string,
  options: LogChunkOptions = {},
): Generator<Uint8Array, void, undefined> {
  return new LogChunkReader(options).read(path);
}

/** A chunk of a log file as text, with the number of its first line. */
export interface LogTextChunk {
  /** The chunk's text: whole lines, each ending in a newline (but perhaps the file's last). */
  text: string;
  /** The line number of its first line in the file, from 1. */
  line: number;
}

/**
 * The chunks of one log file as text (see {@linkcode LogChunkReader}), each
 * with the number of its first line, for readers that parse lines.
 *
 * @example
 * ```ts
 * import { readLogTexts } from "./segments.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.ndjson`, "{}\n{}\n{}\n");
 * const chunks = [...readLogTexts(`${dir}/a.ndjson`, { chunkBytes: 6 })];
 * if (chunks.map((c) => c.line).join() !== "1,3") throw new Error(JSON.stringify(chunks));
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function* readLogTexts(
  path: string,
  options: LogChunkOptions = {},
): Generator<LogTextChunk, void, undefined> {
  const decoder = new TextDecoder();
  let line = 1;
  for (const bytes of readLogChunks(path, options)) {
    const text = decoder.decode(bytes);
    yield { text, line };
    for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) line++;
  }
}

/** The episodes of one log file, in file order. */
export interface LoggedEpisode {
  /** Run id. */
  run: string;
  /** Episode id. */
  episode: string;
  /** Its events, in log order. */
  events: EngineEvent[];
}

/**
 * Reads a log file (one episode's file, or a segment's committed part), in
 * chunks, and groups its events by (run, episode), in the order episodes
 * first appear.
 *
 * @example
 * ```ts
 * import { readLogEpisodes } from "./segments.ts";
 * import { runEpisode } from "../run_episode.ts";
 * const dir = await Deno.makeTempDir();
 * const r = await runEpisode({ env: "bank_run", seed: 1, run: "demo", outDir: dir });
 * const [one] = await readLogEpisodes(r.logPath!);
 * if (one.episode !== "bank_run_M0_stable_s1" || one.events.length !== r.events.length) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 * @throws {SyntaxError} For a malformed line, naming the file and line.
 */
export function readLogEpisodes(path: string): Promise<LoggedEpisode[]> {
  const byKey = new Map<string, LoggedEpisode>();
  const decoder = new LogLineDecoder();
  for (const { text, line } of readLogTexts(path)) {
    for (const e of parseEpisodeLog(text, path, { firstLine: line, decoder })) {
      const key = `${e.run}\u0000${e.episode}`;
      let found = byKey.get(key);
      if (!found) byKey.set(key, found = { run: e.run, episode: e.episode, events: [] });
      found.events.push(e);
    }
  }
  return Promise.resolve([...byKey.values()]);
}

/**
 * Every episode logged under a folder (any depth; per-episode files and
 * segments alike), by episode id, sorted by id. It holds every event in
 * memory: for replaying or checking a few episodes; analyse large runs with
 * the loaders (`loadRuns`).
 *
 * @example
 * ```ts
 * import { readRunEpisodes } from "./segments.ts";
 * import { runGrid } from "./run_grid.ts";
 * const out = await Deno.makeTempDir();
 * await runGrid({ name: "demo", episodes: 2, blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0"] }] },
 *   { out, workers: 0, progress: false });
 * const logs = await readRunEpisodes(out);
 * if ([...logs.keys()].join() !== "bank_run_M0_stable_mock_e0,bank_run_M0_stable_mock_e1") throw new Error();
 * await Deno.remove(out, { recursive: true });
 * ```
 * @throws {RangeError} When two files hold the same (run, episode).
 * @throws {SyntaxError} For a malformed line, naming the file and line.
 */
export async function readRunEpisodes(dir: string): Promise<Map<string, EngineEvent[]>> {
  const found = new Map<string, { file: string; log: LoggedEpisode }>();
  for (const file of await logFilesUnder(dir)) {
    for (const log of await readLogEpisodes(file)) {
      const key = `${log.run}\u0000${log.episode}`;
      const prior = found.get(key);
      if (prior) {
        throw new RangeError(
          `Episode "${log.episode}" of run "${log.run}" is logged twice ("${prior.file}" and "${file}")`,
        );
      }
      found.set(key, { file, log });
    }
  }
  const sorted = [...found.values()].sort((a, b) =>
    a.log.episode < b.log.episode ? -1 : a.log.episode > b.log.episode ? 1 : 0
  );
  return new Map(sorted.map(({ log }) => [log.episode, log.events]));
}

/** Every `.ndjson` file under a folder, any depth, in sorted path order. */
async function logFilesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = await Array.fromAsync(Deno.readDir(dir));
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory) out.push(...await logFilesUnder(path));
    else if (e.isFile && e.name.endsWith(".ndjson")) out.push(path);
  }
  return out;
}

/** Complete blocks found in segment bytes past the index, and what ends them. */
interface TailScan {
  blocks: SegmentEntry[];
  /** Offset just past the last complete block (or blank line). */
  end: number;
  /** Episode of the torn block, `""` when unknown, `null` when nothing is torn. */
  torn: string | null;
}

/**
 * Reads complete blocks from `bytes` (segment bytes from offset `base`).
 * Blank lines (retired blocks) between blocks are skipped.
 */
function scanBlocks(bytes: Uint8Array, base: number, path: string): TailScan {
  const decoder = new TextDecoder();
  const out: TailScan = { blocks: [], end: base, torn: null };
  // An open block; `blocks` when it began with a block header (its lines carry no run or episode).
  let open: { run: string; episode: string; start: number; blocks: boolean } | null = null;
  let at = 0;
  while (at < bytes.length) {
    const nl = bytes.indexOf(NEWLINE, at);
    if (nl === -1) {
      out.torn = open?.episode ?? "";
      return out;
    }
    const line = decoder.decode(bytes.subarray(at, nl));
    const where = `"${path}" at byte ${base + at}`;
    if (line.trim() === "") {
      if (open === null) out.end = base + nl + 1;
      at = nl + 1;
      continue;
    }
    let e: Partial<EngineEvent>;
    try {
      e = JSON.parse(line);
    } catch (err) {
      throw new RangeError(
        `Segment ${where} holds a malformed line before its end (${(err as Error).message}): ` +
          `repair or remove the file`,
      );
    }
    const header = isBlockHeaderSchema(e?.schema);
    if (
      typeof e === "object" && e !== null && e.schema === undefined &&
      (typeof e.round === "number" || (open?.blocks === true && typeof e.type === "string"))
    ) {
      // A block line: it belongs to the block its header opened.
      if (open === null || !open.blocks) {
        throw new RangeError(
          `Segment ${where} holds a block line (no "schema") outside a block: its header line ` +
            `({"schema":3,...}) is missing`,
        );
      }
    } else if (typeof e?.run !== "string" || typeof e.episode !== "string") {
      throw new RangeError(`Segment ${where} holds a line without run and episode`);
    } else if (open === null) {
      open = { run: e.run, episode: e.episode, start: base + at, blocks: header };
    } else if (header || open.blocks) {
      throw new RangeError(
        `Segment ${where}: a line of episode "${e.episode}" inside the block of "${open.episode}"`,
      );
    } else if (e.run !== open.run || e.episode !== open.episode) {
      throw new RangeError(
        `Segment ${where}: a line of episode "${e.episode}" inside the block of "${open.episode}"`,
      );
    }
    at = nl + 1;
    if (e.type === "episode_end") {
      out.blocks.push({
        run: open.run,
        episode: open.episode,
        offset: open.start,
        bytes: base + at - open.start,
        status: String((e as { status?: unknown }).status),
      });
      out.end = base + at;
      open = null;
    }
  }
  if (open !== null) out.torn = open.episode;
  return out;
}

/** What {@linkcode recoverSegment} found and did. */
export interface SegmentRecovery {
  /** Segment path. */
  path: string;
  /** Its complete, unretired blocks, in order (empty when the segment was removed). */
  entries: SegmentEntry[];
  /** Episode of a torn block that was cut away (`""` when unknown), or `null`. */
  truncated: string | null;
  /** Complete blocks that were missing from the index and added. */
  reindexed: number;
  /** Whether the segment (empty) and its index were removed. */
  removed: boolean;
}

/** The bytes of a file from `start` to `end` (or to its end, when shorter). */
function readRange(path: string, start: number, end: number): Uint8Array {
  using file = Deno.openSync(path, { read: true });
  file.seekSync(start, Deno.SeekMode.Start);
  const bytes = new Uint8Array(Math.max(0, Math.min(end, file.statSync().size) - start));
  let read = 0;
  while (read < bytes.length) {
    const n = file.readSync(bytes.subarray(read));
    if (n === null || n === 0) break;
    read += n;
  }
  return bytes.subarray(0, read);
}

function writeIndex(path: string, index: ParsedIndex): void {
  const lines = index.blocks.map((b) => JSON.stringify(b) + "\n").join("") +
    [...index.retired].map(([retire, bytes]) => JSON.stringify({ retire, bytes }) + "\n")
      .join("");
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  Deno.writeTextFileSync(tmp, lines);
  Deno.renameSync(tmp, path);
}

function blankInPlace(path: string, ranges: Iterable<[number, number]>): void {
  using file = Deno.openSync(path, { read: true, write: true });
  const probe = new Uint8Array(1);
  for (const [offset, bytes] of ranges) {
    // Blanking runs front to back, so a blank last character means it finished.
    file.seekSync(offset + Math.max(0, bytes - 2), Deno.SeekMode.Start);
    if (file.readSync(probe) !== 1 || probe[0] === SPACE) continue;
    const blank = new Uint8Array(bytes).fill(SPACE);
    blank[bytes - 1] = NEWLINE;
    file.seekSync(offset, Deno.SeekMode.Start);
    writeAll(file, blank);
  }
}

/**
 * Brings a segment back to a state of complete blocks, for resume (the
 * caller holds the folder lock): drops index lines that are torn or do not
 * match the segment, indexes complete blocks past the index, cuts away a
 * torn tail, completes retirements, and removes a segment with no block.
 *
 * @example
 * ```ts
 * import { recoverSegment, SegmentWriter } from "./segments.ts";
 * import { runEpisode } from "../run_episode.ts";
 * const dir = await Deno.makeTempDir();
 * const w = SegmentWriter.create(dir, "t");
 * w.append((await runEpisode({ env: "bank_run", seed: 1 })).events);
 * w.close();
 * await Deno.writeTextFile(w.path, '{"schema":1,"run":"adhoc","epi', { append: true });
 * const r = await recoverSegment(w.path);
 * if (r.entries.length !== 1 || r.truncated !== "") throw new Error(JSON.stringify(r));
 * await Deno.remove(dir, { recursive: true });
 * ```
 * @throws {RangeError} For a segment damaged before its end, naming the file and byte.
 * @throws {Deno.errors.NotFound} When the segment does not exist.
 */
export function recoverSegment(path: string): Promise<SegmentRecovery> {
  const indexPath = segmentIndexPath(path);
  const out: SegmentRecovery = { path, entries: [], truncated: null, reindexed: 0, removed: false };
  let size = Deno.statSync(path).size;
  const text = readTextIfExists(indexPath);
  const index = parseIndex(text ?? "", size);
  let dirty = text === null || index.valid < text.length;
  const last = index.blocks.at(-1);
  const indexed = last ? last.offset + last.bytes : 0;
  if (size > indexed) {
    const tail = scanBlocks(readRange(path, indexed, size), indexed, path);
    index.blocks.push(...tail.blocks);
    out.reindexed = tail.blocks.length;
    dirty ||= tail.blocks.length > 0;
    if (tail.end < size) {
      Deno.truncateSync(path, tail.end);
      out.truncated = tail.torn ?? "";
      size = tail.end;
    }
  }
  if (index.blocks.length === 0 && size === 0) {
    Deno.removeSync(path);
    if (text !== null) Deno.removeSync(indexPath);
    out.removed = true;
    return Promise.resolve(out);
  }
  if (dirty) writeIndex(indexPath, index);
  if (index.retired.size > 0) blankInPlace(path, index.retired);
  out.entries = index.blocks.filter((b) => !index.retired.has(b.offset));
  return Promise.resolve(out);
}

/**
 * Retires a block (a failed episode about to be played again): appends a
 * retire line to the index, then overwrites the block with spaces. Readers
 * skip it from the moment the index line is written.
 *
 * @example
 * ```ts
 * import { readLogEpisodes, recoverSegment, retireBlock, SegmentWriter } from "./segments.ts";
 * import { runEpisode } from "../run_episode.ts";
 * const dir = await Deno.makeTempDir();
 * const w = SegmentWriter.create(dir, "t");
 * const entry = w.append((await runEpisode({ env: "bank_run", seed: 1 })).events);
 * w.close();
 * await retireBlock(w.path, entry);
 * if ((await readLogEpisodes(w.path)).length !== 0) throw new Error();
 * if ((await recoverSegment(w.path)).entries.length !== 0) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function retireBlock(path: string, entry: SegmentEntry): Promise<void> {
  Deno.writeTextFileSync(
    segmentIndexPath(path),
    JSON.stringify({ retire: entry.offset, bytes: entry.bytes }) + "\n",
    { append: true },
  );
  blankInPlace(path, [[entry.offset, entry.bytes]]);
  return Promise.resolve();
}

// Scans event-log text into plain columns (typed arrays and dictionary-coded
// strings). No Polars here: this module also runs inside worker threads, and
// their results are merged in the main thread before frames are built.
//
// Only the lines of the frames asked for are parsed; the rest (checkpoints,
// messages, ...) are checked for shape only.

import { createHash } from "node:crypto";
import { canonicalJson } from "../../engine/core/canonical_json.ts";
import { LogChunkReader, readLogTexts } from "../../engine/grid/segments.ts";
import { EVENT_SCHEMA_VERSION } from "../../engine/core/events.ts";
import {
  type DecisionLine,
  type DeltaReader,
  eventsHashAt,
  isBlockHeaderLine,
  isBlockLine,
  LINE_PREFIX,
  LineReader,
  LogLineDecoder,
  readDecision,
  readDeltaDecision,
  readRunEpisode,
  RUN_EPISODE_PATTERN,
  TYPE_KEY,
  typeKeyAt,
} from "../../engine/core/event_layout.ts";
import { unsupportedSchemaMessage } from "../../engine/core/log_file.ts";

/** Names of the frames a load can produce. */
export type FrameName =
  | "episodes"
  | "rounds"
  | "decisions"
  | "mechanisms"
  | "corrections"
  | "calls"
  | "turns";

/** Frames built from child events (every frame but `episodes`). */
export type ChildFrame = Exclude<FrameName, "episodes">;

/** A line that could not be read. */
export interface MalformedLine {
  /** The file it is in. */
  file: string;
  /** Its line number, from 1. */
  line: number;
  /** What is wrong with it. */
  message: string;
}

/** Thrown in strict mode: a `SyntaxError` naming file and line. */
export class MalformedLineError extends SyntaxError {
  constructor(readonly detail: MalformedLine) {
    super(`${detail.file}:${detail.line}: ${detail.message}`);
    this.name = "SyntaxError";
  }
}

/**
 * Column kinds: numbers, integers, nullable integers (`int`, Int64 in the
 * frame), booleans, coded strings, free text.
 */
export type ColumnKind = "f64" | "i32" | "int" | "bool" | "str" | "text";

/** The columns of each child frame, in output order (`rounds` adds its metrics). */
export const CHILD_COLUMNS: Readonly<
  Record<ChildFrame, readonly (readonly [string, ColumnKind])[]>
> = {
  rounds: [["round", "i32"]],
  decisions: [
    ["round", "i32"],
    ["step", "str"],
    ["seq", "i32"],
    ["agent", "str"],
    ["call", "str"],
    ["action", "str"],
    ["alternative", "str"],
    ["reported", "f64"],
    ["probability", "f64"],
    ["draw", "f64"],
    ["realized", "bool"],
    ["committed", "bool"],
    ["amount", "f64"],
  ],
  mechanisms: [
    ["round", "i32"],
    ["step", "str"],
    ["seq", "i32"],
    ["action", "str"],
    ["agent", "str"],
    ["target", "str"],
    ["amount", "f64"],
    ["fields", "text"],
  ],
  corrections: [
    ["round", "i32"],
    ["step", "str"],
    ["seq", "i32"],
    ["agent", "str"],
    ["call", "str"],
    ["field", "str"],
    ["reason", "text"],
    ["raw", "text"],
    ["applied", "text"],
  ],
  calls: [
    ["round", "i32"],
    ["step", "str"],
    ["seq", "i32"],
    ["agent", "str"],
    ["role", "str"],
    ["call", "str"],
    ["status", "str"],
    ["message", "text"],
    ["model_id", "str"],
    ["provider", "str"],
    ["provider_model", "str"],
    ["cache", "str"],
    ["attempts", "int"],
    ["tokens_in", "int"],
    ["tokens_out", "int"],
    ["tokens_reasoning", "int"],
    ["cost", "f64"],
    ["latency_ms", "f64"],
    ["wall_ms", "f64"],
    ["finish_reason", "str"],
    ["usage_warning", "text"],
    ["error", "text"],
  ],
  turns: [
    ["round", "i32"],
    ["seq", "i32"],
    ["position", "i32"],
    ["agent", "str"],
    ["corrupted", "bool"],
    ["original_action", "str"],
    ["public_action", "str"],
    ["executed_action", "str"],
    ["confidence", "f64"],
    ["original_justification", "text"],
    ["public_justification", "text"],
  ],
};

/** Plain, transferable data of one column. */
export type ColumnData =
  | { kind: "f64" | "i32" | "int"; values: Float64Array }
  | { kind: "bool"; values: Uint8Array }
  | { kind: "str"; codes: Uint32Array; words: (string | null)[] }
  | { kind: "text"; values: (string | null)[] };

/** Plain data of one child frame: the episode index of every row and its columns. */
export interface TableData {
  episode: Uint32Array;
  columns: Record<string, ColumnData>;
}

/**
 * What an episode's start and end events say, kept for the `episodes` frame,
 * for one file's copy of the episode (see {@linkcode dedupeEpisodes}).
 */
export interface EpisodeMeta {
  run: string;
  episode: string;
  file: string;
  start?: Record<string, unknown>;
  end?: Record<string, unknown>;
  lastRound: number;
  /** The `events_hash` of its last checkpoint, when it has one. */
  hash?: string;
  /** The line of its `episode_start` (a second one is malformed). */
  startLine?: number;
  /** The line of its `episode_end` (a second one is malformed). */
  endLine?: number;
  /** Its model calls, summed from its `llm_call` events. */
  usage: EpisodeUsage;
}

/**
 * An episode's model calls summed: token sums are `null` once a call's
 * counts are unknown (it has a `usage_warning`), the cost once a call's cost
 * is unknown (`cost` null: a model without a price); never a guessed 0.
 */
export interface EpisodeUsage {
  /** `llm_call` events. */
  calls: number;
  /** Prompt tokens, or null. */
  tokensIn: number | null;
  /** Completion tokens, or null. */
  tokensOut: number | null;
  /** Reasoning tokens, or null. */
  tokensReasoning: number | null;
  /** Estimated cost, or null. */
  cost: number | null;
}

/** Usage of one call whose counts and cost are unknown. */
const UNKNOWN_USAGE: EpisodeUsage = {
  calls: 1,
  tokensIn: null,
  tokensOut: null,
  tokensReasoning: null,
  cost: null,
};

/** Usage of no calls. */
export function noUsage(): EpisodeUsage {
  return { calls: 0, tokensIn: 0, tokensOut: 0, tokensReasoning: 0, cost: 0 };
}

/** Adds usage to usage (in place); an unknown part stays unknown. */
export function addUsage(to: EpisodeUsage, more: EpisodeUsage): void {
  const sum = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);
  to.calls += more.calls;
  to.tokensIn = sum(to.tokensIn, more.tokensIn);
  to.tokensOut = sum(to.tokensOut, more.tokensOut);
  to.tokensReasoning = sum(to.tokensReasoning, more.tokensReasoning);
  to.cost = sum(to.cost, more.cost);
}

/**
 * The result of a scan: episodes, child tables (one part per scanned share
 * of the files, episode indices into `episodes`) and malformed lines.
 */
export interface ScanResult {
  episodes: EpisodeMeta[];
  tables: Partial<Record<ChildFrame, TableData[]>>;
  malformed: MalformedLine[];
}

const SUPPORTED_SCHEMA = EVENT_SCHEMA_VERSION;
const NULL = 2;

class Float64Builder {
  values = new Float64Array(256);
  length = 0;
  push(value: number): void {
    if (this.length === this.values.length) this.values = grow(this.values);
    this.values[this.length++] = value;
  }
  data(): Float64Array {
    return this.values.slice(0, this.length);
  }
}

class BoolBuilder {
  values = new Uint8Array(256);
  length = 0;
  push(value: unknown): void {
    if (this.length === this.values.length) this.values = grow(this.values);
    this.values[this.length++] = value === true ? 1 : value === false ? 0 : NULL;
  }
  data(): Uint8Array {
    return this.values.slice(0, this.length);
  }
}

class StringBuilder {
  codes = new Uint32Array(256);
  length = 0;
  readonly words: (string | null)[] = [null];
  private readonly index = new Map<string, number>();
  /** The last value pushed (readers compare the text with it before slicing). */
  lastValue: unknown = null;
  private lastCode = 0;
  push(value: unknown): void {
    let code = 0;
    if (value === this.lastValue) {
      code = this.lastCode;
    } else if (value !== null && value !== undefined) {
      const text = typeof value === "string" ? value : String(value);
      const known = this.index.get(text);
      if (known === undefined) {
        code = this.words.length;
        this.words.push(text);
        this.index.set(text, code);
      } else {
        code = known;
      }
      this.lastValue = value;
      this.lastCode = code;
    }
    if (this.length === this.codes.length) this.codes = grow(this.codes);
    this.codes[this.length++] = code;
  }
}

type Builder = Float64Builder | BoolBuilder | StringBuilder | (string | null)[];

function grow<T extends Float64Array | Uint8Array | Uint32Array>(array: T): T {
  const grown = new (array.constructor as new (n: number) => T)(array.length * 2);
  grown.set(array);
  return grown;
}

class TableBuilder {
  readonly episode = new Float64Builder();
  readonly columns = new Map<string, Builder>();
  constructor(private readonly spec: readonly (readonly [string, ColumnKind])[]) {
    for (const [name, kind] of spec) this.columns.set(name, newBuilder(kind));
  }
  get length(): number {
    return this.episode.length;
  }
  /**
   * Appends a row of episode `index`: every column takes the event's field
   * of the same name (text only if it is a string), or its value in
   * `computed` when that has one.
   */
  row(index: number, event: Record<string, unknown>, computed: Record<string, unknown> = {}) {
    this.episode.push(index);
    for (const [name, kind] of this.spec) {
      const value = name in computed ? computed[name] : event[name];
      switch (kind) {
        case "f64":
        case "i32":
        case "int":
          this.number(name, value);
          break;
        case "bool":
          this.bool(name, value);
          break;
        case "str":
          this.string(name, value);
          break;
        case "text":
          this.text(name, name in computed ? value as string | null : textOrNull(value));
      }
    }
  }
  number(name: string, value: unknown): void {
    (this.columns.get(name) as Float64Builder).push(
      typeof value === "number" ? value : NaN,
    );
  }
  bool(name: string, value: unknown): void {
    (this.columns.get(name) as BoolBuilder).push(value);
  }
  string(name: string, value: unknown): void {
    (this.columns.get(name) as StringBuilder).push(value);
  }
  text(name: string, value: string | null): void {
    (this.columns.get(name) as (string | null)[]).push(value);
  }
  /** A numeric column added on first use (rounds' metrics), NaN-padded. */
  metric(name: string, value: unknown): void {
    let column = this.columns.get(name) as Float64Builder | undefined;
    if (column === undefined) {
      column = new Float64Builder();
      for (let i = 0; i < this.length - 1; i++) column.push(NaN);
      this.columns.set(name, column);
    }
    column.push(typeof value === "number" ? value : NaN);
  }
  /** Pads metric columns that this row did not mention. */
  padMetrics(): void {
    for (const column of this.columns.values()) {
      const builder = column as Float64Builder;
      while (builder.length < this.length) builder.push(NaN);
    }
  }
  data(kinds: ReadonlyMap<string, ColumnKind>): TableData {
    const columns: Record<string, ColumnData> = {};
    for (const [name, builder] of this.columns) {
      const kind = kinds.get(name) ?? "f64";
      if (builder instanceof StringBuilder) {
        columns[name] = {
          kind: "str",
          codes: builder.codes.slice(0, builder.length),
          words: builder.words,
        };
      } else if (builder instanceof BoolBuilder) {
        columns[name] = { kind: "bool", values: builder.data() };
      } else if (builder instanceof Float64Builder) {
        columns[name] = { kind: kind as "f64" | "i32" | "int", values: builder.data() };
      } else {
        columns[name] = { kind: "text", values: builder };
      }
    }
    return { episode: Uint32Array.from(this.episode.data()), columns };
  }
}

function newBuilder(kind: ColumnKind): Builder {
  switch (kind) {
    case "f64":
    case "i32":
    case "int":
      return new Float64Builder();
    case "bool":
      return new BoolBuilder();
    case "str":
      return new StringBuilder();
    case "text":
      return [];
  }
}

/** Scans files' text into columns; see the module comment. */
export class EventScanner {
  private readonly malformed: MalformedLine[] = [];
  private readonly episodes: EpisodeMeta[] = [];
  private readonly episodeIndex = new Map<string, number>();
  private lastRun = "";
  private lastEpisode = "";
  private lastFile = "";
  private lastIndex = -1;
  private readonly tables: Partial<Record<ChildFrame, TableBuilder>> = {};
  /** Agent calls of the file being read whose report is still to come (`calls` only). */
  private readonly pending = new Map<string, PendingCall>();
  private lastPrefix = "";
  // The open block of the file being read (its header), for lines of the block layout.
  private decoder = new LogLineDecoder();
  // The last decision read on the fast path (its strings are reused when they repeat).
  private readonly decisionLine = {} as DecisionLine;
  private readonly decisionColumns?: {
    episode: Float64Builder;
    round: Float64Builder;
    step: StringBuilder;
    seq: Float64Builder;
    agent: StringBuilder;
    call: StringBuilder;
    action: StringBuilder;
    alternative: StringBuilder;
    reported: Float64Builder;
    probability: Float64Builder;
    draw: Float64Builder;
    realized: BoolBuilder;
    committed: BoolBuilder;
    amount: Float64Builder;
  };

  constructor(frames: readonly FrameName[], private readonly strict: boolean) {
    for (const name of frames) {
      if (name !== "episodes") this.tables[name] = new TableBuilder(CHILD_COLUMNS[name]);
    }
    const decisions = this.tables.decisions;
    if (decisions !== undefined) {
      const c = (name: string) => decisions.columns.get(name);
      this.decisionColumns = {
        episode: decisions.episode,
        round: c("round") as Float64Builder,
        step: c("step") as StringBuilder,
        seq: c("seq") as Float64Builder,
        agent: c("agent") as StringBuilder,
        call: c("call") as StringBuilder,
        action: c("action") as StringBuilder,
        alternative: c("alternative") as StringBuilder,
        reported: c("reported") as Float64Builder,
        probability: c("probability") as Float64Builder,
        draw: c("draw") as Float64Builder,
        realized: c("realized") as BoolBuilder,
        committed: c("committed") as BoolBuilder,
        amount: c("amount") as Float64Builder,
      };
    }
  }

  /**
   * Reads a chunk of one file's text: whole lines (the file's last may lack
   * its newline) following `linesBefore` lines of the file. Chunks of one
   * file come in order, between {@linkcode EventScanner.startFile} and
   * {@linkcode EventScanner.endFile}. Returns the line count so far.
   */
  addChunk(text: string, file: string, linesBefore: number): number {
    const length = text.length;
    let start = 0;
    let line = linesBefore;
    while (start < length) {
      let end = text.indexOf("\n", start);
      if (end === -1) end = length;
      line++;
      let stop = end;
      if (stop > start && text.charCodeAt(stop - 1) === 13) stop--; // CRLF
      if (stop > start) this.addLine(text, start, stop, file, line);
      start = end + 1;
    }
    return line;
  }

  /** Starts reading a file. */
  startFile(): void {
    this.lastPrefix = "";
    this.decoder = new LogLineDecoder();
  }

  /** Ends reading a file: agent calls it left open are closed. */
  endFile(): void {
    if (this.pending.size > 0) this.flushPending();
  }

  /** The scan's plain result. */
  result(): ScanResult {
    const tables: Partial<Record<ChildFrame, TableData[]>> = {};
    for (const [name, builder] of Object.entries(this.tables) as [ChildFrame, TableBuilder][]) {
      tables[name] = [builder.data(new Map(CHILD_COLUMNS[name]))];
    }
    return { episodes: this.episodes, tables, malformed: this.malformed };
  }

  private fail(file: string, line: number, message: string): void {
    const detail = { file, line, message };
    if (this.strict) throw new MalformedLineError(detail);
    this.malformed.push(detail);
  }

  private addLine(text: string, start: number, stop: number, file: string, line: number): void {
    const delta = this.decoder.delta;
    if (delta !== undefined && !delta.broken && !text.startsWith('{"schema":', start)) {
      this.deltaLine(delta, text, start, stop, file, line);
      return;
    }
    // The line's layout is the writer's (engine/core/event_layout.ts), either one.
    const at = typeKeyAt(text, start, stop);
    if (at === -1) {
      this.addSlowLine(text.slice(start, stop), file, line);
      return;
    }
    const block = text.charCodeAt(start + 2) === 114; /* r: {"round": */
    if (!block) {
      // A line of the old layout ends any block.
      this.decoder.endBlock();
    } else if (this.decoder.header === undefined) {
      // A block line outside a block: the slow path says so.
      this.addSlowLine(text.slice(start, stop), file, line);
      return;
    }
    if (!this.needsAt(text, at + TYPE_KEY.length)) {
      if (text.startsWith('checkpoint"', at + TYPE_KEY.length)) {
        this.checkpointLine(text, start, stop, file, line);
      }
      return;
    }
    if (
      text.charCodeAt(at + TYPE_KEY.length) === 100 /* d */ &&
      text.startsWith('decision"', at + TYPE_KEY.length) &&
      this.fastDecision(text, start, at, stop, file)
    ) {
      return;
    }
    const event = this.parse(text.slice(start, stop), file, line);
    if (event !== undefined) this.addEvent(event, String(event.type), file, line);
  }

  /**
   * A line of a `"lines-v6"` block: its head is read on every line (the next
   * line's implied members depend on it), its body only when its type is
   * needed (a decision's on the fast path); a checkpoint's events hash is
   * read without its state. What the fast readers cannot read exactly is
   * parsed and decoded.
   */
  private deltaLine(
    delta: DeltaReader,
    text: string,
    start: number,
    stop: number,
    file: string,
    line: number,
  ): void {
    const at = text.charCodeAt(stop - 1) === 125 /* } */ ? delta.readHead(text, start, stop) : -1;
    if (at !== -1) {
      const typeAt = at + TYPE_KEY.length;
      if (!this.needsAt(text, typeAt)) {
        const typeEnd = text.indexOf('"', typeAt);
        const type = text.slice(typeAt, typeEnd);
        if (type === "checkpoint") {
          const hash = eventsHashAt(text, start, stop);
          if (hash === undefined) {
            this.deltaSlowLine(text.slice(start, stop), file, line);
            return;
          }
          const header = delta.header;
          this.episodes[this.episodeOf(header.run, header.episode, file)].hash = detached(
            text.slice(hash[0], hash[1]),
          );
        }
        delta.commitHead(type, true);
        return;
      }
      if (
        text.startsWith('decision"', typeAt) &&
        this.fastDeltaDecision(delta, text, at, stop, file)
      ) {
        return;
      }
    }
    this.deltaSlowLine(text.slice(start, stop), file, line);
  }

  /** A `"lines-v6"` line the fast readers did not read: parsed; decoded if its type is needed. */
  private deltaSlowLine(source: string, file: string, line: number): void {
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      this.decoder.lost();
      this.fail(file, line, `malformed event line (${(error as Error).message})`);
      return;
    }
    const delta = this.decoder.delta!;
    const type = (value as { type?: unknown } | null)?.type;
    if (typeof type === "string" && !this.needs(type)) {
      // Its head is all the lines after it need of it (and a checkpoint's its events hash:
      // its state, which the loaders do not read, may be a delta of states never decoded).
      const problem = delta.skipParsed(value as Record<string, unknown>);
      if (problem !== undefined) this.fail(file, line, problem);
      else if (type === "checkpoint") {
        const hash = (value as { events_hash?: unknown }).events_hash;
        const header = delta.header;
        if (typeof hash === "string") {
          this.episodes[this.episodeOf(header.run, header.episode, file)].hash = hash;
        }
      }
      return;
    }
    const event = this.decoder.decode(value);
    if (typeof event === "string") {
      this.fail(file, line, event);
      return;
    }
    if (event === undefined) return;
    if (event.type === "checkpoint") this.checkpointHash(event, file);
    else this.addEvent(event, String(event.type), file, line);
  }

  /** Appends a decision read on a fast path to the columns of episode `index`. */
  private pushDecision(index: number, v: DecisionLine): void {
    const d = this.decisionColumns!;
    const meta = this.episodes[index];
    if (v.round > meta.lastRound) meta.lastRound = v.round;
    d.episode.push(index);
    d.round.push(v.round);
    d.step.push(v.step);
    d.seq.push(v.seq);
    d.agent.push(v.agent);
    d.call.push(v.call);
    d.action.push(v.action);
    d.alternative.push(v.alternative);
    d.reported.push(v.reported);
    d.probability.push(v.probability);
    d.draw.push(v.draw);
    d.realized.push(v.realized);
    d.committed.push(v.committed);
    d.amount.push(v.amount);
  }

  /** A `"lines-v6"` decision on the fast path (see `readDeltaDecision`). */
  private fastDeltaDecision(
    delta: DeltaReader,
    text: string,
    at: number,
    stop: number,
    file: string,
  ): boolean {
    const v = this.decisionLine;
    if (!readDeltaDecision(delta, text, at, stop, v)) return false;
    const index = this.episodeOf(delta.header.run, delta.header.episode, file);
    this.pushDecision(index, v);
    return true;
  }

  /**
   * A line parsed into the event it stands for (a block line rebuilt from
   * its block's header), or undefined, reported, for a line that is not
   * JSON or is a block line outside a block (or a header: no event).
   */
  private parse(source: string, file: string, line: number): Record<string, unknown> | undefined {
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (error) {
      this.decoder.lost();
      this.fail(file, line, `malformed event line (${(error as Error).message})`);
      return undefined;
    }
    const event = this.decoder.decode(value);
    if (typeof event === "string") this.fail(file, line, event);
    return typeof event === "string" ? undefined : event;
  }

  // The engine writes decisions with JSON.stringify in a fixed key order;
  // readDecision (engine/core/event_layout.ts) reads such a line without
  // building an object. Anything unexpected (other key order, escapes,
  // non-finite numbers) returns false and the line is parsed with JSON.parse
  // instead, so the result never depends on the path.
  private fastDecision(
    text: string,
    start: number,
    at: number,
    stop: number,
    file: string,
  ): boolean {
    let r: LineReader;
    let index: number;
    const header = this.decoder.header;
    if (text.charCodeAt(start + 2) === 114 /* r: a block line */) {
      if (header === undefined) return false;
      r = new LineReader(text, start + 1, stop);
      index = this.episodeOf(header.run, header.episode, file);
    } else if (this.lastPrefix !== "" && text.startsWith(this.lastPrefix, start)) {
      r = new LineReader(text, start + LINE_PREFIX.length, stop);
      index = this.lastIndex;
      r.pos = start + this.lastPrefix.length;
    } else {
      r = new LineReader(text, start + LINE_PREFIX.length, stop);
      const head = readRunEpisode(r);
      if (head === undefined) return false;
      index = this.episodeOf(head.run, head.episode, file);
      this.lastPrefix = text.slice(start, r.pos);
    }
    const v = this.decisionLine;
    if (!readDecision(r, at, v)) return false;
    this.pushDecision(index, v);
    return true;
  }

  private addSlowLine(source: string, file: string, line: number): void {
    if (source.trim() === "") return;
    const event = this.parse(source, file, line);
    if (event === undefined) return;
    if (typeof event !== "object" || event === null || Array.isArray(event)) {
      this.fail(file, line, `an event must be a JSON object`);
      return;
    }
    const record = event as Record<string, unknown>;
    // A log of a later build (an event's schema, or a block header's of a later layout,
    // which has no "type") is named before the line's shape is judged by this build's rules.
    if (typeof record.schema === "number" && record.schema !== SUPPORTED_SCHEMA) {
      throw new RangeError(`${file}:${line}: ${unsupportedSchemaMessage(record.schema)}`);
    }
    if (typeof record.type !== "string") {
      this.fail(file, line, `an event must have a string "type"`);
      return;
    }
    if (record.schema !== SUPPORTED_SCHEMA) {
      // A log of another version is not a malformed line to skip: its
      // episodes would be missing from every table without a word.
      if (typeof record.schema === "number") {
        throw new RangeError(`${file}:${line}: ${unsupportedSchemaMessage(record.schema)}`);
      }
      this.fail(file, line, unsupportedSchemaMessage(record.schema));
      return;
    }
    if (this.needs(record.type)) this.addEvent(record, record.type, file, line);
    else if (record.type === "checkpoint") this.checkpointHash(record, file);
  }

  /**
   * Keeps a checkpoint's `events_hash` as its episode's last hash (the
   * content its copies are compared by), reading the line's run, episode and
   * hash without parsing its state unless the line is unusual.
   */
  private checkpointLine(text: string, start: number, stop: number, file: string, line: number) {
    const head = text.charCodeAt(start + 2) === 114 /* r: a block line, of its header's episode */
      ? this.decoder.header
      : readRunEpisode(new LineReader(text, start + LINE_PREFIX.length, stop));
    const hash = eventsHashAt(text, start, stop);
    if (head !== undefined && hash !== undefined) {
      const meta = this.episodes[this.episodeOf(head.run, head.episode, file)];
      meta.hash = detached(text.slice(hash[0], hash[1]));
      return;
    }
    const event = this.parse(text.slice(start, stop), file, line);
    if (event !== undefined) this.checkpointHash(event, file);
  }

  private checkpointHash(event: Record<string, unknown>, file: string): void {
    const { run, episode, events_hash: hash } = event;
    if (typeof run !== "string" || typeof episode !== "string" || typeof hash !== "string") return;
    this.episodes[this.episodeOf(run, episode, file)].hash = hash;
  }

  /** Whether the type starting at `at` (inside a JSON string) is needed, without slicing it. */
  private needsAt(text: string, at: number): boolean {
    switch (text.charCodeAt(at)) {
      case 99: // c: checkpoint, correction
        return text.startsWith('correction"', at) && this.tables.corrections !== undefined;
      case 100: // d: decision, disclosure
        if (text.startsWith('decision"', at)) return this.tables.decisions !== undefined;
        return text.startsWith('disclosure"', at) && this.tables.rounds !== undefined;
      case 101: // e: episode_start, episode_end
        return text.startsWith("episode_", at);
      case 114: // r: report, round_start
        if (text.startsWith('round_start"', at)) return true;
        return text.startsWith('report"', at) && this.tables.calls !== undefined;
      case 109: // m: mechanism, message
        return text.startsWith('mechanism"', at) && this.tables.mechanisms !== undefined;
      case 97: // a: agent_error
        return text.startsWith('agent_error"', at) && this.tables.calls !== undefined;
      case 108: // l: llm_call (the episodes frame sums their usage)
        return text.startsWith('llm_call"', at);
      case 116: // t: turn, transition
        return text.startsWith('turn"', at) && this.tables.turns !== undefined;
      default:
        return false;
    }
  }

  private needs(type: string): boolean {
    switch (type) {
      case "episode_start":
      case "episode_end":
      case "round_start":
      case "llm_call":
        return true;
      case "disclosure":
        return this.tables.rounds !== undefined;
      case "decision":
        return this.tables.decisions !== undefined;
      case "mechanism":
        return this.tables.mechanisms !== undefined;
      case "correction":
        return this.tables.corrections !== undefined;
      case "report":
      case "agent_error":
        return this.tables.calls !== undefined;
      case "turn":
        return this.tables.turns !== undefined;
      default:
        return false;
    }
  }

  /** The index of a file's copy of an episode (copies in other files are other entries). */
  private episodeOf(run: string, episode: string, file: string): number {
    if (run === this.lastRun && episode === this.lastEpisode && file === this.lastFile) {
      return this.lastIndex;
    }
    const key = `${run}\u0000${episode}\u0000${file}`;
    let index = this.episodeIndex.get(key);
    if (index === undefined) {
      index = this.episodes.length;
      this.episodes.push({ run, episode, file, lastRound: 0, usage: noUsage() });
      this.episodeIndex.set(key, index);
    }
    this.lastRun = run;
    this.lastEpisode = episode;
    this.lastFile = file;
    this.lastIndex = index;
    this.lastPrefix = "";
    return index;
  }

  private addEvent(event: Record<string, unknown>, type: string, file: string, line: number) {
    const { round, run, episode } = event;
    if (typeof round !== "number" || typeof run !== "string" || typeof episode !== "string") {
      this.fail(file, line, `event lacks a string run, a string episode or a numeric round`);
      return;
    }
    const index = this.episodeOf(run, episode, file);
    const meta = this.episodes[index];
    if (round > meta.lastRound) meta.lastRound = round;
    switch (type) {
      case "episode_start":
        if (meta.startLine !== undefined) {
          this.fail(
            file,
            line,
            `a second episode_start ${ofEpisode(meta)}${firstAt(meta.startLine)}`,
          );
          return;
        }
        meta.start = event;
        meta.file = file;
        meta.startLine = line;
        return;
      case "episode_end": {
        if (meta.endLine !== undefined) {
          this.fail(file, line, `a second episode_end ${ofEpisode(meta)}${firstAt(meta.endLine)}`);
          return;
        }
        const problem = endProblem(event);
        if (problem !== null) {
          this.fail(file, line, `episode_end ${ofEpisode(meta)} ${problem}`);
          return;
        }
        meta.end = event;
        meta.endLine = line;
        return;
      }
      case "llm_call": {
        const problem = llmCallProblem(event);
        if (problem !== null) {
          this.fail(file, line, `llm_call ${ofEpisode(meta)} ${problem}`);
          // A call was made; what it used is unknown, so its episode's sums are too.
          addUsage(meta.usage, { ...UNKNOWN_USAGE });
          return;
        }
        addUsage(meta.usage, callUsage(event));
        if (this.tables.calls !== undefined) this.pendingOf(index, event).calls.push(event);
        return;
      }
      case "round_start":
        return;
      case "disclosure": {
        const metrics = event.metrics;
        if (typeof metrics !== "object" || metrics === null) {
          this.fail(file, line, `disclosure event lacks "metrics"`);
          return;
        }
        const t = this.tables.rounds!;
        t.episode.push(index);
        t.number("round", round);
        for (const [name, value] of Object.entries(metrics)) {
          if (name !== "round") t.metric(name, value);
        }
        t.padMetrics();
        return;
      }
      case "decision": {
        if (typeof event.reported !== "number" || typeof event.realized !== "boolean") {
          this.fail(
            file,
            line,
            `decision event lacks a numeric "reported" or a boolean "realized"`,
          );
          return;
        }
        this.tables.decisions!.row(index, event, {
          probability: typeof event.probability === "number"
            ? event.probability
            : event.reported / 100,
        });
        return;
      }
      case "mechanism": {
        const {
          schema: _s,
          run: _r,
          episode: _e,
          round: _n,
          step: _p,
          seq: _q,
          time: _t,
          type: _y,
          action: _a,
          agent: _g,
          ...rest
        } = event;
        this.tables.mechanisms!.row(index, event, {
          target: typeof rest.target === "string" ? rest.target : null,
          fields: JSON.stringify(Object.fromEntries(Object.entries(rest).sort())),
        });
        return;
      }
      case "correction":
        this.tables.corrections!.row(index, event, {
          reason: String(event.reason ?? ""),
          raw: JSON.stringify(event.raw ?? null),
          applied: JSON.stringify(event.applied ?? null),
        });
        return;
      case "turn":
        this.tables.turns!.row(index, event);
        return;
      case "agent_error": {
        const pending = this.pendingOf(index, event);
        pending.message = String(event.message ?? "");
        pending.error = event;
        return;
      }
      case "report":
        this.closeCall(
          `${index}\u0000${event.agent}`,
          event,
          typeof event.role === "string" ? event.role : null,
        );
        return;
    }
  }

  /** The open agent call of an episode's agent: its model calls and error so far. */
  private pendingOf(index: number, event: Record<string, unknown>): PendingCall {
    const key = `${index}\u0000${event.agent}`;
    let pending = this.pending.get(key);
    if (pending === undefined) {
      pending = { index, calls: [], message: null, error: null };
      this.pending.set(key, pending);
    }
    return pending;
  }

  /**
   * Ends an agent call: one `calls` row per model call behind it, or one row
   * for a call that made none (a rule-based agent's, an agent that failed
   * before calling a model), each with the agent call's error message.
   */
  private closeCall(key: string, report: Record<string, unknown> | null, role: string | null) {
    const pending = this.pending.get(key);
    this.pending.delete(key);
    const table = this.tables.calls!;
    const index = pending?.index ?? Number(key.slice(0, key.indexOf("\u0000")));
    const message = pending?.message ?? null;
    if (pending !== undefined && pending.calls.length > 0) {
      for (const call of pending.calls) {
        const known = call.usage_warning === null || call.usage_warning === undefined;
        table.row(index, call, {
          role,
          status: call.status,
          message,
          model_id: call.model,
          tokens_in: known ? call.tokens_in : null,
          tokens_out: known ? call.tokens_out : null,
          tokens_reasoning: known ? call.tokens_reasoning : null,
        });
      }
      return;
    }
    const event = report ?? pending!.error!;
    table.row(index, event, {
      role,
      status: pending?.error ? "error" : "ok",
      message,
      model_id: null,
      error: null,
    });
  }

  /**
   * Ends the agent calls a file left open (model calls or an error with no
   * report after them: a log cut short), their role from the episode's
   * `episode_start`.
   */
  private flushPending(): void {
    for (const [key, pending] of [...this.pending]) {
      const agent = key.slice(key.indexOf("\u0000") + 1);
      const agents = this.episodes[pending.index].start?.agents;
      const info = Array.isArray(agents)
        ? (agents as { id?: unknown; role?: unknown }[]).find((a) => a?.id === agent)
        : undefined;
      this.closeCall(key, null, typeof info?.role === "string" ? info.role : null);
    }
  }
}

/** An agent call whose report has not been read yet. */
interface PendingCall {
  index: number;
  calls: Record<string, unknown>[];
  message: string | null;
  error: Record<string, unknown> | null;
}

function ofEpisode(meta: EpisodeMeta): string {
  return `of run "${meta.run}" episode "${meta.episode}"`;
}

function firstAt(line: number): string {
  return ` (the first is at line ${line})`;
}

function show(value: unknown): string {
  return value === undefined ? "nothing" : JSON.stringify(value);
}

const isNonNegativeInteger = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0;

/**
 * What is wrong with an `episode_end`, or `null`: a status that is not one of
 * the three, or an outcome field of the wrong type (fields that are absent
 * are left null in the frame, as before).
 */
function endProblem(event: Record<string, unknown>): string | null {
  const { status, outcome } = event;
  if (status !== undefined && status !== "ok" && status !== "degraded" && status !== "error") {
    return `has status ${show(status)}: expected "ok", "degraded" or "error"`;
  }
  if (outcome === undefined || outcome === null) return null;
  if (typeof outcome !== "object" || Array.isArray(outcome)) {
    return `has an outcome that is not an object: ${show(outcome)}`;
  }
  const o = outcome as Record<string, unknown>;
  const wrong = (field: string, expected: string) =>
    `has outcome field "${field}" ${show(o[field])}: expected ${expected}`;
  const number = (v: unknown) => typeof v === "number";
  if (o.success !== undefined && typeof o.success !== "boolean") {
    return wrong("success", "a boolean");
  }
  if (o.failure !== undefined && o.failure !== null && typeof o.failure !== "string") {
    return wrong("failure", "a string or null");
  }
  if (o.rounds !== undefined && !isNonNegativeInteger(o.rounds)) {
    return wrong("rounds", "a non-negative integer");
  }
  for (const field of ["welfare", "welfareRealization"]) {
    if (o[field] !== undefined && !number(o[field])) return wrong(field, "a number");
  }
  if (o.payoffs !== undefined) {
    const payoffs = o.payoffs;
    if (typeof payoffs !== "object" || payoffs === null || Array.isArray(payoffs)) {
      return wrong("payoffs", "an object of numbers by agent id");
    }
    for (const [id, value] of Object.entries(payoffs)) {
      if (!number(value)) {
        return `has outcome field "payoffs.${id}" ${show(value)}: expected a number`;
      }
    }
  }
  if (o.bounds !== undefined) {
    const b = o.bounds as Record<string, unknown> | null;
    if (typeof b !== "object" || b === null || !number(b.worst) || !number(b.best)) {
      return wrong("bounds", "{ worst, best } numbers");
    }
  }
  return null;
}

/** What is wrong with an `llm_call` event's fields that the frames sum or key on, or `null`. */
function llmCallProblem(event: Record<string, unknown>): string | null {
  const wrong = (field: string, expected: string) =>
    `has field "${field}" ${show(event[field])}: expected ${expected}`;
  for (const field of ["agent", "call", "model"]) {
    if (typeof event[field] !== "string") return wrong(field, "a string");
  }
  if (event.status !== "ok" && event.status !== "error") return wrong("status", `"ok" or "error"`);
  if (event.cache !== "hit" && event.cache !== "miss" && event.cache !== "off") {
    return wrong("cache", `"hit", "miss" or "off"`);
  }
  for (const field of ["attempts", "tokens_in", "tokens_out", "tokens_reasoning"]) {
    if (!isNonNegativeInteger(event[field])) return wrong(field, "a non-negative integer");
  }
  const cost = event.cost;
  if (cost !== null && !(typeof cost === "number" && cost >= 0)) {
    return wrong("cost", "a non-negative number or null (no price)");
  }
  if (event.latency_ms !== undefined && typeof event.latency_ms !== "number") {
    return wrong("latency_ms", "a number");
  }
  const warning = event.usage_warning;
  if (warning !== undefined && warning !== null && typeof warning !== "string") {
    return wrong("usage_warning", "a string or null");
  }
  return null;
}

/** One model call's part of its episode's usage (unknown counts and cost as null). */
function callUsage(event: Record<string, unknown>): EpisodeUsage {
  const known = event.usage_warning === null || event.usage_warning === undefined;
  return {
    calls: 1,
    tokensIn: known ? event.tokens_in as number : null,
    tokensOut: known ? event.tokens_out as number : null,
    tokensReasoning: known ? event.tokens_reasoning as number : null,
    cost: event.cost as number | null,
  };
}

/**
 * A copy of a piece of a file's text that outlives the file's scan. V8 makes
 * a slice of a long string point into that string, so a kept slice would keep
 * the file's whole text in memory: every file's, for a load keeping one per
 * episode (gigabytes on a large load). Concatenating and slicing again
 * copies the piece into a string of its own.
 */
function detached(piece: string): string {
  return (" " + piece).slice(1);
}

function textOrNull(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/**
 * Merges scan results in order: entries of the same file's copy of an
 * episode are one entry (copies in other files stay apart, for
 * {@linkcode dedupeEpisodes}); the child tables stay separate parts, their
 * episode indices recoded into the merged episode list.
 */
export function mergeScans(results: readonly ScanResult[]): ScanResult {
  if (results.length === 1) return results[0];
  const episodes: EpisodeMeta[] = [];
  const index = new Map<string, number>();
  const remaps = results.map((result) =>
    Uint32Array.from(result.episodes, (meta) => {
      const key = `${meta.run}\u0000${meta.episode}\u0000${meta.file}`;
      let at = index.get(key);
      if (at === undefined) {
        at = episodes.length;
        episodes.push({ ...meta });
        index.set(key, at);
      } else {
        const merged = episodes[at];
        merged.start ??= meta.start;
        merged.end ??= meta.end;
        merged.hash = meta.hash ?? merged.hash;
        merged.lastRound = Math.max(merged.lastRound, meta.lastRound);
        addUsage(merged.usage, meta.usage);
      }
      return at;
    })
  );
  const tables: Partial<Record<ChildFrame, TableData[]>> = {};
  const names = new Set(results.flatMap((r) => Object.keys(r.tables) as ChildFrame[]));
  for (const name of names) {
    tables[name] = results.flatMap((result, i) =>
      (result.tables[name] ?? []).map((table) => ({
        ...table,
        episode: table.episode.map((index) => remaps[i][index]),
      }))
    );
  }
  return { episodes, tables, malformed: results.flatMap((r) => r.malformed) };
}

/** The transferable buffers of a result, for `postMessage`. */
export function transferables(result: ScanResult): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const table of Object.values(result.tables).flat()) {
    buffers.push(table.episode.buffer as ArrayBuffer);
    for (const column of Object.values(table.columns)) {
      if (column.kind === "str") buffers.push(column.codes.buffer as ArrayBuffer);
      else if (column.kind !== "text") buffers.push(column.values.buffer as ArrayBuffer);
    }
  }
  return buffers;
}

/**
 * Reads NDJSON files into a scanner in chunks of bytes split at newlines
 * (`LogChunkReader`: one buffer for every read, a file of any size; for a
 * grid segment only the blocks its index lists, retired ones blanked), each
 * chunk decoded and scanned on its own.
 */
export function scanFiles(
  files: readonly string[],
  frames: readonly FrameName[],
  strict: boolean,
  onFile?: () => void,
  options: { chunkBytes?: number } = {},
): ScanResult {
  const scanner = new EventScanner(frames, strict);
  const decoder = new TextDecoder();
  const reader = new LogChunkReader({ chunkBytes: options.chunkBytes });
  for (const file of files) {
    scanner.startFile();
    let lines = 0;
    for (const chunk of reader.read(file)) {
      lines = scanner.addChunk(decoder.decode(chunk), file, lines);
    }
    scanner.endFile();
    onFile?.();
  }
  return scanner.result();
}

// --- Copies of one episode in several files -------------------------------

/** One (run, episode) found in more than one source, and which copy was kept. */
export interface DuplicateEpisode {
  /** Run id. */
  run: string;
  /** Episode id. */
  episode: string;
  /** The source whose copy is kept: a log file, or a compacted set's folder. */
  kept: string;
  /** The source whose copy is left out. */
  dropped: string;
  /** Whether both copies hold the same content. */
  same: boolean;
}

/**
 * A quick look at a copy's content: its `episode_start` and `episode_end`
 * without their wall-clock times, and the events hash of its last
 * checkpoint. Copies that differ here differ; copies that agree are then
 * compared in full ({@linkcode copyDigests}).
 */
function summaryOf(meta: EpisodeMeta): string {
  const { time: _start, ...start } = meta.start ?? {};
  const { time: _end, ...end } = meta.end ?? {};
  return canonicalJson({ start, end, hash: meta.hash ?? null });
}

/**
 * SHA-256 of every event of each wanted episode copy in a file (keys
 * `run\0episode`), in log order, each event without its `time`: what two
 * copies are compared by. Lines of other episodes are skipped unparsed when
 * they start the way the engine writes them; malformed lines are left to the
 * scan, which reports them.
 */
function copyDigests(file: string, keys: ReadonlySet<string>): Map<string, string> {
  const hashes = new Map<string, ReturnType<typeof createHash>>();
  const decoder = new LogLineDecoder();
  for (const { text } of readLogTexts(file)) copyDigestsOf(text, keys, hashes, decoder);
  return new Map([...hashes].map(([key, hash]) => [key, hash.digest("hex")]));
}

/** Adds the events of wanted copies in a chunk of whole lines to their hashes. */
function copyDigestsOf(
  text: string,
  keys: ReadonlySet<string>,
  hashes: Map<string, ReturnType<typeof createHash>>,
  decoder: LogLineDecoder,
): void {
  for (const line of text.split("\n")) {
    // A block's header and lines are decoded whoever's they are (the header opens the block).
    const m = isBlockHeaderLine(line) || isBlockLine(line) ? null : RUN_EPISODE_PATTERN.exec(line);
    if (m !== null) decoder.endBlock();
    if (m !== null && !keys.has(`${m[1]}\u0000${m[2]}`)) continue;
    let decoded: Record<string, unknown> | string | undefined;
    try {
      decoded = decoder.decode(JSON.parse(line));
    } catch {
      continue;
    }
    if (typeof decoded !== "object") continue;
    const event = decoded;
    const key = `${event?.run}\u0000${event?.episode}`;
    if (!keys.has(key)) continue;
    const { time: _time, ...rest } = event;
    let hash = hashes.get(key);
    if (hash === undefined) hashes.set(key, hash = createHash("sha256"));
    hash.update(canonicalJson(rest) + "\n");
  }
}

/**
 * Keeps the first copy (in scan order, i.e. file order) of every episode
 * logged in more than one file, drops the rows of the others, and lists
 * every dropped copy with whether its content matched the kept one: every
 * event the same but for its wall-clock `time` (the files holding copies
 * are read again for this, and only those).
 */
export function dedupeEpisodes(
  result: ScanResult,
): { result: ScanResult; duplicates: DuplicateEpisode[] } {
  const first = new Map<string, number>();
  const remap = new Int32Array(result.episodes.length);
  const episodes: EpisodeMeta[] = [];
  const duplicates: DuplicateEpisode[] = [];
  result.episodes.forEach((meta, i) => {
    const key = `${meta.run}\u0000${meta.episode}`;
    const at = first.get(key);
    if (at === undefined) {
      first.set(key, episodes.length);
      remap[i] = episodes.length;
      episodes.push(meta);
      return;
    }
    const kept = episodes[at];
    remap[i] = -1;
    duplicates.push({
      run: meta.run,
      episode: meta.episode,
      kept: kept.file,
      dropped: meta.file,
      same: summaryOf(kept) === summaryOf(meta),
    });
  });
  if (duplicates.length === 0) return { result, duplicates };
  compareInFull(duplicates.filter((d) => d.same));
  const tables: Partial<Record<ChildFrame, TableData[]>> = {};
  for (const [name, parts] of Object.entries(result.tables) as [ChildFrame, TableData[]][]) {
    tables[name] = parts.map((table) => keepRows(table, remap));
  }
  return { result: { episodes, tables, malformed: result.malformed }, duplicates };
}

/** Sets `same` from full digests of both copies, reading each file involved once. */
function compareInFull(duplicates: DuplicateEpisode[]): void {
  const wanted = new Map<string, Set<string>>();
  for (const d of duplicates) {
    for (const file of [d.kept, d.dropped]) {
      let keys = wanted.get(file);
      if (!keys) wanted.set(file, keys = new Set());
      keys.add(`${d.run}\u0000${d.episode}`);
    }
  }
  const digests = new Map([...wanted].map(([file, keys]) => [file, copyDigests(file, keys)]));
  for (const d of duplicates) {
    const key = `${d.run}\u0000${d.episode}`;
    d.same = digests.get(d.kept)!.get(key) === digests.get(d.dropped)!.get(key);
  }
}

/** The rows of a table whose episode is kept (`remap[i] >= 0`), episodes renumbered. */
function keepRows(table: TableData, remap: Int32Array): TableData {
  const rows: number[] = [];
  table.episode.forEach((e, row) => {
    if (remap[e] >= 0) rows.push(row);
  });
  const columns: Record<string, ColumnData> = {};
  for (const [name, c] of Object.entries(table.columns)) {
    if (c.kind === "str") {
      columns[name] = {
        kind: "str",
        codes: Uint32Array.from(rows, (r) => c.codes[r]),
        words: c.words,
      };
    } else if (c.kind === "text") {
      columns[name] = { kind: "text", values: rows.map((r) => c.values[r]) };
    } else if (c.kind === "bool") {
      columns[name] = { kind: "bool", values: Uint8Array.from(rows, (r) => c.values[r]) };
    } else {
      columns[name] = { kind: c.kind, values: Float64Array.from(rows, (r) => c.values[r]) };
    }
  }
  return { episode: Uint32Array.from(rows, (r) => remap[table.episode[r]]), columns };
}

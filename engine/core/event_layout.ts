/**
 * The exact bytes of an event line as the engine writes it, in one place:
 * the writer (`event_recorder.ts`) builds its lines' heads here, and the
 * loader's fast path (`analysis/load/_event_scan.ts`) reads lines back here
 * without `JSON.parse`. `tests/engine/core/event_layout_test.ts` writes
 * every event type of every game and reads each line back both ways.
 *
 * Two layouts. The block layout (`"lines-v5"`, written since issue 23; see
 * {@linkcode BLOCK_SCHEMA_VERSION}): each episode's lines are a header
 * `{"schema":3,"run":R,"episode":E,"time":T}` and then, per event,
 * `JSON.stringify` of the event less `schema`, `run` and `episode`, its time
 * written compactly ({@linkcode timeMember}): `{"round":..,"step":..,
 * "seq":..,[time member,]"type":..,...}`; {@linkcode LogLineDecoder} rebuilds
 * the events from it. The old layout (`"lines-v2"` to `"lines-v4"`, still
 * read, and written when a caller asks for those definitions): an engine
 * line is `JSON.stringify` of the event with its members in this
 * order: `schema`, `run`, `episode`, `round`, `step`, `seq`, `time`, then the
 * body (`type` first, then the body's own members in the order its
 * environment built them; an agent-side event's `event_hash` and
 * `episode_end`'s `events_hash` last). A reader here either reads a line
 * exactly or says it cannot (`-1`, `undefined`, `false`), and the caller then
 * parses the line with `JSON.parse`: the result never depends on the path.
 *
 * @module
 */
import { canonicalJson } from "./canonical_json.ts";
import { copyData } from "./copy_data.ts";
import { EVENT_SCHEMA_VERSION, type EventBody } from "./events.ts";

/** How every line the engine writes starts: `{"schema":<version>,`. */
export const LINE_PREFIX = `{"schema":${EVENT_SCHEMA_VERSION},`;

/** The key of the event's type, up to its value's first character. */
export const TYPE_KEY = `"type":"`;

/** The key of a checkpoint's (and `episode_end`'s) events hash, up to its value. */
export const EVENTS_HASH_KEY = `"events_hash":"`;

/**
 * The run and episode of a line that starts as an engine line does, whatever
 * its schema (groups 1 and 2; names with escapes do not match).
 */
export const RUN_EPISODE_PATTERN = /^\{"schema":\d+,"run":"([^"\\]*)","episode":"([^"\\]*)"/;

/**
 * The head of every line of an episode, up to its round's value.
 *
 * @example
 * ```ts
 * import { lineHead } from "./event_layout.ts";
 * if (lineHead("r", "e") !== '{"schema":2,"run":"r","episode":"e","round":') throw new Error();
 * ```
 */
export function lineHead(run: string, episode: string): string {
  return `${LINE_PREFIX}"run":${JSON.stringify(run)},"episode":${JSON.stringify(episode)},"round":`;
}

/**
 * The head of every line of one step of a round, up to its `seq`'s value.
 *
 * @example
 * ```ts
 * import { lineHead, stepHead } from "./event_layout.ts";
 * const head = stepHead(lineHead("r", "e"), 1, "withdrawal");
 * if (!head.endsWith('"round":1,"step":"withdrawal","seq":')) throw new Error(head);
 * ```
 */
export function stepHead(head: string, round: number, step: string): string {
  return `${head}${round},"step":${JSON.stringify(step)},"seq":`;
}

/**
 * Where the `"type":"` key of the line from `start` to `stop` (without its
 * newline) is, or -1 when the line is not one the engine wrote (another
 * prefix than {@linkcode LINE_PREFIX} or a block line's
 * {@linkcode BLOCK_LINE_PREFIX}, no closing brace, no type key): the caller
 * parses it then.
 *
 * @example
 * ```ts
 * import { TYPE_KEY, typeKeyAt } from "./event_layout.ts";
 * const line = '{"schema":2,"run":"r","episode":"e","round":0,"step":"setup","seq":0,"time":"t","type":"round_start"}';
 * const at = typeKeyAt(line, 0, line.length);
 * if (!line.startsWith(TYPE_KEY + "round_start", at)) throw new Error();
 * if (typeKeyAt('{"type":"x"}', 0, 12) !== -1) throw new Error();
 * ```
 */
export function typeKeyAt(text: string, start: number, stop: number): number {
  // A line of the old layout, or a block line (`{"round":`, its members up to the type are
  // the round, step, seq and time: no "y" unless the step name has one).
  const prefix = text.startsWith(LINE_PREFIX, start)
    ? LINE_PREFIX.length
    : text.startsWith(BLOCK_LINE_PREFIX, start)
    ? BLOCK_LINE_PREFIX.length
    : -1;
  if (prefix === -1 || text.charCodeAt(stop - 1) !== 125 /* } */) return -1;
  // The key "type" holds the first "y" of an engine-written line unless the
  // run or episode name has one; searching for a rare character is faster.
  let at = text.indexOf("y", start + prefix) - 2;
  if (at < start || !text.startsWith(TYPE_KEY, at)) at = text.indexOf(TYPE_KEY, start);
  return at === -1 || at >= stop ? -1 : at;
}

/**
 * A cursor over one line of JSON written by `JSON.stringify`.
 *
 * @example
 * ```ts
 * import { LineReader } from "./event_layout.ts";
 * const r = new LineReader('"a":"x","b":12}', 0, 15);
 * if (!r.key('"a":"') || r.string() !== "x" || !r.key(',"b":') || r.number() !== 12) {
 *   throw new Error();
 * }
 * ```
 */
export class LineReader {
  /** A cursor at `pos` over `text`, up to `stop`. */
  constructor(readonly text: string, public pos: number, readonly stop: number) {}

  /** Consumes `literal` if the line continues with it. */
  key(literal: string): boolean {
    if (!this.text.startsWith(literal, this.pos)) return false;
    this.pos += literal.length;
    return true;
  }

  /** Reads the rest of a string whose opening quote is consumed; undefined on an escape. */
  string(): string | undefined {
    const end = this.text.indexOf('"', this.pos);
    if (end === -1 || end >= this.stop) return undefined;
    for (let i = this.pos; i < end; i++) {
      if (this.text.charCodeAt(i) === 92 /* \\ */) return undefined;
    }
    const value = this.text.slice(this.pos, end);
    this.pos = end + 1;
    return value;
  }

  /**
   * Like {@linkcode LineReader.string}, but returns `last` itself when the
   * string equals it, without slicing (decisions repeat their step, call,
   * action).
   */
  stringLike(last: unknown): string | undefined {
    if (typeof last === "string" && this.text.startsWith(last, this.pos)) {
      const end = this.pos + last.length;
      if (this.text.charCodeAt(end) === 34 /* " */) {
        this.pos = end + 1;
        return last;
      }
    }
    return this.string();
  }

  /** Reads a number up to the next `,` or `}`; NaN if it is not one. */
  number(): number {
    let end = this.pos;
    const text = this.text;
    let integer = 0;
    let digits = true;
    while (end < this.stop) {
      const c = text.charCodeAt(end);
      if (c === 44 /* , */ || c === 125 /* } */) break;
      if (c >= 48 && c <= 57) integer = integer * 10 + (c - 48);
      else digits = false;
      end++;
    }
    // Short unsigned integers are exact; anything else goes through Number().
    if (digits && end > this.pos && end - this.pos < 16) {
      this.pos = end;
      return integer;
    }
    if (end === this.pos) return NaN;
    const value = Number(text.slice(this.pos, end));
    this.pos = end;
    return Number.isFinite(value) ? value : NaN;
  }

  /** Reads `true` or `false`. */
  boolean(): boolean | undefined {
    if (this.key("true")) return true;
    if (this.key("false")) return false;
    return undefined;
  }
}

/**
 * Reads a line's run and episode with a cursor just after
 * {@linkcode LINE_PREFIX}, and the comma after them; `undefined` (the
 * cursor moved) when they are not there as the engine writes them.
 *
 * @example
 * ```ts
 * import { LINE_PREFIX, LineReader, readRunEpisode } from "./event_layout.ts";
 * const line = `${LINE_PREFIX}"run":"r","episode":"e","round":0}`;
 * const head = readRunEpisode(new LineReader(line, LINE_PREFIX.length, line.length));
 * if (head?.run !== "r" || head.episode !== "e") throw new Error();
 * ```
 */
export function readRunEpisode(r: LineReader): { run: string; episode: string } | undefined {
  const run = r.key('"run":"') ? r.string() : undefined;
  const episode = run !== undefined && r.key(',"episode":"') ? r.string() : undefined;
  if (episode === undefined || !r.key(",")) return undefined;
  return { run: run!, episode };
}

/**
 * The members of a decision line after its run and episode (see
 * {@linkcode readDecision}): its round, step and sequence number, then the
 * fields of the `decision` event, in the order the writer puts them.
 */
export type DecisionLine =
  & { round: number; step: string; seq: number }
  & Omit<Extract<EventBody, { type: "decision" }>, "type">;

/**
 * Reads the rest of a decision line (`round` to `amount`, the layout
 * `drawDecision` writes) into `out`, with the cursor after the run and
 * episode ({@linkcode readRunEpisode}), or for a block line just after its
 * opening brace, and `at` the line's type key
 * ({@linkcode typeKeyAt}). The strings of `out` (the previous decision's)
 * are returned as they are when they repeat, without slicing. Returns false,
 * leaving `out` as it was, for anything else (another key order, escapes,
 * non-finite numbers, a member more or less): the caller parses the line.
 *
 * @example
 * ```ts
 * import { type DecisionLine, LINE_PREFIX, LineReader, readDecision, readRunEpisode, typeKeyAt } from "./event_layout.ts";
 * const line = `${LINE_PREFIX}"run":"r","episode":"e","round":1,"step":"s","seq":3,"time":"t",` +
 *   `"type":"decision","agent":"d1","call":"c","action":"stay","alternative":"withdraw",` +
 *   `"reported":40,"probability":0.4,"draw":0.5,"realized":false,"committed":false,"amount":1}`;
 * const r = new LineReader(line, LINE_PREFIX.length, line.length);
 * readRunEpisode(r);
 * const out = {} as DecisionLine;
 * if (!readDecision(r, typeKeyAt(line, 0, line.length), out) || out.draw !== 0.5) throw new Error();
 * ```
 */
export function readDecision(r: LineReader, at: number, out: DecisionLine): boolean {
  const round = r.key('"round":') ? r.number() : NaN;
  const step = r.key(',"step":"') ? r.stringLike(out.step) : undefined;
  const seq = r.key(',"seq":') ? r.number() : NaN;
  // The time member: whole, compact (a block line's "ms") or none (a block line's, at its header's time).
  if (r.key(',"time":"')) {
    if (r.string() === undefined) return false;
  } else if (r.key(',"ms":')) {
    if (Number.isNaN(r.number())) return false;
  }
  if (r.pos !== at - 1) return false;
  r.pos = at + TYPE_KEY.length;
  if (!r.key('decision"')) return false;
  const agent = r.key(',"agent":"') ? r.string() : undefined;
  const call = r.key(',"call":"') ? r.stringLike(out.call) : undefined;
  const action = r.key(',"action":"') ? r.stringLike(out.action) : undefined;
  const alternative = r.key(',"alternative":"') ? r.stringLike(out.alternative) : undefined;
  const reported = r.key(',"reported":') ? r.number() : NaN;
  const probability = r.key(',"probability":') ? r.number() : NaN;
  const draw = r.key(',"draw":') ? r.number() : NaN;
  const realized = r.key(',"realized":') ? r.boolean() : undefined;
  const committed = r.key(',"committed":') ? r.boolean() : undefined;
  const amount = r.key(',"amount":') ? r.number() : NaN;
  if (
    r.pos !== r.stop - 1 || Number.isNaN(round) || Number.isNaN(seq) || Number.isNaN(reported) ||
    Number.isNaN(probability) || Number.isNaN(draw) || Number.isNaN(amount) ||
    step === undefined || agent === undefined || call === undefined || action === undefined ||
    alternative === undefined || realized === undefined || committed === undefined
  ) {
    return false;
  }
  out.round = round;
  out.step = step;
  out.seq = seq;
  out.agent = agent;
  out.call = call;
  out.action = action;
  out.alternative = alternative;
  out.reported = reported;
  out.probability = probability;
  out.draw = draw;
  out.realized = realized;
  out.committed = committed;
  out.amount = amount;
  return true;
}

/**
 * Where the value of a line's last `"events_hash"` member is (a checkpoint's
 * or `episode_end`'s, written last), as `[from, to)` offsets, or `undefined`.
 *
 * @example
 * ```ts
 * import { eventsHashAt } from "./event_layout.ts";
 * const line = '{"type":"checkpoint","state_hash":"a","events_hash":"b2"}';
 * const [from, to] = eventsHashAt(line, 0, line.length)!;
 * if (line.slice(from, to) !== "b2") throw new Error();
 * ```
 */
export function eventsHashAt(
  text: string,
  start: number,
  stop: number,
): [number, number] | undefined {
  const at = text.lastIndexOf(EVENTS_HASH_KEY, stop);
  const end = at < start ? -1 : text.indexOf('"', at + EVENTS_HASH_KEY.length);
  return end !== -1 && end < stop ? [at + EVENTS_HASH_KEY.length, end] : undefined;
}

/**
 * The schema version a block header carries: `3`, the block layout of the
 * schema-2 events ({@linkcode EVENT_SCHEMA_VERSION}). A log written under
 * `"lines-v5"` (see `events_hash.ts`) holds each episode as a block: a header
 * line `{"schema":3,"run":R,"episode":E,"time":T}` holding what every line of
 * the old layout repeated (`T` is the time of the episode's first event), then
 * one line per event with only its own members: `{"round":...,"step":...,
 * "seq":...,` then its time (see {@linkcode timeMember}), then the body
 * (`type` first, as before). A reader gives the same event objects as the old
 * layout does (`schema: 2`, the header's `run`, `episode`, the event's whole
 * `time`). A block ends with its `episode_end`: a block line after it, or
 * before any header, is an error naming the file and line. An older build
 * reading such a log stops at the header: "event schema 3 is not supported".
 *
 * @example
 * ```ts
 * import { BLOCK_SCHEMA_VERSION } from "./event_layout.ts";
 * if (BLOCK_SCHEMA_VERSION !== 3) throw new Error();
 * ```
 */
export const BLOCK_SCHEMA_VERSION = 3;

/** How a block header starts: `{"schema":3,`. */
export const BLOCK_HEADER_PREFIX = `{"schema":${BLOCK_SCHEMA_VERSION},`;

/** How every other line of a block starts: `{"round":`. */
export const BLOCK_LINE_PREFIX = `{"round":`;

/**
 * The milliseconds since the epoch of a time written as `Date.toISOString`
 * writes it (`2026-12-01T12:47:02.237Z`), or NaN for any other text (which a
 * block line then carries whole).
 *
 * @example
 * ```ts
 * import { isoMs } from "./event_layout.ts";
 * if (isoMs("1970-01-01T00:00:01.500Z") !== 1500 || !Number.isNaN(isoMs("t"))) throw new Error();
 * if (!Number.isNaN(isoMs("1970-01-01T00:00:01Z"))) throw new Error(); // not toISOString's text
 * ```
 */
export function isoMs(time: string): number {
  // The last text read (a block's header and its lines mostly share one clock reading, each
  // read once a millisecond): parsing and checking it costs about a microsecond.
  if (time === isoMsText) return isoMsValue;
  let ms = NaN;
  if (time.length >= 24 && time.charCodeAt(time.length - 1) === 90 /* Z */) {
    const parsed = Date.parse(time);
    if (Number.isFinite(parsed) && new Date(parsed).toISOString() === time) ms = parsed;
  }
  isoMsText = time;
  isoMsValue = ms;
  return ms;
}
let isoMsText = "";
let isoMsValue = NaN;

/** What a block header holds: the episode's run and id, and its start time. */
export interface BlockHeader {
  /** Run id. */
  run: string;
  /** Episode id. */
  episode: string;
  /** The time of the episode's first event, as the clock gave it. */
  time: string;
  /** `time` in milliseconds ({@linkcode isoMs}), NaN when it is not ISO text. */
  ms: number;
}

/**
 * A block header for an episode whose first event has `time`.
 *
 * @example
 * ```ts
 * import { blockHeader } from "./event_layout.ts";
 * const h = blockHeader("r", "e", "1970-01-01T00:00:00.000Z");
 * if (h.ms !== 0 || h.episode !== "e") throw new Error();
 * ```
 */
export function blockHeader(run: string, episode: string, time: string): BlockHeader {
  return { run, episode, time, ms: isoMs(time) };
}

/**
 * The header line of a block (without its newline): `{"schema":3,"run":R,
 * "episode":E,"time":T}`. Its text without `,"time":T` is what the events
 * hash covers of it (`"lines-v5"`).
 *
 * @example
 * ```ts
 * import { blockHeader, blockHeaderLine } from "./event_layout.ts";
 * if (blockHeaderLine(blockHeader("r", "e", "t")) !== '{"schema":3,"run":"r","episode":"e","time":"t"}') {
 *   throw new Error();
 * }
 * ```
 */
export function blockHeaderLine(header: BlockHeader): string {
  return `${BLOCK_HEADER_PREFIX}"run":${JSON.stringify(header.run)},"episode":${
    JSON.stringify(header.episode)
  },"time":${JSON.stringify(header.time)}}`;
}

/**
 * The time member of a block line, with its comma, for an event at `time`
 * (the rule a reader undoes, {@linkcode blockLineTime}): nothing when `time`
 * is the header's; `"ms":<integer>,`, the milliseconds after the header's
 * time (negative if the clock went back), when both are ISO text
 * ({@linkcode isoMs}); else `"time":<the text>,` whole.
 *
 * @example
 * ```ts
 * import { blockHeader, timeMember } from "./event_layout.ts";
 * const h = blockHeader("r", "e", "1970-01-01T00:00:00.000Z");
 * if (timeMember(h, h.time) !== "" || timeMember(h, "1970-01-01T00:00:00.012Z") !== '"ms":12,') {
 *   throw new Error();
 * }
 * if (timeMember(h, "later") !== '"time":"later",') throw new Error();
 * ```
 */
export function timeMember(header: BlockHeader, time: string): string {
  if (time === header.time) return "";
  const ms = isoMs(time);
  if (!Number.isNaN(ms) && !Number.isNaN(header.ms)) return `"ms":${ms - header.ms},`;
  return `"time":${JSON.stringify(time)},`;
}

/**
 * The time of a block line from its time member's value (`ms` or `time`,
 * `undefined` when it has none), or a message saying why it has none.
 *
 * @example
 * ```ts
 * import { blockHeader, blockLineTime } from "./event_layout.ts";
 * const h = blockHeader("r", "e", "1970-01-01T00:00:00.000Z");
 * if (blockLineTime(h, 12, undefined) !== "1970-01-01T00:00:00.012Z") throw new Error();
 * if (blockLineTime(h, undefined, undefined) !== h.time) throw new Error();
 * ```
 */
export function blockLineTime(
  header: BlockHeader,
  ms: unknown,
  time: unknown,
): string | { problem: string } {
  if (ms !== undefined) {
    if (time !== undefined) return { problem: `a block line carries both "ms" and "time"` };
    if (typeof ms !== "number" || !Number.isSafeInteger(ms)) {
      return { problem: `a block line's "ms" must be an integer: received ${JSON.stringify(ms)}` };
    }
    if (Number.isNaN(header.ms)) {
      return {
        problem: `a block line carries "ms" but its header's time ${
          JSON.stringify(header.time)
        } is not ISO 8601 text`,
      };
    }
    return new Date(header.ms + ms).toISOString();
  }
  if (time === undefined) return header.time;
  if (typeof time !== "string") {
    return { problem: `a block line's "time" must be a string: received ${JSON.stringify(time)}` };
  }
  return time;
}

/** The members of a block line that are not the event's own (its time, written compactly). */
const BLOCK_TIME_KEYS: ReadonlySet<string> = new Set(["ms", "time"]);

/**
 * Reads parsed log lines of either layout into the events they stand for,
 * line by line, in file order (one decoder per file, across its chunks): a
 * line of the old layout (`"schema":2`, every member written) is its event;
 * a block header opens a block (and gives no event); a block line is rebuilt
 * from its block's header, exactly as the old layout would have held it. A
 * block line before any header, or after its block's `episode_end`, is an
 * error: the decoder never guesses whose line it is.
 *
 * @example
 * ```ts
 * import { LogLineDecoder } from "./event_layout.ts";
 * const d = new LogLineDecoder();
 * d.decode({ schema: 3, run: "r", episode: "e", time: "1970-01-01T00:00:00.000Z" });
 * const e = d.decode({ round: 0, step: "setup", seq: 0, ms: 5, type: "round_start" });
 * if (typeof e === "string" || e?.run !== "r" || e.time !== "1970-01-01T00:00:00.005Z") throw new Error();
 * if (Object.keys(e).join() !== "schema,run,episode,round,step,seq,time,type") throw new Error();
 * ```
 */
export class LogLineDecoder {
  /** The header of the block being read, if any. */
  header: BlockHeader | undefined = undefined;
  /** What the lines so far imply, when the open block is a `"lines-v6"` one. */
  delta: DeltaReader | undefined = undefined;

  /**
   * Says that a line of the file could not be read (not JSON): the lines
   * after it in an open `"lines-v6"` block are then errors, since what they
   * leave out is unknown, until the next header.
   *
   * @example
   * ```ts
   * import { LogLineDecoder } from "./event_layout.ts";
   * const d = new LogLineDecoder();
   * d.decode({ schema: 4, run: "r", episode: "e", time: "t" });
   * d.lost();
   * if (typeof d.decode({ type: "round_start" }) !== "string") throw new Error();
   * ```
   */
  lost(): void {
    if (this.delta !== undefined) this.delta.broken = true;
  }

  /**
   * Ends the block being read (its episode_end, or a line of the old
   * layout, which ends any block before it): a block line after it is outside
   * a block until the next header.
   *
   * @example
   * ```ts
   * import { LogLineDecoder } from "./event_layout.ts";
   * const d = new LogLineDecoder();
   * d.decode({ schema: 4, run: "r", episode: "e", time: "t" });
   * d.endBlock();
   * if (d.header !== undefined || d.delta !== undefined) throw new Error();
   * ```
   */
  endBlock(): void {
    this.header = undefined;
    this.delta = undefined;
  }

  /**
   * The event a parsed line stands for; `undefined` for a block header;
   * a message (without the place) for a line that is not one of either
   * layout, a header that is malformed, or a block line outside a block.
   * `value` is returned as it is for a line of the old layout (and for
   * anything else that is not a block's: the caller checks it as before).
   */
  decode(value: unknown): Record<string, unknown> | undefined | string {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
    const v = value as Record<string, unknown>;
    if (v.schema === undefined && typeof v.round !== "number" && this.delta === undefined) {
      // Not a block line (those start with their round): the caller's checks name what it lacks.
      return v;
    }
    if (isBlockHeaderSchema(v.schema)) {
      const { run, episode, time } = v;
      if (typeof run !== "string" || typeof episode !== "string" || typeof time !== "string") {
        return `a block header (schema ${v.schema}) must hold "run", "episode" and "time" strings`;
      }
      if (v.type !== undefined) {
        return `a block header (schema ${v.schema}) is not an event: it has a "type"`;
      }
      this.header = blockHeader(run, episode, time);
      this.delta = v.schema === BLOCK_SCHEMA_VERSION
        ? undefined
        : new DeltaReader(this.header, v.schema as DeltaSchema);
      return undefined;
    }
    if (v.schema !== undefined) {
      // A line of the old layout ends any block before it.
      this.endBlock();
      return v;
    }
    const header = this.header;
    if (header === undefined) {
      return `a block line (no "schema") outside a block (before any block header ` +
        `{"schema":3,...}, or after its block's episode_end): the header line is missing`;
    }
    if (this.delta !== undefined) {
      if (this.delta.broken) {
        return `a delta-layout line after a line of its block that could not be read: ` +
          `what it leaves out is unknown`;
      }
      const out = this.delta.decode(v);
      if (typeof out === "string") this.delta.broken = true;
      else if (out.type === "episode_end") this.endBlock();
      return out;
    }
    const t = blockLineTime(header, v.ms, v.time);
    if (typeof t !== "string") return t.problem;
    const out: Record<string, unknown> = {
      schema: EVENT_SCHEMA_VERSION,
      run: header.run,
      episode: header.episode,
      round: v.round,
      step: v.step,
      seq: v.seq,
      time: t,
    };
    for (const k in v) if (!BLOCK_TIME_KEYS.has(k)) out[k] = v[k];
    if (v.type === "episode_end") this.endBlock();
    return out;
  }
}

/**
 * The reader's side of a `"lines-v6"` block (see
 * {@linkcode DELTA_SCHEMA_VERSION}): what the lines so far imply, to rebuild
 * the next line's event. {@linkcode LogLineDecoder} holds one per open
 * block; the loader's fast path reads a line's head with
 * {@linkcode DeltaReader.readHead} and its decisions with
 * {@linkcode readDeltaDecision}, and commits what it read.
 *
 * @example
 * ```ts
 * import { blockHeader, DeltaReader } from "./event_layout.ts";
 * const d = new DeltaReader(blockHeader("r", "e", "1970-01-01T00:00:00.000Z"));
 * d.decode({ round: 1, type: "x", agent: "a", v: 1, w: 2 });
 * const e = d.decode({ ms: 4, type: "x", agent: "a", w: 3 });
 * if (typeof e === "string" || e.seq !== 1 || e.v !== 1 || e.time !== "1970-01-01T00:00:00.004Z") throw new Error();
 * ```
 */
export class DeltaReader {
  /** The previous line's round. */
  round: unknown = 0;
  /** The previous line's step. */
  step: unknown = "setup";
  /** The implied `seq` of the next line. */
  seq = 0;
  /** The previous line's time. */
  time: string;
  /** The previous line of each template key (its body from `type` on; see {@linkcode DeltaReader.keyOf}). */
  readonly templates = new Map<string, Record<string, unknown>>();
  /** Whether templates are kept per step too (a `"lines-v8"` block, {@linkcode STEP_DELTA_SCHEMA_VERSION}). */
  readonly bySteps: boolean;
  /** Types whose lines a fast reader skipped (their templates are unknown). */
  readonly skipped = new Set<string>();
  /** Whether a line of the block could not be read (the lines after it cannot be rebuilt). */
  broken = false;
  private stateText: string | undefined;
  private stateValue: unknown = undefined;
  // What readHead read, until committed.
  private hRound: unknown = 0;
  private hStep: unknown = "";
  private hSeq = 0;
  private hMs = NaN;
  private hTime: string | undefined;
  // The step of the last key asked for, and its part of the key.
  private keyStep: unknown = undefined;
  private keyStepText = "";

  /** A reader at the start of the block under `header`, of the layout its `schema` names. */
  constructor(readonly header: BlockHeader, schema: DeltaSchema = DELTA_SCHEMA_VERSION) {
    this.time = header.time;
    this.bySteps = schema === STEP_DELTA_SCHEMA_VERSION;
  }

  /**
   * The template key of a line of `type` by `agent` at `step`: its type, its
   * agent when that is a string and, in a `"lines-v8"` block, its step.
   */
  keyOf(type: unknown, agent: unknown, step: unknown): string {
    const key = templateKey(type, agent);
    if (!this.bySteps) return key;
    if (step !== this.keyStep || this.keyStepText === "") {
      this.keyStep = step;
      // JSON text: its closing quote ends it, whatever the step's characters.
      this.keyStepText = typeof step === "string" ? JSON.stringify(step) : `?${String(step)}`;
    }
    return this.keyStepText + key;
  }

  /** The event a parsed line of the block stands for, or a message saying why it has none. */
  decode(v: Record<string, unknown>): Record<string, unknown> | string {
    const h = this.head(v);
    if (typeof h === "string") return h;
    const { round, step, seq, time: at, full, type } = h;
    let body: Record<string, unknown> = {};
    let inBody = false;
    for (const k in v) {
      if (!inBody) {
        if (k !== "type") continue;
        inBody = true;
      }
      body[k] = v[k];
    }
    if (type === "checkpoint") {
      const state = this.checkpoint(body);
      if (typeof state === "string") return state;
      body = state;
    } else {
      const key = this.keyOf(type, body.agent, step);
      const t = this.templates.get(key);
      if (!full && this.skipped.has(type)) {
        return `a delta-layout "${type}" line follows lines of its type this reader skipped: ` +
          `its template is unknown`;
      }
      if (!full && t !== undefined) {
        const merged = mergeTemplate(t, body);
        if (typeof merged === "string") return merged;
        body = merged;
      }
      this.templates.set(key, body);
    }
    this.round = round;
    this.step = step;
    this.seq = AGENT_SIDE_EVENT_TYPES.has(type) ? seq : seq + 1;
    this.time = at;
    const out: Record<string, unknown> = {
      schema: EVENT_SCHEMA_VERSION,
      run: this.header.run,
      episode: this.header.episode,
      round,
      step,
      seq,
      time: at,
    };
    for (const k in body) out[k] = body[k];
    return out;
  }

  /**
   * Commits the head of a parsed line whose body the reader does not need
   * (its type's templates are then unknown); a message when it is malformed.
   */
  skipParsed(v: Record<string, unknown>): string | undefined {
    const h = this.head(v);
    if (typeof h === "string") return h;
    this.round = h.round;
    this.step = h.step;
    this.seq = AGENT_SIDE_EVENT_TYPES.has(h.type) ? h.seq : h.seq + 1;
    this.time = h.time;
    if (h.type !== "checkpoint") this.skipped.add(h.type);
    return undefined;
  }

  /** The head of a parsed line (the members before its type, or what they imply), or a message. */
  private head(v: Record<string, unknown>):
    | { round: unknown; step: unknown; seq: number; time: string; full: boolean; type: string }
    | string {
    let round = this.round;
    let step = this.step;
    let seq: unknown = this.seq;
    let ms: unknown = undefined;
    let time: unknown = undefined;
    let full = false;
    let typed = false;
    for (const k in v) {
      if (k === "type") {
        typed = true;
        break;
      }
      if (!DELTA_HEAD_KEYS.has(k)) {
        return `a delta-layout line's member "${k}" comes before its "type"`;
      }
      const x = v[k];
      if (k === "round") round = x;
      else if (k === "step") step = x;
      else if (k === "seq") seq = x;
      else if (k === "ms") ms = x;
      else if (k === "time") time = x;
      else if (x !== 1) {
        return `a delta-layout line's "full" must be 1: received ${JSON.stringify(x)}`;
      } else full = true;
    }
    const type = v.type;
    if (!typed || typeof type !== "string") return `a delta-layout line must have a string "type"`;
    if (typeof seq !== "number") {
      return `a delta-layout line's "seq" must be a number: received ${JSON.stringify(seq)}`;
    }
    let at = this.time;
    if (ms !== undefined || time !== undefined) {
      const t = blockLineTime(this.header, ms, time);
      if (typeof t !== "string") return t.problem;
      at = t;
    }
    return { round, step, seq, time: at, full, type };
  }

  /** A checkpoint's body with its state (rebuilt from its delta), or a message. */
  private checkpoint(body: Record<string, unknown>): Record<string, unknown> | string {
    if (body.delta === undefined) {
      if (body.state !== undefined) {
        this.stateValue = body.state;
        this.stateText = undefined;
      }
      return body;
    }
    if (this.stateText === undefined) {
      if (this.stateValue === undefined) {
        return `a checkpoint's "delta" has no previous checkpoint state in its block`;
      }
      try {
        this.stateText = canonicalJson(this.stateValue);
      } catch (error) {
        return `the checkpoint state before a "delta" is not JSON data (${
          (error as Error).message
        })`;
      }
    }
    const text = applyStateDelta(this.stateText, body.delta);
    if (typeof text !== "string") return text.problem;
    let state: unknown;
    try {
      state = JSON.parse(text);
    } catch (error) {
      return `a checkpoint's "delta" does not give JSON (${(error as Error).message})`;
    }
    this.stateText = text;
    this.stateValue = state;
    const out: Record<string, unknown> = {};
    for (const k in body) {
      if (k === "delta") out.state = state;
      else out[k] = body[k];
    }
    return out;
  }

  /**
   * Reads the head of a line of the block (`{` then the head members, as the
   * writer writes them) from `start`, without committing it; returns where
   * its `"type":"` key is, or -1 when the line does not start as the writer
   * writes one (the caller parses it then). `"full":1` lines give -1 too.
   */
  readHead(text: string, start: number, stop: number): number {
    if (text.charCodeAt(start) !== 123 /* { */) return -1;
    const r = new LineReader(text, start + 1, stop);
    let round: unknown = this.round;
    let step: unknown = this.step;
    let seq = this.seq;
    let ms = NaN;
    let time: string | undefined;
    if (r.key('"round":')) {
      round = r.number();
      if (Number.isNaN(round) || !r.key(",")) return -1;
    }
    if (r.key('"step":"')) {
      step = r.stringLike(this.step);
      if (step === undefined || !r.key(",")) return -1;
    }
    if (r.key('"seq":')) {
      seq = r.number();
      if (Number.isNaN(seq) || !r.key(",")) return -1;
    }
    if (r.key('"ms":')) {
      ms = r.number();
      if (!Number.isSafeInteger(ms) || Number.isNaN(this.header.ms) || !r.key(",")) return -1;
    } else if (r.key('"time":"')) {
      time = r.string();
      if (time === undefined || !r.key(",")) return -1;
    }
    if (!text.startsWith(TYPE_KEY, r.pos)) return -1;
    this.hRound = round;
    this.hStep = step;
    this.hSeq = seq;
    this.hMs = ms;
    this.hTime = time;
    return r.pos;
  }

  /** The round, step and seq {@linkcode DeltaReader.readHead} read last. */
  get headRead(): { round: unknown; step: unknown; seq: number } {
    return { round: this.hRound, step: this.hStep, seq: this.hSeq };
  }

  /** The step {@linkcode DeltaReader.readHead} read last (without building {@linkcode DeltaReader.headRead}). */
  get stepRead(): unknown {
    return this.hStep;
  }

  /**
   * Commits the head {@linkcode DeltaReader.readHead} read, for a line of
   * `type` whose body the caller read itself (a decision, whose template it
   * set) or skipped (`skipped`: its type's templates are then unknown).
   */
  commitHead(type: string, skipped: boolean): void {
    this.round = this.hRound;
    this.step = this.hStep;
    this.seq = AGENT_SIDE_EVENT_TYPES.has(type) ? this.hSeq : this.hSeq + 1;
    if (!Number.isNaN(this.hMs)) this.time = new Date(this.header.ms + this.hMs).toISOString();
    else if (this.hTime !== undefined) this.time = this.hTime;
    if (skipped && type !== "checkpoint") this.skipped.add(type);
  }
}

/** A body from its template and the members its line carries, or a message. */
function mergeTemplate(
  t: Record<string, unknown>,
  d: Record<string, unknown>,
): Record<string, unknown> | string {
  const keys = Object.keys(d);
  const out: Record<string, unknown> = {};
  let j = 0;
  for (const k in t) {
    if (j < keys.length && keys[j] === k) {
      out[k] = d[k];
      j++;
    } else {
      // Each event its own copy of an object or array (a "lines-v8" line leaves them out).
      const v = t[k];
      out[k] = typeof v === "object" && v !== null ? copyData(v) : v;
    }
  }
  if (j < keys.length) {
    return `a delta-layout line's member "${keys[j]}" is not one of the members of the previous ` +
      `"${d.type}" line of its agent, in their order (write the line whole after "full":1)`;
  }
  return out;
}

/** The members of a decision, in the order the writer puts them. */
const DECISION_KEYS = [
  "type",
  "agent",
  "call",
  "action",
  "alternative",
  "reported",
  "probability",
  "draw",
  "realized",
  "committed",
  "amount",
] as const;

/**
 * Reads the body of a `"lines-v6"` decision line from its type key `at`
 * (the head read by {@linkcode DeltaReader.readHead}) into `out`, members
 * its line leaves out taken from the previous decision of its agent in
 * `reader`, whose template it then sets, and commits the head. Returns false,
 * having changed nothing, for anything else (another member list, escapes,
 * non-finite numbers, no template for a member left out): the caller parses
 * the line.
 *
 * @example
 * ```ts
 * import { blockHeader, type DecisionLine, DeltaReader, readDeltaDecision } from "./event_layout.ts";
 * const d = new DeltaReader(blockHeader("r", "e", "t"));
 * d.decode({ type: "decision", agent: "a", call: "c", action: "x", alternative: "y", reported: 4,
 *   probability: 0.04, draw: 0.5, realized: false, committed: false, amount: 1 });
 * const line = '{"type":"decision","agent":"a","reported":5,"probability":0.05,"draw":0.1,"realized":true}';
 * const out = {} as DecisionLine;
 * if (!readDeltaDecision(d, line, d.readHead(line, 0, line.length), line.length, out)) throw new Error();
 * if (out.seq !== 1 || out.call !== "c" || out.amount !== 1 || !out.realized) throw new Error();
 * ```
 */
export function readDeltaDecision(
  reader: DeltaReader,
  text: string,
  at: number,
  stop: number,
  out: DecisionLine,
): boolean {
  const r = new LineReader(text, at + TYPE_KEY.length, stop);
  if (!r.key('decision","agent":"')) return false;
  const agent = r.string();
  if (agent === undefined) return false;
  const key = reader.keyOf("decision", agent, reader.stepRead);
  const t = reader.templates.get(key);
  if (t !== undefined && !decisionTemplates.has(t) && !sameKeys(Object.keys(t), DECISION_KEYS)) {
    return false;
  }
  // Each member as the line writes it, else the template's value (the keys are literals:
  // this runs for every decision line a loader reads).
  const call = stringOr(r, ',"call":"', t?.call);
  const action = stringOr(r, ',"action":"', t?.action);
  const alternative = stringOr(r, ',"alternative":"', t?.alternative);
  const reported = numberOr(r, ',"reported":', t?.reported);
  const probability = numberOr(r, ',"probability":', t?.probability);
  const draw = numberOr(r, ',"draw":', t?.draw);
  const realized = booleanOr(r, ',"realized":', t?.realized);
  const committed = booleanOr(r, ',"committed":', t?.committed);
  const amount = numberOr(r, ',"amount":', t?.amount);
  if (
    r.pos !== stop - 1 || text.charCodeAt(r.pos) !== 125 /* } */ || Number.isNaN(reported) ||
    Number.isNaN(probability) || Number.isNaN(draw) || Number.isNaN(amount) ||
    call === undefined || action === undefined || alternative === undefined ||
    realized === undefined || committed === undefined
  ) {
    return false;
  }
  const head = reader.headRead;
  if (typeof head.round !== "number" || typeof head.step !== "string") return false;
  const template = {
    type: "decision",
    agent,
    call,
    action,
    alternative,
    reported,
    probability,
    draw,
    realized,
    committed,
    amount,
  };
  decisionTemplates.add(template);
  reader.templates.set(key, template);
  reader.commitHead("decision", false);
  out.round = head.round;
  out.step = head.step;
  out.seq = head.seq;
  out.agent = agent;
  out.call = call;
  out.action = action;
  out.alternative = alternative;
  out.reported = reported;
  out.probability = probability;
  out.draw = draw;
  out.realized = realized;
  out.committed = committed;
  out.amount = amount;
  return true;
}

/** A string member read at `key`, else the template's string `last` (`undefined`: neither). */
function stringOr(r: LineReader, key: string, last: unknown): string | undefined {
  if (r.key(key)) return r.stringLike(last);
  return typeof last === "string" ? last : undefined;
}

/** A number member read at `key`, else the template's number `last` (`NaN`: neither). */
function numberOr(r: LineReader, key: string, last: unknown): number {
  if (r.key(key)) return r.number();
  return typeof last === "number" ? last : NaN;
}

/** A boolean member read at `key`, else the template's boolean `last` (`undefined`: neither). */
function booleanOr(r: LineReader, key: string, last: unknown): boolean | undefined {
  if (r.key(key)) return r.boolean();
  return typeof last === "boolean" ? last : undefined;
}

/** The decision templates {@linkcode readDeltaDecision} made (their members are the decision's). */
const decisionTemplates = new WeakSet<object>();

/**
 * The NDJSON text of events in the block layout (`"lines-v5"`), exactly as
 * the engine's recorder writes them: a header before each episode's first
 * event (and again after an `episode_end`), then each event less `schema`,
 * `run` and `episode`, its time as {@linkcode timeMember} writes it.
 *
 * @example
 * ```ts
 * import { blockText } from "./event_layout.ts";
 * const e = { schema: 2, run: "r", episode: "e", round: 0, step: "setup", seq: 0, time: "t" };
 * const text = blockText([{ ...e, type: "round_start" }, { ...e, type: "episode_end", status: "ok" }] as never);
 * if (text !== '{"schema":3,"run":"r","episode":"e","time":"t"}\n' +
 *   '{"round":0,"step":"setup","seq":0,"type":"round_start"}\n' +
 *   '{"round":0,"step":"setup","seq":0,"type":"episode_end","status":"ok"}\n') throw new Error(text);
 * ```
 * @throws {TypeError} For an event of an unknown schema, or a body member the layout reserves.
 */
export function blockText(events: readonly Record<string, unknown>[] | readonly object[]): string {
  let text = "";
  let header: BlockHeader | undefined;
  for (const item of events) {
    const e = item as Record<string, unknown>;
    const { schema, run, episode, time, ...rest } = e;
    if (schema !== EVENT_SCHEMA_VERSION || typeof run !== "string" || typeof episode !== "string") {
      throw new TypeError(
        `Only schema-${EVENT_SCHEMA_VERSION} events with a run and an episode have a block line`,
      );
    }
    if (rest.ms !== undefined) {
      throw new TypeError(`A "${e.type}" event with its own "ms" has no block line`);
    }
    const at = typeof time === "string" ? time : "";
    if (header === undefined || header.run !== run || header.episode !== episode) {
      header = blockHeader(run, episode, at);
      text += blockHeaderLine(header) + "\n";
    }
    const member = timeMember(header, at);
    if (member === "") text += JSON.stringify(rest) + "\n";
    else {
      const { round, step, seq, ...body } = rest;
      text += `${JSON.stringify({ round, step, seq })!.slice(0, -1)},${member}${
        JSON.stringify(body).slice(1)
      }\n`;
    }
    if (e.type === "episode_end") header = undefined;
  }
  return text;
}

/**
 * Event types that record the agent side of the boundary rather than the game:
 * model-call records, agent failures and contract repairs. Replay feeds them
 * back rather than regenerating them, and they do not advance `seq` (each
 * takes the `seq` of the game event that follows it), so a log numbers its
 * game events alike whatever its agents did. From `"lines-v3"` on each carries
 * its own `event_hash`. (Defined here, where the `"lines-v6"` layout implies
 * each line's `seq` from them; `events_hash.ts` exports it too.)
 *
 * @example
 * ```ts
 * import { AGENT_SIDE_EVENT_TYPES } from "./event_layout.ts";
 * if (!AGENT_SIDE_EVENT_TYPES.has("llm_call") || AGENT_SIDE_EVENT_TYPES.has("report")) {
 *   throw new Error();
 * }
 * ```
 */
export const AGENT_SIDE_EVENT_TYPES: ReadonlySet<string> = new Set([
  "llm_call",
  "agent_error",
  "correction",
]);

/**
 * The schema version a `"lines-v6"` block header carries: `4`, the delta
 * layout of the schema-2 events. Each episode is a block, as under
 * `"lines-v5"` ({@linkcode BLOCK_SCHEMA_VERSION}): a header line
 * `{"schema":4,"run":R,"episode":E,"time":T}`, then one line per event, but a
 * line leaves out what the lines before it in its block imply:
 *
 * - **Its head.** The members before `type` are, in this order, `round`,
 *   `step`, `seq`, a time member (`"ms":N`, the milliseconds after the
 *   header's time, or `"time":"..."` whole when either is not ISO text) and
 *   `"full":1` (below); each is written only where it differs from what is
 *   implied: the previous line's round, step and time (for the first line:
 *   round 0, step `"setup"`, the header's time) and its `seq` plus one (the
 *   same `seq` after an agent-side line, {@linkcode AGENT_SIDE_EVENT_TYPES};
 *   0 for the first line). A checkpoint's line counts as a previous line.
 * - **Members its template repeats.** A line's template is the previous
 *   line in its block of the same `type` and, when it carries a string
 *   `agent`, the same agent (checkpoints have none). When the event has
 *   exactly the template's members, in its order, every member whose value
 *   is a string, number, boolean or null equal to the template's (`===`) is
 *   left out, but `type` and `agent`; a reader takes them from the template.
 *   An event with other members than its template's (or another order) is
 *   written whole after `"full":1`. Objects and arrays are always written.
 * - **A checkpoint's state as a delta.** The first checkpoint of a block
 *   writes `"state":S` (S the canonical text, as `"lines-v5"` does); a later
 *   one may write `"delta":[[at,removed,text],...]` in its place: S is the
 *   previous checkpoint's state text cut at every comma, the pieces
 *   `at .. at+removed-1` (of that list, the ops in rising order, not
 *   overlapping) replaced by the one piece `text`, joined again with commas.
 *   The writer writes whichever is shorter. A delta that does not apply (or
 *   does not give JSON) is an error naming its file and line.
 *
 * A reader gives the same event objects as every other layout does (`schema:
 * 2`, the header's `run` and `episode`, every member in the writer's order).
 * A `"lines-v5"` build reading such a log stops at its header: "event schema
 * 4 is not supported". Its second edition, `"lines-v8"`'s, is
 * {@linkcode STEP_DELTA_SCHEMA_VERSION}.
 *
 * @example
 * ```ts
 * import { DELTA_SCHEMA_VERSION } from "./event_layout.ts";
 * if (DELTA_SCHEMA_VERSION !== 4) throw new Error();
 * ```
 */
export const DELTA_SCHEMA_VERSION = 4;

/** How a `"lines-v6"` block header starts: `{"schema":4,`. */
export const DELTA_HEADER_PREFIX = `{"schema":${DELTA_SCHEMA_VERSION},`;

/**
 * The schema version a `"lines-v8"` block header carries: `5`, the delta
 * layout ({@linkcode DELTA_SCHEMA_VERSION}) with two changes, which leave out
 * what a mock player's repeated replies wrote again every round (a Stag Hunt
 * episode's report lines were a third of its bytes):
 *
 * - **A template per step.** A line's template is the previous line in its
 *   block of the same `type`, the same string `agent` (as before) and the
 *   same `step` (the line's own, written or implied). A player answering two
 *   calls each round in two steps (a corrupted Stag Hunt player's turn and
 *   rejustification) has one template for each, instead of one that
 *   alternates between them.
 * - **Objects and arrays left out too.** A member whose value is a plain
 *   object or an array is left out when it is the same data as the
 *   template's: an array of the same length, or an object (prototype
 *   `Object`) with the same keys in the same order, whose members are the
 *   same in turn (any other value by `===`: strings, numbers, booleans,
 *   null, the same object itself). So a class instance, an object without a
 *   prototype or `NaN` is left out only where it is the template's own. The
 *   recorder relies on what it already requires: an event's objects are not
 *   changed after the event is recorded (`Step.apply`'s events share no
 *   object with the state; a mock agent's exact reply is a fresh object it
 *   never touches again, `_trusted_replies.ts`; every other reply is parsed
 *   into a copy). A reader gives each event its own copy of a member it took
 *   from the template.
 *
 * Everything else is as under `"lines-v6"`. A build before `"lines-v8"`
 * reading such a log stops at its header line with a `SyntaxError` (`an event
 * must be an object with a "type"`); from `"lines-v8"` on, every reader names
 * a header of a schema it does not know: "event schema 6 is not supported".
 *
 * @example
 * ```ts
 * import { STEP_DELTA_SCHEMA_VERSION } from "./event_layout.ts";
 * if (STEP_DELTA_SCHEMA_VERSION !== 5) throw new Error();
 * ```
 */
export const STEP_DELTA_SCHEMA_VERSION = 5;

/** The header schema of a delta-layout block: `"lines-v6"`'s or `"lines-v8"`'s. */
export type DeltaSchema = typeof DELTA_SCHEMA_VERSION | typeof STEP_DELTA_SCHEMA_VERSION;

/** How a `"lines-v8"` block header starts: `{"schema":5,`. */
export const STEP_DELTA_HEADER_PREFIX = `{"schema":${STEP_DELTA_SCHEMA_VERSION},`;

/**
 * Whether a line (its text, from its opening brace) starts as a block header
 * of any block layout does (`"lines-v5"`, `"lines-v6"` or `"lines-v8"`).
 *
 * @example
 * ```ts
 * import { isBlockHeaderLine } from "./event_layout.ts";
 * if (!isBlockHeaderLine('{"schema":5,"run":"r"') || isBlockHeaderLine('{"schema":2,"run":"r"')) {
 *   throw new Error();
 * }
 * ```
 */
export function isBlockHeaderLine(line: string): boolean {
  return line.startsWith(BLOCK_HEADER_PREFIX) || line.startsWith(DELTA_HEADER_PREFIX) ||
    line.startsWith(STEP_DELTA_HEADER_PREFIX);
}

/**
 * Whether a line's `schema` is a block header's, of any block layout.
 *
 * @example
 * ```ts
 * import { isBlockHeaderSchema } from "./event_layout.ts";
 * if (!isBlockHeaderSchema(3) || !isBlockHeaderSchema(5) || isBlockHeaderSchema(2)) throw new Error();
 * ```
 */
export function isBlockHeaderSchema(schema: unknown): boolean {
  return schema === BLOCK_SCHEMA_VERSION || schema === DELTA_SCHEMA_VERSION ||
    schema === STEP_DELTA_SCHEMA_VERSION;
}

/**
 * Whether a line (its text, from its opening brace) is a block's line, not a
 * header or a line of the old layout: a JSON object that does not start with
 * a `schema` member (under `"lines-v5"` it starts with `{"round":`; under
 * `"lines-v6"` with any head member or its `type`).
 *
 * @example
 * ```ts
 * import { isBlockLine } from "./event_layout.ts";
 * if (!isBlockLine('{"type":"round_start"}') || isBlockLine('{"schema":4,"run":"r"}')) throw new Error();
 * ```
 */
export function isBlockLine(line: string): boolean {
  return line.startsWith('{"') && !line.startsWith('{"schema":');
}

/** The head members of a `"lines-v6"` line, before its `type`. */
const DELTA_HEAD_KEYS: ReadonlySet<string> = new Set([
  "round",
  "step",
  "seq",
  "ms",
  "time",
  "full",
]);

/** The template key of a body: its type, and its agent when it is a string. */
function templateKey(type: unknown, agent: unknown): string {
  return typeof agent === "string" ? `${type}\n${agent}` : String(type);
}

/**
 * The header line of a delta-layout block (without its newline):
 * `{"schema":4,"run":R,"episode":E,"time":T}` (`"lines-v6"`), or with
 * `"schema":5` (`schema` {@linkcode STEP_DELTA_SCHEMA_VERSION}, `"lines-v8"`);
 * hashed without `,"time":T`.
 *
 * @example
 * ```ts
 * import { blockHeader, deltaHeaderLine } from "./event_layout.ts";
 * if (deltaHeaderLine(blockHeader("r", "e", "t")) !== '{"schema":4,"run":"r","episode":"e","time":"t"}') {
 *   throw new Error();
 * }
 * if (!deltaHeaderLine(blockHeader("r", "e", "t"), 5).startsWith('{"schema":5,')) throw new Error();
 * ```
 */
export function deltaHeaderLine(
  header: BlockHeader,
  schema: DeltaSchema = DELTA_SCHEMA_VERSION,
): string {
  const prefix = schema === STEP_DELTA_SCHEMA_VERSION
    ? STEP_DELTA_HEADER_PREFIX
    : DELTA_HEADER_PREFIX;
  return `${prefix}"run":${JSON.stringify(header.run)},"episode":${
    JSON.stringify(header.episode)
  },"time":${JSON.stringify(header.time)}}`;
}

/**
 * The writer's side of a `"lines-v6"` block (see
 * {@linkcode DELTA_SCHEMA_VERSION}): what the lines so far imply, and the
 * members of the next line given that. The recorder and
 * {@linkcode deltaBlockLines} write through it; {@linkcode LogLineDecoder}
 * undoes it.
 *
 * @example
 * ```ts
 * import { blockHeader, DeltaWriter } from "./event_layout.ts";
 * const w = new DeltaWriter(blockHeader("r", "e", "1970-01-01T00:00:00.000Z"));
 * const a = w.head(1, "s", 0, "1970-01-01T00:00:00.000Z", true);
 * if (a + w.time !== '"round":1,"step":"s",') throw new Error(a);
 * if (w.body({ type: "x", agent: "a", v: 1, w: 2 }) !== '"type":"x","agent":"a","v":1,"w":2}') throw new Error();
 * const b = w.head(1, "s", 1, "1970-01-01T00:00:00.004Z", true);
 * if (b !== "" || w.time !== '"ms":4,') throw new Error();
 * if (w.body({ type: "x", agent: "a", v: 1, w: 3 }) !== '"type":"x","agent":"a","w":3}') throw new Error();
 * ```
 */
export class DeltaWriter {
  private round = 0;
  private step = "setup";
  private seq = 0;
  private at: string;
  private timeMember = "";
  private stepText = "";
  private timeAt = "";
  private timeText = "";
  // The templates by type, then by agent (NO_AGENT for a body without a string agent): the
  // current step's under "lines-v8" (each step's kept in `steps`), the whole block's before it.
  private templates = new Map<string, Map<unknown, DeltaTemplate>>();
  private readonly steps: Map<string, Map<string, Map<unknown, DeltaTemplate>>> | undefined;
  // Whether an object or array member the template repeats is left out ("lines-v8").
  private readonly objects: boolean;
  // The previous checkpoint's state text and its pieces' starts; a spare array for the next.
  private stateText: string | undefined;
  private stateStarts: number[] | undefined;
  private spare: number[] | undefined;

  /** A writer at the start of the block under `header`, of the layout its `schema` names. */
  constructor(readonly header: BlockHeader, readonly schema: DeltaSchema = DELTA_SCHEMA_VERSION) {
    this.at = header.time;
    this.objects = schema === STEP_DELTA_SCHEMA_VERSION;
    if (this.objects) this.steps = new Map([[this.step, this.templates]]);
  }

  /**
   * The head members of the next line, each with its comma (hashed; its time
   * member, which the hash leaves out and which follows them in the line, is
   * then {@linkcode DeltaWriter.time}), for an event at `round`, `step`,
   * `seq` and `time`; `game` is false for an agent-side event (the `seq`
   * after it is its own).
   */
  head(round: number, step: string, seq: number, time: string, game: boolean): string {
    let head = "";
    if (round !== this.round) {
      head = `"round":${JSON.stringify(round)},`;
      this.round = round;
    }
    if (step !== this.step) {
      this.step = step;
      this.stepText = `"step":${JSON.stringify(step)},`;
      head += this.stepText;
      const steps = this.steps;
      if (steps !== undefined) {
        let templates = steps.get(step);
        if (templates === undefined) steps.set(step, templates = new Map());
        this.templates = templates;
      }
    }
    if (seq !== this.seq) head += `"seq":${JSON.stringify(seq)},`;
    this.seq = game ? seq + 1 : seq;
    this.timeMember = "";
    if (time !== this.at) {
      if (time !== this.timeAt) {
        this.timeAt = time;
        const m = timeMember(this.header, time);
        this.timeText = m !== ""
          ? m
          : Number.isNaN(this.header.ms)
          ? `"time":${JSON.stringify(time)},`
          : `"ms":0,`;
      }
      this.timeMember = this.timeText;
      this.at = time;
    }
    return head;
  }

  /** The time member of the line {@linkcode DeltaWriter.head} gave the head of, with its comma, or `""`. */
  get time(): string {
    return this.timeMember;
  }

  /**
   * The body's text from its `type` on (`"type":...}`, after `"full":1,`
   * when its template has other members), members its template repeats left
   * out; `trailing` names a member the caller appends to the text before its
   * closing brace (an agent-side event's `event_hash`, `episode_end`'s
   * `events_hash`), whose value it gives to {@linkcode DeltaWriter.trail}.
   */
  body(body: Record<string, unknown>, trailing?: string): string {
    const type = body.type;
    const agent = body.agent;
    let byAgent = this.templates.get(type as string);
    if (byAgent === undefined) this.templates.set(type as string, byAgent = new Map());
    const agentKey = typeof agent === "string" ? agent : NO_AGENT;
    const t = byAgent.get(agentKey);
    if (t !== undefined) {
      // The members the template does not repeat, each as JSON.stringify writes it in the
      // body; the template's values become the body's as they are read (a body that cannot
      // be written this way is written whole below, with a new template).
      const keys = t.keys;
      const before = t.values;
      const n = t.count;
      let text = t.typeText;
      let i = 0;
      let whole = true;
      for (const k in body) {
        if (i >= n || k !== keys[i]) {
          whole = false;
          break;
        }
        const v = body[k];
        if (i === 0 || i === t.agentAt) {
          if (i !== 0) text += t.agentText;
          i++;
          continue;
        }
        let out: string | undefined;
        switch (typeof v) {
          case "number":
            if (v === before[i]) {
              i++;
              continue;
            }
            out = v === 0 ? "0" : v - v === 0 ? "" + v : "null";
            break;
          case "string":
            if (v === before[i]) {
              i++;
              continue;
            }
            out = JSON.stringify(v);
            break;
          case "boolean":
            if (v === before[i]) {
              i++;
              continue;
            }
            out = v ? "true" : "false";
            break;
          case "object":
            if (v === null) {
              if (before[i] === null) {
                i++;
                continue;
              }
              out = "null";
            } else if (this.objects && sameData(v, before[i], 0)) {
              i++;
              continue;
            } else out = JSON.stringify(v);
            break;
        }
        if (out === undefined) {
          // undefined, a function or a symbol (JSON.stringify leaves the member out).
          whole = false;
          break;
        }
        before[i] = v;
        text += t.names[i] + out;
        i++;
      }
      if (whole && i === n && (trailing === undefined) === (n === keys.length)) {
        this.last = t;
        return text + "}";
      }
    }
    const json = JSON.stringify(body);
    // The members' names, and what is built of them, as the last body of its type had them
    // (the bodies of one type mostly share one shape): checked member by member as the values
    // are gathered, else built from the body.
    const cached = shapes.get(type);
    let values = cached !== undefined && cached.trailing === trailing
      ? shapeValues(body, cached)
      : undefined;
    let shape: DeltaShape;
    if (values !== undefined) shape = cached!;
    else {
      const keys = Object.keys(body);
      if (keys[0] !== "type") {
        throw new TypeError(
          `A "${type}" body whose first member is not its "type" has no delta-layout line`,
        );
      }
      values = Object.values(body);
      let clean = true;
      for (const v of values) {
        const kind = typeof v;
        if (kind === "undefined" || kind === "function" || kind === "symbol") clean = false;
      }
      let k = keys;
      if (!clean) {
        // What a reader gets back of it: the members JSON.stringify wrote.
        const decoded = JSON.parse(json) as Record<string, unknown>;
        k = Object.keys(decoded);
        values = Object.values(decoded);
      }
      const count = k.length;
      if (trailing !== undefined) {
        k.push(trailing);
        values.push(undefined);
      }
      shape = {
        keys: k,
        count,
        trailing,
        names: k.map(memberName),
        typeText: `"type":${JSON.stringify(type)}`,
        agentAt: k.indexOf("agent"),
      };
      if (clean) {
        if (shapes.size >= 1024) shapes.clear();
        shapes.set(type, shape);
      }
    }
    const agentAt = typeof agent === "string" ? shape.agentAt : -1;
    const made: DeltaTemplate = {
      keys: shape.keys,
      count: shape.count,
      names: shape.names,
      values,
      typeText: shape.typeText,
      agentAt,
      agentText: agentAt === -1 ? "" : agentText(agent as string),
    };
    this.last = made;
    byAgent.set(agentKey, made);
    return t === undefined ? json.slice(1) : `"full":1,${json.slice(1)}`;
  }

  private last: DeltaTemplate | undefined;

  /** Gives the template of the last body its `trailing` member's value (see {@linkcode DeltaWriter.body}). */
  trail(value: string): void {
    const values = this.last!.values;
    values[values.length - 1] = value;
  }

  /**
   * A checkpoint's state member, with no comma: `"state":<text>` or, when
   * shorter, `"delta":[...]` against the previous checkpoint's state text.
   */
  state(text: string): string {
    text.charCodeAt(0); // flat: the pieces are compared by character
    const before = this.stateText;
    const starts = pieceStarts(text, this.spare);
    this.spare = this.stateStarts;
    this.stateText = text;
    this.stateStarts = starts;
    const whole = `"state":${text}`;
    if (before === undefined) return whole;
    const ops = stateDelta(before, this.spare!, text, starts);
    if (ops === undefined) return whole;
    const delta = `"delta":${JSON.stringify(ops)}`;
    return delta.length < whole.length ? delta : whole;
  }
}

/**
 * Where each comma-separated piece of `text` starts, and one past the end
 * (`length + 1`) last, in `into` when it is given (reused).
 */
function pieceStarts(text: string, into: number[] | undefined): number[] {
  const out = into ?? [];
  out.length = 0;
  out.push(0);
  let at = text.indexOf(",");
  while (at !== -1) {
    out.push(at + 1);
    at = text.indexOf(",", at + 1);
  }
  out.push(text.length + 1);
  return out;
}

/**
 * Whether the `count` pieces of `a` (starts `as`) from piece `i` are those of
 * `b` (starts `bs`) from piece `j` (compared as two slices: the engine's
 * string comparison is much faster than a loop over characters).
 */
function samePieces(
  a: string,
  as: number[],
  i: number,
  b: string,
  bs: number[],
  j: number,
  count = 1,
): boolean {
  const from = as[i];
  const length = as[i + count] - from;
  const at = bs[j];
  return bs[j + count] - at === length && a.slice(from, from + length) === b.slice(at, at + length);
}

/**
 * The ops that turn the pieces of `before` into those of `after` (see
 * {@linkcode DELTA_SCHEMA_VERSION}), from their piece starts; undefined when
 * no op can (both one piece and the same).
 */
function stateDelta(
  before: string,
  bs: number[],
  after: string,
  as: number[],
): [number, number, string][] | undefined {
  const ops: [number, number, string][] = [];
  const n = bs.length - 1;
  const m = as.length - 1;
  // Pieces i..j-1 of `after`, as one text.
  const text = (i: number, j: number) => after.slice(as[i], as[j] - 1);
  if (n === m) {
    let i = 0;
    while (i < n) {
      // Most pieces are unchanged: the run of equal ones is skipped in a few comparisons.
      i += sameRun(before, bs, after, as, i, i, n - i);
      if (i === n) break;
      let j = i + 1;
      while (j < n && !samePieces(before, bs, j, after, as, j)) j++;
      ops.push([i, j - i, text(i, j)]);
      i = j;
    }
    return ops;
  }
  const p = sameRun(before, bs, after, as, 0, 0, Math.min(n, m));
  const s = sameRun(before, bs, after, as, n, m, Math.min(n - p, m - p), true);
  // The one piece that replaces the middle must not be empty: widen it by a piece.
  let from = p;
  let tail = s;
  if (m - s - p === 0) {
    if (p > 0) from--;
    else if (s > 0) tail--;
    else return undefined;
  }
  ops.push([from, n - tail - from, text(from, m - tail)]);
  return ops;
}

/**
 * How many pieces from piece `i` of `a` and piece `j` of `b` on (with `back`,
 * the pieces before them, counting back) are the same, at most `limit`: runs
 * of 1, 2, 4, ... pieces are compared at once (two equal slices of whole
 * pieces are the same pieces), halved after one that differs, so that a
 * long equal run takes a few slice comparisons, not one a piece. The same
 * count as comparing piece by piece.
 */
function sameRun(
  a: string,
  as: number[],
  b: string,
  bs: number[],
  i: number,
  j: number,
  limit: number,
  back = false,
): number {
  let done = 0;
  let step = 1;
  while (done < limit) {
    const k = Math.min(step, limit - done);
    const same = back
      ? samePieces(a, as, i - done - k, b, bs, j - done - k, k)
      : samePieces(a, as, i + done, b, bs, j + done, k);
    if (same) {
      done += k;
      step *= 2;
    } else if (k === 1) break;
    else step = k >> 1;
  }
  return done;
}

/** A template as the writer keeps it: the member names, their `,"name":` texts and values. */
interface DeltaTemplate {
  /** The member names, a trailing one last. */
  keys: string[];
  /** How many of them the body has (all but a trailing one). */
  count: number;
  names: string[];
  values: unknown[];
  /** `"type":"<type>"`. */
  typeText: string;
  /** Where the body's string `agent` is (-1 without one), and its text `,"agent":"<id>"`. */
  agentAt: number;
  agentText: string;
}

/**
 * The members of the bodies of one type (the last shape built for it, shared by the
 * templates made from it, never changed): the names, a trailing one last, how many the
 * body has, the trailing one's name, their texts `,"name":`, `"type":<type>` and where
 * `agent` is (-1 without one).
 */
interface DeltaShape {
  keys: string[];
  count: number;
  trailing: string | undefined;
  names: string[];
  typeText: string;
  agentAt: number;
}

/** The last shape built for each body type (bounded). */
const shapes = new Map<unknown, DeltaShape>();

/**
 * A body's values in the order of `shape`'s members, with a slot for its trailing one,
 * when the body has exactly those members in that order and each one a value
 * `JSON.stringify` writes; else undefined.
 */
function shapeValues(body: Record<string, unknown>, shape: DeltaShape): unknown[] | undefined {
  const keys = shape.keys;
  const n = shape.count;
  const values: unknown[] = new Array(keys.length);
  let i = 0;
  for (const k in body) {
    if (i >= n || k !== keys[i]) return undefined;
    const v = body[k];
    const kind = typeof v;
    if (kind === "undefined" || kind === "function" || kind === "symbol") return undefined;
    values[i++] = v;
  }
  return i === n ? values : undefined;
}

/**
 * Whether `a` is the same data as `b`, as a `"lines-v8"` line leaves a member
 * out (see {@linkcode STEP_DELTA_SCHEMA_VERSION}): the same value, or arrays
 * of one length, or plain objects with the same keys in the same order, whose
 * members are the same in turn; `depth` bounds the nesting looked into.
 */
function sameData(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || depth > 16) {
    return false;
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      const x = a[i];
      const y = b[i];
      if (x !== y && !sameData(x, y, depth + 1)) return false;
    }
    return true;
  }
  if (
    Array.isArray(b) || Object.getPrototypeOf(a) !== Object.prototype ||
    Object.getPrototypeOf(b) !== Object.prototype
  ) {
    return false;
  }
  // The members first, with no array built (most bodies differ in a member: a report's
  // probability), then the keys and their order (a member of `a` missing from `b` reads as
  // undefined there, so it is caught here too). A plain object's for-in order is its keys'.
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let n = 0;
  for (const k in x) {
    const v = x[k];
    const w = y[k];
    if (v !== w && !sameData(v, w, depth + 1)) return false;
    n++;
  }
  const kb = Object.keys(y);
  if (kb.length !== n) return false;
  let i = 0;
  for (const k in x) if (k !== kb[i++]) return false;
  return true;
}

/** `,"agent":<id>` (cached). */
function agentText(agent: string): string {
  let text = agentTexts.get(agent);
  if (text === undefined) {
    text = `,"agent":${JSON.stringify(agent)}`;
    if (agentTexts.size >= 8192) agentTexts.clear();
    agentTexts.set(agent, text);
  }
  return text;
}
const agentTexts = new Map<string, string>();

/** The agent key of a body without a string agent. */
const NO_AGENT = Symbol("no agent");

/** A member's name as it follows another member: `,"name":` (cached). */
function memberName(name: string): string {
  let text = memberNames.get(name);
  if (text === undefined) {
    text = `,${JSON.stringify(name)}:`;
    if (memberNames.size >= 8192) memberNames.clear();
    memberNames.set(name, text);
  }
  return text;
}
const memberNames = new Map<string, string>();

/** Whether two key lists are the same, in order. */
function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The state text a checkpoint's delta gives from the previous state's, or a message. */
function applyStateDelta(before: string, delta: unknown): string | { problem: string } {
  const bad = (why: string) => ({ problem: `a checkpoint's "delta" ${why}` });
  if (!Array.isArray(delta)) return bad("must be an array of [at, removed, text] ops");
  const pieces = before.split(",");
  let out = "";
  let from = 0;
  let first = true;
  for (let i = 0; i < delta.length; i++) {
    const op = delta[i];
    if (
      !Array.isArray(op) || op.length !== 3 || !Number.isSafeInteger(op[0]) ||
      !Number.isSafeInteger(op[1]) || typeof op[2] !== "string"
    ) {
      return bad(`op ${i} must be [at, removed, text]: received ${JSON.stringify(op)}`);
    }
    const [at, removed, text] = op as [number, number, string];
    if (at < from || removed < 0 || at + removed > pieces.length) {
      return bad(
        `op ${i} ${JSON.stringify(op)} does not fit the previous state's ${pieces.length} ` +
          `pieces after ${from}`,
      );
    }
    for (let k = from; k < at; k++) {
      out += first ? pieces[k] : "," + pieces[k];
      first = false;
    }
    out += first ? text : "," + text;
    first = false;
    from = at + removed;
  }
  for (let k = from; k < pieces.length; k++) {
    out += first ? pieces[k] : "," + pieces[k];
    first = false;
  }
  return out;
}

/**
 * The lines of one episode's events in a delta layout, as the recorder
 * writes them: `"lines-v8"`'s ({@linkcode STEP_DELTA_SCHEMA_VERSION}, the
 * default) or, with `layout` 4, `"lines-v6"`'s ({@linkcode DELTA_SCHEMA_VERSION}).
 * The header, then a line per event; each with its `hashed` text (the line less
 * its time member; a header's less its time; `null` for a checkpoint, which
 * no hash covers). `episode_end`'s hashed text is without its own
 * `events_hash`. Every event must be of the episode of the first.
 *
 * @example
 * ```ts
 * import { deltaBlockLines } from "./event_layout.ts";
 * const e = { schema: 2, run: "r", episode: "e", round: 0, step: "setup", seq: 0, time: "t" };
 * const lines = deltaBlockLines([{ ...e, type: "round_start" }, { ...e, seq: 1, type: "round_start" }], 4);
 * if (lines.map((l) => l.line).join("\n") !== '{"schema":4,"run":"r","episode":"e","time":"t"}\n' +
 *   '{"type":"round_start"}\n{"type":"round_start"}') throw new Error();
 * ```
 * @throws {TypeError} For an event of an unknown schema or another episode, or a body member the layout reserves.
 */
export function deltaBlockLines(
  events: readonly Record<string, unknown>[] | readonly object[],
  layout: DeltaSchema = STEP_DELTA_SCHEMA_VERSION,
): { line: string; hashed: string | null }[] {
  const out: { line: string; hashed: string | null }[] = [];
  let w: DeltaWriter | undefined;
  for (const item of events) {
    const e = item as Record<string, unknown>;
    const { schema, run, episode, round, step, seq, time, ...body } = e;
    if (schema !== EVENT_SCHEMA_VERSION || typeof run !== "string" || typeof episode !== "string") {
      throw new TypeError(
        `Only schema-${EVENT_SCHEMA_VERSION} events with a run and an episode have a block line`,
      );
    }
    const at = typeof time === "string" ? time : "";
    if (w === undefined) {
      w = new DeltaWriter(blockHeader(run, episode, at), layout);
      const line = deltaHeaderLine(w.header, layout);
      out.push({ line, hashed: line.slice(0, line.lastIndexOf(',"time":')) + "}" });
    } else if (w.header.run !== run || w.header.episode !== episode) {
      throw new TypeError(`An event of episode "${episode}" in the block of "${w.header.episode}"`);
    }
    if (body.ms !== undefined) {
      throw new TypeError(`A "${e.type}" event with its own "ms" has no block line`);
    }
    const type = body.type;
    const h = {
      head: w.head(
        round as number,
        step as string,
        seq as number,
        at,
        !AGENT_SIDE_EVENT_TYPES.has(String(type)),
      ),
      time: w.time,
    };
    if (type === "checkpoint") {
      const { type: _t, state, ...hashes } = body;
      const rest = JSON.stringify(hashes).slice(1);
      const line = `{${h.head}${h.time}"type":"checkpoint",${w.state(canonicalJson(state))}${
        rest === "}" ? "}" : "," + rest
      }`;
      out.push({ line, hashed: null });
      continue;
    }
    if (AGENT_SIDE_EVENT_TYPES.has(String(type)) && body.event_hash !== undefined) {
      // Its own hash is always written, last (the recorder appends it to the text it covers).
      const { event_hash, ...rest } = body;
      const text = w.body(rest, "event_hash");
      w.trail(String(event_hash));
      const member = `,"event_hash":${JSON.stringify(event_hash)}}`;
      out.push({
        line: `{${h.head}${h.time}${text.slice(0, -1)}${member}`,
        hashed: `{${h.head}${text.slice(0, -1)}${member}`,
      });
      continue;
    }
    if (type === "episode_end" && body.events_hash !== undefined) {
      const { events_hash, ...rest } = body;
      const text = w.body(rest, "events_hash");
      w.trail(String(events_hash));
      out.push({
        line: `{${h.head}${h.time}${text.slice(0, -1)},"events_hash":${
          JSON.stringify(events_hash)
        }}`,
        hashed: `{${h.head}${text}`,
      });
      continue;
    }
    const text = w.body(body);
    out.push({ line: `{${h.head}${h.time}${text}`, hashed: `{${h.head}${text}` });
  }
  return out;
}

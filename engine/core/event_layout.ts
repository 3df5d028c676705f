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
  if (time.length < 24 || time.charCodeAt(time.length - 1) !== 90 /* Z */) return NaN;
  const ms = Date.parse(time);
  return Number.isFinite(ms) && new Date(ms).toISOString() === time ? ms : NaN;
}

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
    if (v.schema === undefined && typeof v.round !== "number") {
      // Not a block line (those start with their round): the caller's checks name what it lacks.
      return v;
    }
    if (v.schema === BLOCK_SCHEMA_VERSION) {
      const { run, episode, time } = v;
      if (typeof run !== "string" || typeof episode !== "string" || typeof time !== "string") {
        return `a block header (schema 3) must hold "run", "episode" and "time" strings`;
      }
      if (v.type !== undefined) return `a block header (schema 3) is not an event: it has a "type"`;
      this.header = blockHeader(run, episode, time);
      return undefined;
    }
    if (v.schema !== undefined) {
      // A line of the old layout ends any block before it.
      this.header = undefined;
      return v;
    }
    const header = this.header;
    if (header === undefined) {
      return `a block line (no "schema") outside a block (before any block header ` +
        `{"schema":3,...}, or after its block's episode_end): the header line is missing`;
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
    if (v.type === "episode_end") this.header = undefined;
    return out;
  }
}

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

/**
 * The exact bytes of an event line as the engine writes it, in one place:
 * the writer (`event_recorder.ts`) builds its lines' heads here, and the
 * loader's fast path (`analysis/load/_event_scan.ts`) reads lines back here
 * without `JSON.parse`. `tests/engine/core/event_layout_test.ts` writes
 * every event type of every game and reads each line back both ways.
 *
 * An engine line is `JSON.stringify` of the event with its members in this
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
 * prefix, no closing brace, no type key): the caller parses it then.
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
  if (!text.startsWith(LINE_PREFIX, start) || text.charCodeAt(stop - 1) !== 125 /* } */) {
    return -1;
  }
  // The key "type" holds the first "y" of an engine-written line unless the
  // run or episode name has one; searching for a rare character is faster.
  let at = text.indexOf("y", start + LINE_PREFIX.length) - 2;
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
 * episode ({@linkcode readRunEpisode}) and `at` the line's type key
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
  if (!r.key(',"time":"') || r.string() === undefined || r.pos !== at - 1) return false;
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

/**
 * What the round loop does with each event, paid for only when asked: keep
 * it in memory, write its NDJSON line, feed the round's events hash, hand it
 * to a listener. With none of these asked, recording an event does nothing.
 *
 * - Every event gets the shared base (`schema`, `run`, `episode`, `round`,
 *   `step`, `seq`, `time`). `time` is read from the clock once per
 *   {@linkcode EventRecorder.tick} (the loop ticks at set-up, at the start of
 *   each round, after a step whose agents answered asynchronously, and at the
 *   end), not once per event; nothing reads the clock when no event is kept,
 *   written or listened to. The wall clock's ISO text is cached per millisecond.
 * - Kept events are stored as the bodies the environment returned, with the
 *   base recorded only where it changes; the full event objects are built the
 *   first time {@linkcode EventRecorder.events} is read. A caller that never
 *   reads them never pays for them. (This is sound because an environment's
 *   events never share objects with its state: see `Step.apply`.)
 * - Lines are written once, as UTF-8, into one buffer per episode
 *   (`bytes`; `text` decodes it when read): `JSON.stringify` of the event's
 *   body behind a base head cached per episode and step (the layout, which
 *   the loader's fast path reads back, is `event_layout.ts`). The events hash
 *   (`"lines-v3"`, see `events_hash.ts`) is a running SHA-256 fed from the
 *   same bytes, around each line's `time` member, so a logged episode
 *   serialises, encodes and hashes each byte once and is written from that
 *   buffer. Under `"lines-v3"` an agent-side event's own `event_hash` and
 *   `episode_end`'s `events_hash` are appended to its line as its last
 *   member, and the kept event carries them too. The line of a body that
 *   repeats a base field (a body's own `round` overrides the base's, as with
 *   an object spread) is built from the whole event instead; both give the
 *   text `JSON.stringify` gives for the event object.
 * - Under `"lines-v5"` the lines are the block layout (`event_layout.ts`):
 *   a header before the episode's first line (its run, episode and the time
 *   of that line; hashed with round 1's segment, less its time), then lines
 *   behind the head `{"round":R,"step":S,"seq":N,`, their time member
 *   (`timeMember`: none at the header's time, `"ms":N` after it) computed
 *   once per tick. A body carrying `schema`, `run`, `episode`, `time` or `ms`
 *   of its own is refused (`TypeError`): the reader could not tell it from
 *   the header's or the time member.
 * - A checkpoint serialises its state once, canonically (from an
 *   environment's `checkpointState.since` on, as its `json` writes it): the text is hashed
 *   (`state_hash`), written into the line (encoded with the next segment's
 *   lines, and left out of its hash), and kept for the in-memory checkpoint,
 *   whose `state` is parsed from it when the events are built.
 * - Without hashes, a checkpoint is `{ type: "checkpoint" }`: it marks the end
 *   of a round (and keeps `seq` numbering identical to a hashed run) but
 *   carries neither the state nor the hashes.
 *
 * @module
 */
import { createHash, type Hash } from "node:crypto";
import { canonicalJson } from "./canonical_json.ts";
import {
  BLOCK_LINE_PREFIX,
  type BlockHeader,
  blockHeader,
  blockHeaderLine,
  deltaHeaderLine,
  DeltaWriter,
  EVENTS_HASH_KEY,
  lineHead,
  stepHead,
  timeMember,
  TYPE_KEY,
} from "./event_layout.ts";
import type { EngineEvent, EventBody } from "./events.ts";
import { EVENT_BASE_FIELDS, EVENT_SCHEMA_VERSION } from "./events.ts";
import {
  AGENT_SIDE_EVENT_TYPES,
  checkHashing,
  deltaSchemaOf,
  HASHING_VERSION,
  type HashingVersion,
  writesBlocks,
  writesDeltas,
} from "./events_hash.ts";
import { sha256Hex } from "./hash.ts";

/** Options of {@linkcode EventRecorder}. */
export interface EventRecorderOptions {
  /** Run id. */
  run: string;
  /** Episode id. */
  episode: string;
  /** Keep every event in memory (`events`). */
  keep: boolean;
  /** Build the NDJSON text (`text`); implies `hashes`. */
  lines: boolean;
  /** Checkpoints carry the state and both hashes. */
  hashes: boolean;
  /** The events-hash definition. Default {@linkcode HASHING_VERSION}. */
  hashing?: HashingVersion;
  /** Clock for event times. Default: the wall clock. */
  clock?: () => string;
  /** Called with every event as it is recorded. */
  onEvent?: (event: EngineEvent) => void;
}

/** The body of an `llm_call` event. */
export type LlmCallBody = Extract<EventBody, { type: "llm_call" }>;

/**
 * What a log holds at a glance, counted as it is recorded, so that a caller
 * can summarise an episode (its status, its calls, its model usage) without
 * building its events.
 */
export interface EpisodeTally {
  /** Number of `report` events (agent calls answered). */
  reports: number;
  /** The bodies of the `llm_call` events (without the shared base), in order. */
  llmCalls: readonly LlmCallBody[];
  /** The body of the last event (a finished log's `episode_end`), if any. */
  last: EventBody | undefined;
}

/**
 * The tally of a list of events, as the engine keeps it while recording them.
 *
 * @example
 * ```ts
 * import { tallyEvents } from "./event_recorder.ts";
 * const t = tallyEvents([{ type: "report" }, { type: "episode_end", status: "ok" }] as never);
 * if (t.reports !== 1 || t.llmCalls.length !== 0 || t.last?.type !== "episode_end") throw new Error();
 * ```
 */
export function tallyEvents(events: readonly EngineEvent[]): EpisodeTally {
  const llmCalls: LlmCallBody[] = [];
  let reports = 0;
  for (const e of events) {
    if (e.type === "report") reports++;
    else if (e.type === "llm_call") llmCalls.push(e);
  }
  return { reports, llmCalls, last: events.at(-1) };
}

/** Body types whose fields are open (`[key: string]: unknown`), so they may repeat a base field. */
const OPEN_BODIES: ReadonlySet<string> = new Set(["mechanism", "transition"]);

/**
 * Records the events of one episode (see the module doc).
 *
 * @example
 * ```ts
 * import { EventRecorder } from "./event_recorder.ts";
 * const rec = new EventRecorder({ run: "r", episode: "e", keep: true, lines: true, hashes: true,
 *   clock: () => "t" });
 * rec.tick();
 * rec.emit({ type: "round_start" });
 * // "lines-v8": the block header, then the event less what the lines before imply (round 0,
 * // step "setup", seq 0 and the header's time for the first line).
 * if (rec.text !== '{"schema":5,"run":"r","episode":"e","time":"t"}\n{"type":"round_start"}\n') {
 *   throw new Error(rec.text);
 * }
 * if (rec.events[0].seq !== 0 || rec.seq !== 1) throw new Error();
 * ```
 */
export class EventRecorder {
  /** The state hash of every checkpoint so far, when hashed. */
  readonly hashes: string[] = [];
  /** Number of game events so far (the `seq` of the next one), when hashed or listened to. */
  seq = 0;
  /** What the record holds so far, counted whatever else is asked. */
  readonly tally: EpisodeTally = { reports: 0, llmCalls: [], last: undefined };
  private roundNo = 0;
  private stepId = "setup";
  // The line head up to `"seq":`, for the current round and step (built when first needed).
  private headBase: string | undefined;
  private time = "";
  private timePart = "";
  // The lines not yet encoded, and the parts of them the segment's hash leaves out (each
  // line's `time` member; under "lines-v2" the agent-side lines), as offsets and lengths.
  private pending = "";
  private readonly outAt: number[] = [];
  private readonly outLength: number[] = [];
  // The lines as UTF-8 (with lines; else only the current round's, as scratch for the hashes).
  private buf: Uint8Array = EMPTY;
  private pos = 0;
  // The running hash of the current segment, created at its first bytes (a segment that
  // ends with none, e.g. the one a checkpoint opens before the next round restarts it,
  // costs no Hash object: about a microsecond each, several an episode).
  private segment: Hash | undefined;
  private textCache = "";
  private textAt = 0;
  // Kept bodies, and the base wherever it changes: from body index markAt[i] on,
  // the base is (markRound[i], markStep[i], markTime[i]).
  private readonly bodies: (EventBody | Checkpoint)[] = [];
  private readonly markAt: number[] = [];
  private readonly markRound: number[] = [];
  private readonly markStep: string[] = [];
  private readonly markTime: string[] = [];
  private readonly built: EngineEvent[] = [];
  private builtSeq = 0;
  private readonly prefix: string;
  private readonly keep: boolean;
  private readonly lines: boolean;
  private readonly hashed: boolean;
  private readonly counted: boolean;
  // Whether every event is hashed (from "lines-v3" on) rather than the game events only ("lines-v2").
  private readonly all: boolean;
  private readonly timed: boolean;
  // Whether lines are written in the block layout ("lines-v5"), and the block's header once written.
  private readonly blocks: boolean;
  private header: BlockHeader | undefined;
  // Under "lines-v6": the block's writer (what its lines so far imply), once its header is written.
  private readonly deltas: boolean;
  private delta: DeltaWriter | undefined;
  private readonly hashing: HashingVersion;
  private readonly options: EventRecorderOptions;

  /** Starts an empty record. */
  constructor(options: EventRecorderOptions) {
    this.options = options;
    this.keep = options.keep;
    this.lines = options.lines;
    this.hashed = options.hashes || options.lines;
    this.counted = this.hashed || options.onEvent !== undefined;
    const hashing = checkHashing(options.hashing ?? HASHING_VERSION);
    this.all = hashing !== "lines-v2";
    this.blocks = writesBlocks(hashing);
    this.deltas = writesDeltas(hashing);
    this.hashing = hashing;
    this.timed = this.keep || this.lines || options.onEvent !== undefined;
    this.prefix = this.blocks ? BLOCK_LINE_PREFIX : lineHead(options.run, options.episode);
    if (this.hashed) {
      this.buf = this.lines ? takeBuffer() : new Uint8Array(1 << 14);
    }
    this.mark();
  }

  /**
   * The NDJSON text so far, when lines are built (else `""`): the
   * {@linkcode EventRecorder.bytes} decoded, on first read after they grew.
   */
  get text(): string {
    if (!this.lines) return "";
    this.flush(true);
    if (this.textAt !== this.pos) {
      this.textCache += decoder.decode(this.buf.subarray(this.textAt, this.pos));
      this.textAt = this.pos;
    }
    return this.textCache;
  }

  /**
   * The NDJSON lines so far as UTF-8, when lines are built (else empty),
   * encoded once and hashed from these bytes: a view of the recorder's
   * buffer, valid until the next event is recorded (or until it is handed
   * back with {@linkcode recycleLogBytes}).
   */
  get bytes(): Uint8Array {
    if (!this.lines) return EMPTY;
    this.flush(true);
    return this.buf.subarray(0, this.pos);
  }

  /**
   * The events so far (empty unless kept), built on first read and then
   * extended as more are recorded; the same array every time.
   */
  get events(): EngineEvent[] {
    const bodies = this.bodies;
    const built = this.built;
    if (built.length === bodies.length) return built;
    const { run, episode } = this.options;
    let m = 0;
    while (m + 1 < this.markAt.length && this.markAt[m + 1] <= built.length) m++;
    let seq = this.builtSeq;
    for (let i = built.length; i < bodies.length; i++) {
      while (m + 1 < this.markAt.length && this.markAt[m + 1] <= i) m++;
      let body = bodies[i];
      if (body instanceof Checkpoint) body = body.body();
      built.push(
        {
          schema: EVENT_SCHEMA_VERSION,
          run,
          episode,
          round: this.markRound[m],
          step: this.markStep[m],
          seq,
          time: this.markTime[m],
          ...body,
        } as EngineEvent,
      );
      if (!AGENT_SIDE_EVENT_TYPES.has(body.type)) seq++;
    }
    this.builtSeq = seq;
    return built;
  }

  /** The round of the next events. */
  get round(): number {
    return this.roundNo;
  }

  /** Sets the round of the next events. */
  set round(round: number) {
    if (round !== this.roundNo) {
      this.roundNo = round;
      this.headBase = undefined;
      this.mark();
    }
  }

  /** The step of the next events. */
  get step(): string {
    return this.stepId;
  }

  /** Sets the step of the next events. */
  set step(id: string) {
    if (id !== this.stepId) {
      this.stepId = id;
      this.headBase = undefined;
      this.mark();
    }
  }

  /** Reads the clock for the events that follow (a no-op when no event needs a time). */
  tick(): void {
    if (!this.timed) return;
    const time = this.options.clock ? this.options.clock() : wallClock();
    if (time !== this.time) {
      this.time = time;
      this.timePart = !this.blocks
        ? `"time":${JSON.stringify(time)},`
        : this.header === undefined || this.deltas
        ? ""
        : timeMember(this.header, time);
      this.mark();
    }
  }

  /**
   * Marks the start of a round: its events hash covers what is recorded from
   * here. Round 1's also covers the set-up events before it (the condition,
   * parameters and players of `episode_start`), so an edited start is caught.
   */
  startRound(round: number): void {
    this.round = round;
    if (round === 1 || !this.hashed) return;
    this.flush(false);
    this.restartSegment();
  }

  /** Records one event. */
  emit(body: EventBody): void {
    const tally = this.tally;
    tally.last = body;
    if (body.type === "report") tally.reports++;
    else if (body.type === "llm_call") (tally.llmCalls as LlmCallBody[]).push(body);
    let seq = 0;
    let game = false;
    if (this.counted) {
      game = !AGENT_SIDE_EVENT_TYPES.has(body.type);
      seq = this.seq;
      if (game) this.seq++;
    }
    if (this.hashed) {
      if (this.blocks && this.header === undefined) this.openBlock();
      const own = this.serialise(body, seq, game);
      // A hashed "lines-v3" agent-side event or episode_end carries its hash as its last member.
      if (own !== undefined) {
        body = (game ? { ...body, events_hash: own } : { ...body, event_hash: own }) as EventBody;
      }
    }
    if (this.keep) this.bodies.push(body);
    if (this.options.onEvent) this.options.onEvent(this.whole(body, seq));
  }

  /** Whether checkpoints carry the state (so `checkpoint` serialises it). */
  get statesRecorded(): boolean {
    return this.hashed;
  }

  /**
   * Records the checkpoint of the round just played and returns its state
   * hash (undefined without hashes). `stateText`, when given, is the state's
   * canonical JSON already written (by the environment's own writer).
   */
  checkpoint(state: unknown, stateText?: string): string | undefined {
    if (!this.hashed) {
      this.emit({ type: "checkpoint" });
      return undefined;
    }
    stateText ??= canonicalJson(state);
    if (this.blocks && this.header === undefined) this.openBlock();
    const seq = this.seq++;
    this.tally.last = CHECKPOINT;
    this.flush(true);
    const roundHash = this.segmentDigest();
    const stateHash = utf8Sha256Hex(stateText);
    this.restartSegment();
    if (this.deltas) {
      // Its head is implied for the next line whether or not lines are built.
      const head = this.delta!.head(this.roundNo, this.stepId, seq, this.time, true);
      if (this.lines) {
        const line =
          `{${head}${this.delta!.time}${TYPE_KEY}checkpoint",${this.delta!.state(stateText)},` +
          `"state_hash":"${stateHash}",${EVENTS_HASH_KEY}${roundHash}"}\n`;
        this.addLine(line, 0, line.length);
      }
    } else if (this.lines) {
      // Encoded with the next segment's lines, and left out of its hash.
      const line = `${this.head(seq)}${this.timePart}${TYPE_KEY}checkpoint","state":${stateText},` +
        `"state_hash":"${stateHash}",${EVENTS_HASH_KEY}${roundHash}"}\n`;
      this.addLine(line, 0, line.length);
    }
    this.hashes.push(stateHash);
    if (this.keep) this.bodies.push(new Checkpoint(stateText, stateHash, roundHash));
    if (this.options.onEvent) {
      this.options.onEvent(this.whole(new Checkpoint(stateText, stateHash, roundHash).body(), seq));
    }
    return stateHash;
  }

  /**
   * Writes the block's header (`"lines-v5"`) before the episode's first line:
   * its run, episode and the time of that line; hashed without its time.
   */
  private openBlock(): void {
    const header = blockHeader(this.options.run, this.options.episode, this.time);
    this.header = header;
    this.timePart = "";
    if (this.deltas) this.delta = new DeltaWriter(header, deltaSchemaOf(this.hashing));
    const line = this.deltas
      ? deltaHeaderLine(header, this.delta!.schema)
      : blockHeaderLine(header);
    const out = `,"time":${JSON.stringify(header.time)}`.length;
    this.addLine(line + "\n", line.length - 1 - out, out);
  }

  private mark(): void {
    const at = this.bodies.length;
    const last = this.markAt.length - 1;
    if (last >= 0 && this.markAt[last] === at) {
      this.markRound[last] = this.roundNo;
      this.markStep[last] = this.stepId;
      this.markTime[last] = this.time;
      return;
    }
    this.markAt.push(at);
    this.markRound.push(this.roundNo);
    this.markStep.push(this.stepId);
    this.markTime.push(this.time);
  }

  private whole(body: EventBody, seq: number): EngineEvent {
    return {
      schema: EVENT_SCHEMA_VERSION,
      run: this.options.run,
      episode: this.options.episode,
      round: this.roundNo,
      step: this.stepId,
      seq,
      time: this.time,
      ...body,
    } as EngineEvent;
  }

  private head(seq: number): string {
    this.headBase ??= stepHead(this.prefix, this.roundNo, this.stepId);
    return this.headBase + seq + ",";
  }

  /** The current segment's running hash, created at its first bytes. */
  private segmentHash(): Hash {
    return this.segment ??= createHash("sha256");
  }

  /** The current segment's hash (hex): of its bytes so far, that of no bytes when none. */
  private segmentDigest(): string {
    return this.segment === undefined ? EMPTY_SHA256 : this.segment.digest("hex");
  }

  /** A new segment from here; without lines, the bytes before it are dropped. */
  private restartSegment(): void {
    this.segment = undefined;
    if (!this.lines) this.pos = 0;
  }

  /** Room for `n` more bytes. */
  private reserve(n: number): void {
    if (this.buf.length - this.pos >= n) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    if (this.lines) ownBuffers.add(next.buffer);
    if (this.lines && next.length > bufferHint) bufferHint = Math.min(next.length, 1 << 22);
  }

  /** Encodes text at the end of the buffer. */
  private putString(text: string): void {
    this.reserve(text.length * 3);
    // Reading a character flattens a concatenated string first: the encoder is about five
    // times slower on the pieces of a concatenation than on one flat string.
    text.charCodeAt(0);
    this.pos += encoder.encodeInto(text, this.buf.subarray(this.pos)).written;
  }

  /**
   * Encodes the pending lines into the buffer in one call and (when `hashed`)
   * feeds the segment's hash with their bytes less the parts it leaves out,
   * in one update: a call into the encoder or the hash per line would cost
   * as much as a few hundred bytes of work each.
   */
  private flush(hashed: boolean): void {
    const text = this.pending;
    if (text === "") return;
    this.pending = "";
    const at = this.pos;
    this.putString(text);
    const outAt = this.outAt;
    const outLength = this.outLength;
    if (hashed && outAt.length === 0) {
      // Nothing left out (most segments: a time member is written only when the clock moved).
      this.segmentHash().update(this.buf.subarray(at, this.pos));
    } else if (hashed && this.pos - at === text.length) {
      // ASCII: a character is a byte, so the kept parts are found in the buffer by offset. One
      // kept part (a segment after its checkpoint's line, which is left out) is hashed where
      // it is; more are gathered in the scratch first.
      if (scratch.length < text.length) scratch = new Uint8Array(text.length * 2);
      const buf = this.buf;
      let one: Uint8Array | undefined;
      let n = 0;
      let from = 0;
      for (let i = 0; i <= outAt.length; i++) {
        const to = i < outAt.length ? outAt[i] : text.length;
        if (to > from) {
          const part = buf.subarray(at + from, at + to);
          if (one === undefined && n === 0) one = part;
          else {
            if (one !== undefined) {
              scratch.set(one, 0);
              n = one.length;
              one = undefined;
            }
            scratch.set(part, n);
            n += part.length;
          }
        }
        if (i < outAt.length) from = to + outLength[i];
      }
      const kept = one ?? scratch.subarray(0, n);
      if (kept.length > 0) this.segmentHash().update(kept);
    } else if (hashed) {
      let kept = "";
      let from = 0;
      for (let i = 0; i < outAt.length; i++) {
        kept += text.slice(from, outAt[i]);
        from = outAt[i] + outLength[i];
      }
      this.segmentHash().update(kept + text.slice(from));
    }
    outAt.length = 0;
    outLength.length = 0;
  }

  /** Adds a line (with its newline) to the pending text; its `out` characters from `outFrom` are not hashed. */
  private addLine(line: string, outFrom: number, out: number): void {
    if (out > 0) {
      this.outAt.push(this.pending.length + outFrom);
      this.outLength.push(out);
    }
    this.pending += line;
  }

  /**
   * Builds the event's line behind the cached head, to be encoded with the
   * others of its segment, its `time` member marked as left out of the
   * segment's hash; returns the hash the event carries (`"lines-v3"`: an
   * agent-side event's own, or `episode_end`'s of the last segment), if any.
   */
  private serialise(body: EventBody, seq: number, game: boolean): string | undefined {
    if (this.deltas) return this.serialiseDelta(body, seq, game);
    const json = JSON.stringify(body);
    if (
      !json.startsWith('{"type":') ||
      (OPEN_BODIES.has(body.type) &&
        (repeatsBase(body) || (this.blocks && (body as { ms?: unknown }).ms !== undefined)))
    ) {
      return this.serialiseWhole(body, seq, game);
    }
    const head = this.head(seq);
    const rest = json.slice(1);
    const timePart = this.timePart;
    if (!this.all || (game && body.type !== "episode_end")) {
      const line = head + timePart + rest + "\n";
      // "lines-v2" does not hash an agent-side line.
      if (game) this.addLine(line, head.length, timePart.length);
      else this.addLine(line, 0, line.length);
      return undefined;
    }
    if (!game) {
      const own = sha256Hex(head + rest);
      this.addLine(
        `${head}${timePart}${rest.slice(0, -1)},"event_hash":"${own}"}\n`,
        head.length,
        timePart.length,
      );
      return own;
    }
    // episode_end: its hash covers the segment so far and its own text without the member.
    this.addLine(head + timePart + rest + "\n", head.length, timePart.length);
    this.flush(true);
    const own = this.segmentDigest();
    this.pos -= 2; // its "}\n", which the member replaces
    this.putString(`,${EVENTS_HASH_KEY}${own}"}\n`);
    this.restartSegment();
    return own;
  }

  /**
   * {@linkcode EventRecorder.serialise} under `"lines-v6"`: the head members
   * the previous line does not imply, the body less what its template
   * repeats (`event_layout.ts`). A body's own `round`, `step` or `seq` is the
   * event's, as in the event object.
   */
  private serialiseDelta(body: EventBody, seq: number, game: boolean): string | undefined {
    let own = body as Record<string, unknown>;
    let round = this.roundNo;
    let step = this.stepId;
    let at = seq;
    if (OPEN_BODIES.has(body.type) && repeatsBase(body)) {
      this.refuseReserved(body);
      const { round: r, step: s, seq: q, ...rest } = own;
      if (r !== undefined) round = r as number;
      if (s !== undefined) step = s as string;
      if (q !== undefined) at = q as number;
      own = rest;
    }
    const delta = this.delta!;
    const head = "{" + delta.head(round, step, at, this.time, game);
    const time = delta.time;
    if (game && body.type !== "episode_end") {
      this.addLine(head + time + delta.body(own) + "\n", head.length, time.length);
      return undefined;
    }
    if (!game) {
      const rest = delta.body(own, "event_hash");
      const hash = sha256Hex(head + rest);
      delta.trail(hash);
      this.addLine(
        `${head}${time}${rest.slice(0, -1)},"event_hash":"${hash}"}\n`,
        head.length,
        time.length,
      );
      return hash;
    }
    // episode_end: its hash covers the segment so far and its own text without the member.
    this.addLine(head + time + delta.body(own, "events_hash") + "\n", head.length, time.length);
    this.flush(true);
    const hash = this.segmentDigest();
    delta.trail(hash);
    this.pos -= 2; // its "}\n", which the member replaces
    this.putString(`,${EVENTS_HASH_KEY}${hash}"}\n`);
    this.restartSegment();
    return hash;
  }

  /** Refuses a body carrying a member the block header or the time member holds. */
  private refuseReserved(body: EventBody): void {
    for (const k of BLOCK_RESERVED) {
      if ((body as Record<string, unknown>)[k] !== undefined) {
        throw new TypeError(
          `A "${body.type}" event with its own "${k}" cannot be logged in the block layout ` +
            `("${this.hashing}"), whose header and time member hold "${k}"`,
        );
      }
    }
  }

  /** {@linkcode EventRecorder.serialise} for a body that repeats a base field: from the whole event. */
  private serialiseWhole(body: EventBody, seq: number, game: boolean): string | undefined {
    let bare: string;
    let line: string;
    if (this.blocks) {
      // A block line holds the event less what its header holds: a body's own copy of those
      // (or of the time member) could not be told apart from them when read back.
      this.refuseReserved(body);
      const own = { round: this.roundNo, step: this.stepId, seq };
      bare = JSON.stringify({ ...own, ...body });
      const t = this.timePart === "" ? {} : JSON.parse(`{${this.timePart.slice(0, -1)}}`);
      line = this.timePart === "" ? bare : JSON.stringify({ ...own, ...t, ...body });
    } else {
      const whole = this.whole(body, seq);
      const { time: _t, ...rest } = whole;
      bare = JSON.stringify(rest);
      line = JSON.stringify(whole);
    }
    // This event's text feeds the segment's hash directly, after the pending lines.
    this.flush(true);
    if (!this.all) {
      this.putString(line + "\n");
      if (game) this.segmentHash().update(bare + "\n");
      return undefined;
    }
    let own: string | undefined;
    let key = "";
    if (!game) {
      own = sha256Hex(bare);
      key = "event_hash";
    } else if (body.type === "episode_end") {
      own = this.segmentHash().update(bare + "\n").digest("hex");
      key = "events_hash";
    }
    if (own === undefined) {
      this.putString(line + "\n");
      this.segmentHash().update(bare + "\n");
      return undefined;
    }
    const member = `,"${key}":"${own}"}`;
    this.putString(line.slice(0, -1) + member + "\n");
    if (game) this.restartSegment();
    else this.segmentHash().update(bare.slice(0, -1) + member + "\n");
    return own;
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const EMPTY = new Uint8Array(0);
// The SHA-256 of no bytes: the digest of a segment that was given none.
const EMPTY_SHA256 = sha256Hex("");
// The size of an episode's line buffer to start with: the largest grown to (up to 4 MiB).
let bufferHint = 1 << 16;
// Where the kept bytes of a segment are gathered for its one hash update (shared: it is
// used only within one synchronous flush).
let scratch = new Uint8Array(1 << 16);
// Line buffers handed back by recycleLogBytes, for the next recorders: a fresh 100 KB
// buffer costs several microseconds to allocate and fault in, a reused one nothing. As
// many as episodes are in flight in one thread (an in-process grid plays 8 at once).
const recycled: Uint8Array[] = [];
const RECYCLED_MAX = 16;
const RECYCLED_LARGE = 1 << 20;
// The recorders' line buffers, so that only those are ever recycled.
const ownBuffers = new WeakSet<ArrayBufferLike>();

/** A line buffer for a new recorder: a recycled one when there is one. */
function takeBuffer(): Uint8Array {
  const reused = recycled.pop();
  if (reused !== undefined) return reused;
  const made = new Uint8Array(bufferHint);
  ownBuffers.add(made.buffer);
  return made;
}

/**
 * Hands the buffer behind an episode's log bytes (`PlayedEpisode.ndjsonBytes`,
 * `EventRecorder.bytes`) back for a later episode's lines, once they are
 * written: the caller promises to read neither these bytes nor the episode's
 * text again. Bytes that are not the start of a recorder's buffer are ignored.
 *
 * @example
 * ```ts
 * import { EventRecorder, recycleLogBytes } from "./event_recorder.ts";
 * const rec = new EventRecorder({ run: "r", episode: "e", keep: false, lines: true, hashes: true,
 *   clock: () => "t" });
 * rec.tick();
 * rec.emit({ type: "round_start" });
 * const bytes = rec.bytes;
 * if (new TextDecoder().decode(bytes) !== rec.text) throw new Error();
 * recycleLogBytes(bytes); // written: its buffer serves the next episode
 * ```
 */
export function recycleLogBytes(bytes: Uint8Array): void {
  if (!ownBuffers.has(bytes.buffer) || recycled.length >= RECYCLED_MAX) return;
  if (recycled.some((b) => b.buffer === bytes.buffer)) return;
  const whole = new Uint8Array(bytes.buffer);
  // A large buffer (long model conversations) is kept only while fewer than four are.
  if (whole.length > RECYCLED_LARGE && recycled.length >= 4) return;
  if (whole.length >= bufferHint / 2) recycled.push(whole);
}

/**
 * `sha256Hex(text)` (the SHA-256 of the text's UTF-8), hashed from the bytes:
 * a string goes through the hash about a sixth slower than its bytes, and
 * encoding it into the shared scratch costs a few percent of that.
 */
function utf8Sha256Hex(text: string): string {
  // A large state is hashed as text: the scratch stays small.
  if (text.length > 1 << 20) return sha256Hex(text);
  if (scratch.length < text.length * 3) scratch = new Uint8Array(text.length * 3);
  text.charCodeAt(0); // flat first: the encoder is slower on the pieces of a concatenation
  const { written } = encoder.encodeInto(text, scratch);
  return createHash("sha256").update(scratch.subarray(0, written)).digest("hex");
}

/** The body a tally names for a hashed checkpoint (its state is not needed there). */
const CHECKPOINT: EventBody = { type: "checkpoint" };

/** A kept checkpoint: its state stays canonical text until the events are built. */
class Checkpoint {
  readonly type = "checkpoint";
  constructor(
    readonly stateText: string,
    readonly stateHash: string,
    readonly eventsHash: string,
  ) {}
  body(): EventBody {
    return {
      type: "checkpoint",
      state: JSON.parse(this.stateText),
      state_hash: this.stateHash,
      events_hash: this.eventsHash,
    };
  }
}

/** The members a body cannot carry in the block layout (its header's, and the time member's). */
const BLOCK_RESERVED = ["schema", "run", "episode", "time", "ms"] as const;

/** Whether a body carries a base field (`type` aside), which needs the slow line path. */
function repeatsBase(body: EventBody): boolean {
  const b = body as Record<string, unknown>;
  for (const k of EVENT_BASE_FIELDS) if (k !== "type" && b[k] !== undefined) return true;
  return false;
}

let clockMs = NaN;
let clockIso = "";

/** The wall clock as ISO 8601, computed at most once per millisecond. */
function wallClock(): string {
  const now = Date.now();
  if (now !== clockMs) {
    clockMs = now;
    clockIso = new Date(now).toISOString();
  }
  return clockIso;
}

/**
 * The events hash: what the `events_hash` of a checkpoint (and, from
 * `"lines-v3"` on, of `episode_end`) covers and how it is computed. The
 * definition is named by the `hashing` field of every `episode_start`;
 * replay knows every one in {@linkcode HASHING_VERSIONS} and refuses any other.
 *
 * A log is cut into segments: a checkpoint closes its round's segment, from
 * its `round_start` (for round 1, from the episode's first event, so
 * `episode_start` is covered) to the event before it. An event's text is its
 * log line without the `time` member: `JSON.stringify` of the event, `time`
 * removed, keys in the order the log has them (`JSON.parse` keeps key order,
 * so a verifier reproduces it from the parsed log; a tool that rewrites a log
 * with its keys reordered changes the hash, and the log is then reported as
 * differing, never accepted wrongly). A segment's hash is SHA-256 over its
 * events' texts in log order, each followed by `"\n"`. The engine builds this
 * text once per event, as the prefix and suffix of the line it writes, so a
 * hashed episode serialises each event once and hashes each byte once (an
 * agent-side event's bytes twice: see below).
 *
 * - `"lines-v8"` ({@linkcode HASHING_VERSION}, the one written): the
 *   segments, events hashes and checkpoints of `"lines-v7"` over the second
 *   edition of the delta layout (`event_layout.ts`, its
 *   `STEP_DELTA_SCHEMA_VERSION`: header `{"schema":5,...}`), whose lines
 *   have a template per step and leave out an object or array member the
 *   template repeats, as they leave out a scalar one. The seeded Stag Hunt
 *   N5/M3/T4/F2 episode of mock players of `lines_v8_test.ts` takes 8,001
 *   bytes instead of 10,840; a bank-run M0 episode, whose reports change
 *   every round, about 2-4% fewer. The state hashes are those of `"lines-v7"`.
 * - `"lines-v7"` (logs written before `"lines-v8"`): the lines,
 *   segments and events hashes of `"lines-v6"`, with the Stag Hunt's
 *   checkpoints holding its state less its `rounds` (each round's turns and
 *   outcome, which its `turn` and `round_outcome` events hold and hash), as
 *   `"lines-v4"` left the bank run's decision histories out. Which definition
 *   leaves what out of an environment's checkpoints is that environment's
 *   `checkpointState` (its `since`): the bank run's from `"lines-v4"`, the
 *   Stag Hunt's from `"lines-v7"`; every other environment writes its whole
 *   state. A `"lines-v6"` Stag Hunt log keeps its whole states, and its
 *   replay writes them again so.
 * - `"lines-v6"` (logs written before `"lines-v7"`): the delta layout
 *   (`event_layout.ts`, its `DELTA_SCHEMA_VERSION`): a line leaves out
 *   what the lines before it imply; an event's text is its delta line less
 *   its time member, and round 1's segment starts with the block header's
 *   text less its time.
 * - `"lines-v5"` (logs written before `"lines-v6"`): the block
 *   layout (`event_layout.ts`, {@linkcode BLOCK_SCHEMA_VERSION}): each
 *   episode's lines are a header `{"schema":3,"run":R,"episode":E,"time":T}`
 *   and then the events without what the header holds, each with a compact
 *   time member (none, `"ms":N` or `"time":"..."`). The hashes are those of
 *   `"lines-v4"` (the same states, segments and members) over these bytes:
 *   an event's text is its line less its time member, i.e. `JSON.stringify`
 *   of the event less `schema`, `run`, `episode` and `time`
 *   (`{"round":1,"step":"s","seq":2,"type":...}`), and round 1's segment
 *   starts with the header's text less its time (`{"schema":3,"run":R,
 *   "episode":E}`), so an edited run or episode id is caught. The state hash
 *   is unchanged (the state's canonical text, as `"lines-v4"` writes it). A
 *   body that carries `schema`, `run`, `episode`, `time` or `ms` of its own
 *   cannot be written in this layout (the recorder refuses it).
 * - `"lines-v4"` (logs written before `"lines-v5"`, in the old layout: every
 *   line carries `schema`, `run`, `episode` and its ISO `time`): as
 *   `"lines-v3"`, but a checkpoint's `state` (and so its `state_hash`, the
 *   SHA-256 of that state's canonical JSON) is the state less what the
 *   events already hold, as the environment's `checkpointState.json` writes
 *   it: the bank run's depositors without their decision `history` (one
 *   record per depositor and round, rewritten whole every round, which made
 *   a third of a log's bytes grow with the square of its rounds; the
 *   decision events hold each record once and are hashed). An environment
 *   without it (the debt rollover, crowdfunding and the Stag Hunt) writes its
 *   whole state, as before. This fixes what a `"lines-v4"` log holds: leaving
 *   out more of any environment's state takes a new definition. Replay plays
 *   a log under its own definition, so its replayed states are written the
 *   same way.
 * - `"lines-v3"` (logs written before `"lines-v4"`): every event
 *   is covered, and checkpoints hold the whole state. The agent-side events ({@linkcode AGENT_SIDE_EVENT_TYPES}:
 *   model calls, agent errors, corrections) are part of their round's
 *   segment; each also carries, as its last member, its own `event_hash`
 *   (SHA-256 of its text without `event_hash`), so that a replay, which feeds
 *   these events back rather than regenerating them, can name the one whose
 *   content was edited. Their text in the segment includes that member. The
 *   events after the last checkpoint (the game's closing events, or the rest
 *   of a round that crashed) and `episode_end` itself form the last segment,
 *   whose hash `episode_end` carries as its last member, `events_hash`
 *   (its own text there is without that member).
 * - `"lines-v2"` (logs written before `"lines-v3"`): only the checkpoints
 *   carry a hash, over the round's game events: the agent-side events and
 *   everything from the last checkpoint on (the closing events and
 *   `episode_end`, its status included) are not covered. Replay still reads
 *   such a log, with the {@linkcode hashingNote} that says so.
 *
 * @module
 */
import {
  AGENT_SIDE_EVENT_TYPES as AGENT_SIDE,
  BLOCK_SCHEMA_VERSION,
  DELTA_SCHEMA_VERSION,
  deltaBlockLines,
  type DeltaSchema,
  STEP_DELTA_SCHEMA_VERSION,
} from "./event_layout.ts";
import type { EngineEvent } from "./events.ts";
import { sha256Hex } from "./hash.ts";

/**
 * The events-hash definition this toolkit writes (recorded as `hashing` in `episode_start`).
 *
 * @example
 * ```ts
 * import { HASHING_VERSION } from "./events_hash.ts";
 * if (HASHING_VERSION !== "lines-v8") throw new Error();
 * ```
 */
export const HASHING_VERSION = "lines-v8";

/**
 * Every events-hash definition this toolkit can compute and replay, oldest first.
 *
 * @example
 * ```ts
 * import { HASHING_VERSION, HASHING_VERSIONS } from "./events_hash.ts";
 * if (HASHING_VERSIONS.at(-1) !== HASHING_VERSION || !HASHING_VERSIONS.includes("lines-v2")) {
 *   throw new Error();
 * }
 * ```
 */
export const HASHING_VERSIONS = [
  "lines-v2",
  "lines-v3",
  "lines-v4",
  "lines-v5",
  "lines-v6",
  "lines-v7",
  "lines-v8",
] as const;

/** An events-hash definition this toolkit can compute. */
export type HashingVersion = typeof HASHING_VERSIONS[number];

/**
 * Event types that record the agent side of the boundary rather than the game
 * (defined in `event_layout.ts`, whose `"lines-v6"` lines imply their `seq`
 * from them): model calls, agent errors and corrections.
 *
 * @example
 * ```ts
 * import { AGENT_SIDE_EVENT_TYPES } from "./events_hash.ts";
 * if (!AGENT_SIDE_EVENT_TYPES.has("llm_call") || AGENT_SIDE_EVENT_TYPES.has("report")) {
 *   throw new Error();
 * }
 * ```
 */
export const AGENT_SIDE_EVENT_TYPES: ReadonlySet<string> = AGENT_SIDE;

/**
 * The event types `"lines-v2"` leaves out of its hash: the agent-side ones
 * ({@linkcode AGENT_SIDE_EVENT_TYPES}). `"lines-v3"` on leave out none.
 *
 * @example
 * ```ts
 * import { UNHASHED_EVENT_TYPES } from "./events_hash.ts";
 * if (!UNHASHED_EVENT_TYPES.has("llm_call") || UNHASHED_EVENT_TYPES.has("report")) throw new Error();
 * ```
 */
export const UNHASHED_EVENT_TYPES: ReadonlySet<string> = AGENT_SIDE_EVENT_TYPES;

/** Options of {@linkcode eventsHash}. */
export interface EventsHashOptions {
  /** The definition. Default {@linkcode HASHING_VERSION}. */
  hashing?: HashingVersion;
  /**
   * Under `"lines-v5"`: whether the events start their episode's block (round
   * 1's segment, from the episode's first event), whose hash covers the
   * block header first. Default: whether the first event is `episode_start`
   * (every episode's first event).
   */
  opensBlock?: boolean;
  /**
   * Under `"lines-v6"` and `"lines-v7"`: the episode's events before these (from its first),
   * whose lines imply what these lines leave out. Default: none.
   */
  before?: readonly EngineEvent[];
}

/**
 * The hash of one segment of a log (see the module doc), from its events as
 * logged: a round's events up to its checkpoint (which is not passed), or,
 * under `"lines-v3"`, the events after the last checkpoint up to and including
 * `episode_end` (whose own `events_hash` member is left out). Event times are
 * never covered; under `"lines-v2"` agent-side events are left out.
 *
 * @example
 * ```ts
 * import { eventsHash } from "./events_hash.ts";
 * import { sha256Hex } from "./hash.ts";
 * const end = { schema: 2, time: "t", type: "episode_end", status: "ok", events_hash: "x" };
 * const v4 = eventsHash([end as never], { hashing: "lines-v4" });
 * if (v4 !== sha256Hex('{"schema":2,"type":"episode_end","status":"ok"}\n')) throw new Error();
 * // "lines-v5" covers the block line: the event less schema, run, episode and time.
 * if (eventsHash([end as never], { hashing: "lines-v5" }) !== sha256Hex('{"type":"episode_end","status":"ok"}\n')) {
 *   throw new Error();
 * }
 * // "lines-v7" (the default), as "lines-v6", covers the delta line, whose head the lines before imply.
 * const at = { ...end, run: "r", episode: "e", round: 0, step: "setup" };
 * const before = [{ ...at, seq: 0, type: "round_start" }];
 * if (eventsHash([{ ...at, seq: 1 }] as never, { before: before as never }) !== sha256Hex('{"type":"episode_end","status":"ok"}\n')) {
 *   throw new Error();
 * }
 * ```
 * @throws {RangeError} For an unknown definition.
 */
export function eventsHash(
  events: readonly EngineEvent[],
  options: EventsHashOptions = {},
): string {
  const hashing = checkHashing(options.hashing ?? HASHING_VERSION);
  if (hashing === "lines-v5") {
    return blockEventsHash(events, options.opensBlock ?? events[0]?.type === "episode_start");
  }
  if (writesDeltas(hashing)) {
    const before = options.before ?? [];
    const opens = options.opensBlock ??
      (before.length === 0 && events[0]?.type === "episode_start");
    return deltaLinesHash(
      deltaBlockLines([...before, ...events], deltaSchemaOf(hashing)),
      before.length,
      events.length,
      opens,
    );
  }
  let text = "";
  for (const e of events) {
    if (hashing === "lines-v2") {
      if (!AGENT_SIDE_EVENT_TYPES.has(e.type)) text += JSON.stringify(withoutTime(e)) + "\n";
      continue;
    }
    if (e.type === "episode_end") {
      const { time: _t, events_hash: _h, ...rest } = e;
      text += JSON.stringify(rest) + "\n";
    } else text += JSON.stringify(withoutTime(e)) + "\n";
  }
  return sha256Hex(text);
}

/**
 * The events hash, under a delta layout (`"lines-v6"` on), of the `count`
 * events from `from` of a log whose lines `deltaBlockLines` built (line 0 the
 * block's header, line `i + 1` the log's event `i`), after the header's
 * hashed text when `opens` (round 1's segment). Replay builds a log's lines
 * once and hashes each segment from them.
 *
 * @example
 * ```ts
 * import { deltaLinesHash } from "./events_hash.ts";
 * import { sha256Hex } from "./hash.ts";
 * const lines = [{ line: "h", hashed: "H" }, { line: "a", hashed: "A" }, { line: "b", hashed: null }];
 * if (deltaLinesHash(lines, 0, 2, true) !== sha256Hex("H\nA\n")) throw new Error();
 * if (deltaLinesHash(lines, 1, 1, false) !== sha256Hex("")) throw new Error();
 * ```
 */
export function deltaLinesHash(
  lines: readonly { hashed: string | null }[],
  from: number,
  count: number,
  opens: boolean,
): string {
  let text = opens ? lines[0].hashed + "\n" : "";
  for (let i = from + 1; i <= from + count; i++) {
    const hashed = lines[i].hashed;
    if (hashed !== null) text += hashed + "\n";
  }
  return sha256Hex(text);
}

/**
 * Whether a definition writes the block layout (`"lines-v5"` on).
 *
 * @example
 * ```ts
 * import { writesBlocks } from "./events_hash.ts";
 * if (!writesBlocks("lines-v5") || writesBlocks("lines-v4")) throw new Error();
 * ```
 */
export function writesBlocks(hashing: HashingVersion): boolean {
  return hashingFrom(hashing, "lines-v5");
}

/**
 * Whether a definition writes the delta layout (`"lines-v6"` on: lines leave
 * out what the lines before them imply; see `event_layout.ts`).
 *
 * @example
 * ```ts
 * import { writesDeltas } from "./events_hash.ts";
 * if (!writesDeltas("lines-v6") || !writesDeltas("lines-v7") || writesDeltas("lines-v5")) {
 *   throw new Error();
 * }
 * ```
 */
export function writesDeltas(hashing: HashingVersion): boolean {
  return hashingFrom(hashing, "lines-v6");
}

/**
 * The header schema of the delta layout a definition writes (`"lines-v6"`
 * on): 4 up to `"lines-v7"`, 5 from `"lines-v8"` (`event_layout.ts`).
 *
 * @example
 * ```ts
 * import { deltaSchemaOf } from "./events_hash.ts";
 * if (deltaSchemaOf("lines-v7") !== 4 || deltaSchemaOf("lines-v8") !== 5) throw new Error();
 * ```
 * @throws {RangeError} For a definition before `"lines-v6"`, which writes no delta layout.
 */
export function deltaSchemaOf(hashing: HashingVersion): DeltaSchema {
  if (!writesDeltas(hashing)) {
    throw new RangeError(`"${hashing}" writes no delta layout (that is "lines-v6" on)`);
  }
  return hashingFrom(hashing, "lines-v8") ? STEP_DELTA_SCHEMA_VERSION : DELTA_SCHEMA_VERSION;
}

/**
 * Whether `hashing` is `since` or a later definition (in
 * {@linkcode HASHING_VERSIONS}' order): e.g. whether an environment's
 * `checkpointState` applies to a log of that definition.
 *
 * @example
 * ```ts
 * import { hashingFrom } from "./events_hash.ts";
 * if (!hashingFrom("lines-v7", "lines-v4") || hashingFrom("lines-v6", "lines-v7")) throw new Error();
 * ```
 */
export function hashingFrom(hashing: HashingVersion, since: HashingVersion): boolean {
  return HASHING_VERSIONS.indexOf(hashing) >= HASHING_VERSIONS.indexOf(since);
}

/** {@linkcode eventsHash} under `"lines-v5"`: over the block layout's bytes less the times. */
function blockEventsHash(events: readonly EngineEvent[], opensBlock: boolean): string {
  let text = "";
  const first = events[0];
  if (first !== undefined && opensBlock) {
    text += `{"schema":${BLOCK_SCHEMA_VERSION},"run":${JSON.stringify(first.run)},"episode":${
      JSON.stringify(first.episode)
    }}\n`;
  }
  for (const e of events) {
    if (e.type === "episode_end") {
      const { schema: _s, run: _r, episode: _e, time: _t, events_hash: _h, ...rest } = e;
      text += JSON.stringify(rest) + "\n";
    } else {
      const { schema: _s, run: _r, episode: _e, time: _t, ...rest } = e;
      text += JSON.stringify(rest) + "\n";
    }
  }
  return sha256Hex(text);
}

/**
 * The definition named by `hashing`, when this toolkit knows it.
 *
 * @example
 * ```ts
 * import { checkHashing } from "./events_hash.ts";
 * if (checkHashing("lines-v2") !== "lines-v2") throw new Error();
 * ```
 * @throws {RangeError} For any other value, naming it.
 */
export function checkHashing(hashing: unknown): HashingVersion {
  if ((HASHING_VERSIONS as readonly unknown[]).includes(hashing)) return hashing as HashingVersion;
  throw new RangeError(
    `Unknown events-hash definition ${JSON.stringify(hashing)}: this build computes ` +
      HASHING_VERSIONS.map((v) => `"${v}"`).join(", "),
  );
}

/**
 * What a reader should know about a log's events hash, or `undefined` when
 * it covers every event (`"lines-v3"` on).
 *
 * @example
 * ```ts
 * import { hashingNote } from "./events_hash.ts";
 * if (hashingNote("lines-v4") !== undefined || !hashingNote("lines-v2")?.includes("llm_call")) {
 *   throw new Error();
 * }
 * ```
 */
export function hashingNote(hashing: HashingVersion): string | undefined {
  if (hashing !== "lines-v2") return undefined;
  return `The log's events hash is "lines-v2", written before "lines-v3": its llm_call, ` +
    `agent_error and correction events, the events after its last checkpoint and episode_end ` +
    `(status included) are not covered by the hash; the replay checked its game events and ` +
    `outcome only.`;
}

/**
 * An event without its `time`, keys in their order: what the events hash covers of it.
 *
 * @example
 * ```ts
 * import { withoutTime } from "./events_hash.ts";
 * const e = withoutTime({ schema: 1, time: "t", type: "round_start" } as never);
 * if (JSON.stringify(e) !== '{"schema":1,"type":"round_start"}') throw new Error();
 * ```
 */
export function withoutTime(event: EngineEvent): Omit<EngineEvent, "time"> {
  const { time: _t, ...rest } = event;
  return rest;
}

/**
 * The events hash of a round: what a checkpoint's `events_hash` covers and
 * how it is computed (the definition is named by the `hashing` field of
 * every `episode_start`; replay refuses one it does not know).
 *
 * It covers the round's game events, from its `round_start` (for round 1,
 * from the episode's first event, so `episode_start` is covered) to the event
 * before its checkpoint, without their wall-clock `time`, leaving out the
 * agent-side types of {@linkcode UNHASHED_EVENT_TYPES} (model calls, agent
 * errors and corrections, which a replay feeds back rather than regenerates).
 *
 * - `"lines-v2"` ({@linkcode HASHING_VERSION}): SHA-256 over the events'
 *   JSON texts in log order, each followed by `"\n"`, where an event's text is
 *   its log line without the `time` member: `JSON.stringify` of the event,
 *   `time` removed, keys in the order the log has them. The engine builds this
 *   text once per event, as the prefix and suffix of the line it writes, so a
 *   hashed episode serialises each event once. A verifier reproduces it from
 *   the parsed log (`JSON.parse` keeps key order). A tool that rewrites a log
 *   with its keys reordered changes the hash: the log is then reported as
 *   differing, never accepted wrongly.
 *
 * @module
 */
import type { EngineEvent } from "./events.ts";
import { sha256Hex } from "./hash.ts";

/**
 * The events-hash definition this toolkit writes (recorded as `hashing` in `episode_start`).
 *
 * @example
 * ```ts
 * import { HASHING_VERSION } from "./events_hash.ts";
 * if (HASHING_VERSION !== "lines-v2") throw new Error();
 * ```
 */
export const HASHING_VERSION = "lines-v2";

/** An events-hash definition this toolkit can compute. */
export type HashingVersion = typeof HASHING_VERSION;

/**
 * Event types that record the agent side of the boundary rather than the game:
 * model-call records, agent failures and contract repairs. Replay feeds the
 * validated reports back and cannot regenerate them, so (like event times) they
 * are left out of {@linkcode eventsHash} and do not advance `seq` (each takes
 * the `seq` of the game event that follows it), so a replayed log numbers its
 * game events exactly as the original did.
 *
 * @example
 * ```ts
 * import { UNHASHED_EVENT_TYPES } from "./events_hash.ts";
 * if (!UNHASHED_EVENT_TYPES.has("llm_call") || UNHASHED_EVENT_TYPES.has("report")) throw new Error();
 * ```
 */
export const UNHASHED_EVENT_TYPES: ReadonlySet<string> = new Set([
  "llm_call",
  "agent_error",
  "correction",
]);

/** Options of {@linkcode eventsHash}. */
export interface EventsHashOptions {
  /** The definition. Default {@linkcode HASHING_VERSION}. */
  hashing?: HashingVersion;
}

/**
 * Hash of a round's events without their wall-clock times, so a tampered
 * log is caught even where the state is unchanged. Events of the types in
 * {@linkcode UNHASHED_EVENT_TYPES} are left out.
 *
 * @example
 * ```ts
 * import { eventsHash } from "./events_hash.ts";
 * if (eventsHash([]).length !== 64) throw new Error();
 * ```
 * @throws {RangeError} For an unknown definition.
 */
export function eventsHash(
  events: readonly EngineEvent[],
  options: EventsHashOptions = {},
): string {
  const hashing = options.hashing ?? HASHING_VERSION;
  const game = events.filter((e) => !UNHASHED_EVENT_TYPES.has(e.type));
  if (hashing !== HASHING_VERSION) {
    throw new RangeError(
      `Unknown events-hash definition "${hashing}": this build computes "${HASHING_VERSION}"`,
    );
  }
  let text = "";
  for (const e of game) text += JSON.stringify(withoutTime(e)) + "\n";
  return sha256Hex(text);
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

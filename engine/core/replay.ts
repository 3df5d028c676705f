/**
 * Replay: the recorded (validated) reports are fed back through the engine
 * with the recorded seed; the states, hashes and events must come out the
 * same. A mismatch names the first round and field that differ.
 *
 * The replay opens streams with the derivation the log names (`rng` in
 * `episode_start`) and hashes events with the definition it names
 * (`hashing`: `"lines-v3"` or `"lines-v2"`, see `events_hash.ts`); a log
 * naming one this build does not know, or none, is refused with a
 * `RangeError` naming the field. A `"lines-v2"` log is replayed as that
 * definition hashed it, never re-hashed under `"lines-v3"`, and its result
 * carries a `note` saying what its hash does not cover.
 *
 * The recorded model calls, agent errors and corrections (the agent side,
 * which a replay cannot regenerate) are fed back with the reports, so the
 * replay logs them again, and an agent that failed fails again: a
 * `"degraded"` episode replays as `"degraded"`, with the same counts. An
 * episode that crashed is replayed up to its crash (the replay's own
 * `episode_end` is then of status `"error"` too).
 *
 * Before anything is played, the caller's set-up (see {@linkcode ReplayOptions})
 * rebuilds the parameters and condition from the recorded `episode_start`;
 * recorded parameters, derived quantities or a condition id that differ from
 * the rebuilt ones are a `"condition"` mismatch. Round 1's events include the
 * set-up events, so an edited player, policy or label in `episode_start` is an
 * `"events"` mismatch of round 1.
 *
 * What is checked per round depends on what the log carries:
 * - a hashed checkpoint (every written log): its state hash against its own
 *   state (kind `"hash"`), the replayed state hash (kind `"state"`), then the
 *   round's events (kind `"events"`);
 * - a checkpoint without hashes (an episode played in memory with logging
 *   off): such a checkpoint holds no state, so states are compared only
 *   through the events they produced and the final outcome.
 *
 * The events of a `"lines-v3"` log are compared one by one with the
 * replay's, every event (agent-side ones, checkpoints and `episode_end`
 * included) but for its time, so the mismatch names the first event that
 * differs and its field: a game event the replay produced otherwise, a
 * checkpoint's `events_hash`, `episode_end`'s `status`, or an agent-side
 * event whose `event_hash` does not match its content (its own hash says
 * that it was edited, not which field). A `"lines-v2"` log's round events
 * are compared through its events hash, game events only; from its last
 * checkpoint on only the outcome is compared.
 *
 * @module
 */
import type { Agent } from "./agent.ts";
import type { Correction } from "./contract.ts";
import { firstDifference } from "./diff.ts";
import type { Environment } from "./environment.ts";
import type { CallRequest } from "./environment.ts";
import {
  AgentReply,
  type BranchPlay,
  branchSegments,
  EpisodeError,
  playEpisode,
} from "./episode.ts";
import {
  type EngineEvent,
  EVENT_BASE_FIELDS,
  type EventBody,
  type LlmCallRecord,
} from "./events.ts";
import type { EpisodeCondition } from "./game.ts";
import {
  AGENT_SIDE_EVENT_TYPES,
  deltaLinesHash,
  deltaSchemaOf,
  eventsHash,
  HASHING_VERSIONS,
  hashingNote,
  type HashingVersion,
  writesDeltas,
} from "./events_hash.ts";
import { deltaBlockLines } from "./event_layout.ts";
import { stateHash } from "./hash.ts";
import { RNG_VERSION } from "./rng.ts";

/** Where a replay first disagreed with its log. */
export interface ReplayMismatch {
  /** Round of the first difference (0 for the condition). */
  round: number;
  /**
   * What differs: `"condition"` (the recorded parameters, derived quantities
   * or condition id are not what the recorded condition resolves to),
   * `"state"`, `"events"` (round 1's events include `episode_start`, so an
   * edited player, policy or condition label shows here), `"hash"` (a
   * checkpoint whose hash does not match its own state), `"rounds"` or
   * `"outcome"`.
   */
  kind: "condition" | "state" | "events" | "hash" | "rounds" | "outcome";
  /**
   * Path of the first differing field (e.g. `depositors[2].balance`, or
   * `events[17].realized`: the 18th event of the round, counted from its
   * `round_start`, from the episode's first event in round 1; for the events
   * after the last checkpoint, from the first of them). A `"lines-v3"` log
   * counts every event, its checkpoint last; a `"lines-v2"` log its game
   * events only.
   */
  field: string;
  /** Value in the log. */
  recorded: unknown;
  /** Value the replay produced. */
  replayed: unknown;
  /**
   * For an `"events"` mismatch: the recorded event that differs (absent when
   * the log has no event there): its type, `seq`, `step`, `round`, agent if
   * any, and `index`, its position among the events replayed (from 0: the
   * line of a one-episode log file is `index + 1`).
   */
  event?: {
    type: string;
    seq: number;
    step: string;
    agent?: string;
    round: number;
    index: number;
  };
}

/** What {@linkcode replayWith} returns. */
export interface ReplayResult {
  /** Whether everything matched. */
  ok: boolean;
  /** Rounds replayed. */
  rounds: number;
  /** Replayed state hashes, round 1 first. */
  hashes: string[];
  /** The first mismatch, when not ok. */
  mismatch?: ReplayMismatch;
  /** The events-hash definition the log names and the replay used. */
  hashing: HashingVersion;
  /**
   * What the log's hash does not cover, for a log written before
   * `HASHING_VERSION` (`hashingNote` of `events_hash.ts`).
   */
  note?: string;
}

type Body = Omit<EngineEvent, "time"> & EventBody;

/** The parameters and condition a replay plays, rebuilt from a log's `episode_start`. */
export interface ReplaySetup<P> {
  /** Parameters to play with. */
  params: P;
  /** The condition to record. */
  condition: EpisodeCondition;
}

/** Options of {@linkcode replayWith}. */
export interface ReplayOptions<P> {
  /**
   * Rebuilds parameters and condition from the recorded `episode_start`
   * (`replayEpisode` resolves them from the recorded condition through the
   * game's descriptor, so recorded parameters that the condition does not
   * resolve to are a `"condition"` mismatch). Default: the recorded ones, as
   * written (an edit is then caught by round 1's events hash).
   */
  setup?: (start: EpisodeStart) => ReplaySetup<P>;
  /**
   * For a branch (`episode_start.branch_of`): rebuilds the parameters and
   * condition of an ancestor's recorded condition (`branch_of.condition`,
   * and the nested ones of a branch of a branch), which the rounds before
   * the branch round were played under (`replayEpisode` resolves them
   * through the game's descriptor). Required to replay a branch.
   */
  parentSetup?: (condition: Record<string, unknown>) => ReplaySetup<P>;
}

/** The `episode_start` event of a log. */
export type EpisodeStart = Extract<EngineEvent, { type: "episode_start" }>;

/**
 * The parameters and condition exactly as a log's `episode_start` records them.
 *
 * @example
 * ```ts
 * import { recordedSetup } from "./replay.ts";
 * const s = recordedSetup({ game: "g", condition: { mechanism: "M1" }, condition_id: "c",
 *   derived: { bounds: { worst: 0, best: 1 } }, central_role: null, params: { x: 1 } } as never);
 * if (s.condition.mechanism !== "M1" || s.condition.id !== "c") throw new Error();
 * ```
 */
export function recordedSetup(start: EpisodeStart): ReplaySetup<unknown> {
  const mechanism = start.condition?.mechanism;
  return {
    params: start.params,
    condition: {
      game: start.game,
      fields: start.condition,
      id: start.condition_id,
      derived: start.derived as EpisodeCondition["derived"],
      mechanism: typeof mechanism === "string" ? mechanism : "none",
      centralRole: start.central_role,
      centralId: start.central_id ?? null,
    },
  };
}

/**
 * Replays a log through an environment.
 *
 * @example
 * ```ts
 * import { replayWith } from "./replay.ts";
 * import { playEpisode } from "./episode.ts";
 * import { bankRunGame } from "../games/bank_run/descriptor.ts";
 * import { frailSetup } from "../frail/descriptor.ts";
 * import { mockPopulation } from "../agents/mock/population.ts";
 * const env = bankRunGame.environment;
 * const played = await playEpisode(env, {
 *   ...frailSetup(bankRunGame, { mechanism: "M3", regime: "stable" }), seed: 5,
 *   agents: mockPopulation({ seed: 5 }),
 * });
 * if (!(await replayWith(env, played.events)).ok) throw new Error();
 * ```
 */
export async function replayWith<P, S>(
  env: Environment<P, S>,
  events: readonly EngineEvent[],
  options: ReplayOptions<P> = {},
): Promise<ReplayResult> {
  const start = startOf(env, events);
  const rng = known(start.rng, RNG_VERSION, "rng");
  const hashing = known(start.hashing, HASHING_VERSIONS, "hashing");
  const note = hashingNote(hashing);
  const setup = options.setup
    ? options.setup(start)
    : recordedSetup(start) as ReplaySetup<unknown> as ReplaySetup<P>;
  const params = env.parseParams(setup.params);
  const conditionMismatch = compareCondition(start, params, setup.condition);
  if (conditionMismatch) {
    return {
      ok: false,
      rounds: 0,
      hashes: [],
      mismatch: conditionMismatch,
      hashing,
      ...(note ? { note } : {}),
    };
  }
  const agents = recordedAgents(start, events);
  const branch = branchPlay(env, start, options);
  let replay: Replayed;
  try {
    replay = await playEpisode(env, {
      ...(branch ? { branch } : {}),
      params,
      condition: setup.condition,
      toolkit: start.toolkit,
      seed: start.seed,
      agents,
      run: start.run,
      episode: start.episode,
      clock: () => start.time,
      hashes: true,
      rng,
      hashing,
    });
  } catch (err) {
    // The replay crashed (as the episode did, if its log ends in an error):
    // its log up to the crash is compared like any other.
    if (!(err instanceof EpisodeError)) throw err;
    const hashes = err.events.flatMap((e) =>
      e.type === "checkpoint" && e.state_hash !== undefined ? [e.state_hash] : []
    );
    replay = { events: err.events, hashes };
  }
  const mismatch = compareReplay(events, replay, hashing, start.branch_of);
  return {
    ok: mismatch === undefined,
    rounds: replay.hashes.length,
    hashes: replay.hashes,
    ...(mismatch ? { mismatch } : {}),
    hashing,
    ...(note ? { note } : {}),
  };
}

/** What a replay played: its events and state hashes (up to a crash). */
interface Replayed {
  events: readonly EngineEvent[];
  hashes: string[];
}

/** The log's `episode_start`, checked to be of the environment. */
function startOf<P, S>(env: Environment<P, S>, events: readonly EngineEvent[]): EpisodeStart {
  const start = events.find((e) => e.type === "episode_start");
  if (!start || start.type !== "episode_start") {
    throw new TypeError("Cannot replay: the log has no episode_start event");
  }
  if (start.env !== env.id) {
    throw new TypeError(`Cannot replay a "${start.env}" log with the "${env.id}" environment`);
  }
  return start;
}

/** Agents that give the recorded answers, under the recorded policies. */
function recordedAgents(
  start: EpisodeStart,
  events: readonly EngineEvent[],
): (who: { id: string }) => Agent {
  const answer = recordedAnswers(events);
  const policies = new Map(start.agents.map((a) => [a.id, a.policy]));
  return ({ id }: { id: string }): Agent => ({
    policy: policies.get(id) ?? "replay",
    decide: answer,
  });
}

/** A branch's play: its parents' segments, set up by `parentSetup`; `undefined` for a log that is no branch. */
function branchPlay<P, S>(
  env: Environment<P, S>,
  start: EpisodeStart,
  options: ReplayOptions<P>,
): BranchPlay<P> | undefined {
  const branchOf = start.branch_of;
  if (branchOf === undefined) return undefined;
  if (!options.parentSetup) {
    throw new TypeError(
      "Cannot replay a branch without the parent's set-up (options.parentSetup)",
    );
  }
  const parentSetup = options.parentSetup;
  return {
    atRound: branchOf.round,
    segments: branchSegments(branchOf).map(({ from, condition }) => {
      const s = parentSetup(condition);
      return { from, params: env.parseParams(s.params), mechanism: s.condition.mechanism };
    }),
    of: branchOf,
    change: start.change ?? {},
  };
}

/**
 * The first difference between a log and its replay: round by round (see
 * {@linkcode compareRound}), then a branch's inherited hashes, then (a
 * `"lines-v3"` log) the events after the last checkpoint, then the outcome.
 */
function compareReplay(
  events: readonly EngineEvent[],
  replay: Replayed,
  hashing: HashingVersion,
  branchOf: EpisodeStart["branch_of"],
): ReplayMismatch | undefined {
  const all = hashing !== "lines-v2";
  const recorded = byRound(events, all);
  const replayed = byRound(replay.events, all);
  const hashedLog = recorded.checkpoints.some((c) => c.state_hash !== undefined) ||
    events.some((e) => e.type === "episode_end" && e.events_hash !== undefined);
  const rounds = Math.max(recorded.checkpoints.length, replayed.checkpoints.length);
  for (let i = 0; i < rounds; i++) {
    const m = compareRound(recorded, replayed, i, hashing, hashedLog);
    if (m) return m;
  }
  // A branch's rounds before its branch round are its parent's: their state
  // hashes are the ones its episode_start records.
  for (let i = 0; branchOf !== undefined && i < branchOf.hashes.length; i++) {
    if (replay.hashes[i] !== branchOf.hashes[i]) {
      return {
        round: i + 1,
        kind: "hash",
        field: `branch_of.hashes[${i}]`,
        recorded: branchOf.hashes[i],
        replayed: replay.hashes[i],
      };
    }
  }
  if (all) {
    const rTail = recorded.tail;
    const m = compareEvents(
      rTail,
      replayed.tail,
      recorded.tailAt,
      roundOf(rTail),
      hashedLog,
      hashing,
      events,
    );
    const outcome = m?.event?.type === "episode_end" && /^events\[\d+\]\.outcome\b/.test(m.field);
    if (m && !outcome) return m;
  }
  const rEnd = events.find((e) => e.type === "episode_end");
  const pEnd = replay.events.find((e) => e.type === "episode_end");
  const d = firstDifference(
    rEnd && "outcome" in rEnd ? rEnd.outcome : undefined,
    pEnd && "outcome" in pEnd ? pEnd.outcome : undefined,
  );
  if (d) {
    return {
      round: replay.hashes.length,
      kind: "outcome",
      field: `outcome.${d.path}`,
      recorded: d.left,
      replayed: d.right,
    };
  }
  return undefined;
}

/**
 * The first difference in round `i + 1`: a checkpoint missing on one side,
 * a recorded state that does not match its own hash, a replayed state of
 * another hash, then the round's events (one by one, or a `"lines-v2"`
 * log's game events through its events hash).
 */
function compareRound(
  recorded: Rounds,
  replayed: Rounds,
  i: number,
  hashing: HashingVersion,
  hashedLog: boolean,
): ReplayMismatch | undefined {
  const rc = recorded.checkpoints[i];
  const pc = replayed.checkpoints[i];
  const round = i + 1;
  if (!rc || !pc) {
    return {
      round,
      kind: "rounds",
      field: "checkpoint",
      recorded: rc ? "present" : "absent",
      replayed: pc ? "present" : "absent",
    };
  }
  const rEvents = recorded.rounds[i];
  const pEvents = replayed.rounds[i];
  const rAt = recorded.starts[i];
  const hashed = rc.state_hash !== undefined;
  if (hashed && stateHash(rc.state) !== rc.state_hash) {
    const d = firstDifference(rc.state, pc.state);
    return {
      round,
      kind: "hash",
      field: d ? `state.${d.path}` : "state_hash",
      recorded: d ? d.left : rc.state_hash,
      replayed: d ? d.right : stateHash(rc.state),
    };
  }
  if (hashed && rc.state_hash !== pc.state_hash) {
    const d = firstDifference(rc.state, pc.state)!;
    return { round, kind: "state", field: d.path, recorded: d.left, replayed: d.right };
  }
  if (hashing !== "lines-v2") {
    return compareEvents(rEvents, pEvents, rAt, round, hashedLog, hashing, recorded.events);
  }
  const own = eventsHash(rEvents, { hashing });
  if (own !== (hashed ? rc.events_hash : own) || own !== pc.events_hash) {
    const game = (list: readonly EngineEvent[]) =>
      list.flatMap((e, j) => AGENT_SIDE_EVENT_TYPES.has(e.type) ? [] : [j]);
    const rGame = game(rEvents);
    const d = firstDifference(
      rGame.map((j) => withoutTime(rEvents[j])),
      game(pEvents).map((j) => withoutTime(pEvents[j])),
    ) ?? { path: "events_hash", left: rc.events_hash ?? own, right: pc.events_hash };
    return eventsMismatch(d, round, (n) => rGame[n], rEvents, rAt);
  }
  return undefined;
}

/** The first field where the recorded start differs from the rebuilt condition. */
function compareCondition(
  start: EpisodeStart,
  params: unknown,
  condition: EpisodeCondition,
): ReplayMismatch | undefined {
  const pairs: [string, unknown, unknown][] = [
    ["params", start.params, params],
    ["condition", start.condition, condition.fields],
    ["condition_id", start.condition_id, condition.id],
    ["derived", start.derived, condition.derived],
    ["game", start.game, condition.game],
  ];
  for (const [name, recorded, rebuilt] of pairs) {
    const d = firstDifference(recorded, rebuilt);
    if (d) {
      return {
        round: 0,
        kind: "condition",
        field: d.path ? `${name}.${d.path}` : name,
        recorded: d.left,
        replayed: d.right,
      };
    }
  }
  return undefined;
}

/** Options of {@linkcode recordedAnswers}. */
export interface RecordedAnswersOptions {
  /** Feed back the recorded model calls too. Default `true` (replay); a branch's prefix leaves them out. */
  calls?: boolean;
}

/**
 * The agent side of a log as an agent's `decide`: for each call, the
 * recorded report with the recorded model calls, agent error and the agent's
 * own corrections (so the engine logs them again, and a failed agent fails
 * again). Replay answers every call with it, a branch the calls of the
 * rounds it takes from its parent. A call the log has no report for throws.
 *
 * @example
 * ```ts
 * import { recordedAnswers } from "./replay.ts";
 * const answer = recordedAnswers([{ type: "report", round: 1, step: "s", agent: "a", call: "c",
 *   report: { x: 1 } }] as never);
 * const got = answer({ round: 1, step: "s", agent: "a", call: "c", role: "r", view: {} });
 * if ((got as { x: number }).x !== 1) throw new Error();
 * ```
 */
export function recordedAnswers(
  events: readonly EngineEvent[],
  options: RecordedAnswersOptions = {},
): (req: CallRequest) => unknown {
  const fed = fedBack(events);
  const calls = options.calls ?? true;
  return (req) => {
    const f = fed.get(key(req.round, req.step, req.agent, req.call));
    if (f === undefined || (f.report === undefined && f.error === undefined)) {
      throw new Error(`no recorded report for ${req.agent} (${req.call})`);
    }
    const records = calls ? f.calls : NO_RECORDS;
    if (records.length === 0 && f.notes.length === 0 && f.error === undefined) return f.report;
    return new AgentReply(f.error === undefined ? f.report : undefined, {
      calls: records,
      notes: f.notes,
      ...(f.error === undefined ? {} : { error: f.error }),
    });
  };
}

const NO_RECORDS: readonly LlmCallRecord[] = [];

/**
 * One line naming where a replay first disagreed with its log.
 *
 * @example
 * ```ts
 * import { describeMismatch } from "./replay.ts";
 * const m = describeMismatch({ round: 2, kind: "state", field: "cash", recorded: 1, replayed: 2 });
 * if (m !== "round 2, state cash: recorded 1, replayed 2") throw new Error(m);
 * ```
 */
export function describeMismatch(m: ReplayMismatch): string {
  const at = m.event ? ` (${m.event.type} event, line ${m.event.index + 1})` : "";
  return `round ${m.round}, ${m.kind} ${m.field}${at}: recorded ${
    JSON.stringify(m.recorded) ?? "nothing"
  }, replayed ${JSON.stringify(m.replayed) ?? "nothing"}`;
}

/** The version a log names in `field`, when it is one this build replays. */
function known<V extends string>(
  value: string | undefined,
  versions: V | readonly V[],
  field: string,
): V {
  const list: readonly string[] = typeof versions === "string" ? [versions] : versions;
  if (value !== undefined && list.includes(value)) return value as V;
  const got = value === undefined
    ? `has no "${field}" field;`
    : `names an unknown ${field}, "${value}":`;
  const names = list.map((v) => `"${v}"`).join(" or ");
  throw new RangeError(`Cannot replay: the log ${got} this build replays ${field} ${names}`);
}

/** What the agents of one call did, as recorded: fed back to the replay's agent. */
interface Fed {
  report?: Record<string, unknown>;
  calls: LlmCallRecord[];
  notes: Correction[];
  error?: string;
}

/**
 * The recorded reports, model calls, agent errors and corrections of every
 * call. A correction before the call's `agent_error` is the agent's own note;
 * the one after it is the engine's (the neutral default), which the replay
 * logs again by itself.
 */
function fedBack(events: readonly EngineEvent[]): Map<string, Fed> {
  const fed = new Map<string, Fed>();
  const of = (e: { round: number; step: string; agent: string; call: string }) => {
    const k = key(e.round, e.step, e.agent, e.call);
    let f = fed.get(k);
    if (f === undefined) fed.set(k, f = { calls: [], notes: [] });
    return f;
  };
  for (const e of events) {
    if (e.type === "report") of(e).report = e.report;
    else if (e.type === "llm_call") of(e).calls.push(ownFields(e) as unknown as LlmCallRecord);
    else if (e.type === "agent_error") of(e).error = e.message;
    else if (e.type === "correction") {
      const f = of(e);
      if (f.error === undefined) f.notes.push(ownFields(e) as unknown as Correction);
    }
  }
  return fed;
}

/** An agent-side event's own fields, in its order: without the base, `agent`, `call` and its hash. */
function ownFields(event: EngineEvent): Record<string, unknown> {
  const own: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(event)) {
    if (!OWN_SKIPPED.has(k)) own[k] = v;
  }
  return own;
}

const OWN_SKIPPED: ReadonlySet<string> = new Set([
  ...EVENT_BASE_FIELDS,
  "agent",
  "call",
  "event_hash",
]);

/** The members, by event type, that a log played without hashes does not carry. */
const HASH_FIELDS: Readonly<Record<string, readonly string[]>> = {
  checkpoint: ["state", "state_hash", "events_hash"],
  episode_end: ["events_hash"],
  llm_call: ["event_hash"],
  agent_error: ["event_hash"],
  correction: ["event_hash"],
};

/**
 * The first difference between a recorded and a replayed segment
 * (`"lines-v3"`), every event compared but for its time (and, in a log
 * without hashes, its hash members).
 */
function compareEvents(
  recorded: readonly EngineEvent[],
  replayed: readonly EngineEvent[],
  at: number,
  round: number,
  hashed: boolean,
  hashing: HashingVersion,
  log: readonly EngineEvent[],
): ReplayMismatch | undefined {
  const bare = (e: EngineEvent) => {
    const rest = withoutTime(e) as Record<string, unknown>;
    if (!hashed) { for (const k of HASH_FIELDS[e.type] ?? []) delete rest[k]; }
    return rest;
  };
  const d = firstDifference(recorded.map(bare), replayed.map(bare));
  if (d) return eventsMismatch(d, round, (n) => n, recorded, at);
  // The same events, but their text may not be what was hashed (keys reordered).
  const last = recorded.at(-1);
  if (!hashed || last === undefined) return undefined;
  const closing = last.type === "checkpoint" ? last.events_hash : undefined;
  const end = last.type === "episode_end" ? last.events_hash : undefined;
  if (closing === undefined && end === undefined) return undefined;
  let own: string;
  const hashedEvents = closing !== undefined ? recorded.slice(0, -1) : recorded;
  try {
    own = writesDeltas(hashing)
      ? deltaSegmentHash(log, at, hashedEvents.length, hashing)
      : eventsHash(hashedEvents, { hashing, opensBlock: at === 0 });
  } catch (error) {
    // An event the layout cannot write (a body not led by its type): it was not what was hashed.
    if (!(error instanceof TypeError)) throw error;
    own = `(no ${hashing} text: ${error.message})`;
  }
  if (own === (closing ?? end)) return undefined;
  const n = recorded.length - 1;
  return eventsMismatch(
    { path: `[${n}].events_hash`, left: closing ?? end, right: own },
    round,
    (i) => i,
    recorded,
    at,
  );
}

/**
 * The delta-layout lines (`"lines-v6"` on) of a whole recorded log, built once per replay (and
 * `null` when some event has no such line): a line depends only on the
 * lines before it, so a segment's lines are those of the whole log, and
 * re-encoding the log from its start for every round would be quadratic.
 */
const logLines = new WeakMap<readonly EngineEvent[], ReturnType<typeof deltaBlockLines> | null>();

/**
 * The events hash of the `count` events of `log` from `at` under
 * `hashing` (a delta layout's), as `eventsHash(segment, { hashing, before: log.slice(0, at) })` gives
 * it (and as it throws, when the log has an event the layout cannot write).
 */
function deltaSegmentHash(
  log: readonly EngineEvent[],
  at: number,
  count: number,
  hashing: HashingVersion,
): string {
  let lines = logLines.get(log);
  if (lines === undefined) {
    try {
      lines = deltaBlockLines(log, deltaSchemaOf(hashing));
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      lines = null;
    }
    logLines.set(log, lines);
  }
  if (lines === null) {
    // Which segment cannot be written is told by the segment's own encoding.
    return eventsHash(log.slice(at, at + count), {
      hashing,
      opensBlock: at === 0,
      before: log.slice(0, at),
    });
  }
  return deltaLinesHash(lines, at, count, at === 0);
}

/** An `"events"` mismatch at `d`, whose `[n]` is the segment's `index(n)`-th recorded event. */
function eventsMismatch(
  d: { path: string; left: unknown; right: unknown },
  round: number,
  index: (n: number) => number | undefined,
  recorded: readonly EngineEvent[],
  at: number,
): ReplayMismatch {
  const m = /^\[(\d+)\]/.exec(d.path);
  const j = m ? index(Number(m[1])) : undefined;
  const e = j === undefined ? undefined : recorded[j] as Record<string, unknown> | undefined;
  return {
    round,
    kind: "events",
    field: d.path.startsWith("[") ? `events${d.path}` : d.path,
    recorded: d.left,
    replayed: d.right,
    ...(e
      ? {
        event: {
          type: String(e.type),
          seq: Number(e.seq),
          step: String(e.step),
          ...(typeof e.agent === "string" ? { agent: e.agent } : {}),
          round: Number(e.round),
          index: at + j!,
        },
      }
      : {}),
  };
}

/** The round of a segment: that of its first event (0 for none). */
function roundOf(events: readonly EngineEvent[]): number {
  return events.length > 0 ? events[0].round : 0;
}

function key(round: number, step: string, agent: string, call: string): string {
  return `${round}|${step}|${agent}|${call}`;
}

/** An event without its time. */
function withoutTime(event: EngineEvent): Body {
  const { time: _t, ...rest } = event;
  return rest as Body;
}

/**
 * Events by round, as the events hash slices them: round 1 includes the
 * set-up events; with `all` (`"lines-v3"`) each round ends with its
 * checkpoint, and `tail` holds the events after the last checkpoint. `starts`
 * and `tailAt` are the index in `events` of each slice's first event.
 */
function byRound(events: readonly EngineEvent[], all: boolean) {
  const checkpoints: Extract<EngineEvent, { type: "checkpoint" }>[] = [];
  const rounds: EngineEvent[][] = [];
  const starts: number[] = [];
  let current: EngineEvent[] = [];
  let currentAt = 0;
  let started = false;
  events.forEach((e, i) => {
    if (e.type === "round_start") {
      started = true;
      if (checkpoints.length > 0) {
        current = [];
        currentAt = i;
      }
      current.push(e);
    } else if (e.type === "checkpoint") {
      checkpoints.push(e);
      if (all) current.push(e);
      rounds.push(current);
      starts.push(currentAt);
      current = [];
      currentAt = i + 1;
      started = false;
    } else if (started || checkpoints.length === 0) current.push(e);
  });
  const tailAt = checkpoints.length === 0 ? 0 : events.lastIndexOf(checkpoints.at(-1)!) + 1;
  return { checkpoints, rounds, starts, tail: events.slice(tailAt), tailAt, events };
}

/** A log's events by round (see {@linkcode byRound}). */
type Rounds = ReturnType<typeof byRound>;

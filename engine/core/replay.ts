/**
 * Replay: the recorded (validated) reports are fed back through the engine
 * with the recorded seed; the states, hashes and events must come out the
 * same. A mismatch names the first round and field that differ.
 *
 * The replay opens streams with the derivation the log names (`rng` in
 * `episode_start`) and hashes events with the definition it names
 * (`hashing`); a log naming one this build does not know, or none, is refused
 * with a `RangeError` naming the field.
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
 *   state (kind `"hash"`), the replayed state hash (kind `"state"`), and its
 *   events hash against both the recorded events and the replay's (kind
 *   `"events"`);
 * - a checkpoint without hashes (an episode played in memory with logging
 *   off): the replay recomputes the events hash of the recorded round and
 *   compares it with its own (kind `"events"`); such a checkpoint holds no
 *   state, so states are compared only through the events they produced and
 *   the final outcome.
 *
 * @module
 */
import type { Agent } from "../agents/agent.ts";
import { firstDifference } from "./diff.ts";
import type { Environment } from "./environment.ts";
import { playEpisode } from "./episode.ts";
import type { EngineEvent, EventBody } from "./events.ts";
import type { EpisodeCondition } from "./game.ts";
import { eventsHash, HASHING_VERSION, UNHASHED_EVENT_TYPES } from "./events_hash.ts";
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
   * `events[17].realized`: the 18th game event of the round, counted from its
   * `round_start`, from the episode's first event in round 1).
   */
  field: string;
  /** Value in the log. */
  recorded: unknown;
  /** Value the replay produced. */
  replayed: unknown;
  /** For an `"events"` mismatch: the recorded event that differs (its type, seq, step and agent, if any). */
  event?: { type: string; seq: number; step: string; agent?: string };
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
 * import { bankRunGame } from "../frail/bank_run/descriptor.ts";
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
  const start = events.find((e) => e.type === "episode_start");
  if (!start || start.type !== "episode_start") {
    throw new TypeError("Cannot replay: the log has no episode_start event");
  }
  if (start.env !== env.id) {
    throw new TypeError(`Cannot replay a "${start.env}" log with the "${env.id}" environment`);
  }
  const rng = known(start.rng, RNG_VERSION, "rng");
  const hashing = known(start.hashing, HASHING_VERSION, "hashing");
  const setup = options.setup
    ? options.setup(start)
    : recordedSetup(start) as ReplaySetup<unknown> as ReplaySetup<P>;
  const params = env.parseParams(setup.params);
  const conditionMismatch = compareCondition(start, params, setup.condition);
  if (conditionMismatch) {
    return { ok: false, rounds: 0, hashes: [], mismatch: conditionMismatch };
  }
  const reports = new Map<string, Record<string, unknown>>();
  for (const e of events) {
    if (e.type === "report") reports.set(key(e.round, e.step, e.agent, e.call), e.report);
  }
  const policies = new Map(start.agents.map((a) => [a.id, a.policy]));
  const agents = ({ id }: { id: string }): Agent => ({
    policy: policies.get(id) ?? "replay",
    decide(req) {
      const r = reports.get(key(req.round, req.step, req.agent, req.call));
      if (r === undefined) throw new Error(`no recorded report for ${req.agent} (${req.call})`);
      return r;
    },
  });
  const replay = await playEpisode(env, {
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
  const result = (mismatch?: ReplayMismatch): ReplayResult => ({
    ok: mismatch === undefined,
    rounds: replay.hashes.length,
    hashes: replay.hashes,
    mismatch,
  });
  const recorded = byRound(events);
  const replayed = byRound(replay.events);
  const rounds = Math.max(recorded.checkpoints.length, replayed.checkpoints.length);
  for (let i = 0; i < rounds; i++) {
    const rc = recorded.checkpoints[i];
    const pc = replayed.checkpoints[i];
    const round = i + 1;
    if (!rc || !pc) {
      return result({
        round,
        kind: "rounds",
        field: "checkpoint",
        recorded: rc ? "present" : "absent",
        replayed: pc ? "present" : "absent",
      });
    }
    const rEvents = recorded.rounds[i];
    const pEvents = replayed.rounds[i];
    const hashed = rc.state_hash !== undefined;
    if (hashed && stateHash(rc.state) !== rc.state_hash) {
      const d = firstDifference(rc.state, pc.state);
      return result({
        round,
        kind: "hash",
        field: d ? `state.${d.path}` : "state_hash",
        recorded: d ? d.left : rc.state_hash,
        replayed: d ? d.right : stateHash(rc.state),
      });
    }
    if (hashed && rc.state_hash !== pc.state_hash) {
      const d = firstDifference(rc.state, pc.state)!;
      return result({ round, kind: "state", field: d.path, recorded: d.left, replayed: d.right });
    }
    const own = eventsHash(rEvents, { hashing });
    if (own !== (hashed ? rc.events_hash : own) || own !== pc.events_hash) {
      const recordedGame = strip(rEvents);
      const d = firstDifference(recordedGame, strip(pEvents)) ??
        { path: "events_hash", left: rc.events_hash ?? own, right: pc.events_hash };
      const at = /^\[(\d+)\]/.exec(d.path);
      const e = at ? recordedGame[Number(at[1])] as Record<string, unknown> | undefined : undefined;
      return result({
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
            },
          }
          : {}),
      });
    }
  }
  const rEnd = events.find((e) => e.type === "episode_end");
  const pEnd = replay.events.find((e) => e.type === "episode_end");
  const d = firstDifference(
    rEnd && "outcome" in rEnd ? rEnd.outcome : undefined,
    pEnd && "outcome" in pEnd ? pEnd.outcome : undefined,
  );
  if (d) {
    return result({
      round: replay.hashes.length,
      kind: "outcome",
      field: `outcome.${d.path}`,
      recorded: d.left,
      replayed: d.right,
    });
  }
  return result();
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

/** The version a log names in `field`, when it is the one this build replays. */
function known<V extends string>(value: string | undefined, version: V, field: string): V {
  if (value === version) return version;
  const got = value === undefined
    ? `has no "${field}" field;`
    : `names an unknown ${field}, "${value}":`;
  throw new RangeError(`Cannot replay: the log ${got} this build replays ${field} "${version}"`);
}

function key(round: number, step: string, agent: string, call: string): string {
  return `${round}|${step}|${agent}|${call}`;
}

/** Game events without their times: what the events hash covers (see `eventsHash`). */
function strip(events: readonly EngineEvent[]): Body[] {
  return events.filter((e) => !UNHASHED_EVENT_TYPES.has(e.type))
    .map(({ time: _t, ...rest }) => rest as Body);
}

/** Events by round, as the events hash slices them: round 1 includes the set-up events. */
function byRound(events: readonly EngineEvent[]) {
  const checkpoints: Extract<EngineEvent, { type: "checkpoint" }>[] = [];
  const rounds: EngineEvent[][] = [];
  let current: EngineEvent[] = [];
  let started = false;
  for (const e of events) {
    if (e.type === "round_start") {
      started = true;
      if (checkpoints.length > 0) current = [];
      current.push(e);
    } else if (e.type === "checkpoint") {
      checkpoints.push(e);
      rounds.push(current);
      current = [];
      started = false;
    } else if (started || checkpoints.length === 0) current.push(e);
  }
  return { checkpoints, rounds };
}

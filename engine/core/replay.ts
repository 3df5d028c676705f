/**
 * Replay: the recorded (validated) reports are fed back through the engine
 * with the recorded seed; the states, hashes and events must come out the
 * same. A mismatch names the first round and field that differ.
 *
 * The replay opens streams with the derivation the log names (`rng` in
 * `episode_start`; none means `"sha256-v1"`) and hashes events with the
 * definition it names (`hashing`; none means `"canonical-v1"`), so logs
 * written before either changed still replay; a log naming a derivation this
 * build does not know is refused with a `RangeError` naming it.
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
import {
  eventsHash,
  HASHING_VERSION,
  LEGACY_HASHING_VERSION,
  UNHASHED_EVENT_TYPES,
} from "./events_hash.ts";
import { stateHash } from "./hash.ts";
import { LEGACY_RNG_VERSION, RNG_VERSION } from "./rng.ts";

/** Where a replay first disagreed with its log. */
export interface ReplayMismatch {
  /** Round of the first difference. */
  round: number;
  /** What differs: `"state"`, `"events"`, `"hash"` (a checkpoint whose hash does not match its own state), `"rounds"` or `"outcome"`. */
  kind: "state" | "events" | "hash" | "rounds" | "outcome";
  /** Path of the first differing field (e.g. `depositors[2].balance`, or `events[17].realized`). */
  field: string;
  /** Value in the log. */
  recorded: unknown;
  /** Value the replay produced. */
  replayed: unknown;
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

/**
 * Replays a log through an environment.
 *
 * @example
 * ```ts
 * import { replayWith } from "./replay.ts";
 * import { playEpisode } from "./episode.ts";
 * import { bankRun } from "../frail/bank_run/environment.ts";
 * import { mockPopulation } from "../agents/mock/population.ts";
 * const played = await playEpisode(bankRun, {
 *   params: bankRun.parseParams({}), mechanism: "M3", regime: "stable", seed: 5,
 *   agents: mockPopulation({ seed: 5 }),
 * });
 * if (!(await replayWith(bankRun, played.events)).ok) throw new Error();
 * ```
 */
export async function replayWith<P, S>(
  env: Environment<P, S>,
  events: readonly EngineEvent[],
): Promise<ReplayResult> {
  const start = events.find((e) => e.type === "episode_start");
  if (!start || start.type !== "episode_start") {
    throw new TypeError("Cannot replay: the log has no episode_start event");
  }
  if (start.env !== env.id) {
    throw new TypeError(`Cannot replay a "${start.env}" log with the "${env.id}" environment`);
  }
  const rng = known(start.rng ?? LEGACY_RNG_VERSION, [RNG_VERSION, LEGACY_RNG_VERSION], "rng");
  const hashing = known(
    start.hashing ?? LEGACY_HASHING_VERSION,
    [HASHING_VERSION, LEGACY_HASHING_VERSION],
    "hashing",
  );
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
    params: env.parseParams(start.params),
    mechanism: start.mechanism,
    regime: start.regime,
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
      const d = firstDifference(strip(rEvents), strip(pEvents)) ??
        { path: "events_hash", left: rc.events_hash ?? own, right: pc.events_hash };
      return result({
        round,
        kind: "events",
        field: d.path.startsWith("[") ? `events${d.path}` : d.path,
        recorded: d.left,
        replayed: d.right,
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

function known<V extends string>(value: string, versions: readonly V[], field: string): V {
  if (!(versions as readonly string[]).includes(value)) {
    throw new RangeError(
      `Cannot replay: the log's ${field} "${value}" is unknown to this build, which replays ${
        versions.map((v) => `"${v}"`).join(" and ")
      }`,
    );
  }
  return value as V;
}

function key(round: number, step: string, agent: string, call: string): string {
  return `${round}|${step}|${agent}|${call}`;
}

/** Game events without their times: what the events hash covers (see `eventsHash`). */
function strip(events: readonly EngineEvent[]): Body[] {
  return events.filter((e) => !UNHASHED_EVENT_TYPES.has(e.type))
    .map(({ time: _t, ...rest }) => rest as Body);
}

function byRound(events: readonly EngineEvent[]) {
  const checkpoints: Extract<EngineEvent, { type: "checkpoint" }>[] = [];
  const rounds: EngineEvent[][] = [];
  let current: EngineEvent[] = [];
  let started = false;
  for (const e of events) {
    if (e.type === "round_start") {
      started = true;
      current = [e];
    } else if (e.type === "checkpoint") {
      checkpoints.push(e);
      rounds.push(current);
      current = [];
      started = false;
    } else if (started) current.push(e);
  }
  return { checkpoints, rounds };
}

/**
 * The round loop: start the round, then for every step issue the step's calls
 * concurrently from the same pre-decision state, validate the replies, apply
 * the step, and at the end of the round write a checkpoint with its state hash.
 *
 * @module
 */
import type { Agent, AgentFactory } from "../agents/agent.ts";
import type { Correction } from "./contract.ts";
import type { CallRequest, Environment } from "./environment.ts";
import type { EpisodeCondition } from "./game.ts";
import type {
  AgentInfo,
  Degradation,
  EngineEvent,
  EpisodeOutcome,
  EventBody,
  LlmCallRecord,
} from "./events.ts";
import { EVENT_SCHEMA_VERSION } from "./events.ts";
import { sha256Hex, stateHash } from "./hash.ts";
import { canonicalJson } from "./canonical_json.ts";
import { openStream } from "./rng.ts";
import { cloneJson } from "./clone.ts";

/**
 * Version string written into every log.
 *
 * @example
 * ```ts
 * import { TOOLKIT_VERSION } from "./episode.ts";
 * if (!TOOLKIT_VERSION.startsWith("coordlab")) throw new Error();
 * ```
 */
export const TOOLKIT_VERSION = "coordlab 0.1.0";

/** Options of {@linkcode AgentReply}. */
export interface AgentReplyOptions {
  /** Records of the model calls behind the reply. Default none. */
  calls?: readonly LlmCallRecord[];
  /** Set when the agent failed: the runner then logs an `agent_error` and uses the neutral default. Default none. */
  error?: string;
  /** Notes about the reply itself (e.g. a text cut for the log), logged as `correction` events after the call records. Default none. */
  notes?: readonly Correction[];
}

/**
 * A raw reply together with the records of the model calls that produced it.
 * An agent may return one from `decide` instead of the bare reply; the runner
 * logs every record as an `llm_call` event before the agent's corrections and
 * report. Agents that return anything else are unaffected.
 *
 * @example
 * ```ts
 * import { AgentReply } from "./episode.ts";
 * const r = new AgentReply('{"withdraw_probability": 10, "reasoning": "ok"}');
 * if (r.calls.length !== 0 || r.error !== undefined) throw new Error();
 * ```
 */
export class AgentReply {
  /** The raw reply (text or object); ignored when `error` is set. */
  readonly raw: unknown;
  /** Records of the model calls behind the reply. */
  readonly calls: readonly LlmCallRecord[];
  /** Why the agent failed, if it did. */
  readonly error: string | undefined;
  /** Notes about the reply, logged as corrections. */
  readonly notes: readonly Correction[];
  /** Wraps a raw reply. */
  constructor(raw: unknown, options: AgentReplyOptions = {}) {
    this.raw = raw;
    this.calls = options.calls ?? [];
    this.error = options.error;
    this.notes = options.notes ?? [];
  }
}

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
 * import { UNHASHED_EVENT_TYPES } from "./episode.ts";
 * if (!UNHASHED_EVENT_TYPES.has("llm_call") || UNHASHED_EVENT_TYPES.has("report")) throw new Error();
 * ```
 */
export const UNHASHED_EVENT_TYPES: ReadonlySet<string> = new Set([
  "llm_call",
  "agent_error",
  "correction",
]);

/** Options of {@linkcode playEpisode}. */
export interface PlayOptions<P> {
  /** Validated parameters. */
  params: P;
  /** The condition, as a game's set-up function builds it (`frailSetup`, `stagHuntSetup`); recorded in `episode_start`. */
  condition: EpisodeCondition;
  /** Episode seed. */
  seed: number;
  /** Agents, by factory. */
  agents: AgentFactory;
  /** Run id. Default `"adhoc"`. */
  run?: string;
  /** Episode id. Default `"ep"`. */
  episode?: string;
  /** Clock for event times. Default: the wall clock. */
  clock?: () => string;
  /** Called with every event as it is appended (e.g. to stream it). */
  onEvent?: (event: EngineEvent) => void;
}

/** What {@linkcode playEpisode} returns. */
export interface PlayedEpisode<S> {
  /** Outcome with welfare and its realization. */
  outcome: EpisodeOutcome;
  /** The full event log. */
  events: EngineEvent[];
  /** State hash at the end of each round, index 0 is round 1. */
  hashes: string[];
  /** Final state. */
  state: S;
}

/**
 * Error raised when an episode crashes; it carries the log written so far.
 *
 * @example
 * ```ts
 * import { EpisodeError } from "./episode.ts";
 * const e = new EpisodeError("boom", []);
 * if (e.name !== "EpisodeError") throw new Error();
 * ```
 */
export class EpisodeError extends Error {
  /** The events up to and including the `episode_end` error event. */
  events: EngineEvent[];
  /** Creates the error. */
  constructor(message: string, events: EngineEvent[], options?: ErrorOptions) {
    super(message, options);
    this.name = "EpisodeError";
    this.events = events;
  }
}

/**
 * Plays one episode of an environment. Agents are awaited step by step; calls
 * within a step run concurrently. Crashes end the log with an `episode_end`
 * event of status `"error"` and throw an {@linkcode EpisodeError} carrying it.
 * An episode in which some agent failed (its decision then takes the neutral
 * default) ends with status `"degraded"` and the counts (`Degradation`), so
 * filled-in decisions are never reported as `"ok"`.
 *
 * @example
 * ```ts
 * import { playEpisode } from "./episode.ts";
 * import { bankRunGame } from "../frail/bank_run/descriptor.ts";
 * import { frailSetup } from "../frail/descriptor.ts";
 * import { mockPopulation } from "../agents/mock/population.ts";
 * const setup = frailSetup(bankRunGame, { mechanism: "M0", regime: "stable" });
 * const played = await playEpisode(bankRunGame.environment, {
 *   ...setup, seed: 1,
 *   agents: mockPopulation({ depositors: "always_stay" }),
 * });
 * if (!played.outcome.success) throw new Error("all-stay should succeed");
 * ```
 */
export async function playEpisode<P, S>(
  env: Environment<P, S>,
  options: PlayOptions<P>,
): Promise<PlayedEpisode<S>> {
  const { params, condition, seed } = options;
  const clock = options.clock ?? (() => new Date().toISOString());
  const events: EngineEvent[] = [];
  let gameEvents = 0;
  let round = 0;
  let step = "setup";
  let roundStart = 0;
  const emit = (body: EventBody) => {
    const event = {
      schema: EVENT_SCHEMA_VERSION,
      run: options.run ?? "adhoc",
      episode: options.episode ?? "ep",
      round,
      step,
      seq: gameEvents,
      time: clock(),
      ...body,
    } as EngineEvent;
    if (!UNHASHED_EVENT_TYPES.has(body.type)) gameEvents++;
    events.push(event);
    options.onEvent?.(event);
  };
  const stream = (r: number) => (agent: string, purpose: string) =>
    openStream({ seed, round: r, agent, purpose });
  const hashes: string[] = [];
  const degradation: Degradation = { defaults: 0, agent_errors: 0, failed_calls: 0 };
  try {
    let state = env.init(params, { mechanism: condition.mechanism, seed, stream: stream(0) });
    const roster = env.roster(state);
    const agents = new Map<string, Agent>(roster.map((p) => [p.id, options.agents(p)]));
    const bounds = env.bounds(params);
    const players = roster.map((p) => ({ ...p, policy: agents.get(p.id)!.policy }));
    emit({
      type: "episode_start",
      game: condition.game,
      env: env.id,
      condition: { ...condition.fields },
      condition_id: condition.id,
      seed,
      params,
      derived: { ...condition.derived },
      central_role: condition.centralRole,
      agents: players,
      model: participantModel(players, condition.centralRole),
      bounds,
      toolkit: TOOLKIT_VERSION,
    });
    const horizon = env.horizon(state);
    let played = 0;
    for (round = 1; round <= horizon && !env.isDone(state); round++) {
      played = round;
      // Round 1's events hash also covers the set-up events (the condition,
      // parameters and players of episode_start), so an edited start is caught.
      roundStart = round === 1 ? 0 : events.length;
      step = "start";
      const started = env.startRound(clone(state), round);
      state = started.state;
      emit({ type: "round_start" });
      started.events.forEach(emit);
      for (const s of env.steps(state)) {
        step = s.id;
        const requests = s.requests(state, round);
        const reports = await collect(env, requests, agents, emit, degradation);
        const t = s.apply(clone(state), reports, { round, stream: stream(round) });
        state = t.state;
        t.events.forEach(emit);
      }
      step = "checkpoint";
      const hash = stateHash(state);
      hashes.push(hash);
      emit({
        type: "checkpoint",
        state: clone(state),
        state_hash: hash,
        events_hash: eventsHash(events.slice(roundStart)),
      });
    }
    round = played;
    step = "end";
    const fin = env.finish(clone(state));
    fin.events.forEach(emit);
    const { worst, best } = bounds;
    const raw = (fin.outcome.welfare - worst) / (best - worst);
    const outcome: EpisodeOutcome = {
      ...fin.outcome,
      bounds,
      // Truncated at 1 (Appendix D.3); float dust just below 0 is read as 0.
      welfareRealization: raw > 1 ? 1 : raw < 0 && raw > -1e-9 ? 0 : raw,
    };
    emit(
      degradation.defaults + degradation.agent_errors > 0
        ? { type: "episode_end", status: "degraded", outcome, degraded: degradation }
        : { type: "episode_end", status: "ok", outcome },
    );
    return { outcome, events, hashes, state: fin.state };
  } catch (err) {
    if (err instanceof EpisodeError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    step = "end";
    emit({ type: "episode_end", status: "error", error: message });
    throw new EpisodeError(`Episode failed in round ${round}, step ${step}: ${message}`, events, {
      cause: err,
    });
  }
}

/**
 * The participants' policy or model: the policy of every player but the
 * central one; distinct policies sorted and joined by `+`.
 *
 * @example
 * ```ts
 * import { participantModel } from "./episode.ts";
 * const players = [
 *   { id: "bank", role: "bank", policy: "mock:active" },
 *   { id: "dep_01", role: "depositor", policy: "gpt" },
 *   { id: "dep_02", role: "depositor", policy: "claude" },
 * ];
 * if (participantModel(players, "bank") !== "claude+gpt") throw new Error();
 * ```
 */
export function participantModel(
  players: readonly AgentInfo[],
  centralRole: string | null,
): string {
  const policies = new Set(players.filter((p) => p.role !== centralRole).map((p) => p.policy));
  return [...policies].sort().join("+");
}

async function collect<P, S>(
  env: Environment<P, S>,
  requests: CallRequest[],
  agents: Map<string, Agent>,
  emit: (e: EventBody) => void,
  degradation: Degradation,
): Promise<Map<string, Record<string, unknown>>> {
  const raws = await Promise.all(requests.map(async (req) => {
    try {
      const got = await agents.get(req.agent)!.decide(req);
      if (!(got instanceof AgentReply)) {
        return { ok: true as const, raw: got, calls: [], notes: [] };
      }
      return got.error === undefined
        ? { ok: true as const, raw: got.raw, calls: got.calls, notes: got.notes }
        : { ok: false as const, error: got.error, calls: got.calls, notes: got.notes };
    } catch (err) {
      return {
        ok: false as const,
        error: err instanceof Error ? err.message : String(err),
        calls: [],
        notes: [],
      };
    }
  }));
  const reports = new Map<string, Record<string, unknown>>();
  requests.forEach((req, i) => {
    const contract = env.contracts[req.call];
    if (!contract) throw new TypeError(`No contract for call "${req.call}"`);
    const got = raws[i];
    for (const c of got.calls) {
      if (c.status === "error") degradation.failed_calls++;
      emit({ type: "llm_call", agent: req.agent, call: req.call, ...c });
    }
    for (const n of got.notes) {
      emit({ type: "correction", agent: req.agent, call: req.call, ...n, raw: n.raw ?? null });
    }
    let corrections: Correction[];
    let value: Record<string, unknown>;
    if (got.ok) {
      ({ value, corrections } = contract.parse(got.raw));
    } else {
      degradation.agent_errors++;
      degradation.defaults++;
      emit({
        type: "agent_error",
        agent: req.agent,
        call: req.call,
        status: "error",
        message: got.error,
      });
      ({ value } = contract.parse(undefined));
      corrections = [{
        field: "*",
        reason: "The agent failed, so the neutral default was used",
        raw: null,
        applied: value,
      }];
    }
    for (const c of corrections) {
      emit({ type: "correction", agent: req.agent, call: req.call, ...c, raw: c.raw ?? null });
    }
    emit({ type: "report", agent: req.agent, role: req.role, call: req.call, report: value });
    reports.set(req.agent, value);
  });
  return reports;
}

/**
 * Hash of a round's events without their wall-clock times, so a tampered
 * log is caught even where the state is unchanged. Events of the types in
 * {@linkcode UNHASHED_EVENT_TYPES} are left out.
 *
 * @example
 * ```ts
 * import { eventsHash } from "./episode.ts";
 * if (eventsHash([]).length !== 64) throw new Error();
 * ```
 */
export function eventsHash(events: readonly EngineEvent[]): string {
  return sha256Hex(canonicalJson(hashedEvents(events)));
}

/**
 * The events as {@linkcode eventsHash} covers them: game events only,
 * without their wall-clock `time` and without the `toolkit` version of
 * `episode_start` (metadata that a replay by a newer build cannot reproduce).
 *
 * @example
 * ```ts
 * import { hashedEvents } from "./episode.ts";
 * const got = hashedEvents([{ type: "round_start", time: "t", seq: 0 }] as never);
 * if (JSON.stringify(got) !== '[{"type":"round_start","seq":0}]') throw new Error();
 * ```
 */
export function hashedEvents(events: readonly EngineEvent[]): Record<string, unknown>[] {
  return events.filter((e) => !UNHASHED_EVENT_TYPES.has(e.type)).map((e) => {
    const { time: _t, ...rest } = e as EngineEvent & { toolkit?: string };
    if (rest.type === "episode_start") delete (rest as { toolkit?: string }).toolkit;
    return rest;
  });
}

const clone = cloneJson;

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
import type { EngineEvent, EpisodeOutcome, EventBody } from "./events.ts";
import { EVENT_SCHEMA_VERSION } from "./events.ts";
import { sha256Hex, stateHash } from "./hash.ts";
import { canonicalJson } from "./canonical_json.ts";
import { openStream } from "./rng.ts";
import { cloneJson } from "./clone.ts";

/** Version string written into every log. */
export const TOOLKIT_VERSION = "coordlab 0.1.0";

/** Options of {@linkcode playEpisode}. */
export interface PlayOptions<P> {
  /** Validated parameters. */
  params: P;
  /** Mechanism id. */
  mechanism: string;
  /** Regime id (recorded only; the parameters already carry it). */
  regime: string;
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

/** Error raised when an episode crashes; it carries the log written so far. */
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
 *
 * @example
 * ```ts
 * import { playEpisode } from "./episode.ts";
 * import { bankRun } from "../frail/bank_run/environment.ts";
 * import { mockPopulation } from "../agents/mock/population.ts";
 * const params = bankRun.parseParams({});
 * const played = await playEpisode(bankRun, {
 *   params, mechanism: "M0", regime: "stable", seed: 1,
 *   agents: mockPopulation({ depositors: "always_stay" }),
 * });
 * if (!played.outcome.success) throw new Error("all-stay should succeed");
 * ```
 */
export async function playEpisode<P, S>(
  env: Environment<P, S>,
  options: PlayOptions<P>,
): Promise<PlayedEpisode<S>> {
  const { params, mechanism, seed } = options;
  const clock = options.clock ?? (() => new Date().toISOString());
  const events: EngineEvent[] = [];
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
      seq: events.length,
      time: clock(),
      ...body,
    } as EngineEvent;
    events.push(event);
    options.onEvent?.(event);
  };
  const stream = (r: number) => (agent: string, purpose: string) =>
    openStream({ seed, round: r, agent, purpose });
  const hashes: string[] = [];
  try {
    let state = env.init(params, { mechanism, seed, stream: stream(0) });
    const roster = env.roster(state);
    const agents = new Map<string, Agent>(roster.map((p) => [p.id, options.agents(p)]));
    const bounds = env.bounds(params);
    emit({
      type: "episode_start",
      env: env.id,
      mechanism,
      regime: options.regime,
      seed,
      params,
      agents: roster.map((p) => ({ ...p, policy: agents.get(p.id)!.policy })),
      bounds,
      toolkit: TOOLKIT_VERSION,
    });
    const horizon = env.horizon(state);
    let played = 0;
    for (round = 1; round <= horizon && !env.isDone(state); round++) {
      played = round;
      roundStart = events.length;
      step = "start";
      const started = env.startRound(clone(state), round);
      state = started.state;
      emit({ type: "round_start" });
      started.events.forEach(emit);
      for (const s of env.steps(state)) {
        step = s.id;
        const requests = s.requests(state, round);
        const reports = await collect(env, requests, agents, emit);
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
      welfareRealization: raw > 1 ? 1 : raw,
    };
    emit({ type: "episode_end", status: "ok", outcome });
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

async function collect<P, S>(
  env: Environment<P, S>,
  requests: CallRequest[],
  agents: Map<string, Agent>,
  emit: (e: EventBody) => void,
): Promise<Map<string, Record<string, unknown>>> {
  const raws = await Promise.all(requests.map(async (req) => {
    try {
      return { ok: true as const, raw: await agents.get(req.agent)!.decide(req) };
    } catch (err) {
      return { ok: false as const, error: err instanceof Error ? err.message : String(err) };
    }
  }));
  const reports = new Map<string, Record<string, unknown>>();
  requests.forEach((req, i) => {
    const contract = env.contracts[req.call];
    if (!contract) throw new TypeError(`No contract for call "${req.call}"`);
    const got = raws[i];
    let corrections: Correction[];
    let value: Record<string, unknown>;
    if (got.ok) {
      ({ value, corrections } = contract.parse(got.raw));
    } else {
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
 * log is caught even where the state is unchanged.
 *
 * @example
 * ```ts
 * import { eventsHash } from "./episode.ts";
 * if (eventsHash([]).length !== 64) throw new Error();
 * ```
 */
export function eventsHash(events: readonly EngineEvent[]): string {
  return sha256Hex(canonicalJson(events.map(({ time: _t, ...rest }) => rest)));
}

const clone = cloneJson;

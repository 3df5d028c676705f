/**
 * The round loop: start the round, then for every step issue the step's calls
 * together from the same pre-decision state, validate the replies, apply the
 * step, and at the end of the round record a checkpoint (with the state and
 * its hash when hashes are asked). Recording is `event_recorder.ts`.
 *
 * @module
 */
import type { Agent, AgentFactory } from "./agent.ts";
import { isEpisodeAbandoned } from "./abandon.ts";
import type { Correction } from "./contract.ts";
import type {
  CallRequest,
  Environment,
  Reports,
  SetupOptions,
  StepContext,
} from "./environment.ts";
import type {
  AgentInfo,
  BranchOf,
  Degradation,
  EngineEvent,
  EpisodeOutcome,
  EventBody,
  LlmCallRecord,
} from "./events.ts";
import type { EpisodeCondition } from "./game.ts";
import { type EpisodeTally, EventRecorder } from "./event_recorder.ts";
import { HASHING_VERSION, hashingFrom, type HashingVersion } from "./events_hash.ts";
import { canonicalJson } from "./canonical_json.ts";
import { firstDifference } from "./diff.ts";
import { MessageLog } from "./message_log.ts";
import { episodeOutcome } from "./episode_outcome.ts";
import { isTrusted } from "./_trusted_replies.ts";
import { RNG_VERSION, type RngVersion, roundStreams } from "./rng.ts";

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
  /**
   * Removes secrets from a text. The report is read from the raw reply, so
   * redaction cannot change how it parses; then every text in the report (as
   * the game uses and logs it), its corrections and the notes goes through
   * this, so no secret reaches the log, a checkpoint's state or another
   * player. Default none (texts kept as read).
   */
  redact?: (text: string) => string;
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
  /** Removes secrets from what is logged of the reply, if set. */
  readonly redact: ((text: string) => string) | undefined;
  /** Wraps a raw reply. */
  constructor(raw: unknown, options: AgentReplyOptions = {}) {
    this.raw = raw;
    this.calls = options.calls ?? [];
    this.error = options.error;
    this.notes = options.notes ?? [];
    this.redact = options.redact;
  }
}

/** A value with `redact` applied to every string inside it (arrays and plain objects walked). */
function redactValue(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redact));
  if (
    value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype
  ) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, redactValue(v, redact)]),
    );
  }
  return value;
}

export { eventsHash, UNHASHED_EVENT_TYPES } from "./events_hash.ts";

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
  /** Clock for event times, read once per round (see {@linkcode playEpisode}). Default: the wall clock. */
  clock?: () => string;
  /** Called with every event as it is appended (e.g. to stream it). */
  onEvent?: (event: EngineEvent) => void;
  /** Keep the events in memory (`PlayedEpisode.events`). Default `true`. */
  events?: boolean;
  /**
   * Checkpoints carry the state and the state and events hashes, and
   * `PlayedEpisode.hashes` lists the state hashes. Default `false` (a
   * checkpoint then only marks the end of its round); always on with `ndjson`.
   */
  hashes?: boolean;
  /** Build the episode's NDJSON log text as it plays (`PlayedEpisode.ndjson`). Default `false`. */
  ndjson?: boolean;
  /**
   * Stream derivation. Default the current one (`RNG_VERSION`); replay passes
   * the one its log names.
   */
  rng?: RngVersion;
  /**
   * Events-hash definition. Default the current one (`HASHING_VERSION`);
   * replay passes the one its log names.
   */
  hashing?: HashingVersion;
  /** Toolkit version recorded in `episode_start`. Default {@linkcode TOOLKIT_VERSION}; replay passes the log's. */
  toolkit?: string;
  /**
   * Play a branch (`branch.ts`): rounds before `branch.atRound` under the
   * parent's parameters and mechanism, then the state is rebased
   * (`Environment.rebase`) onto `params` and `condition` for the rest.
   * Default: none.
   */
  branch?: BranchPlay<P>;
}

/** How {@linkcode playEpisode} plays a branch. */
export interface BranchPlay<P> {
  /** The first round played under `params` and `condition`. */
  atRound: number;
  /**
   * The conditions of the rounds before `atRound`, from round 1 (the first
   * segment's `from` is 1; a branch of a branch has one segment per
   * ancestor, see {@linkcode branchSegments}), ascending, each before `atRound`.
   */
  segments: readonly { from: number; params: P; mechanism: string }[];
  /** Recorded in `episode_start` as `branch_of`. */
  of: BranchOf;
  /** Recorded in `episode_start` as `change`. */
  change: Record<string, unknown>;
}

/**
 * The conditions a branch's rounds before its branch round were played
 * under, from round 1: the deepest ancestor's from round 1, then each
 * descendant's from its branch round, leaving out those that start at or
 * after `of.round` (a branch taken before its parent's own branch round
 * never reaches the parent's change).
 *
 * @example
 * ```ts
 * import { branchSegments } from "./episode.ts";
 * const root = { run: "r", episode: "a", round: 3, condition: { mechanism: "M0" }, condition_id: "a", hashes: [] };
 * const of = { run: "r", episode: "b", round: 5, condition: { mechanism: "M1" }, condition_id: "b",
 *   hashes: [], branch_of: root };
 * const s = branchSegments(of);
 * if (s.map((x) => `${x.from}:${x.condition.mechanism}`).join() !== "1:M0,3:M1") throw new Error();
 * if (branchSegments({ ...of, round: 2 }).length !== 1) throw new Error();
 * ```
 */
export function branchSegments(
  of: BranchOf,
): { from: number; condition: Record<string, unknown> }[] {
  const levels: BranchOf[] = [];
  for (let l: BranchOf | undefined = of; l !== undefined; l = l.branch_of) levels.push(l);
  const out: { from: number; condition: Record<string, unknown> }[] = [];
  for (let i = levels.length - 1; i >= 0; i--) {
    const from = i === levels.length - 1 ? 1 : levels[i + 1].round;
    if (from >= of.round && out.length > 0) continue;
    // A deeper segment that a later one starts at or before is superseded.
    while (out.length > 0 && out.at(-1)!.from >= from) out.pop();
    out.push({ from, condition: levels[i].condition });
  }
  return out;
}

/** What {@linkcode playEpisode} returns. */
export interface PlayedEpisode<S> {
  /** Outcome with welfare and its realization. */
  outcome: EpisodeOutcome;
  /**
   * The full event log (empty when `events: false`). The event objects are
   * built when this is first read, so a caller that only needs the outcome
   * never pays for them.
   */
  readonly events: EngineEvent[];
  /** State hash at the end of each round, index 0 is round 1 (empty without hashes). */
  hashes: string[];
  /** The NDJSON log text, one line per event, when `ndjson` was asked. */
  readonly ndjson?: string;
  /**
   * The same lines as UTF-8, when `ndjson` was asked: the bytes the engine
   * encoded and hashed them from, to write as they are (`ndjson` decodes them).
   */
  readonly ndjsonBytes?: Uint8Array;
  /** Its status, calls and model calls at a glance, whatever was recorded (see `EpisodeTally`). */
  tally: EpisodeTally;
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
  /** The events up to and including the `episode_end` error event (empty when they were not kept). */
  events: EngineEvent[];
  /** The NDJSON text of those events, when the episode built its log text. */
  ndjson?: string;
  /** The log at a glance (see `EpisodeTally`), when the engine recorded it. */
  tally?: EpisodeTally;
  /** Creates the error. */
  constructor(
    message: string,
    events: EngineEvent[],
    options?: ErrorOptions & { ndjson?: string; tally?: EpisodeTally },
  ) {
    super(message, options);
    this.name = "EpisodeError";
    this.events = events;
    if (options?.ndjson !== undefined) this.ndjson = options.ndjson;
    if (options?.tally !== undefined) this.tally = options.tally;
  }
}

/**
 * Plays one episode of an environment. Calls within a step are issued
 * together from the same pre-decision state; when every agent of a step
 * answers synchronously (mock and replay agents) the step completes without
 * awaiting, otherwise the step awaits all answers. Crashes end the log with an
 * `episode_end` event of status `"error"` and throw an {@linkcode EpisodeError}
 * carrying it. An episode in which some agent failed (its decision then takes
 * the neutral default) ends with status `"degraded"` and the counts
 * (`Degradation`), so filled-in decisions are never reported as `"ok"`.
 *
 * The environment's steps change the episode's one state in place (see
 * `Step.apply`); nothing is copied between steps. Event times are read from
 * the clock at set-up, at the start of each round, after a step whose agents
 * answered asynchronously, and at the end: the events in between share that
 * time. What is recorded is the caller's choice (`events`, `hashes`,
 * `ndjson`); with none of them, nothing is serialised or hashed.
 *
 * @example
 * ```ts
 * import { playEpisode } from "./episode.ts";
 * import { bankRunGame } from "../games/bank_run/descriptor.ts";
 * import { frailSetup } from "../frail/descriptor.ts";
 * import { mockPopulation } from "../agents/mock/population.ts";
 * const setup = frailSetup(bankRunGame, { mechanism: "M0", regime: "stable" });
 * const played = await playEpisode(bankRunGame.environment, {
 *   ...setup, seed: 1,
 *   agents: mockPopulation({ depositors: "always_stay" }), hashes: true,
 * });
 * if (!played.outcome.success || played.hashes.length !== 12) throw new Error();
 * ```
 */
export async function playEpisode<P, S>(
  env: Environment<P, S>,
  options: PlayOptions<P>,
): Promise<PlayedEpisode<S>> {
  const { params, condition, seed } = options;
  const rng = options.rng ?? RNG_VERSION;
  const hashing = options.hashing ?? HASHING_VERSION;
  if ("checkpointStateJson" in env) {
    // Its logs of lines-v4 to lines-v6 left out what it did: whole states would not replay them.
    throw new TypeError(
      `Environment.checkpointStateJson was replaced by checkpointState: { since, json } ` +
        `(since: the first definition whose checkpoints leave out what it does, e.g. "lines-v4")`,
    );
  }
  // From its `since` on, an environment's checkpoints hold the state less what the events
  // hold (events_hash.ts); before, the whole state.
  const compact = env.checkpointState !== undefined &&
      hashingFrom(hashing, env.checkpointState.since)
    ? env.checkpointState
    : undefined;
  const rec = new EventRecorder({
    run: options.run ?? "adhoc",
    episode: options.episode ?? "ep",
    keep: options.events ?? true,
    lines: options.ndjson ?? false,
    hashes: options.hashes ?? false,
    hashing,
    clock: options.clock,
    onEvent: options.onEvent,
  });
  const emit = (body: EventBody) => rec.emit(body);
  const degradation: Degradation = { defaults: 0, agent_errors: 0, failed_calls: 0 };
  const messages = new MessageLog();
  try {
    rec.tick();
    const branch = options.branch;
    const setupStreams = roundStreams(seed, 0, { rng });
    const first = branch?.segments[0];
    let state = env.init(first ? first.params : params, {
      mechanism: first ? first.mechanism : condition.mechanism,
      seed,
      stream: setupStreams,
    });
    const setup = { mechanism: condition.mechanism, seed, stream: setupStreams };
    let roster: ReturnType<Environment<P, S>["roster"]>;
    try {
      roster = branch ? branchRoster(env, state, params, setup, branch) : env.roster(state);
    } catch (err) {
      if (branch && err instanceof Error) REFUSED.add(err);
      throw err;
    }
    const agents = new Map<string, Agent>(roster.map((p) => [p.id, options.agents(p)]));
    // A player of the parent's rounds only (e.g. the bank of an M1 parent
    // branched into M0) answers those rounds through the same factory.
    if (branch) {
      for (const p of env.roster(state)) {
        if (!agents.has(p.id)) agents.set(p.id, options.agents(p));
      }
    }
    // Players whose exact replies are taken without a copy (`_trusted_replies.ts`).
    const trusted = new Set<string>();
    for (const [id, a] of agents) if (isTrusted(a)) trusted.add(id);
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
      central_id: condition.centralId,
      agents: players,
      model: participantModel(players, condition.centralRole),
      bounds,
      toolkit: options.toolkit ?? TOOLKIT_VERSION,
      rng,
      hashing,
      ...(branch ? { branch_of: branch.of, change: branch.change } : {}),
    });
    let horizon = env.horizon(state);
    let played = 0;
    for (let round = 1; round <= horizon && !env.isDone(state); round++) {
      played = round;
      rec.startRound(round);
      rec.step = "start";
      rec.tick();
      if (branch) {
        state = rebaseAt(env, state, round, params, setup, branch);
        horizon = env.horizon(state);
        if (round > horizon) {
          const err = new RangeError(
            `Cannot branch at round ${round} into a horizon of ${horizon}: no round would be left to play`,
          );
          REFUSED.add(err);
          throw err;
        }
      }
      const started = env.startRound(state, round);
      state = started.state;
      emit({ type: "round_start" });
      for (const e of started.events) emit(e);
      const ctx: StepContext = { round, stream: roundStreams(seed, round, { rng }) };
      for (const s of env.steps(state)) {
        rec.step = s.id;
        const requests = s.requests(state, round);
        let reports: Reports = NO_REPORTS;
        if (requests.length > 0) {
          let raws = ask(requests, agents);
          if (raws instanceof Promise) {
            raws = await raws;
            rec.tick();
          }
          reports = validate(env, requests, raws, rec, { degradation, messages, trusted });
        }
        const t = s.apply(state, reports, ctx);
        state = t.state;
        for (const e of t.events) emit(e);
      }
      rec.step = "checkpoint";
      rec.checkpoint(
        state,
        !rec.statesRecorded ? undefined : compact ? compact.json(state) : env.stateJson?.(state),
      );
    }
    rec.round = played;
    rec.step = "end";
    rec.tick();
    const fin = env.finish(state);
    for (const e of fin.events) emit(e);
    const outcome = episodeOutcome(fin.outcome, bounds);
    emit(
      degradation.defaults + degradation.agent_errors > 0
        ? { type: "episode_end", status: "degraded", outcome, degraded: degradation }
        : { type: "episode_end", status: "ok", outcome },
    );
    return new Played(outcome, rec, fin.state, options.ndjson === true);
  } catch (err) {
    // An abandoned episode (the run is stopping) is not an episode failure: no
    // episode_end, no log; the grid plays it again on resume.
    if (err instanceof EpisodeError || isEpisodeAbandoned(err)) throw err;
    if (err instanceof Error && REFUSED.has(err)) throw err;
    const message = err instanceof Error ? err.message : String(err);
    const round = rec.round;
    const step = rec.step;
    rec.step = "end";
    emit({ type: "episode_end", status: "error", error: message });
    throw new EpisodeError(
      `Episode failed in round ${round}, step ${step}: ${message}`,
      rec.events,
      {
        cause: err,
        tally: rec.tally,
        ...(options.ndjson ? { ndjson: rec.text } : {}),
      },
    );
  }
}

const NO_REPORTS: Reports = new Map();

/**
 * Checks, before anything is played, that a branch can start: the game can
 * rebase, and the change sets up the same episode (see `Environment.rebase`).
 * Returns the branch's roster. (Whether the game accepts the change at the
 * branch round is known there: `playEpisode` then throws the game's error as
 * it is, and writes no log.)
 *
 * @example
 * ```ts
 * import { checkBranch } from "./episode.ts";
 * import { bankRunGame } from "../games/bank_run/descriptor.ts";
 * import { frailSetup } from "../frail/descriptor.ts";
 * const m0 = frailSetup(bankRunGame, { mechanism: "M0", regime: "stable" });
 * const m1 = frailSetup(bankRunGame, { mechanism: "M1", regime: "stable" });
 * const of = { run: "r", episode: "e", round: 1, condition: m0.condition.fields,
 *   condition_id: m0.condition.id, hashes: [] };
 * const roster = checkBranch(bankRunGame.environment, {
 *   ...m1, seed: 1,
 *   branch: { atRound: 1, segments: [{ from: 1, params: m0.params, mechanism: "M0" }], of, change: {} },
 * });
 * if (roster[0].id !== "bank") throw new Error("M1 adds the bank");
 * ```
 * @throws {RangeError} Naming what the change cannot apply.
 */
export function checkBranch<P, S>(
  env: Environment<P, S>,
  options: {
    params: P;
    condition: EpisodeCondition;
    seed: number;
    rng?: RngVersion;
    branch: BranchPlay<P>;
  },
): ReturnType<Environment<P, S>["roster"]> {
  const { params, condition, seed, branch } = options;
  const stream = roundStreams(seed, 0, { rng: options.rng ?? RNG_VERSION });
  const first = branch.segments[0];
  const initial = env.init(first.params, { mechanism: first.mechanism, seed, stream });
  const setup = { mechanism: condition.mechanism, seed, stream };
  return branchRoster(env, initial, params, setup, branch);
}

/** The state at the start of `round` of a branch: rebased where a segment or the branch starts. */
function rebaseAt<P, S>(
  env: Environment<P, S>,
  state: S,
  round: number,
  params: P,
  setup: SetupOptions,
  branch: BranchPlay<P>,
): S {
  try {
    if (round === branch.atRound) return env.rebase!(state, params, setup);
    for (const s of branch.segments) {
      if (s.from === round && round > 1) {
        return env.rebase!(state, s.params, { ...setup, mechanism: s.mechanism });
      }
    }
  } catch (err) {
    // A change the game refuses is the caller's error, not an episode failure.
    if (err instanceof Error) REFUSED.add(err);
    throw err;
  }
  return state;
}

/** Errors of a branch's rebase, which `playEpisode` passes on as they are (no log). */
const REFUSED = new WeakSet<Error>();

/**
 * The roster of a branch: that of the initial state rebased onto the
 * branch's parameters and mechanism, which must be exactly the initial state
 * those would set up (so a change is applied in full or refused).
 */
function branchRoster<P, S>(
  env: Environment<P, S>,
  initial: S,
  params: P,
  setup: SetupOptions,
  branch: BranchPlay<P>,
): ReturnType<Environment<P, S>["roster"]> {
  if (!env.rebase) {
    throw new RangeError(`Cannot branch a "${env.id}" episode: the game has no rebase`);
  }
  let rebased = JSON.parse(canonicalJson(initial)) as S;
  for (const s of branch.segments.slice(1)) {
    rebased = env.rebase(rebased, s.params, { ...setup, mechanism: s.mechanism });
  }
  rebased = env.rebase(rebased, params, setup);
  const fresh = env.init(params, setup);
  const d = firstDifference(JSON.parse(canonicalJson(fresh)), JSON.parse(canonicalJson(rebased)));
  if (d) {
    throw new RangeError(
      `Cannot branch: the change sets up a different episode (${d.path || "state"}: ` +
        `${JSON.stringify(d.right)} rebased, ${JSON.stringify(d.left)} set up afresh); ` +
        `a branch changes only what applies from its round on`,
    );
  }
  return env.roster(rebased);
}

/**
 * The result of {@linkcode playEpisode}: `events` is a getter on the class
 * (built from the recorder on first read). A getter on the prototype rather
 * than one closing over the round loop's scope matters: V8 allocates such
 * result objects in its old generation, and a closure there made every
 * episode's objects survive the young-generation collections, which doubled
 * the cost of an episode.
 */
class Played<S> implements PlayedEpisode<S> {
  readonly hashes: string[];
  readonly #rec: EventRecorder;
  readonly #text: boolean;
  constructor(
    readonly outcome: EpisodeOutcome,
    rec: EventRecorder,
    readonly state: S,
    text: boolean,
  ) {
    this.#rec = rec;
    this.hashes = rec.hashes;
    this.#text = text;
  }
  /** The log text, decoded from its bytes when first read. */
  get ndjson(): string | undefined {
    return this.#text ? this.#rec.text : undefined;
  }
  get ndjsonBytes(): Uint8Array | undefined {
    return this.#text ? this.#rec.bytes : undefined;
  }
  /** A getter, so `toJSON` leaves it out. */
  get tally(): EpisodeTally {
    return this.#rec.tally;
  }
  get events(): EngineEvent[] {
    return this.#rec.events;
  }
  /** The result as plain data, `events` (and the text, when built) included. */
  toJSON(): object {
    return { ...this, ...(this.#text ? { ndjson: this.ndjson } : {}), events: this.events };
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
  const policies: string[] = [];
  for (const p of players) {
    if (p.role !== centralRole && !policies.includes(p.policy)) policies.push(p.policy);
  }
  return policies.length === 1 ? policies[0] : policies.sort().join("+");
}

/** An agent that failed: it threw, its promise rejected, or it answered with an error. */
class Failure {
  constructor(readonly error: string, readonly calls: readonly LlmCallRecord[]) {}
}

/**
 * Asks every agent of a step. Each `decide` is called at once, in request
 * order; when every answer is synchronous the answers are returned as they
 * are (raw replies, `AgentReply`s or `Failure`s), otherwise a promise of all
 * of them.
 */
function ask(requests: CallRequest[], agents: Map<string, Agent>): unknown[] | Promise<unknown[]> {
  const answers: unknown[] = new Array(requests.length);
  let pending: Promise<void>[] | undefined;
  let abandoned: unknown;
  for (let i = 0; i < requests.length; i++) {
    let got: unknown;
    try {
      got = agents.get(requests[i].agent)!.decide(requests[i]);
    } catch (err) {
      if (isEpisodeAbandoned(err)) abandoned ??= err;
      else answers[i] = failed(err);
      continue;
    }
    if (isThenable(got)) {
      (pending ??= []).push(
        Promise.resolve(got).then((v) => {
          answers[i] = v;
        }, (err) => {
          if (isEpisodeAbandoned(err)) abandoned ??= err;
          else answers[i] = failed(err);
        }),
      );
    } else answers[i] = got;
  }
  // Every call of the step settles first (its paid reply is counted and
  // cached), then an abandonment stops the episode.
  if (!pending) {
    if (abandoned !== undefined) throw abandoned;
    return answers;
  }
  return Promise.all(pending).then(() => {
    if (abandoned !== undefined) throw abandoned;
    return answers;
  });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value instanceof Promise ||
    (typeof value === "object" && value !== null &&
      typeof (value as { then?: unknown }).then === "function");
}

function failed(err: unknown): Failure {
  return new Failure(err instanceof Error ? err.message : String(err), NO_CALLS);
}

const NO_CALLS: readonly LlmCallRecord[] = [];

/** Validates the answers against their contracts, logging calls, errors and corrections. */
function validate<P, S>(
  env: Environment<P, S>,
  requests: CallRequest[],
  answers: unknown[],
  rec: EventRecorder,
  { degradation, messages, trusted }: {
    degradation: Degradation;
    messages: MessageLog;
    trusted: ReadonlySet<string>;
  },
): Map<string, Record<string, unknown>> {
  const reports = new Map<string, Record<string, unknown>>();
  for (let i = 0; i < requests.length; i++) {
    const req = requests[i];
    const contract = env.contracts[req.call];
    if (!contract) throw new TypeError(`No contract for call "${req.call}"`);
    const answer = answers[i];
    // A mock agent's exact reply is the report as it is: parse would copy it
    // field by field with no correction.
    if (trusted.has(req.agent) && contract.isExact?.(answer)) {
      rec.emit({
        type: "report",
        agent: req.agent,
        role: req.role,
        call: req.call,
        report: answer,
      });
      reports.set(req.agent, answer);
      continue;
    }
    const redact = answer instanceof AgentReply ? answer.redact : undefined;
    const logged = <T>(v: T): T => (redact ? redactValue(v, redact) as T : v);
    let got = answer;
    // A bare reply (what mock and replay agents give) skips the wrappers' bookkeeping.
    const wrapped = typeof answer === "object" && answer !== null &&
      (answer instanceof AgentReply || answer instanceof Failure);
    if (wrapped) {
      if (answer instanceof AgentReply && answer.error !== undefined) {
        got = new Failure(answer.error, answer.calls);
      }
      for (const c of (got as AgentReply | Failure).calls) {
        if (c.status === "error") degradation.failed_calls++;
        rec.emit({
          type: "llm_call",
          agent: req.agent,
          call: req.call,
          ...c,
          // Each distinct system prompt once per episode (message_log.ts).
          ...(c.messages === undefined ? {} : { messages: messages.compact(c.messages) }),
        });
      }
      if (answer instanceof AgentReply) {
        for (const n of answer.notes) {
          rec.emit({
            type: "correction",
            agent: req.agent,
            call: req.call,
            ...n,
            raw: logged(n.raw ?? null),
            applied: logged(n.applied),
          });
        }
      }
    }
    let corrections: readonly Correction[];
    let value: Record<string, unknown>;
    if (!(got instanceof Failure)) {
      ({ value, corrections } = contract.parse(got instanceof AgentReply ? got.raw : got));
      value = logged(value);
    } else {
      degradation.agent_errors++;
      degradation.defaults++;
      rec.emit({
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
      rec.emit({
        type: "correction",
        agent: req.agent,
        call: req.call,
        ...c,
        raw: logged(c.raw ?? null),
        applied: logged(c.applied),
      });
    }
    rec.emit({
      type: "report",
      agent: req.agent,
      role: req.role,
      call: req.call,
      report: value,
    });
    reports.set(req.agent, value);
  }
  return reports;
}

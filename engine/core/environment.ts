/**
 * The contract between the runner and an environment. An environment is a pure,
 * synchronous state machine: it builds the calls of each step from its state
 * (with each agent's authorized view), and applies validated reports with
 * seeded streams. It never does I/O, never reads a clock and never calls
 * `Math.random`.
 *
 * @module
 */
import type { Contract } from "./contract.ts";
import type { AgentInfo, EpisodeOutcome, EventBody } from "./events.ts";
import type { Stream } from "./rng.ts";
import type { HashingVersion } from "./events_hash.ts";

/** One call to one agent: who, which contract, and the authorized view. */
export interface CallRequest<V = unknown> {
  /** Agent id. */
  agent: string;
  /** The agent's role. */
  role: string;
  /** Call kind; names the contract the reply must follow. */
  call: string;
  /** Round of the call. */
  round: number;
  /** Step of the round. */
  step: string;
  /** Everything the agent is authorized to see, and nothing else. */
  view: V;
}

/** Validated reports of one step, by agent id. */
export type Reports = ReadonlyMap<string, Record<string, unknown>>;

/** What a step gets besides the state and the reports. */
export interface StepContext {
  /** Current round. */
  round: number;
  /** Opens the stream of (episode seed, round, agent, purpose). */
  stream(agent: string, purpose: string): Stream;
}

/** The result of a pure state transition. */
export interface Transition<S> {
  /** The new state. */
  state: S;
  /** What happened, in order. */
  events: EventBody[];
}

/** One step of a round (Appendix F order is the order of the array). */
export interface Step<S> {
  /** Step id, e.g. `"mechanism_proposal"`. */
  id: string;
  /** The calls this step makes; empty for steps without agents. */
  requests(state: S, round: number): CallRequest[];
  /**
   * Applies the step. Receives the episode's state, which it may change in
   * place (and return) or replace (returning a new one): the runner keeps no
   * other reference to it and copies nothing between steps. The events it
   * returns must not share objects with the state (copy such parts, e.g.
   * `[...s.corrupted]`), since the state changes after they are recorded.
   */
  apply(state: S, reports: Reports, ctx: StepContext): Transition<S>;
}

/** Common options every environment accepts at set-up. */
export interface SetupOptions {
  /** Mechanism id (`"M0"` to `"M3"`). */
  mechanism: string;
  /** Episode seed. */
  seed: number;
  /** Opens a stream (for set-up draws such as heterogeneous deposits). */
  stream(agent: string, purpose: string): Stream;
}

/** An environment: its parameters, its state machine and its contracts. */
export interface Environment<P, S> {
  /** Environment id, e.g. `"bank_run"`. */
  id: string;
  /** Validates parameters (throws a `RangeError` naming the field). */
  parseParams(input: unknown): P;
  /** The initial state. */
  init(params: P, options: SetupOptions): S;
  /** Players of the episode. */
  roster(state: S): Omit<AgentInfo, "policy">[];
  /** Number of rounds. */
  horizon(state: S): number;
  /** Starts a round (sets the round number, clears per-round fields); may change `state` in place, as `Step.apply`. */
  startRound(state: S, round: number): Transition<S>;
  /** The steps of the round about to be played, in order (may depend on the state, e.g. on N speakers). */
  steps(state: S): readonly Step<S>[];
  /** Output contracts by call kind. */
  contracts: Readonly<Record<string, Contract<Record<string, unknown>>>>;
  /** Whether the episode is over. */
  isDone(state: S): boolean;
  /** Final settlement after the last round or a failure; may change `state` in place, as `Step.apply`. */
  finish(
    state: S,
  ): Transition<S> & { outcome: Omit<EpisodeOutcome, "bounds" | "welfareRealization"> };
  /** Closed-form welfare bounds for these parameters. */
  bounds(params: P): { worst: number; best: number };
  /**
   * The state's canonical JSON, exactly `canonicalJson(state)`, written
   * faster by code that knows the state's shape (see `state_json.ts`), or
   * `undefined` for a state it does not know; a checkpoint then uses the
   * generic writer. Optional: without it, checkpoints use the generic writer.
   */
  stateJson?(state: S): string | undefined;
  /**
   * What the checkpoints of the definitions from `since` on hold (see
   * `events_hash.ts`): `json(state)`, the canonical JSON of the state less
   * what the events already hold (the bank run's depositors' decision
   * histories, from `"lines-v4"`; the Stag Hunt's rounds, from
   * `"lines-v7"`), hashed as the checkpoint's `state_hash`. A log of an
   * earlier definition holds the whole state (`stateJson`, else the generic
   * writer), and its replay writes it so. `json` must give the same text for
   * states equal but for what it leaves out, and never throw. What it leaves
   * out is part of the definitions from `since` on: adding it to an
   * environment, or changing it, needs a new definition as `since`.
   * Optional: without it, checkpoints hold the whole state.
   */
  checkpointState?: CheckpointState<S>;
  /**
   * The state played on under other parameters and mechanism (a branch, see
   * `branch.ts`): changes `state` (in place, or returns a new one) so that the
   * rules of `params` and `options.mechanism` apply from the next round on.
   * Applied to the initial state it must give exactly `init(params, options)`
   * (the runner checks it, so a change a game cannot apply mid-episode is
   * refused rather than half applied). Throws a `RangeError` naming what it
   * cannot change. Optional: without it, the game cannot be branched.
   */
  rebase?(state: S, params: P, options: SetupOptions): S;
}

/**
 * The state an environment's checkpoints hold from the definition `since` on
 * ({@linkcode Environment.checkpointState}).
 */
export interface CheckpointState<S> {
  /** The first events-hash definition whose checkpoints hold `json(state)`. */
  readonly since: HashingVersion;
  /** The canonical JSON of the state less what the events hold. */
  json(state: S): string;
}

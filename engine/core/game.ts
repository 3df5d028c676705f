/**
 * Game descriptors, in the spirit of OpenSpiel's game type: what a game is
 * (its id, family, roles, mock policies, display label, the fields that make
 * up its condition) and the quantities the analysis needs that follow from
 * its resolved parameters, kept apart from its state machine. Every list of
 * ids, every label and every derived fact the toolkit uses is read from a
 * descriptor; nothing else spells them out.
 *
 * A descriptor is also the factory of its game: {@linkcode GameDescriptor.setup}
 * turns a condition's fields into validated parameters and the condition to
 * record, {@linkcode GameDescriptor.mockAgents} builds its rule-based agents,
 * and {@linkcode GameDescriptor.episodeId} names an episode; the optional
 * {@linkcode GameDescriptor.players} hook tells the agent factory more about
 * each player (the Stag Hunt's speaking index and assigned model). The one
 * `runEpisode`, the replay and the grid runner play every game through these.
 *
 * The runner records a game's condition in each log's `episode_start` as
 * explicit fields ({@linkcode EpisodeCondition}); the analysis reads it from
 * there, and `setup` of those recorded fields gives the same condition back.
 *
 * @module
 */
import type { Agent, AgentFactory } from "./agent.ts";
import type { Environment } from "./environment.ts";
import type { BatchedEpisode } from "./batched.ts";

/** A role of a game. */
export interface RoleInfo {
  /** Role id, as in `episode_start.agents[].role` (e.g. `"depositor"`). */
  id: string;
  /** Display name (e.g. `"Depositor"`). */
  label: string;
  /**
   * The player id of the one player of this role, for the central role (e.g.
   * `"bank"`): it has a payoff in every episode, even under mechanisms where
   * it makes no decision and so is not among the agents.
   */
  player?: string;
}

/** A mock option of a game: which option key sets the rule-based policy of a role. */
export interface MockPolicyInfo {
  /** The role it plays. */
  role: string;
  /** Option key of the mock options (e.g. `"depositors"`). */
  option: string;
  /** Policies it accepts, the default first. */
  policies: readonly [string, ...string[]];
}

/** Quantities that follow from a game's resolved parameters, logged in `episode_start.derived`. */
export interface DerivedQuantities {
  /** Closed-form welfare bounds. */
  bounds: { worst: number; best: number };
  /** Further quantities, by name (snake_case, as logged). */
  [name: string]: unknown;
}

/**
 * An input of a game's {@linkcode GameMeasure}: one episode's data, as the
 * loader reads it from the log.
 */
export interface MeasureInput {
  /** The derived quantities the measure declares (`episode_start.derived`), by name. */
  readonly derived: Readonly<Record<string, unknown>>;
  /**
   * The episode's rounds in round order, each with its `round` number and
   * the disclosure metrics the measure declares (`null` where a round did
   * not disclose one).
   */
  readonly rounds: readonly Readonly<Record<string, unknown>>[];
}

/**
 * A per-episode measure of a game (e.g. the bank run's withdrawal rate): a
 * pure function of one episode's disclosure metrics and derived quantities,
 * which the analysis tables compute for every episode of the game.
 */
export interface GameMeasure {
  /** Measure name, as in the tables (snake_case, e.g. `"withdrawal_rate"`). */
  readonly id: string;
  /** Disclosure metrics it reads; an analysis whose rounds lack one skips the measure. */
  readonly metrics: readonly string[];
  /** Derived quantities it reads. */
  readonly derived: readonly string[];
  /** Its value in one episode, or `null` when the episode has none (e.g. never launched). */
  value(input: MeasureInput): number | null;
}

/**
 * A line drawn across an episode's trajectory chart at a level: the value of
 * a condition field (e.g. the Stag Hunt's threshold `M`), labelled
 * `<label> = <value>`.
 */
export interface ConditionLevel {
  /** Field of `episode_start.condition`. */
  readonly condition: string;
  /** Label before the value. */
  readonly label: string;
}

/** A series of a transition chart: a numeric field of a transition event. */
export interface TransitionSeries {
  /** Field of the transition event. */
  readonly field: string;
  /** Series name in the legend. */
  readonly label: string;
}

/**
 * The trajectory chart on an episode's page, by kind (the viewer has one
 * renderer per kind):
 * - `"disclosure"`: disclosure metrics by round (`metrics`, or every numeric
 *   one when `null`), with the logged `derived.reference` line (a level is
 *   drawn, a round is named in the caption);
 * - `"transition"`: numeric fields of each round's transition of `kind`,
 *   with an optional level from the condition.
 */
export type ChartView =
  | {
    readonly kind: "disclosure";
    /** Metrics drawn, in logged order; `null`: every numeric metric. */
    readonly metrics: readonly string[] | null;
    /** Title of the y axis. */
    readonly yTitle: string;
  }
  | {
    readonly kind: "transition";
    /** The `transition` event's `kind` (e.g. `"round_outcome"`). */
    readonly transition: string;
    /** The series, in legend order. */
    readonly series: readonly TransitionSeries[];
    /** Title of the y axis. */
    readonly yTitle: string;
    /** A level line from the condition, or `null`. */
    readonly level: ConditionLevel | null;
    /** Caption under the chart. */
    readonly caption: string;
  };

/**
 * A pill in each round's summary on an episode page: a field of the round's
 * transition of `transition` kind, `<label> <value>`, coloured by a boolean
 * field when `success` names one (`· success` / `· failure`).
 */
export interface RoundPill {
  /** The `transition` event's `kind`. */
  readonly transition: string;
  /** Field shown. */
  readonly field: string;
  /** Label before the value. */
  readonly label: string;
  /** Boolean field that colours the pill, or `null`. */
  readonly success: string | null;
}

/**
 * How the viewer shows a game's episodes: data its renderers read (one per
 * kind of chart), so no viewer code names a game. A descriptor without one
 * is shown by {@linkcode DEFAULT_GAME_VIEW}'s rules.
 */
export interface GameView {
  /** Display name of the game's family in page headers and the run index (e.g. `"FRAIL"`). */
  readonly familyLabel: string;
  /** The trajectory chart. */
  readonly chart: ChartView;
  /** Whether players' public actions can differ from their own (flips): always count them. */
  readonly flips: boolean;
  /** Pills of each round's summary, before the generic ones. */
  readonly roundPills: readonly RoundPill[];
  /** Whether each round's summary counts the agent calls. */
  readonly countsCalls: boolean;
  /** Heading of a round's agent calls that are not part of a turn. */
  readonly callsHeading: string;
}

/**
 * How the viewer shows a game whose descriptor has no view (or a log of a
 * game this build does not know), the family label aside (the family id):
 * every numeric disclosure metric by round, no pills beyond the generic
 * ones, flips counted only when there are some.
 *
 * @example
 * ```ts
 * import { DEFAULT_GAME_VIEW } from "./game.ts";
 * if (DEFAULT_GAME_VIEW.chart.kind !== "disclosure" || DEFAULT_GAME_VIEW.flips) throw new Error();
 * ```
 */
export const DEFAULT_GAME_VIEW: Omit<GameView, "familyLabel"> = {
  chart: { kind: "disclosure", metrics: null, yTitle: "Amount" },
  flips: false,
  roundPills: [],
  countsCalls: true,
  callsHeading: "Agent calls",
};

/**
 * What a game is, apart from its state machine. `P` is its parameter type.
 */
export interface GameDescriptor<P = unknown> {
  /** Game id, as in `episode_start.env` (e.g. `"bank_run"`, `"staghunt"`). */
  readonly id: string;
  /** Family of games it belongs to, as in `episode_start.game` (`"frail"` or `"staghunt"`). */
  readonly game: string;
  /** Display name, as in the paper's tables. */
  readonly label: string;
  /** The state machine. */
  // deno-lint-ignore no-explicit-any
  readonly environment: Environment<P, any>;
  /** The central player's role (`null` in a game of peers) and the other players' role. */
  readonly roles: { readonly central: RoleInfo | null; readonly participant: RoleInfo };
  /** Rule-based policies by role. */
  readonly mockPolicies: readonly MockPolicyInfo[];
  /**
   * The game's mock agents: an agent factory for every role, from the mock
   * options of its package (the option keys of {@linkcode mockPolicies}, and
   * `seed`; e.g. `{ depositors: "always_run", seed: 1 }`). Throws a
   * `RangeError` naming an unknown option or policy.
   */
  mockAgents(options: Readonly<Record<string, unknown>>): AgentFactory;
  /**
   * Named mock options, as the game's package declares them (e.g.
   * `"coordlab-stay"`: the always-stay depositors and an active bank). The
   * local test double serves one model per name and answers a call of this
   * game with `mockAgents` of that name's options. Optional: a game without
   * presets is not served by the double.
   */
  readonly mockPresets?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Fields of `episode_start.condition` that identify a condition, in display order. */
  readonly conditionKeys: readonly string[];
  /** Quantities that follow from resolved parameters. */
  derive(params: P): DerivedQuantities;
  /**
   * Fields every `episode_start.derived` of the game holds, which the loader
   * requires of each log (default `["bounds"]`).
   */
  readonly derivedKeys?: readonly string[];
  /** How the viewer shows its episodes (default {@linkcode DEFAULT_GAME_VIEW}). */
  readonly view?: GameView;
  /** Its per-episode measures, for the analysis tables (default none). */
  readonly measures?: readonly GameMeasure[];
  /**
   * The fields a condition may give (`runEpisode` refuses any other key of a
   * config), e.g. `["mechanism", "regime", "params"]`.
   */
  readonly setupKeys: readonly string[];
  /**
   * Validated parameters and the condition to record, from a condition's
   * fields: those of a config, of a grid cell, or as recorded in
   * `episode_start.condition` (fields it does not read are ignored, so a
   * recorded condition sets up again as it was).
   * @throws {RangeError} Naming the bad field.
   */
  setup(fields: Readonly<Record<string, unknown>>): GameSetup<P>;
  /** The default id of an episode of this set-up and seed (e.g. `bank_run_M0_stable_s3`). */
  episodeId(setup: GameSetup<P>, seed: number): string;
  /** What the agent factory is told about each player beyond id and role. Default: nothing more. */
  readonly players?: PlayerHook<P>;
  /** What a branch may change from its round on (`branchEpisode`). Default: no change (`{}` only). */
  readonly branch?: BranchHook;
  /**
   * The game's batched path (see {@linkcode BatchedPlay}): `playGame` plays
   * an episode through it when nothing but the outcome is kept and every
   * agent is one of the game's mock agents. Default none: every episode plays
   * on the general path.
   */
  readonly batched?: BatchedPlay<P>;
}

/**
 * A game's batched path: an episode played with no request, view, reply,
 * report or event per agent, the decisions of a step computed together
 * from the state, with the same draws, the same settlement and the same
 * outcome as the general path (the round loop of `playEpisode` with the
 * agents of `mockAgents`), bit for bit.
 *
 * `playGame` chooses it only when all of these hold: no events are kept, no
 * hashes, no log text and no log file are asked, the agents are mock options
 * (not a factory; checked by `mockAgents` first, so a bad option fails as on
 * the general path) and no model policy is given (a game's players hook
 * then tells the factory only what its batched path knows, such as the
 * Stag Hunt's speaking index). `play` may still
 * decline an episode it does not take (a mechanism or policy it does not
 * batch): the general path then plays it. The result says which path played
 * (`path`).
 */
export interface BatchedPlay<P = unknown> {
  /**
   * Plays the episode of this set-up and seed with the game's mock agents of
   * `mock` (the options `mockAgents` was given, `seed` included), or returns
   * `undefined` when it does not take it (see {@linkcode BatchedEpisode}).
   */
  play(
    setup: GameSetup<P>,
    seed: number,
    mock: Readonly<Record<string, unknown>>,
  ): BatchedEpisode<unknown> | undefined;
}

/** What a branch of a game's episode may change, and how a change applies to its condition. */
export interface BranchHook {
  /** The keys a change may set (e.g. `["mechanism", "regime", "params"]`). */
  readonly keys: readonly string[];
  /** The condition fields of the changed condition: the recorded fields with the change applied. */
  apply(
    condition: Readonly<Record<string, unknown>>,
    change: Readonly<Record<string, unknown>>,
  ): Record<string, unknown>;
}

/** Validated parameters and the condition to record: what {@linkcode GameDescriptor.setup} returns. */
export interface GameSetup<P = unknown> {
  /** Validated parameters. */
  params: P;
  /** The condition to record. */
  condition: EpisodeCondition;
}

/** What an agent factory may be told about a player: its id and role, and what a game adds. */
export interface PlayerInfo {
  /** Player id. */
  id: string;
  /** Role. */
  role: string;
  /** Speaking index from 0 (the Stag Hunt). */
  index?: number;
  /** The model a model policy assigned it (the Stag Hunt's heterogeneity). */
  model?: string;
}

/** Builds the agent of a player from what the game tells about it. */
export type PlayerAgentFactory = (player: PlayerInfo) => Agent;

/** The players of one episode, as a {@linkcode PlayerHook} describes them. */
export interface EpisodePlayers {
  /** What the agent factory is told about a player of this id and role. */
  player(player: { id: string; role: string }): PlayerInfo;
  /** Model of each player built so far, when a model policy assigns them. */
  readonly models?: Record<string, string>;
}

/**
 * A game's per-player hook: a model policy (e.g. the Stag Hunt's h1 / h2 /
 * h3 heterogeneity, which may depend on who is corrupted, something the agents
 * are never told) and what each agent factory call receives.
 */
export interface PlayerHook<P = unknown> {
  /**
   * The model policy of a grid agents entry (`{ model }` or `{ models }`), or
   * `undefined` when it names none the game assigns.
   */
  policy(
    entry: { readonly kind: string; readonly model?: unknown; readonly models?: unknown },
  ): unknown;
  /** The condition fields a model policy implies (`undefined`: none given), merged into the set-up's. */
  fields(policy: unknown): Record<string, unknown>;
  /** The players of an episode of this set-up and seed under a model policy (`undefined`: none). */
  players(setup: GameSetup<P>, seed: number, policy: unknown): EpisodePlayers;
}

/**
 * How an episode's condition is recorded: the `episode_start` fields the
 * runner builds from a descriptor (see `frailCondition` and
 * `stagHuntCondition`).
 */
export interface EpisodeCondition {
  /** Family of games (`episode_start.game`). */
  game: string;
  /** The condition as explicit fields (`episode_start.condition`). */
  fields: Readonly<Record<string, unknown>>;
  /** A short stable label of the condition (`episode_start.condition_id`). */
  id: string;
  /** Quantities that follow from the resolved parameters (`episode_start.derived`). */
  derived: DerivedQuantities;
  /** Mechanism handed to the environment's set-up (`"none"` for a game without one). */
  mechanism: string;
  /** Role of the central player, whose policy is not part of the episode's `model` (`null`: none). */
  centralRole: string | null;
  /** Player id of the central player (`null`: none). */
  centralId: string | null;
}

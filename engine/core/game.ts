/**
 * Game descriptors, in the spirit of OpenSpiel's game type: what a game is
 * (its id, family, roles, mock policies, display label, the fields that make
 * up its condition) and the quantities the analysis needs that follow from
 * its resolved parameters, kept apart from its state machine. Every list of
 * ids, every label and every derived fact the toolkit uses is read from a
 * descriptor; nothing else spells them out.
 *
 * The runner records a game's condition in each log's `episode_start` as
 * explicit fields ({@linkcode EpisodeCondition}); the analysis reads it from
 * there.
 *
 * @module
 */
import type { AgentFactory } from "./agent.ts";
import type { Environment } from "./environment.ts";

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

/**
 * `runStagHuntEpisode`: one Stag Hunt episode from a plain config, with its
 * log written atomically under a run folder when asked.
 *
 * The runner draws the corrupted players from the seed exactly as the
 * environment does, assigns models with the heterogeneity policy (h1 / h2 /
 * h3), and builds each agent from its id, index and model (never its
 * corrupted flag). `episode_start` records the condition (N, M, T, F,
 * corruption, heterogeneity, payoffs; see `descriptor.ts`), with
 * heterogeneity `"h1"` when no policy is given.
 *
 * Logging is as in `runEpisode`: off (no `outDir`) means the events are
 * built in memory (unless `events: false`; the turns need them, so they are
 * then empty too) and nothing is serialised or hashed unless `hashes: true`.
 * With `events: false`, no hashes, text or `outDir`, mock players (options,
 * not a factory) and no model policy, the episode plays on the game's
 * batched path (`engine/games/staghunt/batched.ts`): the same outcome, no
 * per-turn objects; the result's `path` says which.
 *
 * @module
 */
import { type MockStagHuntOptions, mockStagHuntPlayers } from "./games/staghunt/mock.ts";
import type { EpisodePath } from "./core/batched.ts";
import type { PlayedEpisode } from "./core/episode.ts";
import { EpisodeRun, type EpisodeRunOptions } from "./core/episode_run.ts";
import type { EpisodeTally } from "./core/event_recorder.ts";
import type { EngineEvent, EpisodeOutcome } from "./core/events.ts";
import type { PlayerAgentFactory } from "./core/game.ts";
import { type EpisodeLogOptions, playGame } from "./run_episode.ts";
import type { ModelPolicy } from "./games/staghunt/heterogeneity.ts";
import type { CorruptionMode } from "./games/staghunt/params.ts";
import { stagHuntGame } from "./games/staghunt/descriptor.ts";
import { parseStagHuntRunConfig } from "./games/staghunt/_run_config.ts";
import type { PayoffsInput } from "./games/staghunt/payoffs.ts";
import type { StagHuntAgentFactory } from "./games/staghunt/players.ts";
import { type StagHuntTurn, turnsFromEvents } from "./games/staghunt/turns.ts";

/** Configuration of one Stag Hunt episode. */
export interface StagHuntRunConfig extends EpisodeLogOptions {
  /** Players N. Default 5. */
  N?: number;
  /** Threshold M. Default 3. */
  M?: number;
  /** Rounds T. Default 4. */
  T?: number;
  /** Corrupted players F. Default 0. */
  F?: number;
  /** Payoffs (R_S, H_S, R_F, H_F). Default (4, 2, 0, 2). */
  payoffs?: PayoffsInput;
  /** Corruption mode. Default `"base"`. */
  corruption?: CorruptionMode;
  /** Episode seed (non-negative integer). */
  seed: number;
  /** Heterogeneity policy assigning models to players. Default: none (recorded as h1, no model). */
  models?: ModelPolicy;
  /** Agents: a factory, or mock options. Default: noiseless naive threshold players. */
  agents?: StagHuntAgentFactory | MockStagHuntOptions;
  /** Episode id. Default derived from the game and the seed, e.g. `staghunt_N5_M3_T4_F2_base_h1_s7`. */
  episode?: string;
}

/**
 * What {@linkcode runStagHuntEpisode} returns. A notebook cell that ends
 * with it shows its condition, outcome, W and W~ (see `episodeSummary`).
 */
export interface StagHuntRunResult {
  /** Outcome: success, payoffs, welfare, realization. */
  outcome: EpisodeOutcome;
  /** The event log (empty with `events: false`); a getter, built on first read. */
  readonly events: EngineEvent[];
  /** State hash per round (empty without hashes). */
  hashes: string[];
  /** The NDJSON log text, when `ndjson` was asked. */
  readonly ndjson?: string;
  /** The same lines as UTF-8 (what the grid writes as they are), when `ndjson` was asked. */
  readonly ndjsonBytes?: Uint8Array;
  /** The turn records of the episode (empty with `events: false`); a getter, built on first read. */
  readonly turns: StagHuntTurn[];
  /** Model of each player, when a heterogeneity policy was given. */
  models?: Record<string, string>;
  /** Where the log was written, if it was. */
  logPath?: string;
  /**
   * Its status, calls and model calls at a glance, whatever was recorded
   * (see `EpisodeTally`); a getter, left out of `toJSON`.
   */
  readonly tally: EpisodeTally;
  /**
   * Which path played it: `"batched"` (the game's batched path: `events:
   * false`, no hashes, text or `outDir`, mock players and no model policy;
   * see `playGame`) or `"general"`; the outcome is the same either way. A
   * getter, left out of `toJSON`.
   */
  readonly path: EpisodePath;
}

/**
 * Runs one Stag Hunt episode. Everything is validated before anything is
 * written: a bad config throws a `RangeError` naming the field and leaves no
 * file behind.
 *
 * @example
 * ```ts
 * import { runStagHuntEpisode } from "./run_staghunt_episode.ts";
 * const r = await runStagHuntEpisode({ N: 5, M: 3, T: 4, F: 2, seed: 7,
 *   agents: { players: "always_stag" } });
 * // Three honest Stag actions meet M = 3 every round.
 * if (!r.outcome.success || r.turns.length !== 20) throw new Error();
 * ```
 * @throws {RangeError} For a bad config or parameter, naming the field.
 */
export async function runStagHuntEpisode(config: StagHuntRunConfig): Promise<StagHuntRunResult> {
  const c = parseStagHuntRunConfig(config);
  const fields: Record<string, unknown> = {};
  for (const k of ["N", "M", "T", "F", "payoffs", "corruption"] as const) {
    if (config[k] !== undefined) fields[k] = config[k];
  }
  let agents: PlayerAgentFactory | MockStagHuntOptions;
  if (typeof config.agents === "function") agents = config.agents as PlayerAgentFactory;
  else {
    // Checked as the players' factory checks them; then given as mock options,
    // so that `playGame` builds the same players (the descriptor's
    // `mockAgents`) or plays them on the batched path (`events: false`).
    mockStagHuntPlayers({ seed: c.seed, ...(config.agents ?? {}) });
    agents = config.agents ?? {};
  }
  const { played, logPath, setup, episode, models, path } = await playGame(stagHuntGame, fields, {
    ...c,
    agents,
    models: config.models,
    clock: config.clock,
  });
  return new StagHuntRun(played, {
    ndjson: c.ndjson,
    models: config.models ? models : undefined,
    logPath,
    path,
    ids: { condition: setup.condition.id, episode },
  });
}

/**
 * What {@linkcode runStagHuntEpisode} returns: `events` and `turns` are
 * getters, built on first read (see `PlayedEpisode.events`); `toJSON`
 * includes them. A notebook cell that ends with it shows a short summary
 * (see `episodeSummary`).
 */
class StagHuntRun extends EpisodeRun implements StagHuntRunResult {
  readonly models?: Record<string, string>;
  #turns: StagHuntTurn[] | undefined;
  constructor(
    played: PlayedEpisode<unknown>,
    options: EpisodeRunOptions & { models?: Record<string, string> },
  ) {
    super(played, options);
    if (options.models) this.models = options.models;
  }
  get turns(): StagHuntTurn[] {
    return this.#turns ??= turnsFromEvents(this.events);
  }
  /** The result as plain data, `events` and `turns` included. */
  override toJSON(): object {
    return { ...super.toJSON(), turns: this.turns };
  }
}

/**
 * `runEpisode`: one episode of a FRAIL environment from a plain config, with
 * its log written atomically under a run folder when asked.
 *
 * Logging off (no `outDir`) means off: the episode builds its outcome and,
 * unless `events: false`, its events in memory, and serialises and hashes
 * nothing unless `hashes: true` (see `playEpisode`). Logging on builds each
 * line once, hashes every round, and writes the file synchronously.
 *
 * @module
 */
import type { AgentFactory } from "./core/agent.ts";
import type { MockPopulationOptions } from "./agents/mock/population.ts";
import { EpisodeRun, playAndLog } from "./core/episode_run.ts";
import type { EpisodePath } from "./core/batched.ts";
import { awaitHint } from "./core/jupyter.ts";
import type { EpisodeTally } from "./core/event_recorder.ts";
import type { EngineEvent, EpisodeOutcome } from "./core/events.ts";
import type { Environment } from "./core/environment.ts";
import type { GameDescriptor, GameSetup, PlayerAgentFactory } from "./core/game.ts";
import type { PlayedEpisode } from "./core/episode.ts";
import { type ReplayResult, type ReplaySetup, replayWith } from "./core/replay.ts";
import type { RegimeId } from "./frail/params.ts";
import type { EnvId, MechanismId } from "./frail/types.ts";
import { gameDescriptor } from "./games/registry.ts";
import { parseEpisodeConfig, parseGameEpisodeConfig } from "./_episode_config.ts";

/** How one episode is identified, logged and kept: the options every game's episode takes. */
export interface EpisodeLogOptions {
  /** Run id. Default `"adhoc"`. */
  run?: string;
  /** Episode id. Default: the game's (`GameDescriptor.episodeId`). */
  episode?: string;
  /** Folder under which `<run>/<episode>.ndjson` is written. Default: nothing is written. */
  outDir?: string;
  /** Clock for event times. Default: wall clock. */
  clock?: () => string;
  /**
   * Keep the events in memory (the result's `events`). Default `true`. With
   * `false`, no hashes, no text and no `outDir`, an episode of the game's
   * mock agents plays on its batched path where it has one (the bank run,
   * the Stag Hunt without a model policy):
   * the same outcome, no per-agent objects; the result's `path` says which.
   */
  events?: boolean;
  /**
   * Checkpoints carry the state and its hash and the events hash, and the
   * result's `hashes` is filled. Default `false`, and always on with
   * `outDir` or `ndjson` (a written log is always complete).
   */
  hashes?: boolean;
  /** Return the NDJSON log text (the result's `ndjson`), complete with hashes. Default `false`. */
  ndjson?: boolean;
}

/** Configuration of one FRAIL episode, by its environment id (`env`). */
export interface EpisodeConfig extends EpisodeLogOptions {
  /** Environment id. */
  env: EnvId;
  /** Mechanism id. Default `"M0"`. */
  mechanism?: MechanismId;
  /** Regime id (Table 5). Default `"stable"`. */
  regime?: RegimeId;
  /** Parameter overrides on top of the regime preset. */
  params?: Record<string, unknown>;
  /** Name of the override set, recorded as its `overrides_id` instead of its hash (`isOverridesName`). Default none. */
  paramsName?: string;
  /** Episode seed (non-negative integer). */
  seed: number;
  /** Agents: a factory, or mock population options. Default: defensive mock agents seeded with `seed`. */
  agents?: AgentFactory | MockPopulationOptions;
  /** Episode id. Default derived from env, mechanism, regime and seed. */
  episode?: string;
}

/**
 * Configuration of one episode of any registered game (`game`: its id, e.g.
 * `"staghunt"` or `"bank_run"`): the run's options, and the condition's
 * fields inline, as the game's `setup` takes them (its `setupKeys`; FRAIL:
 * `mechanism`, `regime`, `params`; Stag Hunt: `N`, `M`, `T`, `F`,
 * `payoffs`, `corruption`, `heterogeneity`). Any other key is refused.
 */
export interface GameEpisodeConfig extends EpisodeLogOptions {
  /** Game id (`GAMES`, or a game added with `registerGame`). */
  game: string;
  /** Episode seed (non-negative integer). */
  seed: number;
  /** Agents: a factory, or the game's mock options. Default: its rule-based agents seeded with `seed`. */
  agents?: AgentFactory | PlayerAgentFactory | Readonly<Record<string, unknown>>;
  /** Model policy of a game that assigns models to players (Stag Hunt: a `ModelPolicy`). Default none. */
  models?: unknown;
  /** Episode id. Default the game's (`GameDescriptor.episodeId`). */
  episode?: string;
  /** The condition's fields. */
  [field: string]: unknown;
}

/**
 * What {@linkcode runEpisode} returns. A notebook cell that ends with it
 * shows its condition, outcome, W and W~ (see `episodeSummary`).
 */
export interface EpisodeResult {
  /** Outcome: success, payoffs, W, W~. */
  outcome: EpisodeOutcome;
  /**
   * The event log (empty with `events: false`). A getter: the event objects
   * are built when it is first read, so a caller that only needs the outcome
   * never pays for them (a spread copy of the result leaves it out; read it).
   */
  readonly events: EngineEvent[];
  /** State hash per round (empty without hashes). */
  hashes: string[];
  /** The NDJSON log text, when `ndjson` was asked (decoded from `ndjsonBytes` when first read). */
  readonly ndjson?: string;
  /** The same lines as UTF-8 (what the grid writes as they are), when `ndjson` was asked. */
  readonly ndjsonBytes?: Uint8Array;
  /** Where the log was written, if it was. */
  logPath?: string;
  /** Model of each player, when the game assigned models (`models`). */
  models?: Record<string, string>;
  /**
   * Its status, calls and model calls at a glance, whatever was recorded
   * (see `EpisodeTally`); a getter, left out of `toJSON`.
   */
  readonly tally: EpisodeTally;
  /**
   * Which path played it: `"batched"` (the game's batched path: an unlogged
   * episode with `events: false` and the game's mock agents, e.g. bank run
   * M0; see `playGame`) or `"general"`; the outcome is the same either way.
   * A getter, left out of `toJSON`.
   */
  readonly path: EpisodePath;
}

/**
 * Runs one episode of any registered game: a FRAIL config by its
 * environment (`env`, {@linkcode EpisodeConfig}) or any game by its id
 * (`game`, {@linkcode GameEpisodeConfig}). Everything is validated before
 * anything is written: a bad config throws a `RangeError` naming the field
 * and leaves no file behind.
 *
 * @example
 * ```ts
 * import { runEpisode } from "./run_episode.ts";
 * const r = await runEpisode({ env: "bank_run", mechanism: "M0", seed: 1, agents: { depositors: "always_stay" } });
 * if (r.outcome.welfareRealization !== 1) throw new Error(String(r.outcome.welfareRealization));
 * const s = await runEpisode({ game: "staghunt", N: 3, M: 2, T: 2, seed: 7, agents: { players: "always_stag" } });
 * if (!s.outcome.success || s.events[0].type !== "episode_start" || s.events[0].env !== "staghunt") throw new Error();
 * ```
 */
export function runEpisode(config: EpisodeConfig): Promise<EpisodeResult>;
/** Runs one episode of a game by its id (`game`); see the FRAIL form above. */
export function runEpisode(config: GameEpisodeConfig): Promise<EpisodeResult>;
export function runEpisode(config: EpisodeConfig | GameEpisodeConfig): Promise<EpisodeResult> {
  // A notebook that forgets `await` is told so (awaitHint).
  return awaitHint(playEpisodeConfig(config), "runEpisode(...)", ["outcome", "events", "hashes"]);
}

async function playEpisodeConfig(
  config: EpisodeConfig | GameEpisodeConfig,
): Promise<EpisodeResult> {
  if (typeof (config as { game?: unknown })?.game === "string") {
    const game = gameDescriptor((config as GameEpisodeConfig).game);
    const { run, fields } = parseGameEpisodeConfig(config, game.setupKeys);
    const played = await playGame(game, fields, {
      ...run,
      agents: config.agents,
      clock: config.clock,
    });
    return gameRun(played, run.ndjson);
  }
  const c = parseEpisodeConfig(config);
  const played = await playGame(
    gameDescriptor(c.env),
    {
      mechanism: c.mechanism,
      regime: c.regime,
      params: c.params,
      ...(c.paramsName === undefined ? {} : { paramsName: c.paramsName }),
    },
    { ...c, agents: config.agents, clock: config.clock },
  );
  return gameRun(played, c.ndjson);
}

/** How {@linkcode playGame} runs an episode: the run's options, parsed. */
export interface PlayGameOptions {
  /** Episode seed. */
  seed: number;
  /** Agents: a factory, or the game's mock options. Default: its rule-based agents. */
  agents?:
    | AgentFactory
    | PlayerAgentFactory
    | Readonly<Record<string, unknown>>
    | MockPopulationOptions;
  /** Model policy (`PlayerHook`). Default none. */
  models?: unknown;
  /** Run id. */
  run: string;
  /** Episode id. Default the game's. */
  episode?: string;
  /** Log folder. Default none. */
  outDir?: string;
  /** Clock. Default the wall clock. */
  clock?: () => string;
  /** Keep the events. */
  events: boolean;
  /** Hash checkpoints. */
  hashes: boolean;
  /** Build the log text. */
  ndjson: boolean;
}

/** What {@linkcode playGame} played: the episode, its set-up, ids and assigned models. */
export interface PlayedGame {
  /** The played episode. */
  played: PlayedEpisode<unknown>;
  /** Where its log was written, if it was. */
  logPath?: string;
  /** Its set-up. */
  setup: GameSetup<unknown>;
  /** Its episode id. */
  episode: string;
  /** Model of each player, when the game's player hook assigned models. */
  models?: Record<string, string>;
  /** Which path played it (see {@linkcode playGame}). */
  path: EpisodePath;
}

/**
 * Plays one episode of a game through its descriptor: `setup` of the fields
 * (with those the model policy implies), its agents (the given factory, or
 * `mockAgents` of the given options and the seed) told about each player by
 * its `players` hook, and its log written when asked. What `runEpisode`,
 * `runStagHuntEpisode` and the grid run.
 *
 * Which path plays it (the result's `path`): the game's batched path
 * (`GameDescriptor.batched`, `"batched"`) when the game has one, nothing but
 * the outcome is kept (`events`, `hashes` and `ndjson` false, no `outDir`),
 * the agents are mock options (not a factory) and no model policy is given,
 * and the batched path takes the episode (the bank run's: M0-M3 with its
 * mock agents; the Stag Hunt's: its mock players); otherwise the general path (`"general"`, `playEpisode`'s
 * round loop). Both give the same outcome, bit for bit; the batched one
 * builds no request, view, reply, report or event per agent.
 *
 * @example
 * ```ts
 * import { playGame } from "./run_episode.ts";
 * import { gameDescriptor } from "./games/registry.ts";
 * const r = await playGame(gameDescriptor("staghunt"), { N: 3, M: 2, T: 1 }, {
 *   seed: 2, models: { kind: "h2", pool: ["a", "b"] }, run: "adhoc",
 *   events: true, hashes: false, ndjson: false,
 * });
 * if (r.episode !== "staghunt_N3_M2_T1_F0_base_h2_s2" || Object.keys(r.models!).length !== 3) throw new Error();
 * ```
 * @throws {RangeError} For a bad condition or mock option, naming it.
 */
export async function playGame(
  game: GameDescriptor,
  fields: Readonly<Record<string, unknown>>,
  options: PlayGameOptions,
): Promise<PlayedGame> {
  const { seed, models } = options;
  const hook = game.players;
  const setup = game.setup(
    hook && models !== undefined ? { ...fields, ...hook.fields(models) } : fields,
  );
  const mock = typeof options.agents === "function"
    ? undefined
    : { seed, ...(options.agents ?? {}) } as Readonly<Record<string, unknown>>;
  const factory = mock === undefined ? options.agents as PlayerAgentFactory : game.mockAgents(mock);
  const players = hook?.players(setup, seed, models);
  const episode = options.episode ?? game.episodeId(setup, seed);
  // The batched path: only the outcome is kept, every agent is the game's mock
  // and no model policy is given (a players hook without one tells the
  // factory only what the game's own batched path knows, e.g. the index).
  if (
    game.batched && mock !== undefined && (hook === undefined || models === undefined) &&
    !options.events && !options.hashes && !options.ndjson && options.outDir === undefined
  ) {
    const played = game.batched.play(setup, seed, mock);
    if (played !== undefined) return { played, setup, episode, path: "batched" };
  }
  const { played, logPath } = await playAndLog(
    game.environment,
    {
      ...setup,
      seed,
      agents: players ? (p) => factory(players.player(p)) : factory,
    },
    { ...options, episode },
  );
  return { played, logPath, setup, episode, models: players?.models, path: "general" };
}

function gameRun(g: PlayedGame, ndjson: boolean): EpisodeResult {
  const run = new EpisodeRun(g.played, {
    ndjson,
    path: g.path,
    logPath: g.logPath,
    ids: { condition: g.setup.condition.id, episode: g.episode },
  });
  if (g.models) (run as EpisodeResult).models = g.models;
  return run;
}

/**
 * Replays an episode log through the engine: the game is taken from the log,
 * and its parameters are resolved again from the recorded condition (FRAIL:
 * environment, mechanism, regime and overrides; Stag Hunt: N, M, T, F,
 * payoffs, corruption and heterogeneity), so recorded parameters, derived
 * quantities or a condition id that the condition does not resolve to are
 * reported as a `"condition"` mismatch, and an edited player or policy as an
 * `"events"` mismatch in round 1.
 *
 * @example
 * ```ts
 * import { replayEpisode, runEpisode } from "./run_episode.ts";
 * const r = await runEpisode({ env: "bank_run", mechanism: "M2", seed: 3 });
 * const check = await replayEpisode(r.events);
 * if (!check.ok) throw new Error(JSON.stringify(check.mismatch));
 * ```
 * @throws {TypeError} When the log has no `episode_start`, or names a game this build does not provide.
 */
export function replayEpisode(events: readonly EngineEvent[]): Promise<ReplayResult> {
  const start = events.find((e) => e.type === "episode_start");
  if (!start || start.type !== "episode_start") {
    return Promise.reject(new TypeError("Cannot replay: the log has no episode_start event"));
  }
  let game: GameDescriptor;
  try {
    game = replayGame(start.game, start.env);
  } catch (err) {
    return Promise.reject(new TypeError(`Cannot replay: ${(err as Error).message}`));
  }
  const parent = start.branch_of;
  return replayWith(game.environment as Environment<unknown, unknown>, events, {
    setup: () => game.setup(start.condition ?? {}),
    ...(parent ? { parentSetup: (c) => game.setup(c) } : {}),
  });
}

/** The game of a log: its `env`, which must be of the family its `game` names. */
function replayGame(family: string, env: string): GameDescriptor {
  const game = gameDescriptor(env);
  if (game.game !== family) {
    throw new Error(`the log's game "${env}" is of family "${game.game}", not "${family}"`);
  }
  return game;
}

/**
 * The parameters and condition a recorded condition resolves to, through the
 * descriptor of the log's game (`env`, of family `game`): its `setup`.
 *
 * @example
 * ```ts
 * import { conditionSetup } from "./run_episode.ts";
 * const s = conditionSetup("frail", "bank_run", { mechanism: "M1", regime: "stable", overrides: {} });
 * if (s.condition.id !== "bank_run_M1_stable") throw new Error(s.condition.id);
 * ```
 * @throws {TypeError} For a game this build does not provide; {RangeError} for a bad condition.
 */
export function conditionSetup(
  game: string,
  env: string,
  c: Record<string, unknown>,
): ReplaySetup<unknown> {
  let descriptor: GameDescriptor;
  try {
    descriptor = replayGame(game, env);
  } catch (err) {
    throw new TypeError((err as Error).message);
  }
  return descriptor.setup(c);
}

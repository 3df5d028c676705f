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
import { mockPopulation, type MockPopulationOptions } from "./agents/mock/population.ts";
import { EpisodeRun, playAndLog } from "./core/episode_run.ts";
import { awaitHint } from "./core/jupyter.ts";
import type { EpisodeTally } from "./core/event_recorder.ts";
import type { EngineEvent, EpisodeOutcome } from "./core/events.ts";
import type { Environment } from "./core/environment.ts";
import { type ReplayResult, type ReplaySetup, replayWith } from "./core/replay.ts";
import { frailSetup } from "./frail/descriptor.ts";
import { frailGame } from "./frail/registry.ts";
import type { RegimeId } from "./frail/params.ts";
import type { EnvId, MechanismId } from "./frail/types.ts";
import { stagHuntGame, stagHuntSetup } from "./games/staghunt/descriptor.ts";
import type { HeterogeneityId } from "./games/staghunt/heterogeneity.ts";
import { parseEpisodeConfig } from "./_episode_config.ts";

/** Configuration of one episode. */
export interface EpisodeConfig {
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
  /** Run id. Default `"adhoc"`. */
  run?: string;
  /** Episode id. Default derived from env, mechanism, regime and seed. */
  episode?: string;
  /** Folder under which `<run>/<episode>.ndjson` is written. Default: nothing is written. */
  outDir?: string;
  /** Clock for event times. Default: wall clock. */
  clock?: () => string;
  /** Keep the events in memory (`EpisodeResult.events`). Default `true`. */
  events?: boolean;
  /**
   * Checkpoints carry the state and its hash and the events hash, and
   * `EpisodeResult.hashes` is filled. Default `false`, and always on with
   * `outDir` or `ndjson` (a written log is always complete).
   */
  hashes?: boolean;
  /** Return the NDJSON log text (`EpisodeResult.ndjson`), complete with hashes. Default `false`. */
  ndjson?: boolean;
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
  /**
   * Its status, calls and model calls at a glance, whatever was recorded
   * (see `EpisodeTally`); a getter, left out of `toJSON`.
   */
  readonly tally: EpisodeTally;
}

/**
 * Runs one episode. Everything is validated before anything is written: a bad
 * config throws a `RangeError` naming the field and leaves no file behind.
 *
 * @example
 * ```ts
 * import { runEpisode } from "./run_episode.ts";
 * const r = await runEpisode({ env: "bank_run", mechanism: "M0", seed: 1, agents: { depositors: "always_stay" } });
 * if (r.outcome.welfareRealization !== 1) throw new Error(String(r.outcome.welfareRealization));
 * ```
 */
export function runEpisode(config: EpisodeConfig): Promise<EpisodeResult> {
  // A notebook that forgets `await` is told so (awaitHint).
  return awaitHint(playEpisodeConfig(config), "runEpisode(...)", ["outcome", "events", "hashes"]);
}

async function playEpisodeConfig(config: EpisodeConfig): Promise<EpisodeResult> {
  const c = parseEpisodeConfig(config);
  const game = frailGame(c.env);
  const setup = frailSetup(game, {
    mechanism: c.mechanism,
    regime: c.regime,
    overrides: c.params,
    ...(c.paramsName === undefined ? {} : { name: c.paramsName }),
  });
  const agents = typeof config.agents === "function"
    ? config.agents
    : mockPopulation({ seed: c.seed, ...(config.agents ?? {}) });
  const episode = c.episode ?? `${c.env}_${c.mechanism}_${c.regime}_s${c.seed}`;
  const { played, logPath } = await playAndLog(
    game.environment,
    { ...setup, seed: c.seed, agents },
    { ...c, episode, clock: config.clock },
  );
  return new EpisodeRun(played, {
    ndjson: c.ndjson,
    logPath,
    ids: { condition: setup.condition.id, episode },
  });
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
  if (start.game !== "frail" && start.game !== "staghunt") {
    return Promise.reject(
      new TypeError(`Cannot replay: unknown game "${start.game}" (expected "frail" or "staghunt")`),
    );
  }
  const env = start.game === "frail" ? frailGame(start.env).environment : stagHuntGame.environment;
  const parent = start.branch_of;
  return replayWith(env as Environment<unknown, unknown>, events, {
    setup: () => conditionSetup(start.game, start.env, start.condition ?? {}),
    ...(parent ? { parentSetup: (c) => conditionSetup(start.game, start.env, c) } : {}),
  });
}

/**
 * The parameters and condition a recorded condition resolves to (FRAIL:
 * environment, mechanism, regime and overrides; Stag Hunt: N, M, T, F,
 * payoffs, corruption and heterogeneity), through the game's descriptor.
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
  if (game === "frail") {
    return frailSetup(frailGame(env), {
      mechanism: c.mechanism as MechanismId,
      regime: c.regime as RegimeId,
      overrides: (c.overrides ?? {}) as Record<string, unknown>,
      ...(c.overrides_name === undefined ? {} : { name: c.overrides_name as string }),
    });
  }
  if (game === "staghunt") {
    const { N, M, T, F, corruption, payoffs } = c;
    return stagHuntSetup({ N, M, T, F, corruption, payoffs }, c.heterogeneity as HeterogeneityId);
  }
  throw new TypeError(`Unknown game "${game}" (expected "frail" or "staghunt")`);
}

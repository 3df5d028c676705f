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
import type { AgentFactory } from "./agents/agent.ts";
import { mockPopulation, type MockPopulationOptions } from "./agents/mock/population.ts";
import { type PlayedEpisode, playEpisode } from "./core/episode.ts";
import type { EpisodeTally } from "./core/event_recorder.ts";
import type { EngineEvent, EpisodeOutcome } from "./core/events.ts";
import { episodeSummary, JUPYTER_DISPLAY, type TextHtmlBundle } from "./core/jupyter.ts";
import { writeEpisodeLogText } from "./core/log_file.ts";
import { type ReplayResult, replayWith } from "./core/replay.ts";
import { frailSetup } from "./frail/descriptor.ts";
import { frailGame } from "./frail/registry.ts";
import type { RegimeId } from "./frail/params.ts";
import type { EnvId, MechanismId } from "./frail/types.ts";
import { stagHuntGame, stagHuntSetup } from "./staghunt/descriptor.ts";
import type { HeterogeneityId } from "./staghunt/heterogeneity.ts";
import { pathInside } from "./names.ts";
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
  /** The NDJSON log text, when `ndjson` was asked. */
  ndjson?: string;
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
export async function runEpisode(config: EpisodeConfig): Promise<EpisodeResult> {
  const c = parseEpisodeConfig(config);
  const game = frailGame(c.env);
  const setup = frailSetup(game, { mechanism: c.mechanism, regime: c.regime, overrides: c.params });
  const agents = typeof config.agents === "function"
    ? config.agents
    : mockPopulation({ seed: c.seed, ...(config.agents ?? {}) });
  const episode = c.episode ?? `${c.env}_${c.mechanism}_${c.regime}_s${c.seed}`;
  let played: PlayedEpisode<unknown>;
  const logPath = c.outDir ? pathInside(c.outDir, c.run, `${episode}.ndjson`) : undefined;
  const text = c.ndjson || logPath !== undefined;
  try {
    played = await playEpisode(game.environment, {
      ...setup,
      seed: c.seed,
      agents,
      run: c.run,
      episode,
      clock: config.clock,
      events: c.events,
      hashes: c.hashes || text,
      ndjson: text,
    });
  } catch (err) {
    const ndjson = (err as { ndjson?: string }).ndjson;
    if (logPath && ndjson !== undefined) writeEpisodeLogText(logPath, ndjson);
    throw err;
  }
  if (logPath) writeEpisodeLogText(logPath, played.ndjson!);
  return new EpisodeRun(played, c.ndjson, logPath, {
    condition: setup.condition.id,
    episode,
  });
}

/**
 * What {@linkcode runEpisode} returns: `events` is a getter, built on first
 * read (see `PlayedEpisode.events`); `toJSON` includes it. A notebook cell
 * that ends with it shows a short summary (see `episodeSummary`).
 */
class EpisodeRun implements EpisodeResult {
  readonly outcome: EpisodeOutcome;
  readonly hashes: string[];
  readonly ndjson?: string;
  readonly logPath?: string;
  readonly #played: PlayedEpisode<unknown>;
  readonly #ids: { condition: string; episode: string };
  constructor(
    played: PlayedEpisode<unknown>,
    ndjson: boolean,
    logPath: string | undefined,
    ids: { condition: string; episode: string },
  ) {
    this.#played = played;
    this.#ids = ids;
    this.outcome = played.outcome;
    this.hashes = played.hashes;
    if (ndjson) this.ndjson = played.ndjson;
    this.logPath = logPath;
  }
  get events(): EngineEvent[] {
    return this.#played.events;
  }
  get tally(): EpisodeTally {
    return this.#played.tally;
  }
  /** The result as plain data, `events` included. */
  toJSON(): object {
    return { ...this, events: this.events };
  }
  /** The notebook summary: condition, outcome, W and W~. */
  [JUPYTER_DISPLAY](): TextHtmlBundle {
    return episodeSummary({ ...this.#ids, outcome: this.outcome });
  }
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
  const c = start.condition ?? {};
  if (start.game === "frail") {
    const game = frailGame(start.env);
    return replayWith(game.environment, events, {
      setup: () =>
        frailSetup(game, {
          mechanism: c.mechanism as MechanismId,
          regime: c.regime as RegimeId,
          overrides: (c.overrides ?? {}) as Record<string, unknown>,
        }),
    });
  }
  if (start.game === "staghunt") {
    const { N, M, T, F, corruption, payoffs } = c;
    return replayWith(stagHuntGame.environment, events, {
      setup: () =>
        stagHuntSetup({ N, M, T, F, corruption, payoffs }, c.heterogeneity as HeterogeneityId),
    });
  }
  return Promise.reject(
    new TypeError(`Cannot replay: unknown game "${start.game}" (expected "frail" or "staghunt")`),
  );
}

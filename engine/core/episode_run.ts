/**
 * What every game's `run...Episode` shares: play an episode and write its log
 * (the partial log too, when it crashes), and the result a notebook shows.
 * `runEpisode` (FRAIL) and `runStagHuntEpisode` differ only in how they set
 * an episode up and in what their results add.
 *
 * @module
 */
import type { EpisodePath } from "./batched.ts";
import type { Environment } from "./environment.ts";
import { type PlayedEpisode, playEpisode, type PlayOptions } from "./episode.ts";
import type { EpisodeTally } from "./event_recorder.ts";
import type { EngineEvent, EpisodeOutcome } from "./events.ts";
import { episodeSummary, JUPYTER_DISPLAY, type TextHtmlBundle } from "./jupyter.ts";
import { writeEpisodeLogBytes, writeEpisodeLogText } from "./log_file.ts";
import { pathInside } from "../names.ts";

/** How a run records its episode: the config fields every game's runner shares. */
export interface RunRecording {
  /** Run name (the log's folder under `outDir`). */
  run: string;
  /** Episode name (the log's file name). */
  episode: string;
  /** Folder to write the log under; no log without it. */
  outDir?: string;
  /** Clock for event times. Default: wall clock. */
  clock?: () => string;
  /** Keep the events in memory. */
  events: boolean;
  /** Checkpoints carry states and hashes (always on with a log or `ndjson`). */
  hashes: boolean;
  /** Keep the NDJSON log text on the result. */
  ndjson: boolean;
}

/**
 * Plays an episode as `recording` says and, with an `outDir`, writes its log
 * atomically to `<outDir>/<run>/<episode>.ndjson`; an episode that crashes
 * writes the log up to its `episode_end` error event and rethrows.
 *
 * @example
 * ```ts
 * import { playAndLog } from "./episode_run.ts";
 * import { bankRunGame } from "../games/bank_run/descriptor.ts";
 * import { frailSetup } from "../frail/descriptor.ts";
 * import { mockPopulation } from "../agents/mock/population.ts";
 * const dir = await Deno.makeTempDir();
 * const setup = frailSetup(bankRunGame, { mechanism: "M0", regime: "stable" });
 * const { logPath } = await playAndLog(
 *   bankRunGame.environment,
 *   { ...setup, seed: 1, agents: mockPopulation({}) },
 *   { run: "demo", episode: "ep", outDir: dir, events: false, hashes: false, ndjson: false },
 * );
 * if (!Deno.readTextFileSync(logPath!).includes('"episode_end"')) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function playAndLog<P, S>(
  env: Environment<P, S>,
  options: Omit<PlayOptions<P>, keyof RunRecording | "ndjson">,
  recording: RunRecording,
): Promise<{ played: PlayedEpisode<S>; logPath?: string }> {
  const { run, episode, outDir } = recording;
  const logPath = outDir ? pathInside(outDir, run, `${episode}.ndjson`) : undefined;
  const text = recording.ndjson || logPath !== undefined;
  let played: PlayedEpisode<S>;
  try {
    played = await playEpisode(env, {
      ...options,
      run,
      episode,
      clock: recording.clock,
      events: recording.events,
      hashes: recording.hashes || text,
      ndjson: text,
    });
  } catch (err) {
    const ndjson = (err as { ndjson?: string }).ndjson;
    if (logPath !== undefined && ndjson !== undefined) writeEpisodeLogText(logPath, ndjson);
    throw err;
  }
  if (logPath !== undefined) writeEpisodeLogBytes(logPath, played.ndjsonBytes!);
  return { played, logPath };
}

/** What an {@linkcode EpisodeRun} keeps besides the played episode. */
export interface EpisodeRunOptions {
  /** Keep the NDJSON text (`ndjson`), as the caller asked. */
  ndjson: boolean;
  /** Where the log was written, if it was. */
  logPath?: string;
  /** Which path played it. Default `"general"`. */
  path?: EpisodePath;
  /** Condition and episode ids, for the notebook summary. */
  ids: { condition: string; episode: string };
}

/**
 * A run's result: `events` is a getter, built on first read (see
 * `PlayedEpisode.events`); `toJSON` includes it. A notebook cell that ends
 * with it shows a short summary (see `episodeSummary`). Games extend it
 * with what they add (the Stag Hunt's turns and models).
 */
export class EpisodeRun {
  /** Outcome with welfare and its realization. */
  readonly outcome: EpisodeOutcome;
  /** State hash per round (empty without hashes). */
  readonly hashes: string[];
  /** Where the log was written, if it was. */
  readonly logPath?: string;
  readonly #played: PlayedEpisode<unknown>;
  readonly #text: boolean;
  readonly #ids: { condition: string; episode: string };
  readonly #path: EpisodePath;
  /** Wraps a played episode. */
  constructor(played: PlayedEpisode<unknown>, options: EpisodeRunOptions) {
    this.#played = played;
    this.#path = options.path ?? "general";
    this.#ids = options.ids;
    this.outcome = played.outcome;
    this.hashes = played.hashes;
    this.#text = options.ndjson;
    this.logPath = options.logPath;
  }
  /** The NDJSON log text, when it was asked for (decoded from its bytes when first read). */
  get ndjson(): string | undefined {
    return this.#text ? this.#played.ndjson : undefined;
  }
  /** The same lines as UTF-8, when the text was asked for: what a writer writes as it is. */
  get ndjsonBytes(): Uint8Array | undefined {
    return this.#text ? this.#played.ndjsonBytes : undefined;
  }
  /** The event log (empty when events were not kept). */
  get events(): EngineEvent[] {
    return this.#played.events;
  }
  /** Status, calls and model calls at a glance (a getter, left out of `toJSON`). */
  get tally(): EpisodeTally {
    return this.#played.tally;
  }
  /** Which path played it, `"general"` or `"batched"` (a getter, left out of `toJSON`). */
  get path(): EpisodePath {
    return this.#path;
  }
  /** The result as plain data, `events` included. */
  toJSON(): object {
    return { ...this, ...(this.#text ? { ndjson: this.ndjson } : {}), events: this.events };
  }
  /** The notebook summary: condition, outcome, W and W~. */
  [JUPYTER_DISPLAY](): TextHtmlBundle {
    return episodeSummary({ ...this.#ids, outcome: this.outcome });
  }
}

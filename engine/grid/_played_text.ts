/**
 * The text of a played episode, for the grid's runners: its bytes as the
 * engine encoded them, its text decoded only when read.
 *
 * @module
 */
import type { EpisodeTally } from "../core/event_recorder.ts";
import type { PlayedText } from "./episode_runner.ts";

/**
 * The {@linkcode PlayedText} of an episode run with `ndjson: true`: its bytes
 * as the engine encoded them, its text decoded from them only when read.
 *
 * @example
 * ```ts
 * import { playedText } from "./_played_text.ts";
 * import { runEpisode } from "../run_episode.ts";
 * const p = playedText(await runEpisode({ env: "bank_run", seed: 1, ndjson: true, events: false }));
 * if (new TextDecoder().decode(p.bytes) !== p.text || p.tally.last?.type !== "episode_end") {
 *   throw new Error();
 * }
 * ```
 */
export function playedText(
  run: {
    readonly ndjson?: string;
    readonly ndjsonBytes?: Uint8Array;
    readonly tally: EpisodeTally;
  },
): PlayedText {
  return new RunText(run);
}

/** A played text that decodes its bytes only when `text` is read. */
class RunText implements PlayedText {
  readonly #run: { readonly ndjson?: string; readonly ndjsonBytes?: Uint8Array };
  readonly tally: EpisodeTally;
  readonly bytes?: Uint8Array;
  constructor(
    run: {
      readonly ndjson?: string;
      readonly ndjsonBytes?: Uint8Array;
      readonly tally: EpisodeTally;
    },
  ) {
    this.#run = run;
    this.tally = run.tally;
    if (run.ndjsonBytes !== undefined) this.bytes = run.ndjsonBytes;
  }
  get text(): string {
    return this.#run.ndjson!;
  }
}

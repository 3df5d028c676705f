/**
 * How the grid's runners log an episode: completely (hashes and checkpoint
 * states), as the engine's text alone when the grid writes it, else as events.
 *
 * @module
 */
import type { GridEpisode } from "./cell.ts";

/**
 * The options a runner passes to play an episode of a grid with complete
 * logging: its run and episode ids, hashes, and either its log text only
 * (`text`) or its events.
 *
 * @example
 * ```ts
 * import { gridLogging } from "./logging.ts";
 * const o = gridLogging({ id: "ep", run: "r" } as never, true);
 * if (!o.ndjson || o.events || !o.hashes || o.episode !== "ep") throw new Error();
 * ```
 */
export function gridLogging(
  episode: GridEpisode,
  text: boolean,
): { run: string; episode: string; hashes: true; ndjson: boolean; events: boolean } {
  return { run: episode.run, episode: episode.id, hashes: true, ndjson: text, events: !text };
}

/**
 * A grid worker's finished episodes whose logs its segment writers may still
 * hold (`SegmentWriter`'s `holdBytes`): written just before they are
 * reported, and failed together when a write fails (see `worker.ts`).
 *
 * @module
 */
import { type EpisodeSummary, failedSummary, writeFailedSummary } from "./execute.ts";
import type { SegmentWriter } from "./segments.ts";

/** A finished episode as a worker reports it: its summary may be replaced (a failed write). */
export interface HeldResult {
  /** What the episode reports. */
  summary: EpisodeSummary;
}

/**
 * The summary of an episode whose log could not be written: a write failure
 * for the operating system's error (`ENOSPC`, ...), else a failed episode
 * saying why.
 *
 * @example
 * ```ts
 * import { failedWrite } from "./_held_results.ts";
 * const full = Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
 * if (failedWrite("ep", full, "runs/x/segment-a.ndjson").writeFailure?.code !== "ENOSPC") throw new Error();
 * if (failedWrite("ep", new Error("bug"), "runs/x").error !== "Writing the log failed: bug") throw new Error();
 * ```
 */
export function failedWrite(id: string, err: unknown, path: string): EpisodeSummary {
  return writeFailedSummary(id, err, path) ??
    failedSummary(
      id,
      `Writing the log failed: ${err instanceof Error ? err.message : String(err)}`,
    );
}

/**
 * The finished episodes whose logs each run folder's writer may hold, until
 * {@linkcode HeldResults.write} writes them.
 *
 * @example
 * ```ts
 * import { HeldResults } from "./_held_results.ts";
 * import { executeEpisode } from "./execute.ts";
 * import { SegmentWriter } from "./segments.ts";
 * const dir = await Deno.makeTempDir();
 * const w = SegmentWriter.create(dir, "doc", { holdBytes: 1 << 20 });
 * const held = new HeldResults();
 * const result = {
 *   summary: await executeEpisode({
 *     id: "ep", index: 0, run: "demo", cell: "c", replicate: 0, seed: 1,
 *     condition: { game: "frail", env: "bank_run", mechanism: "M0", regime: "stable", params: {} },
 *     agents: { kind: "mock", mock: {} },
 *   }, { log: w }),
 * };
 * held.note(dir, w, result);
 * const before = [w.heldBlocks, Deno.statSync(w.path).size];
 * held.write((d) => d === dir ? w : undefined);
 * const after = [w.heldBlocks, Deno.statSync(w.path).size];
 * // Held, then written: the summary still says logged.
 * if (`${before}` !== "1,0" || `${after}` !== `0,${w.size}` || !result.summary.logged) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class HeldResults {
  readonly #byDir = new Map<string, HeldResult[]>();

  /**
   * Notes a finished episode of a run folder, whose writer (if it was
   * opened) is `writer`: a logged one may be held until the next write; the
   * episodes noted before the ones the writer still holds are written (a
   * block that could not wait, the held bytes' limit or a new segment wrote
   * them). When the writer's write failed, every episode it held fails with
   * that error.
   */
  note(dir: string, writer: SegmentWriter | undefined, result: HeldResult): void {
    let list = this.#byDir.get(dir);
    if (list === undefined) this.#byDir.set(dir, list = []);
    if (writer !== undefined && writer.writeError !== null) {
      // The writer dropped what it held: none of those episodes is logged.
      lost(list, writer.writeError, writer.path);
      return;
    }
    if (result.summary.logged) list.push(result);
    // The blocks a writer holds are its last logged episodes', in order: the ones before them
    // are written (a block that could not wait, the held bytes' limit or a new segment wrote
    // them), so a later failed write cannot have dropped them.
    const held = writer?.heldBlocks ?? 0;
    list.splice(0, list.length - held);
  }

  /**
   * Writes what every run folder's writer holds (`writerOf` gives it); the
   * episodes of a writer whose write fails fail with it (not logged: resume
   * plays them again).
   */
  write(writerOf: (dir: string) => SegmentWriter | undefined): void {
    for (const [dir, list] of this.#byDir) {
      if (list.length === 0) continue;
      const w = writerOf(dir);
      if (w === undefined) continue;
      try {
        w.flush();
        list.length = 0;
      } catch (err) {
        lost(list, err, w.path);
      }
    }
  }
}

/** Fails the episodes whose held logs a failed write dropped. */
function lost(list: HeldResult[], err: unknown, path: string): void {
  for (const r of list) r.summary = failedWrite(r.summary.id, err, path);
  list.length = 0;
}

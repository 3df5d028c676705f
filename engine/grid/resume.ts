/**
 * Resuming a run folder: which episodes are finished, and what a killed run
 * left behind. The caller holds the folder's lock (`lockFolder`), so no
 * other process is writing.
 *
 * An episode is finished when a block of a segment holds it (see
 * `segments.ts`; recovery first indexes complete blocks a kill left
 * unindexed and cuts a torn tail away, so that episode is played again), or
 * when `<id>.ndjson` exists and its last line is an `episode_end` event (a
 * per-episode log, as grids wrote before segments). Either way the status is
 * that of its `episode_end`. A writer's roll-over files
 * (`segment-<tag>_2.ndjson`, ...) are segments like any other: each is
 * recovered on its own, so a kill in a writer's second file cuts only that
 * file's torn tail.
 *
 * Only files of this toolkit's own naming schemes are removed: temporary
 * files `manifest.json.<uuid>.tmp`, `<id>.ndjson.<uuid>.tmp` (for an episode
 * id of the plan) and `segment-<...>.idx.<uuid>.tmp`; a per-episode log of
 * the plan without a final `episode_end`; an empty segment; an index whose
 * segment is gone. A user's `notes.tmp`, or files of ids outside the plan,
 * are left alone.
 *
 * @module
 */
import { join } from "node:path";
import { isSegmentName, recoverSegment, retireBlock, type SegmentEntry } from "./segments.ts";

/** How an episode's log ends (the status of its final `episode_end`). */
export type FinishedStatus = "ok" | "degraded" | "error";

/** Where a finished episode is logged. */
export interface FinishedLog {
  /** Status of its `episode_end`. */
  status: FinishedStatus;
  /** The file holding it. */
  file: string;
  /** Its block, when the file is a segment; `null` for a per-episode log. */
  block: SegmentEntry | null;
}

/** What {@linkcode scanRunFolder} found. */
export interface FolderScan {
  /** Finished episodes, by id. */
  finished: Map<string, FinishedLog>;
  /** Temporary files removed. */
  removedTemporary: string[];
  /** Unfinished logs removed: per-episode files, and torn segment blocks as `<segment>#<episode>`. */
  removedPartial: string[];
}

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const TEMPORARY = new RegExp(`^(.+)\\.${UUID}\\.tmp$`);

/** Whether a file name is a temporary file this toolkit writes in a run folder of these ids. */
function ownTemporary(name: string, ids: ReadonlySet<string>): boolean {
  const base = TEMPORARY.exec(name)?.[1];
  if (base === undefined) return false;
  if (base === "manifest.json") return true;
  if (base.endsWith(".idx")) return isSegmentName(`${base.slice(0, -".idx".length)}.ndjson`);
  return base.endsWith(".ndjson") && ids.has(base.slice(0, -".ndjson".length));
}

/**
 * The last non-empty line of a file, read from its end (so a long log is not
 * read whole), or `""` for an empty file.
 *
 * @example
 * ```ts
 * import { readLastLine } from "./resume.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.ndjson`, '{"a":1}\n{"b":2}\n\n');
 * if (await readLastLine(`${dir}/a.ndjson`) !== '{"b":2}') throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readLastLine(path: string): Promise<string> {
  using file = await Deno.open(path, { read: true });
  const size = (await file.stat()).size;
  let chunk = 4096;
  while (true) {
    const start = Math.max(0, size - chunk);
    const buf = new Uint8Array(size - start);
    await file.seek(start, Deno.SeekMode.Start);
    let read = 0;
    while (read < buf.length) {
      const n = await file.read(buf.subarray(read));
      if (n === null) break;
      read += n;
    }
    const text = new TextDecoder().decode(buf.subarray(0, read)).replace(/\s+$/, "");
    const nl = text.lastIndexOf("\n");
    if (nl >= 0 || start === 0) return text.slice(nl + 1);
    chunk *= 4;
  }
}

/**
 * How a per-episode log ends: `"ok"`, `"degraded"` or `"error"` for a final
 * `episode_end` (any other status reads as `"error"`), else `null`.
 *
 * @example
 * ```ts
 * import { finishedStatus } from "./resume.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.ndjson`, '{"type":"round_start"}\n{"type":"episode_end","status":"ok"}\n');
 * await Deno.writeTextFile(`${dir}/b.ndjson`, '{"type":"round_start"}\n{"type":"chec');
 * if (await finishedStatus(`${dir}/a.ndjson`) !== "ok" || await finishedStatus(`${dir}/b.ndjson`) !== null) {
 *   throw new Error();
 * }
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function finishedStatus(path: string): Promise<FinishedStatus | null> {
  const line = await readLastLine(path);
  try {
    const e = JSON.parse(line) as { type?: unknown; status?: unknown };
    if (e.type !== "episode_end") return null;
    return finished(e.status);
  } catch {
    return null;
  }
}

/**
 * Scans a run folder for the episodes of a plan: recovers its segments,
 * removes its own temporary files and unfinished per-episode logs.
 *
 * @example
 * ```ts
 * import { scanRunFolder } from "./resume.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.ndjson`, '{"type":"episode_end","status":"ok"}\n');
 * await Deno.writeTextFile(`${dir}/b.ndjson.${crypto.randomUUID()}.tmp`, '{"type":"round_');
 * await Deno.writeTextFile(`${dir}/notes.tmp`, "mine");
 * const scan = await scanRunFolder(dir, new Set(["a", "b"]));
 * if (scan.finished.get("a")?.status !== "ok" || scan.finished.has("b") || scan.removedTemporary.length !== 1) {
 *   throw new Error();
 * }
 * await Deno.stat(`${dir}/notes.tmp`);
 * await Deno.remove(dir, { recursive: true });
 * ```
 * @throws {RangeError} For a segment damaged before its end, naming the file and byte.
 */
export async function scanRunFolder(
  dir: string,
  ids: ReadonlySet<string>,
  run?: string,
): Promise<FolderScan> {
  const scan: FolderScan = { finished: new Map(), removedTemporary: [], removedPartial: [] };
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return scan;
    throw err;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const names = new Set(entries.map((e) => e.name));
  for (const entry of entries) {
    if (!entry.isFile) continue;
    const path = join(dir, entry.name);
    if (ownTemporary(entry.name, ids)) {
      await Deno.remove(path).catch(() => {});
      scan.removedTemporary.push(entry.name);
    } else if (isSegmentName(entry.name)) {
      const r = await recoverSegment(path);
      if (r.truncated !== null) scan.removedPartial.push(`${entry.name}#${r.truncated}`);
      for (const block of r.entries) {
        if ((run !== undefined && block.run !== run) || !ids.has(block.episode)) continue;
        if (!scan.finished.has(block.episode)) {
          scan.finished.set(block.episode, { status: finished(block.status), file: path, block });
        }
      }
    } else if (entry.name.endsWith(".idx") && entry.name.startsWith("segment-")) {
      if (!names.has(`${entry.name.slice(0, -".idx".length)}.ndjson`)) await Deno.remove(path);
    } else if (entry.name.endsWith(".ndjson")) {
      const id = entry.name.slice(0, -".ndjson".length);
      if (!ids.has(id)) continue;
      const status = await finishedStatus(path);
      if (status === null) {
        await Deno.remove(path);
        scan.removedPartial.push(entry.name);
      } else if (!scan.finished.has(id)) {
        scan.finished.set(id, { status, file: path, block: null });
      }
    }
  }
  return scan;
}

/**
 * Removes the logs of finished episodes that are about to be played again
 * (failed ones, with `redoFailed`): segment blocks are retired, per-episode
 * logs deleted. Done before they are replayed, so a kill in between leaves
 * them unfinished, never logged twice.
 *
 * @example
 * ```ts
 * import { retireLogs, scanRunFolder } from "./resume.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.ndjson`, '{"type":"episode_end","status":"error"}\n');
 * const scan = await scanRunFolder(dir, new Set(["a"]));
 * await retireLogs(scan, ["a"]);
 * if (scan.finished.has("a") || (await scanRunFolder(dir, new Set(["a"]))).finished.has("a")) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function retireLogs(scan: FolderScan, ids: Iterable<string>): Promise<void> {
  for (const id of ids) {
    const log = scan.finished.get(id);
    if (!log) continue;
    if (log.block) await retireBlock(log.file, log.block);
    else await Deno.remove(log.file);
    scan.finished.delete(id);
  }
}

/** A logged status as a finished status: `"ok"` and `"degraded"` as they are, anything else `"error"`. */
function finished(status: unknown): FinishedStatus {
  return status === "ok" || status === "degraded" ? status : "error";
}

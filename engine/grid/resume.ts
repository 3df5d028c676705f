/**
 * Resuming a run folder: which episodes are finished, and what a killed run
 * left behind.
 *
 * An episode is finished when `<id>.ndjson` exists and its last line is an
 * `episode_end` event (of either status). Temporary files (`*.tmp`, left by a
 * write cut short) are removed; a log without a final `episode_end` (which
 * atomic writes never produce, but a copy or an editor might) is removed so
 * the episode is played again. Files of ids outside the plan are left alone.
 *
 * @module
 */

/** How an episode's log ends (the status of its final `episode_end`). */
export type FinishedStatus = "ok" | "degraded" | "error";

/** What {@linkcode scanRunFolder} found. */
export interface FolderScan {
  /** Finished episodes and the status of their `episode_end`. */
  finished: Map<string, FinishedStatus>;
  /** Temporary files removed. */
  removedTemporary: string[];
  /** Logs without a final `episode_end`, removed. */
  removedPartial: string[];
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
 * How a log ends: `"ok"`, `"degraded"` or `"error"` for a final
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
 * ```
 */
export async function finishedStatus(path: string): Promise<FinishedStatus | null> {
  const line = await readLastLine(path);
  try {
    const e = JSON.parse(line) as { type?: unknown; status?: unknown };
    if (e.type !== "episode_end") return null;
    return e.status === "ok" || e.status === "degraded" ? e.status : "error";
  } catch {
    return null;
  }
}

/**
 * Scans a run folder for the episodes of a plan; removes temporary files and
 * unfinished logs of those episodes.
 *
 * @example
 * ```ts
 * import { scanRunFolder } from "./resume.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.ndjson`, '{"type":"episode_end","status":"ok"}\n');
 * await Deno.writeTextFile(`${dir}/b.ndjson.1234.tmp`, '{"type":"round_');
 * const scan = await scanRunFolder(dir, new Set(["a", "b"]));
 * if (scan.finished.get("a") !== "ok" || scan.finished.has("b") || scan.removedTemporary.length !== 1) {
 *   throw new Error();
 * }
 * ```
 */
export async function scanRunFolder(dir: string, ids: ReadonlySet<string>): Promise<FolderScan> {
  const scan: FolderScan = { finished: new Map(), removedTemporary: [], removedPartial: [] };
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return scan;
    throw err;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (!entry.isFile) continue;
    const path = `${dir}/${entry.name}`;
    if (entry.name.endsWith(".tmp")) {
      await Deno.remove(path).catch(() => {});
      scan.removedTemporary.push(entry.name);
      continue;
    }
    if (!entry.name.endsWith(".ndjson")) continue;
    const id = entry.name.slice(0, -".ndjson".length);
    if (!ids.has(id)) continue;
    const status = await finishedStatus(path);
    if (status === null) {
      await Deno.remove(path);
      scan.removedPartial.push(entry.name);
    } else {
      scan.finished.set(id, status);
    }
  }
  return scan;
}

/**
 * Episode logs on disk: NDJSON, written atomically (temporary file, then
 * rename), read back with errors that name the file and line.
 *
 * @module
 */
import type { EngineEvent } from "./events.ts";
import { EVENT_SCHEMA_VERSION } from "./events.ts";

/** Characters gathered before a write. */
const CHUNK_CHARS = 1 << 20;

/**
 * Writes an episode's events as NDJSON, atomically: a reader never sees a
 * half-written log. Lines are written in chunks of about 1 MiB, so a log may
 * be larger than the longest string the runtime can build.
 *
 * @example
 * ```ts
 * import { readEpisodeLog, writeEpisodeLog } from "./log_file.ts";
 * const dir = await Deno.makeTempDir();
 * await writeEpisodeLog(`${dir}/ep.ndjson`, []);
 * if ((await readEpisodeLog(`${dir}/ep.ndjson`)).length !== 0) throw new Error();
 * ```
 */
export async function writeEpisodeLog(path: string, events: readonly EngineEvent[]): Promise<void> {
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
  await Deno.mkdir(dir, { recursive: true });
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  const file = await Deno.open(tmp, { write: true, create: true, truncate: true });
  try {
    const encoder = new TextEncoder();
    let chunk: string[] = [];
    let size = 0;
    const flush = async () => {
      const bytes = encoder.encode(chunk.join(""));
      for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
      chunk = [];
      size = 0;
    };
    for (const e of events) {
      const line = JSON.stringify(e) + "\n";
      chunk.push(line);
      size += line.length;
      if (size >= CHUNK_CHARS) await flush();
    }
    await flush();
  } finally {
    file.close();
  }
  await Deno.rename(tmp, path);
}

/**
 * Parses NDJSON event-log text. Throws a `SyntaxError` naming the source and
 * line of the first malformed line, or a `RangeError` for an unknown schema version.
 *
 * @example
 * ```ts
 * import { parseEpisodeLog } from "./log_file.ts";
 * try {
 *   parseEpisodeLog('{"schema":2,"type":"round_start"}\nnot json\n', "ep.ndjson");
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e instanceof SyntaxError) || !e.message.includes("ep.ndjson:2")) throw e;
 * }
 * ```
 */
export function parseEpisodeLog(text: string, source = "log"): EngineEvent[] {
  const out: EngineEvent[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new SyntaxError(
        `${source}:${i + 1}: malformed event line (${(err as Error).message})`,
      );
    }
    const ev = value as Partial<EngineEvent>;
    if (typeof ev !== "object" || ev === null || typeof ev.type !== "string") {
      throw new SyntaxError(`${source}:${i + 1}: an event must be an object with a "type"`);
    }
    if (ev.schema !== EVENT_SCHEMA_VERSION) {
      throw new RangeError(`${source}:${i + 1}: ${unsupportedSchemaMessage(ev.schema)}`);
    }
    out.push(value as EngineEvent);
  }
  return out;
}

/**
 * Why a log of another schema version cannot be read, naming the version.
 *
 * @example
 * ```ts
 * import { unsupportedSchemaMessage } from "./log_file.ts";
 * if (!unsupportedSchemaMessage(1).startsWith("event schema 1 is not supported")) throw new Error();
 * ```
 */
export function unsupportedSchemaMessage(version: unknown): string {
  const old = version === 1
    ? "; schema 1 logs (coordlab 0.1) do not record the full condition (parameter overrides, " +
      "derived quantities, the Stag Hunt's corruption and heterogeneity as fields of their own): " +
      "run the episodes again with this version (a grid resumes, so only what is missing runs)"
    : "";
  return `event schema ${
    JSON.stringify(version)
  } is not supported (this build reads ${EVENT_SCHEMA_VERSION})${old}`;
}

/**
 * Reads an episode log from disk.
 *
 * @example
 * ```ts
 * import { readEpisodeLog, writeEpisodeLog } from "./log_file.ts";
 * const dir = await Deno.makeTempDir();
 * await writeEpisodeLog(`${dir}/a.ndjson`, []);
 * await readEpisodeLog(`${dir}/a.ndjson`);
 * ```
 */
export async function readEpisodeLog(path: string): Promise<EngineEvent[]> {
  return parseEpisodeLog(await Deno.readTextFile(path), path);
}

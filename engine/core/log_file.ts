/**
 * Episode logs on disk: NDJSON, written atomically (temporary file, then
 * rename), read back with errors that name the file and line.
 *
 * Writes are synchronous from one string (an episode's log is built in memory
 * first), and a folder is created once per process: later writes into it try
 * the file first and create the folder again only if it has gone.
 *
 * @module
 */
import type { EngineEvent } from "./events.ts";
import { EVENT_SCHEMA_VERSION } from "./events.ts";

/**
 * Writes an episode's events as NDJSON, atomically: a reader never sees a
 * half-written log.
 *
 * @example
 * ```ts
 * import { readEpisodeLog, writeEpisodeLog } from "./log_file.ts";
 * const dir = await Deno.makeTempDir();
 * await writeEpisodeLog(`${dir}/ep.ndjson`, []);
 * if ((await readEpisodeLog(`${dir}/ep.ndjson`)).length !== 0) throw new Error();
 * ```
 */
export function writeEpisodeLog(path: string, events: readonly EngineEvent[]): Promise<void> {
  try {
    let text = "";
    for (const e of events) text += JSON.stringify(e) + "\n";
    writeEpisodeLogText(path, text);
    return Promise.resolve();
  } catch (err) {
    return Promise.reject(err);
  }
}

const madeDirs = new Set<string>();

/**
 * Writes an episode's NDJSON text atomically and synchronously: a temporary
 * file in the same folder, then a rename. The folder is created on first use.
 *
 * @example
 * ```ts
 * import { readEpisodeLog, writeEpisodeLogText } from "./log_file.ts";
 * const dir = await Deno.makeTempDir();
 * writeEpisodeLogText(`${dir}/runs/ep.ndjson`, '{"schema":1,"type":"round_start"}\n');
 * if ((await readEpisodeLog(`${dir}/runs/ep.ndjson`)).length !== 1) throw new Error();
 * ```
 */
export function writeEpisodeLogText(path: string, text: string): void {
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  if (!madeDirs.has(dir)) {
    Deno.mkdirSync(dir, { recursive: true });
    madeDirs.add(dir);
  }
  try {
    Deno.writeTextFileSync(tmp, text);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
    // The folder was removed since it was made: make it again.
    Deno.mkdirSync(dir, { recursive: true });
    Deno.writeTextFileSync(tmp, text);
  }
  Deno.renameSync(tmp, path);
}

/**
 * Parses NDJSON event-log text. Throws a `SyntaxError` naming the source and
 * line of the first malformed line, or a `RangeError` for an unknown schema version.
 *
 * @example
 * ```ts
 * import { parseEpisodeLog } from "./log_file.ts";
 * try {
 *   parseEpisodeLog('{"schema":1,"type":"round_start"}\nnot json\n', "ep.ndjson");
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
      throw new RangeError(
        `${source}:${
          i + 1
        }: event schema ${ev.schema} is not supported (expected ${EVENT_SCHEMA_VERSION})`,
      );
    }
    out.push(value as EngineEvent);
  }
  return out;
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

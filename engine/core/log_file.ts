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
import { LogLineDecoder } from "./event_layout.ts";
import type { EngineEvent } from "./events.ts";
import { EVENT_SCHEMA_VERSION } from "./events.ts";

/** Characters gathered before a write. */
const CHUNK_CHARS = 1 << 20;

/**
 * Writes an episode's events as NDJSON, atomically: a reader never sees a
 * half-written log. Lines are written in chunks of about 1 MiB, so a log may
 * be larger than the longest string the runtime can build. Each event is one
 * whole line (the old layout, which every reader reads; a `"lines-v5"` log's
 * hashes are fixed by its events, so it verifies in either layout); the
 * engine's own text (`runEpisode`'s `ndjson`, `outDir`) is the block layout
 * (`event_layout.ts`).
 *
 * @example
 * ```ts
 * import { readEpisodeLog, writeEpisodeLog } from "./log_file.ts";
 * const dir = await Deno.makeTempDir();
 * await writeEpisodeLog(`${dir}/ep.ndjson`, []);
 * if ((await readEpisodeLog(`${dir}/ep.ndjson`)).length !== 0) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function writeEpisodeLog(path: string, events: readonly EngineEvent[]): Promise<void> {
  try {
    writeAtomically(path, (file) => {
      const encoder = new TextEncoder();
      let chunk = "";
      const flush = () => {
        const bytes = encoder.encode(chunk);
        for (let at = 0; at < bytes.length;) at += file.writeSync(bytes.subarray(at));
        chunk = "";
      };
      for (const e of events) {
        chunk += JSON.stringify(e) + "\n";
        if (chunk.length >= CHUNK_CHARS) flush();
      }
      flush();
    });
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
 * writeEpisodeLogText(`${dir}/runs/ep.ndjson`, '{"schema":2,"type":"round_start"}\n');
 * if ((await readEpisodeLog(`${dir}/runs/ep.ndjson`)).length !== 1) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function writeEpisodeLogText(path: string, text: string): void {
  writeAtomically(path, (file) => {
    const bytes = new TextEncoder().encode(text);
    for (let at = 0; at < bytes.length;) at += file.writeSync(bytes.subarray(at));
  });
}

/**
 * Writes an episode's NDJSON lines, already encoded as UTF-8, atomically and
 * synchronously, as {@linkcode writeEpisodeLogText} does.
 *
 * @example
 * ```ts
 * import { readEpisodeLog, writeEpisodeLogBytes } from "./log_file.ts";
 * const dir = await Deno.makeTempDir();
 * writeEpisodeLogBytes(`${dir}/ep.ndjson`, new TextEncoder().encode('{"schema":2,"type":"round_start"}\n'));
 * if ((await readEpisodeLog(`${dir}/ep.ndjson`)).length !== 1) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function writeEpisodeLogBytes(path: string, bytes: Uint8Array): void {
  writeAtomically(path, (file) => {
    for (let at = 0; at < bytes.length;) at += file.writeSync(bytes.subarray(at));
  });
}

/** Writes a file through `write` into a temporary sibling, then renames it into place. */
function writeAtomically(path: string, write: (file: Deno.FsFile) => void): void {
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  if (!madeDirs.has(dir)) {
    Deno.mkdirSync(dir, { recursive: true });
    madeDirs.add(dir);
  }
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(tmp, { write: true, create: true, truncate: true });
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
    // The folder was removed since it was made: make it again.
    Deno.mkdirSync(dir, { recursive: true });
    file = Deno.openSync(tmp, { write: true, create: true, truncate: true });
  }
  try {
    write(file);
  } finally {
    file.close();
  }
  Deno.renameSync(tmp, path);
}

/** Options of {@linkcode parseEpisodeLog}. */
export interface ParseLogOptions {
  /**
   * The line number of the text's first line, for error messages when the
   * text is a piece of a longer file (read in chunks). Default 1.
   */
  firstLine?: number;
  /**
   * The decoder of the file being read, when the text is a piece of it: it
   * carries the open block's header (`"lines-v5"`) from one piece to the
   * next. Default: a new one (the text is a whole file).
   */
  decoder?: LogLineDecoder;
}

/**
 * Parses NDJSON event-log text, of either layout (each line a whole event,
 * or blocks of a header and the lines it heads: `event_layout.ts`), into the
 * same events. Throws a `SyntaxError` naming the source and line of the first
 * malformed line (a block line outside a block among them), or a `RangeError`
 * for an unknown schema version.
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
export function parseEpisodeLog(
  text: string,
  source = "log",
  options: ParseLogOptions = {},
): EngineEvent[] {
  const out: EngineEvent[] = [];
  const lines = text.split("\n");
  const first = options.firstLine ?? 1;
  const decoder = options.decoder ?? new LogLineDecoder();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new SyntaxError(
        `${source}:${i + first}: malformed event line (${(err as Error).message})`,
      );
    }
    const decoded = decoder.decode(value);
    if (decoded === undefined) continue;
    if (typeof decoded === "string") throw new SyntaxError(`${source}:${i + first}: ${decoded}`);
    value = decoded;
    const ev = value as Partial<EngineEvent>;
    // A schema of a later build (an event's, or a block header's of a later layout) is named
    // before the line's shape is judged by this build's rules.
    if (
      typeof ev === "object" && ev !== null && typeof ev.schema === "number" &&
      ev.schema !== EVENT_SCHEMA_VERSION
    ) {
      throw new RangeError(`${source}:${i + first}: ${unsupportedSchemaMessage(ev.schema)}`);
    }
    if (typeof ev !== "object" || ev === null || typeof ev.type !== "string") {
      throw new SyntaxError(`${source}:${i + first}: an event must be an object with a "type"`);
    }
    if (ev.schema !== EVENT_SCHEMA_VERSION) {
      throw new RangeError(`${source}:${i + first}: ${unsupportedSchemaMessage(ev.schema)}`);
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
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readEpisodeLog(path: string): Promise<EngineEvent[]> {
  return parseEpisodeLog(await Deno.readTextFile(path), path);
}

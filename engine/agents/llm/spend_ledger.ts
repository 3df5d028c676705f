/**
 * The spend ledger of a run folder, `<run folder>/spend.jsonl`: what the
 * provider billed, request by request, across every session of the run, so
 * that a budget bounds the run as a whole however often it is killed and
 * resumed (`runGrid` attaches it to the runtime with its budget).
 *
 * Each request (one attempt sent over the network) writes two lines, each
 * with one synchronous append: a `reserve` line before it is sent (its worst
 * case: prompt bytes plus completion cap, at the model's price) and a
 * `settle` line once it has an answer (the tokens and cost billed). Reading
 * the ledger back sums the settled requests and counts every reservation
 * without a settle line (a request in flight when its process was killed) at
 * its reservation: the provider may have finished and billed it, and a
 * budget must not be fooled by a kill.
 *
 * A torn last line (a kill mid-write) is cut when the ledger is opened for
 * writing, and reported (`cut`). It loses no spend: a torn `reserve` line was
 * written before its request was sent, so nothing was sent; a torn `settle`
 * line leaves its `reserve` line unsettled, so the request counts at its
 * reservation. Any other line that is not a valid ledger line is an error
 * naming the file and line (the ledger is not guessed at).
 *
 * Choices: the file ends in `.jsonl`, not `.ndjson`, so that the loaders and
 * resume, which read every `.ndjson` file of a run folder as an episode log,
 * leave it alone; it is opened for appending at its first line, so a run
 * without model calls leaves none; writes are not fsynced (a kill loses
 * nothing the operating system holds, a power cut may lose the last lines).
 *
 * @module
 */
import {
  addReserved,
  addSpend,
  emptySpend,
  type Spend,
  type SpendLine,
  type SpendUsage,
} from "./accounting.ts";

/**
 * File name of the spend ledger in a run folder.
 *
 * @example
 * ```ts
 * import { SPEND_LEDGER_FILE } from "./spend_ledger.ts";
 * if (SPEND_LEDGER_FILE !== "spend.jsonl") throw new Error();
 * ```
 */
export const SPEND_LEDGER_FILE = "spend.jsonl";

/** What {@linkcode readSpendLedger} found. */
export interface SpendLedgerReading {
  /** The ledger's path. */
  path: string;
  /** Spend of every request (unsettled reservations counted at their reservation). */
  spend: Spend;
  /** Complete lines read. */
  lines: number;
  /** Reservations without a settle line, counted at their reservation (also in `spend.total.unknown`). */
  unsettled: number;
  /** The torn last line (no newline at its end), or `null`: its length in bytes and a sample. */
  torn: { bytes: number; sample: string } | null;
}

const USAGES: readonly SpendUsage[] = ["reported", "unknown", "none"];

function count(v: unknown): v is number {
  return Number.isSafeInteger(v) && (v as number) >= 0;
}

function money(v: unknown): v is number | null {
  return v === null || (typeof v === "number" && Number.isFinite(v) && v >= 0);
}

/** A ledger line checked field by field, or the first thing wrong with it. */
function parseLine(text: string): SpendLine | string {
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(text);
  } catch (err) {
    return `not JSON (${(err as Error).message})`;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "not an object";
  if (v.type !== "reserve" && v.type !== "settle") return `"type" is ${JSON.stringify(v.type)}`;
  if (typeof v.id !== "string" || v.id === "") return '"id" is not a non-empty string';
  if (typeof v.model !== "string") return '"model" is not a string';
  for (
    const k of ["tokens_in", "tokens_out", ...(v.type === "settle" ? ["tokens_reasoning"] : [])]
  ) {
    if (!count(v[k])) return `"${k}" is not a non-negative integer (${JSON.stringify(v[k])})`;
  }
  if (!money(v.cost)) return `"cost" is not null or a finite number >= 0 (${v.cost})`;
  if (v.type === "settle" && !USAGES.includes(v.usage as SpendUsage)) {
    return `"usage" is ${JSON.stringify(v.usage)}`;
  }
  return v as unknown as SpendLine;
}

/** The ledger's bytes, or `null` when there is none. */
function readBytes(path: string): Uint8Array | null {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw new RangeError(`The spend ledger ${path} cannot be read: ${(err as Error).message}`);
  }
  if (!info.isFile) {
    throw new RangeError(
      `The spend ledger ${path} cannot be read: it is not a file (move it away to go on)`,
    );
  }
  try {
    return Deno.readFileSync(path);
  } catch (err) {
    throw new RangeError(`The spend ledger ${path} cannot be read: ${(err as Error).message}`);
  }
}

/**
 * Reads a spend ledger (a missing file is an empty ledger). A torn last line
 * is reported, not read (see the module doc: it loses no spend).
 *
 * @example
 * ```ts
 * import { readSpendLedger } from "./spend_ledger.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/spend.jsonl`,
 *   '{"type":"reserve","id":"a","model":"m","tokens_in":100,"tokens_out":50,"cost":0.15}\n' +
 *   '{"type":"settle","id":"a","model":"m","usage":"reported","tokens_in":80,"tokens_out":20,"tokens_reasoning":0,"cost":0.1}\n' +
 *   '{"type":"reserve","id":"b","model":"m","tokens_in":100,"tokens_out":50,"cost":0.15}\n' +
 *   '{"type":"sett');
 * const r = readSpendLedger(`${dir}/spend.jsonl`);
 * // "a" as billed; "b" was sent and never settled: counted at its reservation.
 * if (r.spend.total.tokens !== 250 || r.unsettled !== 1 || r.torn?.bytes !== 13) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 * @throws {RangeError} Naming the file and line of a line that is not a ledger line, or a file that cannot be read.
 */
export function readSpendLedger(path: string): SpendLedgerReading {
  const bytes = readBytes(path);
  const reading: SpendLedgerReading = {
    path,
    spend: emptySpend(),
    lines: 0,
    unsettled: 0,
    torn: null,
  };
  if (bytes === null || bytes.length === 0) return reading;
  const end = bytes.lastIndexOf(0x0a) + 1;
  if (end < bytes.length) {
    const tail = new TextDecoder().decode(bytes.subarray(end));
    reading.torn = { bytes: bytes.length - end, sample: tail.slice(0, 80) };
  }
  const open = new Map<string, Extract<SpendLine, { type: "reserve" }>>();
  const settled = new Set<string>();
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, end));
  const lines = text.split("\n");
  lines.pop(); // after the last newline
  lines.forEach((raw, i) => {
    const line = parseLine(raw);
    const where = `${path}:${i + 1}`;
    if (typeof line === "string") {
      throw new RangeError(`The spend ledger ${where} is not a ledger line: ${line}`);
    }
    if (line.type === "reserve") {
      if (open.has(line.id) || settled.has(line.id)) {
        throw new RangeError(`The spend ledger ${where} reserves request "${line.id}" again`);
      }
      open.set(line.id, line);
    } else {
      if (settled.has(line.id)) {
        throw new RangeError(`The spend ledger ${where} settles request "${line.id}" again`);
      }
      open.delete(line.id);
      settled.add(line.id);
      addSpend(reading.spend, line.model, line);
    }
  });
  reading.lines = lines.length;
  for (const r of open.values()) {
    reading.unsettled++;
    addReserved(reading.spend, r.model, {
      tokensIn: r.tokens_in,
      tokensOut: r.tokens_out,
      cost: r.cost,
    });
  }
  return reading;
}

/**
 * A run folder's spend ledger, open for appending: {@linkcode SpendLedger.open}
 * reads it back (cutting a torn last line), then {@linkcode SpendLedger.append}
 * writes each line with one synchronous append.
 *
 * @example
 * ```ts
 * import { SpendLedger } from "./spend_ledger.ts";
 * const dir = await Deno.makeTempDir();
 * const a = SpendLedger.open(dir);
 * a.append({ type: "reserve", id: "x", model: "m", tokens_in: 10, tokens_out: 5, cost: null });
 * a.close();
 * const b = SpendLedger.open(dir);
 * if (b.reading.unsettled !== 1 || b.reading.spend.total.tokens !== 15) throw new Error();
 * b.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export class SpendLedger {
  /** The ledger's path. */
  readonly path: string;
  /** What it held when opened. */
  readonly reading: SpendLedgerReading;
  #file: Deno.FsFile | null = null;
  #closed = false;
  #broken: string | null = null;

  private constructor(path: string, reading: SpendLedgerReading) {
    this.path = path;
    this.reading = reading;
  }

  /**
   * Opens the ledger of a run folder: reads it and cuts a torn last line
   * away (reported in `reading.torn`).
   *
   * @throws {RangeError} As {@linkcode readSpendLedger}, or when the torn line cannot be cut.
   */
  static open(dir: string): SpendLedger {
    const path = `${dir}/${SPEND_LEDGER_FILE}`;
    const reading = readSpendLedger(path);
    if (reading.torn) {
      const size = Deno.statSync(path).size;
      try {
        Deno.truncateSync(path, size - reading.torn.bytes);
      } catch (err) {
        throw new RangeError(
          `The spend ledger ${path} ends in a torn line that cannot be cut: ${
            (err as Error).message
          }`,
        );
      }
    }
    return new SpendLedger(path, reading);
  }

  /**
   * Appends one line with one synchronous write (the file is opened at the
   * first line).
   *
   * @throws {Error} Naming the path when it cannot be written (a full disk, an I/O error, a directory in its place), or when it is closed; after a failed write every later append fails too (a torn line is cut when the ledger is next opened).
   */
  append(line: SpendLine): void {
    if (this.#closed) throw new Error(`The spend ledger ${this.path} is closed`);
    if (this.#broken !== null) throw new Error(this.#broken);
    const bytes = new TextEncoder().encode(JSON.stringify(line) + "\n");
    try {
      this.#file ??= Deno.openSync(this.path, { append: true, create: true });
      let done = 0;
      while (done < bytes.length) done += this.#file.writeSync(bytes.subarray(done));
    } catch (err) {
      this.#broken = `The spend ledger ${this.path} cannot be written: ${(err as Error).message}`;
      throw new Error(this.#broken);
    }
  }

  /** Closes the file; later appends throw. */
  close(): void {
    this.#closed = true;
    this.#file?.close();
    this.#file = null;
  }
}

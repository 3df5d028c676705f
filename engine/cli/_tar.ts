// A tiny reader and writer of uncompressed POSIX ustar archives: regular files
// only, names up to 255 bytes (prefix + name), so `tar -xf` opens a pack and
// no tool is needed to read one. Entries carry a fixed mode and time, so the
// same files give the same bytes.

const BLOCK = 512;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One file of an archive. */
export interface TarEntry {
  /** Path inside the archive, `/`-separated, relative. */
  name: string;
  /** Contents. */
  data: Uint8Array;
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0") + "\0";
}

/** Splits a name into ustar's prefix (<= 155 bytes) and name (<= 100 bytes) at a `/`. */
function splitName(name: string): [string, string] {
  const bytes = encoder.encode(name).length;
  if (bytes <= 100) return ["", name];
  for (let i = name.lastIndexOf("/"); i > 0; i = name.lastIndexOf("/", i - 1)) {
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (encoder.encode(prefix).length <= 155 && encoder.encode(rest).length <= 100) {
      return [prefix, rest];
    }
  }
  throw new RangeError(
    `Archive entry name "${name}" is too long for a tar header (at most 100 bytes after the ` +
      `last folder split, 255 in all)`,
  );
}

function header(entry: TarEntry): Uint8Array {
  if (entry.name.startsWith("/") || entry.name.split("/").includes("..")) {
    throw new RangeError(`Archive entry name "${entry.name}" must be relative, without ".."`);
  }
  const [prefix, name] = splitName(entry.name);
  const h = new Uint8Array(BLOCK);
  const put = (text: string, at: number) => h.set(encoder.encode(text), at);
  put(name, 0);
  put(octal(0o644, 8), 100);
  put(octal(0, 8), 108);
  put(octal(0, 8), 116);
  put(octal(entry.data.length, 12), 124);
  put(octal(0, 12), 136);
  put("        ", 148);
  put("0", 156);
  put("ustar\u000000", 257);
  put(prefix, 345);
  const sum = h.reduce((a, b) => a + b, 0);
  put(octal(sum, 7) + " ", 148);
  return h;
}

/** An archive of the entries, in their order. */
export function writeTar(entries: readonly TarEntry[]): Uint8Array {
  const size = entries.reduce(
    (total, e) => total + BLOCK + Math.ceil(e.data.length / BLOCK) * BLOCK,
    2 * BLOCK,
  );
  const out = new Uint8Array(size);
  let at = 0;
  for (const e of entries) {
    out.set(header(e), at);
    at += BLOCK;
    out.set(e.data, at);
    at += Math.ceil(e.data.length / BLOCK) * BLOCK;
  }
  return out;
}

function text(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return decoder.decode(end < 0 ? bytes : bytes.subarray(0, end));
}

/**
 * The regular files of an archive. A header whose checksum fails, a size
 * past the end, or a name that leaves the archive's folder is an error
 * naming the entry; folder entries are skipped.
 */
export function readTar(bytes: Uint8Array, source: string): TarEntry[] {
  const entries: TarEntry[] = [];
  let at = 0;
  while (at + BLOCK <= bytes.length) {
    const h = bytes.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) break;
    const stored = parseInt(text(h.subarray(148, 156)).trim(), 8);
    const copy = new Uint8Array(h);
    copy.fill(32, 148, 156);
    const sum = copy.reduce((a, b) => a + b, 0);
    const name = [text(h.subarray(345, 500)), text(h.subarray(0, 100))].filter(Boolean).join("/");
    if (stored !== sum) {
      throw new SyntaxError(
        `Pack "${source}" is not a tar archive, or is damaged: the header at byte ${at} fails ` +
          `its checksum`,
      );
    }
    const size = parseInt(text(h.subarray(124, 136)).trim() || "0", 8);
    const type = String.fromCharCode(h[156] || 48);
    at += BLOCK;
    if (at + size > bytes.length) {
      throw new SyntaxError(`Pack "${source}" is cut short: entry "${name}" needs ${size} bytes`);
    }
    if (type === "0") {
      if (name.startsWith("/") || name.split("/").includes("..")) {
        throw new SyntaxError(`Pack "${source}" holds entry "${name}", which leaves its folder`);
      }
      entries.push({ name, data: bytes.slice(at, at + size) });
    }
    at += Math.ceil(size / BLOCK) * BLOCK;
  }
  return entries;
}

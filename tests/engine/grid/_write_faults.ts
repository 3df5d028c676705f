/**
 * Write failures on demand, without filling a disk: wraps `Deno.openSync`
 * (the files it opens), `Deno.writeTextFile` and `Deno.writeTextFileSync` so
 * that writes to files whose name contains `match` throw the operating
 * system's error (`ENOSPC` by default, shaped as Deno throws it) once `after`
 * writes to such files have succeeded.
 *
 * In this process: `const restore = injectWriteFaults({ match: "segment-" })`.
 * In a child process (the command lines): `deno run --preload
 * tests/engine/grid/_write_faults.ts ...` with `COORDLAB_WRITE_FAULT` set to
 * the options as JSON. Web Workers are not affected (run grids in-process).
 *
 * @module
 */

/** Options of {@linkcode injectWriteFaults}. */
export interface WriteFaultOptions {
  /** Part of the file name (its last path component) whose writes fail. */
  match: string;
  /** Writes to matching files that succeed before the first failure. Default 0. */
  after?: number;
  /** The error code. Default `"ENOSPC"`. */
  code?: "ENOSPC" | "EIO";
}

const MESSAGES = {
  ENOSPC: "No space left on device (os error 28)",
  EIO: "Input/output error (os error 5)",
};

/** Makes matching writes fail; returns the function that restores Deno's own. */
export function injectWriteFaults(options: WriteFaultOptions): () => void {
  const code = options.code ?? "ENOSPC";
  let left = options.after ?? 0;
  const matches = (path: string | URL) => {
    const name = String(path).split("/").at(-1) ?? "";
    return name.includes(options.match);
  };
  /** Counts one write to a matching file; throws once the allowance is spent. */
  const write = () => {
    if (left-- <= 0) throw Object.assign(new Error(MESSAGES[code]), { code });
  };
  const openSync = Deno.openSync;
  const writeTextFile = Deno.writeTextFile;
  const writeTextFileSync = Deno.writeTextFileSync;
  Deno.openSync = (path, opts) => {
    const file = openSync(path, opts);
    if (matches(path)) {
      const real = file.writeSync.bind(file);
      file.writeSync = (bytes) => (write(), real(bytes));
    }
    return file;
  };
  Deno.writeTextFile = (path, data, opts) => {
    if (matches(path as string)) {
      try {
        write();
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return writeTextFile(path, data, opts);
  };
  Deno.writeTextFileSync = (path, data, opts) => {
    if (matches(path)) write();
    return writeTextFileSync(path, data, opts);
  };
  return () => {
    Deno.openSync = openSync;
    Deno.writeTextFile = writeTextFile;
    Deno.writeTextFileSync = writeTextFileSync;
  };
}

const fromEnv = Deno.env.get("COORDLAB_WRITE_FAULT");
if (fromEnv) injectWriteFaults(JSON.parse(fromEnv));

/**
 * Write failures of a run folder: a disk that is full (`ENOSPC`), failing
 * (`EIO`), read-only (`EROFS`), over its quota (`EDQUOT`), or a path that is
 * taken (`EISDIR`, `ENOTDIR`), ... A run that cannot write its folder stops
 * (no new episode starts), says which folder and file and why, and leaves
 * the folder resumable: the episodes whose logs were written stay, the
 * others are played again once the disk is fixed.
 *
 * @module
 */

/**
 * Whether an error is one of the operating system's (it carries an errno
 * code such as `"ENOSPC"`), as a failed write throws; errors of the toolkit
 * itself (a bad argument, a closed writer) are not.
 *
 * @example
 * ```ts
 * import { isOsError } from "./write_error.ts";
 * const full = Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
 * if (!isOsError(full) || isOsError(new TypeError("bad block"))) throw new Error();
 * ```
 */
export function isOsError(err: unknown): err is Error & { code: string } {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && typeof code === "string" && /^E[A-Z0-9]+$/.test(code);
}

/** Options of {@linkcode FolderWriteError}. */
export interface FolderWriteErrorOptions {
  /** The file being written. Default: the folder. */
  path?: string;
  /** What was being written, e.g. `"an episode log"`. Default `"a file"`. */
  what?: string;
}

/**
 * A run (or compaction output) folder could not be written: names the
 * folder, the file, and the operating system's error.
 *
 * @example
 * ```ts
 * import { FolderWriteError } from "./write_error.ts";
 * const full = Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
 * const e = new FolderWriteError("runs/x", full, { path: "runs/x/manifest.json", what: "the manifest" });
 * if (e.message !== 'Could not write the manifest "runs/x/manifest.json" in folder "runs/x": ' +
 *   "ENOSPC, No space left on device (os error 28)") throw new Error(e.message);
 * if (e.code !== "ENOSPC" || e.dir !== "runs/x") throw new Error();
 * ```
 */
export class FolderWriteError extends Error {
  /** The folder. */
  readonly dir: string;
  /** The file being written (the folder when not known). */
  readonly path: string;
  /** The operating system's error code, e.g. `"ENOSPC"`, or `null`. */
  readonly code: string | null;
  /** Builds the message from the folder, the error and what was written. */
  constructor(dir: string, cause: unknown, options: FolderWriteErrorOptions = {}) {
    const code = isOsError(cause) ? cause.code : null;
    const text = cause instanceof Error ? cause.message : String(cause);
    const path = options.path ?? dir;
    const file = path === dir ? "" : ` "${path}"`;
    super(
      `Could not write ${options.what ?? "a file"}${file} in folder "${dir}": ` +
        (code && !text.startsWith(code) ? `${code}, ${text}` : text),
      { cause },
    );
    this.name = "FolderWriteError";
    this.dir = dir;
    this.path = path;
    this.code = code;
  }
}

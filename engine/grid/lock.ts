/**
 * One writer per folder: a process that writes a run folder (a grid, a
 * compaction's output) holds its lock, `<folder>/writer.lock`, and a second
 * process is refused with a message naming the holder.
 *
 * The lock is an exclusive advisory lock of the operating system on that
 * file (`flock`), taken without waiting; the file records the holder's pid,
 * host, purpose and start time for the messages. The operating system drops
 * the lock when its process ends, however it ends (SIGKILL included), so a
 * lock file left by a dead process is stale by construction: the next
 * writer takes it over and reports whose it was. The file is removed on
 * release; an acquirer that locked a file removed meanwhile (its inode is no
 * longer at the path) tries again, so two processes never both hold it.
 *
 * Links are never followed: anything at the lock's path that is not a
 * regular file (a symbolic link above all, which could point a writer at
 * another file to overwrite) is refused with a message naming it, a new
 * lock file is created exclusively (which fails on a link, even a dangling
 * one), and an existing one is checked after opening (`lstat` of the path
 * against the opened file) before a byte is written.
 *
 * A lock file naming another host is refused (`FolderLockedError`, naming
 * the host and pid) unless `takeOver` is set: its process may be alive
 * there, on a file system whose locks do not reach across machines, and this
 * host cannot check. Take it over deliberately (`takeOver`, the grid's
 * `--take-over-lock`) once that process is known to have ended.
 *
 * Choices: the host comes from `Deno.hostname()` when the process may read
 * it (`--allow-sys=hostname`), else it is recorded as `null` (it only serves
 * the messages; the operating system's lock is what excludes); on a network
 * file system the lock is only as good as its locking (NFS v4 and Lustre lock
 * across clients; without working locks, use one folder per machine, as
 * shards do).
 *
 * @module
 */
import { join } from "node:path";

/**
 * File name of the lock in a folder.
 *
 * @example
 * ```ts
 * import { LOCK_FILE } from "./lock.ts";
 * if (LOCK_FILE !== "writer.lock") throw new Error();
 * ```
 */
export const LOCK_FILE = "writer.lock";

/** Who holds (or held) a lock. */
export interface LockHolder {
  /** Process id. */
  pid: number;
  /** Host name, or `null` when the process was not allowed to read it. */
  host: string | null;
  /** What it does, e.g. `"grid demo"`. */
  purpose: string;
  /** When it took the lock (ISO 8601). */
  since: string;
}

/**
 * A folder is being written by another process (or by another writer of
 * this one). Callers may branch on it, e.g. to wait and retry.
 *
 * @example
 * ```ts
 * import { FolderLockedError } from "./lock.ts";
 * const e = new FolderLockedError("runs/x", null);
 * if (!e.message.startsWith('Folder "runs/x" is being written by another process')) throw new Error(e.message);
 * ```
 */
export class FolderLockedError extends Error {
  /** The locked folder. */
  readonly dir: string;
  /** Its holder, when the lock file says. */
  readonly holder: LockHolder | null;
  /**
   * The host this process runs on, when the lock was refused because it names
   * another host (its process cannot be checked from here); else `undefined`.
   */
  readonly otherHost?: { here: string | null };
  /**
   * Builds the message from the folder and its holder; with `otherHost`, the
   * message says the holder's host is not this one and how to take over.
   */
  constructor(dir: string, holder: LockHolder | null, options: FolderLockedOptions = {}) {
    const who = holder
      ? `process ${holder.pid} on ${
        holder.host ?? "an unnamed host"
      } (${holder.purpose}, since ${holder.since})`
      : "another process";
    const here = options.otherHost?.here;
    super(
      options.otherHost && holder
        ? `Folder "${dir}" is locked by process ${holder.pid} on host "${holder.host}" ` +
          `(${holder.purpose}, since ${holder.since}), and this process runs on ${
            here === null ? "a host it may not read (--allow-sys=hostname)" : `"${here}"`
          }, so it cannot check whether that process still runs: if it has ended, take the ` +
          `lock over deliberately with --take-over-lock (runGrid option takeOverLock); ` +
          `else wait for it, or choose another folder`
        : `Folder "${dir}" is being written by ${who}: wait for it to finish, or choose another folder`,
    );
    this.name = "FolderLockedError";
    this.dir = dir;
    this.holder = holder;
    if (options.otherHost) this.otherHost = options.otherHost;
  }
}

/** Options of {@linkcode FolderLockedError}. */
export interface FolderLockedOptions {
  /** Set when the holder's host is not this one: this process's host (`null` when unknown). Default none. */
  otherHost?: { here: string | null };
}

/**
 * Something other than a regular file is at a folder's lock path (a
 * symbolic link, a folder): the lock refuses to follow or replace it.
 *
 * @example
 * ```ts
 * import { LockPathError } from "./lock.ts";
 * const e = new LockPathError("runs/x/writer.lock", "a symbolic link");
 * if (!e.message.startsWith('The lock file "runs/x/writer.lock" is a symbolic link')) throw new Error(e.message);
 * ```
 */
export class LockPathError extends Error {
  /** The lock path. */
  readonly path: string;
  /** Builds the message from the path and what is there. */
  constructor(path: string, what: string) {
    super(
      `The lock file "${path}" is ${what}, not a file of its own: a lock never follows a link ` +
        `or replaces what it finds; remove it if it is not yours, then run again`,
    );
    this.name = "LockPathError";
    this.path = path;
  }
}

/** A held lock. */
export interface FolderLock {
  /** The folder. */
  dir: string;
  /** This process, as written in the lock file. */
  holder: LockHolder;
  /** The holder of a stale lock file that was taken over (its process had ended), or `null`. */
  stale: LockHolder | null;
  /** Removes the lock file and releases the lock. Idempotent. */
  release(): void;
}

/** The holder a lock file names (it is one short JSON line), or `null`. */
function readHolder(file: Deno.FsFile): LockHolder | null {
  file.seekSync(0, Deno.SeekMode.Start);
  const buf = new Uint8Array(4096);
  let read = 0;
  while (read < buf.length) {
    const n = file.readSync(buf.subarray(read));
    if (n === null || n === 0) break;
    read += n;
  }
  try {
    const v = JSON.parse(new TextDecoder().decode(buf.subarray(0, read)));
    return typeof v?.pid === "number" ? v as LockHolder : null;
  } catch {
    return null;
  }
}

function hostName(): string | null {
  const sys = Deno.permissions.querySync({ name: "sys", kind: "hostname" });
  return sys.state === "granted" ? Deno.hostname() : null;
}

/** What is at a path without following a link: `undefined` when nothing. */
function lstatOf(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.lstatSync(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/** What is wrong with what is at the lock's path, or `null` for a regular file of one name. */
function refusal(info: Deno.FileInfo): string | null {
  if (info.isSymlink) return "a symbolic link";
  if (info.isDirectory) return "a folder";
  if (!info.isFile) return "a special file";
  // A second name of another file: writing the lock would overwrite that file.
  if (info.nlink !== null && info.nlink > 1) {
    return `a hard link (one of ${info.nlink} names of a file)`;
  }
  return null;
}

/** Whether `path` is (still) the very file `file` has open, checked without following links. */
function isAt(path: string, file: Deno.FsFile): boolean {
  const at = lstatOf(path);
  const open = file.statSync();
  return at !== undefined && refusal(at) === null && at.ino === open.ino && at.dev === open.dev;
}

/**
 * Opens the lock file without following a link: an exclusive create when
 * nothing is there, else an open checked against the path afterwards.
 * `null` when the path changed meanwhile (try again).
 */
function openLockFile(path: string): Deno.FsFile | null {
  const before = lstatOf(path);
  const wrong = before && refusal(before);
  if (wrong) throw new LockPathError(path, wrong);
  let file: Deno.FsFile;
  try {
    file = before === undefined
      ? Deno.openSync(path, { read: true, write: true, createNew: true })
      : Deno.openSync(path, { read: true, write: true });
  } catch (err) {
    // Created meanwhile (by another writer, or a link planted), or removed: look again.
    if (err instanceof Deno.errors.AlreadyExists || err instanceof Deno.errors.NotFound) {
      return null;
    }
    throw err;
  }
  if (!isAt(path, file)) {
    file.close();
    const now = lstatOf(path);
    const changed = now && refusal(now);
    if (changed) throw new LockPathError(path, changed);
    return null;
  }
  return file;
}

/** Options of {@linkcode lockFolder}. */
export interface LockFolderOptions {
  /**
   * Take over a lock file that names another host (whose process this host
   * cannot check) instead of refusing it. Only when that process is known to
   * have ended. Default `false`.
   */
  takeOver?: boolean;
}

/**
 * Takes the lock of a folder (creating the folder), without waiting.
 *
 * @example
 * ```ts
 * import { FolderLockedError, lockFolder } from "./lock.ts";
 * const dir = await Deno.makeTempDir();
 * const lock = lockFolder(dir, "demo");
 * try {
 *   lockFolder(dir, "second");
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e instanceof FolderLockedError) || e.holder?.pid !== Deno.pid) throw e;
 * }
 * lock.release();
 * lockFolder(dir, "again").release();
 * await Deno.remove(dir, { recursive: true });
 * ```
 * @throws {FolderLockedError} When another writer holds it, or (without `takeOver`) its lock file names another host.
 * @throws {LockPathError} When a symbolic link, a folder or anything but a regular file is at the lock's path.
 */
export function lockFolder(
  dir: string,
  purpose: string,
  options: LockFolderOptions = {},
): FolderLock {
  Deno.mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 10; attempt++) {
    const file = openLockFile(path);
    if (file === null) continue;
    let locked: boolean;
    try {
      locked = file.tryLockSync(true);
      if (!locked) throw new FolderLockedError(dir, readHolder(file));
    } catch (err) {
      file.close();
      throw err;
    }
    // The holder before us may have removed the file between our open and our lock.
    if (!isAt(path, file)) {
      file.close();
      continue;
    }
    const stale = readHolder(file);
    const host = hostName();
    if (stale !== null && stale.host !== null && stale.host !== host && !options.takeOver) {
      file.close();
      throw new FolderLockedError(dir, stale, { otherHost: { here: host } });
    }
    const holder: LockHolder = {
      pid: Deno.pid,
      host,
      purpose,
      since: new Date().toISOString(),
    };
    file.truncateSync(0);
    file.seekSync(0, Deno.SeekMode.Start);
    const bytes = new TextEncoder().encode(JSON.stringify(holder) + "\n");
    let done = 0;
    while (done < bytes.length) done += file.writeSync(bytes.subarray(done));
    let open = true;
    return {
      dir,
      holder,
      stale,
      release() {
        if (!open) return;
        open = false;
        try {
          if (isAt(path, file)) Deno.removeSync(path);
        } finally {
          file.close();
        }
      },
    };
  }
  throw new Error(`Could not lock folder "${dir}": its lock file kept being replaced`);
}

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
  /** Builds the message from the folder and its holder. */
  constructor(dir: string, holder: LockHolder | null) {
    const who = holder
      ? `process ${holder.pid} on ${
        holder.host ?? "an unnamed host"
      } (${holder.purpose}, since ${holder.since})`
      : "another process";
    super(
      `Folder "${dir}" is being written by ${who}: wait for it to finish, or choose another folder`,
    );
    this.name = "FolderLockedError";
    this.dir = dir;
    this.holder = holder;
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

function inode(path: string): number | null | undefined {
  try {
    return Deno.statSync(path).ino;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
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
 * ```
 * @throws {FolderLockedError} When another writer holds it.
 */
export function lockFolder(dir: string, purpose: string): FolderLock {
  Deno.mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 10; attempt++) {
    const file = Deno.openSync(path, { read: true, write: true, create: true });
    let locked: boolean;
    try {
      locked = file.tryLockSync(true);
      if (!locked) throw new FolderLockedError(dir, readHolder(file));
    } catch (err) {
      file.close();
      throw err;
    }
    // The holder before us may have removed the file between our open and our lock.
    if (inode(path) !== file.statSync().ino) {
      file.close();
      continue;
    }
    const stale = readHolder(file);
    const holder: LockHolder = {
      pid: Deno.pid,
      host: hostName(),
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
          if (inode(path) === file.statSync().ino) Deno.removeSync(path);
        } finally {
          file.close();
        }
      },
    };
  }
  throw new Error(`Could not lock folder "${dir}": its lock file kept being replaced`);
}

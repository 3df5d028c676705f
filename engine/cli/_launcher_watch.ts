/**
 * The child's side of a launcher killed outright. The launchers
 * (`_launch.ts`) run their command as a child in its own process group, and
 * forward the signals that stop it; a launcher killed outright (SIGKILL, the
 * kernel's OOM killer) forwards nothing, and the child would play on, and
 * spend, with no one to see it. So the launcher names itself to the child in
 * {@linkcode LAUNCHER_VARIABLE}, and the child watches its parent: once the
 * parent is no longer that process (the child was handed to another, as the
 * operating system does when a parent ends), it stops as for SIGHUP (a closed
 * terminal: no new episode, the folder resumes).
 *
 * Only a child started by a launcher watches: a command run directly (e.g.
 * under `nohup`, whose shell may end first) has no such variable, or no
 * permission to read it, and is not stopped by its parent's end.
 *
 * @module
 */

/** The variable a launcher sets to its own pid in its child's environment. */
export const LAUNCHER_VARIABLE = "COORDLAB_LAUNCHER_PID";

/** How often the child looks at its parent, in milliseconds. */
export const WATCH_MS = 500;

/**
 * The launcher's pid, when this process was started by a launcher (its
 * {@linkcode LAUNCHER_VARIABLE} is set, readable and a pid), else `null`.
 *
 * @example
 * ```ts
 * import { launcherPid } from "./_launcher_watch.ts";
 * if (launcherPid({ get: () => "123" }) !== 123 || launcherPid({ get: () => undefined }) !== null) {
 *   throw new Error();
 * }
 * ```
 * @throws {RangeError} When the variable is set but is not a pid (it is set only by a launcher).
 */
export function launcherPid(
  env: { get(name: string): string | undefined } = Deno.env,
): number | null {
  let text: string | undefined;
  try {
    text = env.get(LAUNCHER_VARIABLE);
  } catch {
    return null; // not granted: not started by a launcher, which grants it
  }
  if (text === undefined) return null;
  const pid = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(pid) || pid < 1) {
    throw new RangeError(
      `${LAUNCHER_VARIABLE} must be the launcher's pid (set by deno task grid or reproduce): ` +
        `received ${JSON.stringify(text)}`,
    );
  }
  return pid;
}

/**
 * Calls `onGone` once, with the launcher's pid, when this process's parent
 * is no longer its launcher (at once when it is not at the start), looking
 * every {@linkcode WATCH_MS}; does nothing unless started by a launcher
 * ({@linkcode launcherPid}). The timer does not keep the process alive.
 * Returns the function that stops watching.
 *
 * @example
 * ```ts
 * import { watchLauncher } from "./_launcher_watch.ts";
 * let gone = 0;
 * // A launcher that is not the parent has ended as far as this process can tell.
 * const stop = watchLauncher(() => gone++, { pid: Deno.ppid + 1, parent: () => Deno.ppid });
 * stop();
 * if (gone !== 1) throw new Error();
 * ```
 */
export function watchLauncher(
  onGone: (pid: number) => void,
  options: { pid?: number | null; parent?: () => number; everyMs?: number } = {},
): () => void {
  const pid = options.pid === undefined ? launcherPid() : options.pid;
  if (pid === null) return () => {};
  const parent = options.parent ?? (() => Deno.ppid);
  if (parent() !== pid) {
    onGone(pid);
    return () => {};
  }
  const timer = setInterval(() => {
    if (parent() === pid) return;
    clearInterval(timer);
    onGone(pid);
  }, options.everyMs ?? WATCH_MS);
  Deno.unrefTimer(timer);
  return () => clearInterval(timer);
}

/**
 * {@linkcode watchLauncher} as the commands use it: once the launcher has
 * ended, one line says so on stderr and `hangUp` stops the run as SIGHUP
 * would (no new episode; the folder resumes). Returns the function that
 * stops watching.
 *
 * @example
 * ```ts
 * import { stopWhenLauncherEnds } from "./_launcher_watch.ts";
 * // Not started by a launcher (no COORDLAB_LAUNCHER_PID): nothing is watched.
 * const unwatch = stopWhenLauncherEnds(() => {
 *   throw new Error("stopped");
 * });
 * unwatch();
 * ```
 */
export function stopWhenLauncherEnds(hangUp: () => void): () => void {
  return watchLauncher((pid) => {
    console.error(
      `\nThe launcher (process ${pid}) has ended without passing on a signal (killed outright): ` +
        `stopping as for SIGHUP.`,
    );
    hangUp();
  });
}

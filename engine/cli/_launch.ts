/**
 * The launchers' common part (`deno task grid`, `deno task reproduce`): a
 * command run as a child Deno with exactly the permissions its arguments
 * need, after the key variables of the models it will call are checked.
 *
 * The child is `deno run --config=<the toolkit's deno.json> <the narrow
 * flags> <script> <the same arguments>` (the config names the toolkit's
 * `node_modules`, where Polars' addon lies, whatever the working folder). It
 * runs in its own process group, so a Ctrl-C in the terminal reaches it once,
 * through the launcher, not twice (a second Ctrl-C abandons the episodes in
 * flight). SIGINT, SIGTERM and SIGHUP are forwarded to it, each once per
 * burst: the same signal again within {@linkcode REPEAT_MS} of the last one
 * forwarded is the same Ctrl-C delivered again (the terminal sends it to
 * every process of its group, and `npx` and `deno task` each forward it to
 * their child, so `npx -y deno@2.9.6 task grid` received one Ctrl-C three
 * times), and is not forwarded. The launcher exits
 * with its exit code, or 128 + the signal's number when a signal ended it. A
 * launcher killed outright (SIGKILL, which cannot be forwarded) cannot stop
 * the child itself: it names itself to the child instead
 * (`_launcher_watch.ts`: its pid in `COORDLAB_LAUNCHER_PID`, the one variable
 * the child is granted beyond what its command needs), and the child stops
 * as for SIGHUP within about half a second of the launcher's end.
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import type { ModelConfig } from "../agents/llm/model_config.ts";
import { missingKey, narrowFlags, type Needs } from "./_permissions.ts";
import { LAUNCHER_VARIABLE } from "./_launcher_watch.ts";

/** The toolkit's config, for the child (its `nodeModulesDir`, its lock file). */
const CONFIG = fileURLToPath(new URL("../../deno.json", import.meta.url));

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * A signal repeated within this many milliseconds of the one forwarded is
 * the same interrupt delivered again (by the terminal and the wrappers
 * around the launcher), not a second Ctrl-C.
 *
 * @example
 * ```ts
 * import { REPEAT_MS } from "./_launch.ts";
 * if (REPEAT_MS !== 250) throw new Error();
 * ```
 */
export const REPEAT_MS = 250;
const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/** What {@linkcode launch} grants the child, and whose keys it checks first. */
export interface LaunchPlan {
  /** The permissions the child gets beyond reading (`narrowFlags`). */
  needs: Needs;
  /** The models the child will call: a key variable unset or blank ends here, exit 2. */
  keyed: readonly ModelConfig[];
}

/**
 * Runs `script` with `args` as a child Deno with exactly `plan.needs`, and
 * returns its exit code (128 + the signal's number when a signal ended it).
 * When a model of `plan.keyed` has its key variable unset or blank, prints
 * `missingKey`'s message and returns 2 without starting the child.
 *
 * @example
 * ```ts
 * import { launch } from "./_launch.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/child.ts`,
 *   'await Deno.writeTextFile(Deno.args[0], "ok"); Deno.exit(3);');
 * const none = { write: [], net: [], env: [], sys: [], ffi: null };
 * // Writing outside the granted folder is refused: the child fails (exit 1).
 * if (await launch(`${dir}/child.ts`, [`${dir}/out.txt`], { needs: none, keyed: [] }) !== 1) {
 *   throw new Error("the child wrote without permission");
 * }
 * const needs = { ...none, write: [dir] };
 * if (await launch(`${dir}/child.ts`, [`${dir}/out.txt`], { needs, keyed: [] }) !== 3) {
 *   throw new Error("not the child's exit code");
 * }
 * if (await Deno.readTextFile(`${dir}/out.txt`) !== "ok") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function launch(
  script: string,
  args: readonly string[],
  plan: LaunchPlan,
): Promise<number> {
  const missing = missingKey(plan.keyed, (name) => Deno.env.get(name));
  if (missing) {
    console.error(missing);
    return 2;
  }
  // The child reads the launcher's pid, to stop once the launcher has ended (`_launcher_watch.ts`).
  const needs = { ...plan.needs, env: [...plan.needs.env, LAUNCHER_VARIABLE] };
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", `--config=${CONFIG}`, ...narrowFlags(needs), script, ...args],
    env: { [LAUNCHER_VARIABLE]: String(Deno.pid) },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
    detached: true,
  }).spawn();
  const forwarders = SIGNALS.map((signal) => {
    let last = -Infinity;
    const forward = () => {
      const now = performance.now();
      if (now - last < REPEAT_MS) return;
      last = now;
      try {
        child.kill(signal);
      } catch {
        // The child has ended; its status is on the way.
      }
    };
    Deno.addSignalListener(signal, forward);
    return () => Deno.removeSignalListener(signal, forward);
  });
  try {
    const status = await child.status;
    if (status.signal === null) return status.code;
    if (!(SIGNALS as readonly string[]).includes(status.signal)) {
      // Killed outright (SIGKILL, the kernel's OOM killer): the child could say nothing.
      console.error(
        `The command was ended by ${status.signal}: what it had in flight is lost (an episode ` +
          `not yet written plays again), everything written stays; run the same command again ` +
          `to resume.`,
      );
    }
    return 128 + (SIGNAL_NUMBERS[status.signal] ?? 0);
  } finally {
    for (const remove of forwarders) remove();
  }
}

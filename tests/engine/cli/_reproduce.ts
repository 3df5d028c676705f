// Test helper: deno task reproduce's launcher and command as child processes
// (reproduce_test.ts, reproduce_signal_long_test.ts).
import { assert } from "../../_assert.ts";
import { writeLocalModels } from "./_llm_grid.ts";

/** The repository's root folder, with a trailing `/`. */
export const ROOT = new URL("../../../", import.meta.url).pathname;
/** reproduce.ts's path. */
export const SCRIPT = `${ROOT}engine/cli/reproduce.ts`;
/** The launcher, from the root (the task's last word). */
export const LAUNCHER = "engine/cli/launch_reproduce.ts";

/** The reproduce task's flags (deno.json): the launcher's. */
export async function taskFlags(): Promise<string[]> {
  const text = await Deno.readTextFile(`${ROOT}/deno.json`);
  const json = text.split("\n").filter((l) => !l.trimStart().startsWith("//")).join("\n");
  const task: string = JSON.parse(json).tasks.reproduce;
  assert(task.endsWith(` ${LAUNCHER}`), task);
  return task.split(" ").filter((w) => w.startsWith("--"));
}

/** A finished child: its exit code, stdout and stderr. */
export type Ran = { code: number; out: string; err: string };
/** A child's output as text. */
export const decode = (r: Deno.CommandOutput): Ran => {
  const d = new TextDecoder();
  return { code: r.code, out: d.decode(r.stdout), err: d.decode(r.stderr) };
};

/** The launcher as the task runs it (its flags, the toolkit's config), in `cwd`. */
export async function reproduce(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Ran> {
  return decode(
    await new Deno.Command(Deno.execPath(), {
      args: ["run", `--config=${ROOT}deno.json`, ...(await taskFlags()), ROOT + LAUNCHER, ...args],
      cwd,
      env: { NO_COLOR: "1", ...env },
      stdout: "piped",
      stderr: "piped",
    }).output(),
  );
}

/** reproduce.ts itself, run in `cwd` with `flags` only. */
export async function reproduceDirectly(
  cwd: string,
  args: string[],
  flags: string[],
): Promise<Ran> {
  return decode(
    await new Deno.Command(Deno.execPath(), {
      args: ["run", `--config=${ROOT}deno.json`, ...flags, SCRIPT, ...args],
      cwd,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output(),
  );
}

/** `deno task --quiet reproduce <args>`, as a user types it (the task runs in the toolkit's folder). */
export async function task(args: string[], env: Record<string, string>): Promise<Ran> {
  return decode(
    await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "reproduce", ...args],
      cwd: ROOT,
      env: { NO_COLOR: "1", ...env },
      stdout: "piped",
      stderr: "piped",
    }).output(),
  );
}

/**
 * A one-model models file for `baseURL` and a small Stag Hunt design (two
 * cells), in `dir`; returns the arguments that name them.
 */
export async function llmInputs(
  dir: string,
  baseURL: string,
  keyVariable: string,
  { T = [1], episodes = 3 } = {},
) {
  await writeLocalModels(dir, baseURL, keyVariable, { provider: "local" });
  await Deno.writeTextFile(
    `${dir}/spec.json`,
    JSON.stringify({
      name: "tiny",
      episodes,
      blocks: [{ game: "staghunt", N: [5], M: [3], T, F: [1, 4], agents: [{ model: "local" }] }],
    }),
  );
  return ["staghunt", "--spec", `${dir}/spec.json`, "--models", `${dir}/models.json`];
}

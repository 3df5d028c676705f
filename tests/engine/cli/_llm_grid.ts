// Test helper: a small LLM grid for deno task grid's launcher
// (permissions_test.ts, permissions_signal_long_test.ts, launcher_kill_long_test.ts) and its models file (also _reproduce.ts).

import { makeTempDir } from "../../_temp.ts";

/**
 * `dir/models.json` with one model, "local": the local server's
 * "coordlab-defensive" preset at `baseURL`, its key in `keyVariable`, and
 * `extra` members (e.g. a provider).
 */
export async function writeLocalModels(
  dir: string,
  baseURL: string,
  keyVariable: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const model = {
    id: "local",
    baseURL,
    model: "coordlab-defensive",
    testDouble: true,
    apiKeyEnv: keyVariable,
    ...extra,
  };
  await Deno.writeTextFile(`${dir}/models.json`, JSON.stringify({ models: [model] }));
}

/**
 * A Stag Hunt spec named "launch" (one episode of one turn; four of more
 * turns unless `episodes` says) and a models file for `server`, in a fresh
 * folder outside runs/.
 */
export async function llmGrid(
  baseURL: string,
  keyVariable: string,
  turns = 1,
  episodes = turns === 1 ? 1 : 4,
) {
  const dir = await makeTempDir({ prefix: "coordlab-launch-" });
  await writeLocalModels(dir, baseURL, keyVariable);
  await Deno.writeTextFile(
    `${dir}/spec.json`,
    JSON.stringify({
      name: "launch",
      episodes,
      blocks: [{
        game: "staghunt",
        N: [3],
        M: [2],
        T: [turns],
        F: [1],
        agents: [{ model: "local" }],
      }],
    }),
  );
  const args = [
    "--spec",
    `${dir}/spec.json`,
    "--models",
    `${dir}/models.json`,
    "--out",
    `${dir}/run`,
    "--cache",
    `${dir}/cache`,
    "--no-progress",
  ];
  return { dir, args };
}

const ROOT = new URL("../../../", import.meta.url).pathname;

/**
 * `deno task grid`'s launcher (`engine/cli/launch_grid.ts`) with `args`, run
 * from the repository with only `env` beside the inherited environment and
 * colours off, its output piped.
 */
export function launcherCommand(args: readonly string[], env: Record<string, string>) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}/engine/cli/launch_grid.ts`, ...args],
    cwd: ROOT,
    env: { ...env, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  });
}

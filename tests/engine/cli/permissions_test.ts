// Least privilege: the tasks grant only what their commands need; `deno task
// grid` and `deno task reproduce` run their command as a child with exactly
// the permissions its arguments need, derived by the launcher.
import { assert, assertEquals } from "../../_assert.ts";
import {
  addonFolder,
  gridNeeds,
  missingKey,
  narrowFlags,
} from "../../../engine/cli/_permissions.ts";
import {
  readReproduceCommand,
  reproduceModels,
  reproduceNeeds,
} from "../../../engine/cli/_reproduce_args.ts";
import { parseModelConfigs } from "../../../engine/agents/llm/model_config.ts";
import { serveLocalModel } from "../../../engine/agents/llm/server/local_server.ts";
import { readRunEpisodes } from "../../../engine/grid/segments.ts";
import { llmGrid } from "./_llm_grid.ts";
import { makeTempDir } from "../../_temp.ts";

const ROOT = new URL("../../../", import.meta.url).pathname;

/** The deno.json tasks (the file is JSONC: whole-line comments). */
async function tasks(): Promise<Record<string, string>> {
  const text = await Deno.readTextFile(`${ROOT}/deno.json`);
  const json = text.split("\n").filter((l) => !l.trimStart().startsWith("//")).join("\n");
  return JSON.parse(json).tasks;
}

const flagsOf = (task: string) => task.split(" ").filter((w) => w.startsWith("--allow-")).sort();

Deno.test("deno.json tasks grant ffi and sys only where Polars or the folder lock needs them, scoped", async () => {
  const t = await tasks();
  assertEquals(flagsOf(t.demo), ["--allow-read", "--allow-write=runs"]);
  // The launcher: reading, starting the grid child, and checking key variables.
  assertEquals(flagsOf(t.grid), ["--allow-env", "--allow-read", "--allow-run"]);
  assert(t.grid.endsWith(" engine/cli/launch_grid.ts"), t.grid);
  // The same launcher's permissions for a paper's reproduction.
  assertEquals(flagsOf(t.reproduce), ["--allow-env", "--allow-read", "--allow-run"]);
  assert(t.reproduce.endsWith(" engine/cli/launch_reproduce.ts"), t.reproduce);
  assertEquals(flagsOf(t.compact), [
    "--allow-ffi=node_modules",
    "--allow-read",
    "--allow-sys=cpus,networkInterfaces,hostname",
    "--allow-write=runs",
  ]);
  for (const name of ["demo", "compact", "bench", "bench:grid", "bench:staghunt"]) {
    assert(t[name].includes("--no-prompt"), name);
    assert(!/--allow-(net|env|run|sys|ffi)(\s|$)/.test(t[name]), `${name} grants a whole class`);
  }
  assert(t.test.includes("--ignore='tests/**/*_long_test.ts'"));
  assert(t["test:long"].endsWith("'tests/**/*_long_test.ts'"));
});

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("gridNeeds() grants the output and cache folders, each host and key variable once", () => {
  const models = parseModelConfigs([
    { id: "a", baseURL: "https://api.example.com/v1", model: "x", apiKeyEnv: "K" },
    { id: "b", baseURL: "https://api.example.com/v1", model: "y", apiKeyEnv: "K" },
    { id: "c", baseURL: "http://127.0.0.1:9/v1", model: "z" },
  ]);
  const spec = {
    name: "g",
    blocks: [{ game: "frail", envs: ["bank_run"], agents: [{ model: "a" }, { model: "b" }] }],
  };
  const needs = gridNeeds(spec, models, { out: "/tmp/o", cache: "/tmp/c" });
  assertEquals(needs, {
    write: ["/tmp/o", "/tmp/c"],
    net: ["api.example.com"],
    env: ["K"],
    sys: ["hostname"],
    ffi: null,
  });
  assertEquals(gridNeeds(spec, models, { shard: "1/4" }).write, ["runs/g/shard-1-of-4"]);
  assertEquals(narrowFlags(needs), [
    "--no-prompt",
    "--allow-read",
    "--allow-write=/tmp/o,/tmp/c",
    "--allow-net=api.example.com",
    "--allow-env=K",
    "--allow-sys=hostname",
  ]);
  assertEquals(
    missingKey(models, () => " "),
    'The API key variable K of model "a" is not set: export K=... before running the grid.',
  );
  assertEquals(missingKey(models, () => "sk-1"), null);
});

Deno.test("reproduceNeeds() grants a run its folders, the hosts and key variables it calls, and a dry run or a pack rebuild no network", async () => {
  const dir = await makeTempDir({ prefix: "coordlab-needs-" });
  try {
    await Deno.writeTextFile(
      `${dir}/models.json`,
      JSON.stringify({
        models: [
          { id: "a", baseURL: "https://api.example.com/v1", model: "x", apiKeyEnv: "K" },
          { id: "b", baseURL: "https://api.example.com/v1", model: "y", apiKeyEnv: "K" },
          { id: "unused", baseURL: "https://other.example.com/v1", model: "z", apiKeyEnv: "U" },
        ],
      }),
    );
    await Deno.writeTextFile(
      `${dir}/spec.json`,
      JSON.stringify({
        name: "r",
        blocks: [{ game: "frail", envs: ["bank_run"], agents: [{ model: "a" }, { model: "b" }] }],
      }),
    );
    const args = ["frail", "--spec", `${dir}/spec.json`, "--models", `${dir}/models.json`];
    const polars = {
      sys: ["cpus", "networkInterfaces", "hostname"],
      ffi: addonFolder(),
    };
    const run = await readReproduceCommand([
      ...args,
      "--out",
      "/tmp/o",
      "--cache",
      "/tmp/c",
      "--pack",
      "/tmp/o/p.tar",
    ]);
    assertEquals(reproduceNeeds(run), {
      write: ["/tmp/o", "/tmp/c", "/tmp/o/p.tar"],
      net: ["api.example.com"],
      env: ["K"],
      ...polars,
    });
    assertEquals(reproduceModels(run).map((m) => m.id), ["a", "b"]);
    // The default folder, and a pack elsewhere: the file, not its folder.
    const pack = await readReproduceCommand([...args, "--pack", "x.tar"]);
    assertEquals(reproduceNeeds(pack).write, ["runs/reproduce-frail", "x.tar"]);
    const dry = await readReproduceCommand([...args, "--cache", "/tmp/c", "--dry-run"]);
    assertEquals(reproduceNeeds(dry), { write: [], net: [], env: [], ...polars });
    assertEquals(reproduceModels(dry), []);
    const mock = await readReproduceCommand(["frail", "--spec", `${dir}/spec.json`]);
    assertEquals(reproduceNeeds(mock), {
      write: ["runs/reproduce-frail-mock"],
      net: [],
      env: [],
      ...polars,
    });
    const rebuild = await readReproduceCommand(["--from-pack", `${dir}/r.tar`]);
    assertEquals(reproduceNeeds(rebuild), { write: ["runs/r"], net: [], env: [], ...polars });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task grid runs an LLM grid into a folder outside runs/, with no command to copy", async () => {
  const key = `sk-test-${crypto.randomUUID()}`;
  const server = serveLocalModel({ apiKey: key, seed: 3 });
  const { dir, args } = await llmGrid(server.url, "LAUNCH_TEST_KEY");
  try {
    const ran = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "grid", ...args],
      cwd: ROOT,
      env: { LAUNCH_TEST_KEY: key, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const out = text(ran.stdout) + text(ran.stderr);
    assertEquals(ran.code, 0, out);
    assert(!out.includes("deno run") && !out.includes("needs permissions"), out);
    assert(out.includes(`launch: 1/1 episodes finished in ${dir}/run`), out);
    assertEquals((await readRunEpisodes(`${dir}/run`)).size, 1);
    assert(server.stats().chat > 0);
    assert((await Array.fromAsync(Deno.readDir(`${dir}/cache`))).length > 0);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task grid with a key variable unset exits 2 naming it and its model, before any permission error", async () => {
  const server = serveLocalModel({ apiKey: "sk-x" });
  const { dir, args } = await llmGrid(server.url, "LAUNCH_TEST_UNSET_KEY");
  try {
    const ran = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "grid", ...args],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(ran.code, 2);
    assertEquals(text(ran.stdout), "");
    assertEquals(
      text(ran.stderr),
      'The API key variable LAUNCH_TEST_UNSET_KEY of model "local" is not set: ' +
        "export LAUNCH_TEST_UNSET_KEY=... before running the grid.\n",
    );
    assertEquals(server.stats().chat, 0);
    await Deno.stat(`${dir}/run`).then(() => assert(false, "the run folder was created"), () => {});
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task grid --dry-run --cache reads the cache with read access only and makes no folder", async () => {
  const { dir } = await llmGrid("http://127.0.0.1:9/v1", "LAUNCH_TEST_DRY_KEY");
  try {
    const ran = await new Deno.Command(Deno.execPath(), {
      args: [
        "task",
        "--quiet",
        "grid",
        "--spec",
        `${dir}/spec.json`,
        "--models",
        `${dir}/models.json`,
        "--cache",
        `${dir}/no-cache-yet`,
        "--dry-run",
      ],
      cwd: ROOT,
      env: { LAUNCH_TEST_DRY_KEY: "sk-dry", NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(ran.code, 0, text(ran.stdout) + text(ran.stderr));
    assert(text(ran.stdout).includes("cache"), text(ran.stdout));
    await Deno.stat(`${dir}/no-cache-yet`).then(
      () => assert(false, "the dry run made the cache folder"),
      () => {},
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task grid lets a run read SLURM_CPUS_PER_TASK, so its workers follow the allocation", async () => {
  const dir = await makeTempDir({ prefix: "coordlab-launch-" });
  try {
    await Deno.writeTextFile(
      `${dir}/spec.json`,
      JSON.stringify({
        name: "slurm-workers",
        episodes: 1,
        blocks: [{ game: "staghunt", N: [3], M: [2], T: [1], F: [1] }],
      }),
    );
    const ran = await new Deno.Command(Deno.execPath(), {
      args: [
        "task",
        "--quiet",
        "grid",
        "--spec",
        `${dir}/spec.json`,
        "--out",
        `${dir}/run`,
        "--no-progress",
      ],
      cwd: ROOT,
      env: { SLURM_CPUS_PER_TASK: "1", NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(ran.code, 0, text(ran.stdout) + text(ran.stderr));
    assert(
      text(ran.stdout).startsWith("Workers: 1 (SLURM_CPUS_PER_TASK=1; --workers K to choose)\n"),
      text(ran.stdout),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

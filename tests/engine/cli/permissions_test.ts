// Least privilege: the tasks grant only what their commands need, and a grid
// that needs more prints the exact narrow command, which then runs.
import { assert, assertEquals } from "../../_assert.ts";
import { serveLocalModel } from "../../../engine/agents/llm/server/local_server.ts";
import { readRunEpisodes } from "../../../engine/grid/segments.ts";

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
  assertEquals(flagsOf(t.grid), ["--allow-read", "--allow-sys=hostname", "--allow-write=runs"]);
  assertEquals(flagsOf(t.compact), [
    "--allow-ffi=node_modules",
    "--allow-read",
    "--allow-sys=cpus,networkInterfaces,hostname",
    "--allow-write=runs",
  ]);
  for (const name of ["demo", "grid", "compact", "bench", "bench:grid", "bench:staghunt"]) {
    assert(t[name].includes("--no-prompt"), name);
    assert(!/--allow-(net|env|run|sys|ffi)(\s|$)/.test(t[name]), `${name} grants a whole class`);
  }
  assert(t.test.includes("--ignore='tests/**/*_long_test.ts'"));
  assert(t["test:long"].endsWith("'tests/**/*_long_test.ts'"));
});

Deno.test("an LLM grid under the grid task's permissions prints the narrow command, which runs it", async () => {
  const key = `sk-test-${crypto.randomUUID()}`;
  const server = serveLocalModel({ apiKey: key, seed: 3 });
  const dir = await Deno.makeTempDir({ prefix: "coordlab-perm-" });
  try {
    await Deno.writeTextFile(
      `${dir}/models.json`,
      JSON.stringify({
        models: [{
          id: "local",
          baseURL: server.url,
          model: "coordlab-defensive",
          apiKeyEnv: "PERM_TEST_KEY",
        }],
      }),
    );
    await Deno.writeTextFile(
      `${dir}/spec.json`,
      JSON.stringify({
        name: "perm",
        episodes: 1,
        blocks: [{
          game: "staghunt",
          N: [3],
          M: [2],
          T: [1],
          F: [1],
          agents: [{ model: "local" }],
        }],
      }),
    );
    const args = [
      "engine/cli/grid.ts",
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
    const refused = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        "--allow-read",
        "--allow-write=runs",
        "--allow-sys=hostname",
        ...args,
      ],
      cwd: ROOT,
      env: { PERM_TEST_KEY: key },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(refused.code, 2);
    const stderr = new TextDecoder().decode(refused.stderr);
    const host = new URL(server.url).host;
    assert(
      stderr.startsWith(
        `This command needs permissions it was not given: write to "${dir}/run", write to ` +
          `"${dir}/cache", network access to ${host}, variable PERM_TEST_KEY.`,
      ),
      stderr,
    );
    const command = stderr.split("\n").find((l) => l.startsWith("  deno run "))!.trim();
    assertEquals(
      command,
      `deno run --no-prompt --allow-read --allow-write=${dir}/run,${dir}/cache ` +
        `--allow-net=${host} --allow-env=PERM_TEST_KEY --allow-sys=hostname ${args.join(" ")}`,
    );
    assertEquals(server.stats().chat, 0);
    const ran = await new Deno.Command(Deno.execPath(), {
      args: command.split(" ").slice(1),
      cwd: ROOT,
      env: { PERM_TEST_KEY: key },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(ran.code, 0, new TextDecoder().decode(ran.stderr));
    assertEquals((await readRunEpisodes(`${dir}/run`)).size, 1);
    assert(server.stats().chat > 0);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

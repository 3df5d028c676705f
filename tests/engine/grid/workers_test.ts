// Workers follow the allocation: with no --workers, a mock grid uses Slurm's
// SLURM_CPUS_PER_TASK when set (and readable), else the cores available, and
// says which in its first line.
import { assert, assertEquals, assertThrows } from "../../_assert.ts";
import { defaultWorkers } from "../../../engine/grid/run_grid.ts";
import { GRID_CLI as CLI, text } from "./_grid_fixture.ts";
import { makeTempDir } from "../../_temp.ts";

async function grid(env: Record<string, string>, allowEnv: boolean) {
  const dir = await makeTempDir({ prefix: "coordlab-workers-" });
  const spec = `${dir}/spec.json`;
  await Deno.writeTextFile(
    spec,
    JSON.stringify({
      name: "alloc",
      episodes: 5,
      blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0", "M3"] }],
    }),
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--allow-read",
      `--allow-write=${dir}`,
      "--allow-sys=hostname",
      ...(allowEnv ? ["--allow-env=SLURM_CPUS_PER_TASK"] : []),
      CLI,
      "--spec",
      spec,
      "--out",
      `${dir}/run`,
      "--no-progress",
    ],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const segments = [...Deno.readDirSync(`${dir}/run`)].filter((e) => e.name.endsWith(".ndjson"));
  await Deno.remove(dir, { recursive: true });
  return {
    code: out.code,
    stdout: text(out.stdout),
    stderr: text(out.stderr),
    segments: segments.length,
  };
}

Deno.test("the grid command without --workers uses SLURM_CPUS_PER_TASK and says so", async () => {
  const r = await grid({ SLURM_CPUS_PER_TASK: "3" }, true);
  assertEquals(r.code, 0, r.stderr);
  assert(
    r.stdout.startsWith("Workers: 3 (SLURM_CPUS_PER_TASK=3; --workers K to choose)\n"),
    r.stdout,
  );
  assertEquals(r.segments, 3, "one segment per worker");
});

Deno.test("the grid command without --workers, and without leave to read SLURM_CPUS_PER_TASK, uses the cores and says why", async () => {
  const r = await grid({ SLURM_CPUS_PER_TASK: "1" }, false);
  assertEquals(r.code, 0, r.stderr);
  const cores = navigator.hardwareConcurrency;
  assert(
    r.stdout.startsWith(
      `Workers: ${cores} (${cores} cores available (SLURM_CPUS_PER_TASK not read: no ` +
        "--allow-env=SLURM_CPUS_PER_TASK); --workers K to choose)\n",
    ),
    r.stdout,
  );
  assertEquals(r.segments, Math.min(cores, 10));
});

Deno.test("defaultWorkers() reads SLURM_CPUS_PER_TASK, refuses a bad one, and falls to the cores when unset", () => {
  const before = Deno.env.get("SLURM_CPUS_PER_TASK");
  try {
    Deno.env.set("SLURM_CPUS_PER_TASK", "5");
    assertEquals(defaultWorkers(), { workers: 5, from: "SLURM_CPUS_PER_TASK=5" });
    Deno.env.set("SLURM_CPUS_PER_TASK", "two");
    assertThrows(
      () => defaultWorkers(),
      RangeError,
      'SLURM_CPUS_PER_TASK must be an integer >= 1, got "two"',
    );
    Deno.env.delete("SLURM_CPUS_PER_TASK");
    const cores = navigator.hardwareConcurrency;
    assertEquals(defaultWorkers(), { workers: cores, from: `${cores} cores available` });
  } finally {
    if (before === undefined) Deno.env.delete("SLURM_CPUS_PER_TASK");
    else Deno.env.set("SLURM_CPUS_PER_TASK", before);
  }
});

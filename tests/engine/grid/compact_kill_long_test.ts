// Long group: compaction killed with SIGKILL at seeded random points, at
// least 20 times, never leaves fewer loadable episodes than before it
// started; the next complete compaction leaves no leftovers.
import { assert, assertEquals } from "../../_assert.ts";
import { loadRuns } from "../../../analysis/load/load_runs.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { COMPACT_CLI as CLI, ROOT } from "./_grid_fixture.ts";
import { makeTempDir } from "../../_temp.ts";

const KILLS = 20;

const SPEC = {
  name: "killed-compaction",
  seed: 11,
  episodes: 10,
  blocks: [
    { game: "frail", envs: ["bank_run", "debt_rollover"] },
    { game: "staghunt", N: [5], M: [3], F: [1, 2] },
  ],
};

function compact(input: string, out: string) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", CLI, input, "--out", out],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
  });
}

/** A seeded uniform in [0, 1) (mulberry32), so the kill schedule is the same every run. */
function uniforms(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends SIGKILL, tolerating only the race in which the child has already
 * exited on its own (Deno throws a TypeError then); anything else is thrown.
 */
function killUnlessExited(child: Deno.ChildProcess): void {
  try {
    child.kill("SIGKILL");
  } catch (e) {
    if (!(e instanceof TypeError && /already terminated/.test(e.message))) throw e;
  }
}

Deno.test("compaction killed at 20 random points never leaves fewer loadable episodes than before", async () => {
  const tmp = await makeTempDir({ prefix: "coordlab-compact-kill-" });
  const input = `${tmp}/run`;
  const out = `${tmp}/run-parquet`;
  const r = await runGrid(SPEC, { out: input, workers: 0, progress: false });
  const total = r.played;
  assertEquals(total, (8 + 2) * 10);

  // A complete compaction first; its duration bounds the kill points.
  const t0 = performance.now();
  const done = await compact(input, out).output();
  const duration = performance.now() - t0;
  assertEquals(done.code, 0, new TextDecoder().decode(done.stderr));
  const baseline = await loadRuns(out, { frames: ["decisions"] });
  assertEquals(baseline.episodes.height, total);
  const decisions = baseline.decisions!.height;

  const next = uniforms(20260101);
  let kills = 0;
  for (let attempt = 0; kills < KILLS && attempt < 4 * KILLS; attempt++) {
    const child = compact(input, out).spawn();
    const exited = child.status.then(() => true);
    const finished = await Promise.race([exited, sleep(next() * duration).then(() => false)]);
    if (!finished) killUnlessExited(child);
    // Counted from how the child ended, not from the attempt: it can exit
    // between the timer firing and the kill reaching it.
    if ((await child.output()).signal === "SIGKILL") kills++;
    const now = await loadRuns(out, { frames: ["decisions"] });
    assertEquals(now.episodes.height, total, `after attempt ${attempt}`);
    assertEquals(now.decisions!.height, decisions, `after attempt ${attempt}`);
  }
  assert(kills >= KILLS, `only ${kills} compactions were killed before they finished`);

  // A complete compaction cleans up after every killed one.
  const last = await compact(input, out).output();
  assertEquals(last.code, 0, new TextDecoder().decode(last.stderr));
  const names = (await Array.fromAsync(Deno.readDir(out))).map((e) => e.name);
  assertEquals(names.length, 2, names.join(", "));
  assert(names.includes("compacted.json"));
  const hidden = (await Array.fromAsync(Deno.readDir(tmp))).filter((e) => e.name.startsWith("."));
  assertEquals(hidden, []);
  assertEquals((await loadRuns(out)).episodes.height, total);
  await Deno.remove(tmp, { recursive: true });
});

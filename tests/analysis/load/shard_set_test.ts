// Shards that cannot lie: a folder of shard folders loads, or compacts, only
// as its whole grid, each episode once; anything else is an error naming the
// shards (or, with partial: true, a warning and complete: false).
import { assert, assertEquals, assertRejects } from "../../_assert.ts";
import { loadRuns, loadRunsLazy, ShardSetError } from "../../../analysis/load/load_runs.ts";
import { compactRun } from "../../../analysis/load/compact.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { readManifest } from "../../../engine/grid/manifest.ts";
import { episodesHash } from "../../../engine/grid/shard.ts";
import { planGrid } from "../../../engine/grid/plan.ts";
import { makeTempDir } from "../../_temp.ts";

const SPEC = {
  name: "sharded",
  seed: 3,
  episodes: 4,
  blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0", "M3"] }],
};

async function shard(root: string, index: number, count: number, name = `shard-${index}`) {
  const out = `${root}/${name}`;
  await runGrid(SPEC, { out, shard: { index, count }, workers: 0, progress: false });
  return out;
}

/** Runs `fn` with console.warn captured. */
async function warned<T>(fn: () => Promise<T>): Promise<[T, string[]]> {
  const lines: string[] = [];
  const warn = console.warn;
  console.warn = (...a: unknown[]) => void lines.push(a.join(" "));
  try {
    return [await fn(), lines];
  } finally {
    console.warn = warn;
  }
}

const sortedRows = (df: Awaited<ReturnType<typeof loadRuns>>["episodes"]) =>
  df.drop("file").sort("episode").toRecords();

Deno.test("a shard manifest records its plan: spec hash, shard, count and the hash of its episode ids", async () => {
  const root = await makeTempDir({ prefix: "coordlab-shardset-" });
  const out = await shard(root, 2, 4);
  const m = (await readManifest(out))!;
  const ids = planGrid(SPEC, { shard: "2/4" }).episodes.map((e) => e.id);
  assertEquals([m.shard, m.episodes, m.total, m.episodes_hash], [
    { index: 2, count: 4 },
    2,
    8,
    episodesHash(ids),
  ]);
  await Deno.remove(root, { recursive: true });
});

Deno.test("loadRuns() loads a whole set of shards as the single-machine run, complete", async () => {
  const root = await makeTempDir({ prefix: "coordlab-shardset-" });
  for (let i = 0; i < 4; i++) await shard(`${root}/shards`, i, 4);
  await runGrid(SPEC, { out: `${root}/whole`, workers: 0, progress: false });
  const union = await loadRuns(`${root}/shards`, { frames: [] });
  const whole = await loadRuns(`${root}/whole`, { frames: [] });
  assertEquals([union.episodes.height, union.complete, union.duplicates], [8, true, []]);
  assertEquals(sortedRows(union.episodes), sortedRows(whole.episodes));
  const lazy = await loadRunsLazy(`${root}/shards`, { frames: [] });
  assertEquals(lazy.complete, true);
  await Deno.remove(root, { recursive: true });
});

Deno.test("loadRuns() refuses a set of shards missing shard 0 (an --array=1-4), naming it; partial: true warns and marks it incomplete", async () => {
  const root = await makeTempDir({ prefix: "coordlab-shardset-" });
  for (let i = 1; i < 4; i++) await shard(root, i, 4);
  const problem = `Run "sharded": 1 of its 4 shards is missing: 0/4 (found 1/4, 2/4, 3/4); ` +
    `run it (a Slurm array of 4 shards is "#SBATCH --array=0-3")`;
  const err = await assertRejects(() => loadRuns(root, { frames: [] }), ShardSetError);
  assertEquals((err as ShardSetError).problems, [problem]);
  assertEquals(
    (err as Error).message,
    "The shard folders do not hold their grid exactly once (pass { partial: true } to load " +
      `them anyway, marked complete: false):\n- ${problem}`,
  );
  await assertRejects(() => loadRunsLazy(root, { frames: [] }), ShardSetError);
  await assertRejects(() => compactRun(root, { out: `${root}-parquet` }), ShardSetError);
  const [partial, lines] = await warned(() => loadRuns(root, { frames: [], partial: true }));
  assertEquals([partial.episodes.height, partial.complete], [6, false]);
  assertEquals(lines, [`Loading a partial shard set, marked complete: false:\n- ${problem}`]);
  await Deno.remove(root, { recursive: true });
});

Deno.test("loadRuns() refuses shards of two plans (a task resubmitted alone as 0/1) and names both", async () => {
  const root = await makeTempDir({ prefix: "coordlab-shardset-" });
  for (let i = 1; i < 4; i++) await shard(root, i, 4);
  await shard(root, 0, 1, "shard-0");
  const err = await assertRejects(() => loadRuns(root, { frames: [] }), ShardSetError);
  const hash = (await readManifest(`${root}/shard-1`))!.spec_hash.slice(0, 12);
  const ids = (i: number) => planGrid(SPEC, { shard: `${i}/4` }).episodes.map((e) => e.id);
  assertEquals((err as ShardSetError).problems, [
    ...[1, 2, 3].map((i) =>
      `Run "sharded": 2 episodes were played twice, in shard 0/1 ("${root}/shard-0") and in ` +
      `shard ${i}/4 ("${root}/shard-${i}"): ${ids(i).sort().join(", ")}`
    ),
    `Run "sharded": the folders hold 2 different plans: 1 shard of spec ${hash} ` +
    `(shard 0/1 in "${root}/shard-0"); 4 shards of spec ${hash} (shard 1/4 in ` +
    `"${root}/shard-1", shard 2/4 in "${root}/shard-2", shard 3/4 in "${root}/shard-3"): ` +
    "one plan per folder of shards (a resubmitted task's $SLURM_ARRAY_TASK_COUNT changes the " +
    "count; write the count out), move the others away",
  ]);
  await Deno.remove(root, { recursive: true });
});

Deno.test("loadRuns() refuses a shard that lacks episodes (interrupted) and a shard in two folders", async () => {
  const root = await makeTempDir({ prefix: "coordlab-shardset-" });
  for (const i of [0, 2, 3]) await shard(root, i, 4);
  const stop = new AbortController();
  await runGrid(SPEC, {
    out: `${root}/shard-1`,
    shard: "1/4",
    workers: 0,
    concurrency: 1,
    progress: false,
    signal: stop.signal,
    onEpisode: () => stop.abort("test"),
  });
  const [first, second] = planGrid(SPEC, { shard: "1/4" }).episodes.map((e) => e.id);
  const lacks = `Run "sharded": shard 1/4 ("${root}/shard-1", status interrupted) lacks 1 of its ` +
    `2 episodes: ${second}; resume it (run its command again)`;
  let err = await assertRejects(() => loadRuns(root, { frames: [] }), ShardSetError);
  assertEquals((err as ShardSetError).problems, [lacks]);
  const [partial] = await warned(() => loadRuns(root, { frames: [], partial: true }));
  assertEquals([partial.episodes.height, partial.complete], [7, false]);
  assert(partial.episodes.getColumn("episode").toArray().includes(first));
  // The same shard again, in a second folder (a copy).
  await Deno.mkdir(`${root}/copy`);
  for (const e of Deno.readDirSync(`${root}/shard-2`)) {
    if (e.isFile) await Deno.copyFile(`${root}/shard-2/${e.name}`, `${root}/copy/${e.name}`);
  }
  err = await assertRejects(() => loadRuns(root, { frames: [] }), ShardSetError);
  const two = planGrid(SPEC, { shard: "2/4" }).episodes.map((e) => e.id).sort().join(", ");
  assertEquals((err as ShardSetError).problems, [
    `Run "sharded": 2 episodes were played twice, in shard 2/4 ("${root}/copy") and in ` +
    `shard 2/4 ("${root}/shard-2"): ${two}`,
    `Run "sharded": shard 2/4 is in 2 folders: "${root}/copy", "${root}/shard-2" (keep one)`,
    lacks,
  ]);
  await Deno.remove(root, { recursive: true });
});

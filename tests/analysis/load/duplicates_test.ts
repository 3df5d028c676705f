// Load exactly once: an episode held by several sources (a log and its
// compacted set, a copy of a log, two compactions) is loaded once; copies
// whose content differs are one error, or the first kept on request.
import assert from "node:assert/strict";
import { loadRuns, loadRunsLazy } from "../../../analysis/load/load_runs.ts";
import { compactRun } from "../../../analysis/load/compact.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { runEpisode } from "../../../engine/run_episode.ts";
import { tempDirRunner } from "../_temp_dir.ts";

const withTempDir = tempDirRunner("coordlab_dupes_");
const SPEC = {
  name: "mock-frail",
  seed: 4,
  episodes: 3,
  blocks: [{ game: "frail", envs: ["bank_run", "crowdfunding"], mechanisms: ["M0", "M3"] }],
};

Deno.test("compacting a run, then loading the folder holding both, gives each episode once", async () => {
  await withTempDir(async (dir) => {
    await runGrid(SPEC, { out: `${dir}/runs/mock-frail`, workers: 0, progress: false });
    const direct = await loadRuns(`${dir}/runs/mock-frail`);
    assert.equal(direct.episodes.height, 12);
    await compactRun(`${dir}/runs/mock-frail`);
    const both = await loadRuns(`${dir}/runs`);
    assert.equal(both.episodes.height, 12);
    assert.equal(both.decisions!.height, direct.decisions!.height);
    assert.deepEqual(both.episodes.toRecords(), direct.episodes.toRecords());
    assert.equal(both.duplicates.length, 12);
    assert.ok(both.duplicates.every((d) => d.same && d.kept.includes("/runs/mock-frail/")));
    const lazy = await loadRunsLazy(`${dir}/runs`, { frames: ["decisions"] });
    assert.equal(lazy.episodes.collectSync().height, 12);
    assert.equal(lazy.decisions!.collectSync().height, direct.decisions!.height);
  });
});

Deno.test("a copy of a log in a subfolder does not double its decisions", async () => {
  await withTempDir(async (dir) => {
    await runGrid(SPEC, { out: `${dir}/run`, workers: 0, progress: false });
    const direct = await loadRuns(`${dir}/run`);
    const segment = [...Deno.readDirSync(`${dir}/run`)].find((e) => e.name.endsWith(".ndjson"))!;
    await Deno.mkdir(`${dir}/run/backup`);
    await Deno.copyFile(`${dir}/run/${segment.name}`, `${dir}/run/backup/copy.ndjson`);
    const r = await loadRuns(`${dir}/run`);
    assert.equal(r.episodes.height, 12);
    assert.equal(r.decisions!.height, direct.decisions!.height);
    assert.equal(r.calls!.height, direct.calls!.height);
    // Files load in path order: backup/copy.ndjson comes before segment-*.ndjson.
    assert.deepEqual(r.duplicates.map((d) => [d.kept, d.dropped, d.same])[0], [
      `${dir}/run/backup/copy.ndjson`,
      `${dir}/run/${segment.name}`,
      true,
    ]);
    // With two worker threads the copies meet only when their results merge.
    for (let i = 0; i < 40; i++) {
      await runEpisode({ env: "bank_run", seed: i, run: "many", outDir: `${dir}/run/a` });
    }
    await Deno.mkdir(`${dir}/run/b/many`, { recursive: true });
    for (const e of Deno.readDirSync(`${dir}/run/a/many`)) {
      await Deno.copyFile(`${dir}/run/a/many/${e.name}`, `${dir}/run/b/many/${e.name}`);
    }
    const serial = await loadRuns(`${dir}/run`, { workers: 1 });
    const parallel = await loadRuns(`${dir}/run`, { workers: 2 });
    assert.equal(serial.episodes.height, 52);
    assert.deepEqual(parallel.decisions!.toRecords(), serial.decisions!.toRecords());
    assert.deepEqual(parallel.episodes.toRecords(), serial.episodes.toRecords());
    assert.equal(parallel.duplicates.length, 52);
  });
});

Deno.test("copies whose content differs are one error listing them, or the first on request", async () => {
  await withTempDir(async (dir) => {
    for (const seed of [1, 2]) {
      const r = await runEpisode({
        env: "bank_run",
        seed,
        run: "x",
        episode: `e${seed}`,
        outDir: `${dir}/a`,
      });
      // A copy with one decision changed: same start, end and checkpoint hashes.
      const lines = r.events.map((e) => JSON.stringify(e));
      const at = lines.findIndex((l) => l.includes('"type":"decision"'));
      lines[at] = lines[at].replace(/"reported":[\d.]+/, '"reported":99');
      await Deno.mkdir(`${dir}/b/x`, { recursive: true });
      await Deno.writeTextFile(`${dir}/b/x/e${seed}.ndjson`, lines.join("\n") + "\n");
    }
    await assert.rejects(() => loadRuns(dir), {
      name: "RangeError",
      message: `2 episodes are logged more than once with different content: ` +
        `run "x" episode "e1" in "${dir}/a/x/e1.ndjson" and "${dir}/b/x/e1.ndjson"; ` +
        `run "x" episode "e2" in "${dir}/a/x/e2.ndjson" and "${dir}/b/x/e2.ndjson". ` +
        `Remove the extra copies, or pass { duplicates: "first" } to keep the first of each`,
    });
    await assert.rejects(() => loadRunsLazy(dir), { name: "RangeError" });
    const first = await loadRuns(dir, { duplicates: "first" });
    const kept = await loadRuns(`${dir}/a`);
    assert.deepEqual(first.decisions!.toRecords(), kept.decisions!.toRecords());
    assert.deepEqual(first.duplicates.map((d) => d.same), [false, false]);
    await assert.rejects(() => loadRuns(dir, { duplicates: "last" as never }), {
      name: "RangeError",
      message: 'Loader option "duplicates" must be "error" or "first", got last',
    });
  });
});

Deno.test("a log and a compacted set of a different run of the same names are refused", async () => {
  await withTempDir(async (dir) => {
    await runGrid(SPEC, { out: `${dir}/one`, workers: 0, progress: false });
    await runGrid({ ...SPEC, seed: 5 }, { out: `${dir}/two`, workers: 0, progress: false });
    await compactRun(`${dir}/two`, { out: `${dir}/two-parquet` });
    await Deno.remove(`${dir}/two`, { recursive: true });
    await assert.rejects(() => loadRuns(dir), (err: Error) => {
      assert.equal(err.name, "RangeError");
      assert.ok(err.message.startsWith("12 episodes are logged more than once"), err.message);
      assert.ok(err.message.includes(`"${dir}/two-parquet/set-`), err.message);
      return true;
    });
  });
});

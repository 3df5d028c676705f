// No quiet partial or empty loads: a folder without logs is an error naming
// what was looked for, and a folder a live writer holds is refused with the
// writer and the counts so far, unless allowLive marks the frames incomplete.
import assert from "node:assert/strict";
import { loadRuns, loadRunsLazy } from "../../../analysis/mod.ts";
import { LiveRunError } from "../../../analysis/load/load_runs.ts";
import { serveLocalModel } from "../../../engine/agents/llm/server/local_server.ts";
import { LlmRuntime } from "../../../engine/agents/llm/runtime.ts";
import { lockFolder } from "../../../engine/grid/lock.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { writeFixture } from "../_fixture.ts";
import { tempDirRunner } from "../_temp_dir.ts";

const withTempDir = tempDirRunner("coordlab_live_");

const noLogs = (dir: string) =>
  `No event logs in "${dir}": looked in it and every subfolder for NDJSON logs (*.ndjson: ` +
  `per-episode logs and grid segments), compacted sets (a folder with episodes.parquet) and ` +
  `compactions (a folder with compacted.json); check the path`;

Deno.test("loadRuns() throws on a folder with no logs, naming it and what it looked for", async () => {
  await withTempDir(async (dir) => {
    await assert.rejects(() => loadRuns(dir), { name: "NotFound", message: noLogs(dir) });
    await Deno.mkdir(`${dir}/runs/empty`, { recursive: true });
    await Deno.writeTextFile(`${dir}/runs/notes.txt`, "not a log\n");
    await assert.rejects(() => loadRuns(dir), { name: "NotFound", message: noLogs(dir) });
    await assert.rejects(() => loadRunsLazy(`${dir}/runs`), {
      name: "NotFound",
      message: noLogs(`${dir}/runs`),
    });
  });
});

/** Captures console.warn while `fn` runs. */
async function warnings<T>(fn: () => Promise<T>): Promise<[T, string[]]> {
  const seen: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => seen.push(args.map(String).join(" "));
  try {
    return [await fn(), seen];
  } finally {
    console.warn = original;
  }
}

Deno.test("loadRuns() refuses a folder whose writer.lock a live writer holds, unless allowLive", async () => {
  await withTempDir(async (dir) => {
    await writeFixture(dir);
    const lock = lockFolder(dir, 'grid "demo"');
    try {
      const { pid, host, since } = lock.holder;
      const expected = `Folder "${dir}" is being written by process ${pid} on ` +
        `${host ?? "an unnamed host"} (grid "demo", since ${since}): 7 episodes found so far ` +
        `(7 finished) in 7 sources; wait for the writer to finish, or pass ` +
        `{ allowLive: true } to load them marked complete: false`;
      await assert.rejects(() => loadRuns(dir), (error: Error) => {
        assert.ok(error instanceof LiveRunError);
        assert.equal(error.message, expected);
        assert.deepEqual(error.found, { episodes: 7, finished: 7, sources: 7 });
        assert.deepEqual(error.holder, lock.holder);
        return true;
      });
      // A subfolder of the locked folder is refused too (the lock is in a parent).
      await assert.rejects(() => loadRunsLazy(`${dir}/hand`), { name: "LiveRunError" });
      const [frames, warned] = await warnings(() => loadRuns(dir, { allowLive: true }));
      assert.equal(frames.episodes.height, 7);
      assert.equal(frames.complete, false);
      assert.deepEqual(frames.writers, [{ dir, holder: lock.holder }]);
      assert.deepEqual(warned, [
        `Loading a folder still being written: ${expected.slice(0, expected.indexOf(";"))}; ` +
        `the frames are marked complete: false`,
      ]);
      const [lazy] = await warnings(() => loadRunsLazy(dir, { allowLive: true }));
      assert.equal(lazy.complete, false);
    } finally {
      lock.release();
    }
    const done = await loadRuns(dir);
    assert.deepEqual([done.complete, done.writers, done.episodes.height], [true, [], 7]);
  });
});

Deno.test("loadRuns() loads a folder whose writer.lock no process holds (a killed writer's)", async () => {
  await withTempDir(async (dir) => {
    await writeFixture(dir);
    const stale = {
      pid: 999999,
      host: "gone",
      purpose: 'grid "old"',
      since: "2026-01-01T00:00:00Z",
    };
    await Deno.writeTextFile(`${dir}/writer.lock`, JSON.stringify(stale) + "\n");
    const frames = await loadRuns(dir);
    assert.deepEqual([frames.complete, frames.writers, frames.episodes.height], [true, [], 7]);
  });
});

Deno.test("loadRuns() refuses a grid folder while runGrid is still playing it", async () => {
  await withTempDir(async (out) => {
    const server = serveLocalModel({ latencyMs: 15 });
    try {
      const runtime = new LlmRuntime({
        models: [{ id: "local", baseURL: server.url, model: "coordlab-stay", testDouble: true }],
      });
      const grid = runGrid({
        episodes: 4,
        blocks: [{
          game: "frail",
          envs: ["bank_run"],
          mechanisms: ["M0"],
          params: [{ horizon: 2 }],
          agents: [{ model: "local" }],
        }],
      }, { out, runtime, progress: false, concurrency: 1 });
      let refused: LiveRunError | undefined;
      try {
        // Wait for the first finished episode, then load while the grid plays the rest.
        for (let i = 0; i < 400 && refused === undefined; i++) {
          await new Promise((r) => setTimeout(r, 25));
          try {
            await loadRuns(out, { frames: [] });
          } catch (error) {
            if (error instanceof LiveRunError && error.found.finished >= 1) refused = error;
            else if (!(error instanceof LiveRunError || error instanceof Deno.errors.NotFound)) {
              throw error;
            }
          }
        }
      } finally {
        await grid;
      }
      assert.ok(refused !== undefined, "the load during the grid was never refused");
      assert.ok(refused.found.finished < 4, JSON.stringify(refused.found));
      assert.equal(refused.holder?.pid, Deno.pid);
      assert.equal(refused.holder?.purpose, 'grid "grid"');
      assert.match(
        refused.message,
        /^Folder ".*" is being written by process \d+ on .*\(grid "grid", since /,
      );
      const after = await loadRuns(out, { frames: [] });
      assert.deepEqual([after.complete, after.episodes.height], [true, 4]);
    } finally {
      await server.close();
    }
  });
});

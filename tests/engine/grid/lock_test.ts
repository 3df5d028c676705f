// One writer per run folder: a second grid on a folder being written is
// refused and touches nothing; a lock left by a dead process is taken over;
// resume removes only files of its own naming schemes.
import { assert, assertEquals, assertRejects, assertThrows } from "../../_assert.ts";
import type { Agent } from "../../../engine/core/agent.ts";
import { LlmRuntime } from "../../../engine/agents/llm/runtime.ts";
import {
  FolderLockedError,
  LOCK_FILE,
  lockFolder,
  LockPathError,
} from "../../../engine/grid/lock.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { digestFolder, fileNames } from "./_logs.ts";
import { gridOutput } from "./_grid_fixture.ts";
import { makeTempDir } from "../../_temp.ts";

const SPEC = {
  name: "locked",
  seed: 5,
  episodes: 3,
  blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0", "M2"] }],
};

/** Always-stay depositors whose first call waits for `gate`. */
function gatedAgents(gate: Promise<void>, started: () => void): () => Agent {
  let first = true;
  return () => ({
    policy: "mock:always_stay",
    decide: async (req) => {
      if (first) {
        first = false;
        started();
        await gate;
      }
      return req.call === "withdrawal"
        ? { withdraw_probability: 0, reasoning: "stay" }
        : { action: "none", reasoning: "wait" };
    },
  });
}

Deno.test("two grids on one folder: the second is refused and no file of the first is lost", async () => {
  const tmp = await makeTempDir({ prefix: "coordlab-lock-" });
  const out = `${tmp}/run`;
  const specPath = `${tmp}/spec.json`;
  await Deno.writeTextFile(specPath, JSON.stringify(SPEC));
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let running!: () => void;
  const started = new Promise<void>((r) => (running = r));
  const first = runGrid(SPEC, {
    out,
    progress: false,
    concurrency: 1,
    agents: () => gatedAgents(gate, running),
  });
  await started;
  // The first grid holds the folder and waits inside its first episode.
  const holder = JSON.parse(await Deno.readTextFile(`${out}/${LOCK_FILE}`));
  assertEquals(holder.pid, Deno.pid);

  const second = await gridOutput(specPath, out, { workers: 1 });
  assertEquals(second.code, 2);
  const stderr = second.stderr;
  assert(
    stderr.startsWith(`Folder "${out}" is being written by process ${Deno.pid} on `),
    stderr,
  );
  assert(stderr.includes(`(grid "locked", since ${holder.since})`), stderr);
  await assertRejects(() => runGrid(SPEC, { out, progress: false }), FolderLockedError);

  release();
  const r = await first;
  assertEquals([r.played, r.failed.length, r.remaining], [6, 0, 0]);
  const logs = await digestFolder(out);
  assertEquals(logs.size, 6);
  for (const d of logs.values()) assertEquals([d.starts, d.ends], [1, 1]);
  // Released: the lock file is gone and the folder can be resumed.
  assert(!(await fileNames(out)).includes(LOCK_FILE));
  const again = await runGrid(SPEC, { out, progress: false, workers: 0 });
  assertEquals([again.skipped, again.played], [6, 0]);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("runGrid() takes over the lock a dead process of this host left, and says whose it was", async () => {
  const out = await makeTempDir({ prefix: "coordlab-lock-" });
  const dead = {
    pid: 2 ** 30,
    host: Deno.hostname(),
    purpose: 'grid "locked"',
    since: "2026-01-01",
  };
  await Deno.writeTextFile(`${out}/${LOCK_FILE}`, JSON.stringify(dead));
  const r = await runGrid(SPEC, { out, workers: 0, progress: false });
  assertEquals([r.played, r.staleLock], [6, dead]);
  assert(!(await fileNames(out)).includes(LOCK_FILE));
  await Deno.remove(out, { recursive: true });
});

Deno.test("lockFolder() refuses a second writer in the same process until the first releases", async () => {
  const dir = await makeTempDir({ prefix: "coordlab-lock-" });
  const lock = lockFolder(dir, "first");
  assertEquals(lock.stale, null);
  try {
    lockFolder(dir, "second");
    throw new Error("should fail");
  } catch (e) {
    assert(e instanceof FolderLockedError);
    assertEquals([e.holder?.pid, e.holder?.purpose], [Deno.pid, "first"]);
  }
  lock.release();
  lock.release();
  lockFolder(dir, "third").release();
  assertEquals(await fileNames(dir), []);
  await Deno.remove(dir);
});

Deno.test("runGrid() on a folder of the user's files removes none of them", async () => {
  const out = await makeTempDir({ prefix: "coordlab-lock-" });
  const mine = [
    "notes.tmp",
    "draft.json.tmp",
    `other_episode.ndjson.${crypto.randomUUID()}.tmp`,
    `manifest.json.backup`,
  ];
  for (const name of mine) await Deno.writeTextFile(`${out}/${name}`, "mine");
  const r = await runGrid(SPEC, { out, workers: 0, progress: false });
  assertEquals([r.played, r.removedTemporary], [6, 0]);
  const again = await runGrid(SPEC, { out, workers: 0, progress: false });
  assertEquals([again.skipped, again.removedTemporary], [6, 0]);
  for (const name of mine) assertEquals(await Deno.readTextFile(`${out}/${name}`), "mine");
  await Deno.remove(out, { recursive: true });
});

Deno.test("runGrid() refused after taking the lock leaves no folder it made", async () => {
  const root = await makeTempDir({ prefix: "coordlab-lock-" });
  const runtime = new LlmRuntime({
    models: [{ id: "other", baseURL: "http://127.0.0.1:9/v1", model: "x" }],
  });
  await assertRejects(
    () =>
      runGrid({
        blocks: [{
          game: "frail",
          envs: ["bank_run"],
          mechanisms: ["M0"],
          agents: [{ model: "m" }],
        }],
      }, { out: `${root}/new`, runtime, preflight: false, progress: false }),
    RangeError,
  );
  assertEquals(await fileNames(root), []);
  await Deno.remove(root);
});

/** The grid command on a spec and folder; its exit code and output. */
function gridCommand(specPath: string, out: string, extra: string[] = []) {
  return gridOutput(specPath, out, { extra });
}

Deno.test("lockFolder() refuses a symbolic link at writer.lock and leaves its target untouched", async () => {
  const tmp = await makeTempDir({ prefix: "coordlab-lock-" });
  const out = `${tmp}/run`;
  await Deno.mkdir(out);
  await Deno.writeTextFile(`${tmp}/precious.txt`, "do not overwrite");
  await Deno.symlink(`${tmp}/precious.txt`, `${out}/${LOCK_FILE}`);
  const specPath = `${tmp}/spec.json`;
  await Deno.writeTextFile(specPath, JSON.stringify(SPEC));
  const r = await gridCommand(specPath, out);
  assertEquals([r.code, r.stderr], [
    2,
    `The lock file "${out}/${LOCK_FILE}" is a symbolic link, not a file of its own: a lock ` +
    "never follows a link or replaces what it finds; remove it if it is not yours, then run again\n",
  ]);
  assertEquals(await Deno.readTextFile(`${tmp}/precious.txt`), "do not overwrite");
  assertEquals(await fileNames(out), [LOCK_FILE]); // nothing else was written
  // A dangling link is refused too, and creates nothing where it points.
  await Deno.remove(`${out}/${LOCK_FILE}`);
  await Deno.symlink(`${tmp}/planted`, `${out}/${LOCK_FILE}`);
  assertThrows(() => lockFolder(out, "x"), LockPathError, "is a symbolic link");
  await assertRejects(() => Deno.lstat(`${tmp}/planted`), Deno.errors.NotFound);
  // So are a hard link and a folder.
  await Deno.remove(`${out}/${LOCK_FILE}`);
  await Deno.link(`${tmp}/precious.txt`, `${out}/${LOCK_FILE}`);
  assertThrows(() => lockFolder(out, "x"), LockPathError, "is a hard link (one of 2 names");
  await Deno.remove(`${out}/${LOCK_FILE}`);
  await Deno.mkdir(`${out}/${LOCK_FILE}`);
  assertThrows(() => lockFolder(out, "x"), LockPathError, "is a folder");
  assertEquals(await Deno.readTextFile(`${tmp}/precious.txt`), "do not overwrite");
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("the grid command refuses a lock naming another host, with its host and pid, and takes it over with --take-over-lock", async () => {
  const tmp = await makeTempDir({ prefix: "coordlab-lock-" });
  const out = `${tmp}/run`;
  await Deno.mkdir(out);
  const other = { pid: 1, host: "node-17", purpose: 'grid "locked"', since: "2026-01-01" };
  await Deno.writeTextFile(`${out}/${LOCK_FILE}`, JSON.stringify(other));
  const specPath = `${tmp}/spec.json`;
  await Deno.writeTextFile(specPath, JSON.stringify(SPEC));
  const refused = await gridCommand(specPath, out);
  assertEquals([refused.code, refused.stderr], [
    2,
    `Folder "${out}" is locked by process 1 on host "node-17" (grid "locked", since 2026-01-01), ` +
    `and this process runs on "${Deno.hostname()}", so it cannot check whether that process ` +
    "still runs: if it has ended, take the lock over deliberately with --take-over-lock " +
    "(runGrid option takeOverLock); else wait for it, or choose another folder\n",
  ]);
  assertEquals(JSON.parse(await Deno.readTextFile(`${out}/${LOCK_FILE}`)), other);
  assertEquals(await fileNames(out), [LOCK_FILE]);
  await assertRejects(
    () => runGrid(SPEC, { out, workers: 0, progress: false }),
    FolderLockedError,
    'on host "node-17"',
  );
  const taken = await gridCommand(specPath, out, ["--take-over-lock"]);
  assertEquals(taken.code, 0, taken.stderr);
  assert(
    taken.stdout.startsWith(
      'Took over the lock of process 1 on node-17 (grid "locked", since 2026-01-01), ' +
        "another host's, as --take-over-lock asked.\n",
    ),
    taken.stdout,
  );
  assertEquals((await fileNames(out)).includes(LOCK_FILE), false);
  await Deno.remove(tmp, { recursive: true });
});

// Every stop says why and leaves a folder that resumes (issues 18 and 24):
// SIGTERM, SIGHUP and SIGINT to the grid command, a disk that fails under a
// log or the manifest, a missing spec file.
import { assert, assertEquals } from "../../_assert.ts";
import { LOCK_FILE } from "../../../engine/grid/lock.ts";
import { readManifest } from "../../../engine/grid/manifest.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { readRunEpisodes } from "../../../engine/grid/segments.ts";
import { fileNames, segmentFiles } from "./_logs.ts";
import { injectWriteFaults } from "./_write_faults.ts";
import { WorkerPool } from "../../../engine/grid/worker_pool.ts";
import { DENO_COMMAND } from "../../../engine/cli/_permissions.ts";
import { gridCommand, text } from "./_grid_fixture.ts";
import { makeTempDir } from "../../_temp.ts";

const FAULTS = new URL("./_write_faults.ts", import.meta.url).pathname;

/** Mock bank-run episodes, a millisecond each in-process. */
const spec = (name: string, episodes: number) => ({
  name,
  seed: 7,
  episodes,
  blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0"] }],
});

/** The grid command in a child process (in-process episodes, no progress). */
function grid(
  specPath: string,
  out: string,
  options: { fault?: object; extra?: string[]; progress?: boolean } = {},
) {
  return gridCommand(specPath, out, {
    preload: options.fault ? FAULTS : undefined,
    env: options.fault ? { COORDLAB_WRITE_FAULT: JSON.stringify(options.fault) } : {},
    progress: options.progress,
    extra: options.extra,
  });
}

/** Blocks indexed in a folder's segments so far. */
async function indexed(dir: string): Promise<number> {
  let n = 0;
  try {
    for (const name of await segmentFiles(dir)) {
      if (name.endsWith(".idx")) {
        n += (await Deno.readTextFile(`${dir}/${name}`)).split("\n").length - 1;
      }
    }
  } catch {
    return 0;
  }
  return n;
}

async function writeSpec(dir: string, s: object): Promise<string> {
  const path = `${dir}/spec.json`;
  await Deno.writeTextFile(path, JSON.stringify(s));
  return path;
}

const SIGNALS = [["SIGTERM", 143], ["SIGHUP", 129], ["SIGINT", 130]] as const;

for (const [signal, code] of SIGNALS) {
  Deno.test(`the grid command on ${signal} starts no episode, marks the manifest interrupted, releases the lock and exits ${code}`, async () => {
    const tmp = await makeTempDir({ prefix: "coordlab-stops-" });
    const s = spec("signalled", 500);
    const specPath = await writeSpec(tmp, s);
    const out = `${tmp}/run`;
    const child = grid(specPath, out).spawn();
    while (await indexed(out) < 10) await new Promise((r) => setTimeout(r, 5));
    child.kill(signal);
    const r = await child.output();
    const stderr = text(r.stderr);
    const stdout = text(r.stdout);
    assertEquals(r.code, code, stderr);
    assertEquals(
      stderr,
      `\nReceived ${signal}: no new episode starts; finishing the episodes in flight ` +
        `(${signal} again abandons them).\n`,
    );
    const saved = await indexed(out);
    assert(saved >= 10 && saved < 500, String(saved));
    assert(stdout.includes(`\nStopped: Received ${signal}\n`), stdout);
    assert(
      stdout.endsWith(
        `Resume with: ${DENO_COMMAND} task grid --spec ${specPath} --out ${out} --workers 0 --no-progress\n`,
      ),
      stdout,
    );
    const m = (await readManifest(out))!;
    assertEquals(m.status, "interrupted");
    assertEquals(
      m.sessions.map((x) => [x.skipped, x.played, x.failed, x.interrupted, x.stopped]),
      [[0, saved, 0, true, `Received ${signal}`]],
    );
    assert(m.sessions[0].ended !== null);
    assert(!(await fileNames(out)).includes(LOCK_FILE));
    if (signal === "SIGTERM") {
      // Resuming plays the rest, and every episode is logged exactly once.
      const rest = await runGrid(s, { out, workers: 0, progress: false });
      assertEquals([rest.skipped, rest.played, rest.remaining], [saved, 500 - saved, 0]);
      assertEquals((await readRunEpisodes(out)).size, 500); // it throws on a duplicate
      assertEquals((await readManifest(out))!.status, "complete");
    }
    await Deno.remove(tmp, { recursive: true });
  });
}

Deno.test("the grid command stops with exit 74, naming the folder and the error, when a log cannot be written, and resumes", async () => {
  const tmp = await makeTempDir({ prefix: "coordlab-stops-" });
  const s = spec("full", 12);
  const specPath = await writeSpec(tmp, s);
  const out = `${tmp}/run`;
  // Two writes per episode (its block, its index line): the sixth block meets a full disk.
  const r = await grid(specPath, out, { fault: { match: "segment-", after: 10 } }).output();
  const stdout = text(r.stdout);
  assertEquals(r.code, 74, text(r.stderr));
  const [segment] = (await segmentFiles(out)).filter((n) => n.endsWith(".ndjson"));
  const why = `Could not write an episode log "${out}/${segment}" in folder "${out}": ` +
    "ENOSPC, No space left on device (os error 28)";
  assert(stdout.includes(`\nStopped: ${why}\n`), stdout);
  assert(stdout.startsWith("full: 5/12 episodes finished"), stdout);
  assert(
    stdout.endsWith(
      `Resume with: ${DENO_COMMAND} task grid --spec ${specPath} --out ${out} --workers 0 --no-progress\n`,
    ),
    stdout,
  );
  const m = (await readManifest(out))!;
  assertEquals(m.status, "interrupted");
  assertEquals(m.sessions.map((x) => [x.played, x.failed, x.interrupted, x.stopped]), [[
    5,
    0,
    true,
    why,
  ]]);
  assert(!(await fileNames(out)).includes(LOCK_FILE));
  const again = await grid(specPath, out).output();
  assertEquals(again.code, 0, text(again.stderr));
  assertEquals((await readRunEpisodes(out)).size, 12);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("the grid command exits 74 when the closing manifest cannot be written; the folder resumes", async () => {
  const tmp = await makeTempDir({ prefix: "coordlab-stops-" });
  const specPath = await writeSpec(tmp, spec("closing", 3));
  const out = `${tmp}/run`;
  // The manifest's first write (at the start) succeeds, the closing one fails.
  const r = await grid(specPath, out, {
    fault: { match: "manifest.json.", after: 1, code: "EIO" },
  }).output();
  const stdout = text(r.stdout);
  assertEquals(r.code, 74, text(r.stderr));
  assert(
    stdout.includes(
      `\nStopped: Could not write the manifest "${out}/manifest.json" in folder "${out}": ` +
        "EIO, Input/output error (os error 5)\n",
    ),
    stdout,
  );
  assert(stdout.includes(`\nResume with: ${DENO_COMMAND} task grid `), stdout);
  // Left as the start wrote it, with no temporary file and no lock.
  assertEquals((await readManifest(out))!.status, "running");
  assertEquals((await fileNames(out)).filter((n) => !n.startsWith("segment-")), [
    "manifest.json",
  ]);
  const again = await grid(specPath, out).output();
  assertEquals(again.code, 0);
  assert(text(again.stdout).includes("(3 already there, 0 played now"), text(again.stdout));
  assertEquals((await readManifest(out))!.status, "complete");
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("runGrid() stops with stoppedBy disk when a log cannot be written, and records it in the manifest", async () => {
  const out = await makeTempDir({ prefix: "coordlab-stops-" });
  const s = spec("in-process", 6);
  const restore = injectWriteFaults({ match: "segment-", after: 4, code: "EIO" });
  let r;
  try {
    r = await runGrid(s, { out, workers: 0, concurrency: 1, progress: false });
  } finally {
    restore();
  }
  assertEquals([r.played, r.failed, r.remaining, r.interrupted, r.stoppedBy], [
    2,
    [],
    4,
    true,
    "disk",
  ]);
  assert(
    r.stopped!.endsWith(`in folder "${out}": EIO, Input/output error (os error 5)`),
    r.stopped!,
  );
  assertEquals((await readManifest(out))!.sessions[0].stopped, r.stopped);
  const rest = await runGrid(s, { out, workers: 0, progress: false });
  assertEquals([rest.skipped, rest.played, rest.remaining], [2, 4, 0]);
  await Deno.remove(out, { recursive: true });
});

Deno.test("the grid command exits 2 with one line naming a spec file that does not exist", async () => {
  const tmp = await makeTempDir({ prefix: "coordlab-stops-" });
  const r = await grid(`${tmp}/nope.json`, `${tmp}/run`).output();
  assertEquals([r.code, text(r.stderr), text(r.stdout)], [
    2,
    `Spec file "${tmp}/nope.json" does not exist\n`,
    "",
  ]);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("WorkerPool reports a log its worker cannot write as a write failure, not as a failed episode", async () => {
  const dir = await makeTempDir({ prefix: "coordlab-stops-" });
  // A folder planted where worker 0's segment index goes.
  await Deno.mkdir(`${dir}/segment-planted-w0.idx`);
  const pool = new WorkerPool({ size: 1, segmentTag: "planted" });
  try {
    const s = await pool.run({
      id: "ep",
      index: 0,
      run: "demo",
      cell: "c",
      replicate: 0,
      seed: 1,
      condition: { game: "frail", env: "bank_run", mechanism: "M0", regime: "stable", params: {} },
      agents: { kind: "mock", mock: {} },
    }, dir);
    assertEquals([s.status, s.logged, s.writeFailure?.path, s.writeFailure?.code], [
      "error",
      false,
      dir,
      "EEXIST",
    ]);
    assert(
      s.writeFailure!.message.startsWith("File exists (os error 17)"),
      s.writeFailure!.message,
    );
  } finally {
    await pool.close();
  }
  await Deno.remove(dir, { recursive: true });
});

Deno.test("runGrid() marks the manifest interrupted and releases the lock when an error escapes the run", async () => {
  const out = await makeTempDir({ prefix: "coordlab-stops-" });
  const quota = Object.assign(new Error("Disk quota exceeded (os error 122)"), { code: "EDQUOT" });
  let seen = 0;
  let caught: unknown;
  try {
    await runGrid(spec("escaped", 6), {
      out,
      workers: 0,
      concurrency: 1,
      progress: false,
      // A caller's callback that writes elsewhere and fails on the third episode.
      onEpisode: () => {
        if (++seen === 3) throw quota;
      },
    });
  } catch (err) {
    caught = err;
  }
  assertEquals(caught, quota);
  const m = (await readManifest(out))!;
  assertEquals([m.status, m.sessions[0].interrupted, m.sessions[0].ended !== null], [
    "interrupted",
    true,
    true,
  ]);
  assert(!(await fileNames(out)).includes(LOCK_FILE));
  const rest = await runGrid(spec("escaped", 6), { out, workers: 0, progress: false });
  assertEquals([rest.skipped + rest.played, rest.remaining], [6, 0]);
  await Deno.remove(out, { recursive: true });
});

Deno.test("the grid command with progress on says once why it stopped", async () => {
  const tmp = await makeTempDir({ prefix: "coordlab-stops-" });
  try {
    const specPath = await writeSpec(tmp, spec("said-once", 500));
    const out = `${tmp}/run`;
    const child = grid(specPath, out, { progress: true }).spawn();
    while (await indexed(out) < 10) await new Promise((r) => setTimeout(r, 5));
    child.kill("SIGINT");
    const r = await child.output();
    const all = text(r.stdout) + text(r.stderr);
    assertEquals(r.code, 130, all);
    assertEquals(all.split("Stopped: Received SIGINT").length - 1, 1, all);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

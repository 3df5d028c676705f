// A segment writer may hold the blocks of episodes without model calls and
// write several with one write (`holdBytes`, `mayWait`): the file then holds
// exactly what an unheld writer writes, an episode with model calls is
// written at once, a failed write drops (and fails) what was held, and a
// worker stopped mid-batch leaves a folder whose resume plays exactly the
// episodes it does not hold.
import { assert, assertEquals, assertThrows } from "../../_assert.ts";
import { AgentReply } from "../../../engine/core/episode.ts";
import { failedWrite, HeldResults } from "../../../engine/grid/_held_results.ts";
import { executeEpisode } from "../../../engine/grid/execute.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { playGridLog } from "../../../engine/grid/runners.ts";
import {
  readLogEpisodes,
  recoverSegment,
  segmentIndexPath,
  SegmentWriter,
} from "../../../engine/grid/segments.ts";
import { callRecord } from "../core/_scripted_llm.ts";
import { digestFolder, frailEpisode } from "./_logs.ts";
import { injectWriteFaults } from "./_write_faults.ts";
import { HELD } from "./_grid_fixture.ts";
import { makeTempDir } from "../../_temp.ts";

const frail = (seed: number) => frailEpisode("M0", seed);

/** The engine's bytes of a mock episode, as the grid hands them to its writer. */
async function played(seed: number) {
  const log = await playGridLog(frail(seed), { text: true });
  const bytes = new TextEncoder().encode(log.text!);
  return { run: "t", episode: `bank_run_M0_s${seed}`, bytes, status: "ok" };
}

/** Counts the writes to the files whose name holds `match` (see `_write_faults.ts`). */
function countWrites(match: string): { writes: number; restore: () => void } {
  const counter = { writes: 0, restore: () => {} };
  const openSync = Deno.openSync;
  Deno.openSync = (path, options) => {
    const file = openSync(path, options);
    if (String(path).split("/").at(-1)!.includes(match)) {
      const real = file.writeSync.bind(file);
      file.writeSync = (bytes) => (counter.writes++, real(bytes));
    }
    return file;
  };
  counter.restore = () => Deno.openSync = openSync;
  return counter;
}

const read = (path: string) => Deno.readFileSync(path);

Deno.test("SegmentWriter.appendText() holds blocks that may wait until flush(), which writes them with one write each for data and index, byte for byte as an unheld writer does", async () => {
  const dir = await makeTempDir();
  const logs = [await played(1), await played(2), await played(3)];
  const plain = SegmentWriter.create(dir, "plain");
  for (const log of logs) plain.appendText(log);
  plain.close();
  const counter = countWrites("segment-held");
  try {
    const held = SegmentWriter.create(dir, "held", { holdBytes: 1 << 20 });
    const entries = logs.map((log) => held.appendText({ ...log, mayWait: true }));
    // Nothing is in the files yet, but the offsets are those of the blocks once written.
    assertEquals([counter.writes, read(held.path).length, read(held.indexPath).length], [0, 0, 0]);
    assertEquals([held.heldBlocks, held.size], [3, plain.size]);
    assertEquals(entries.map((e) => e.offset), [
      0,
      logs[0].bytes.length,
      logs[0].bytes.length + logs[1].bytes.length,
    ]);
    held.flush();
    assertEquals([counter.writes, held.heldBlocks], [2, 0]);
    held.flush(); // nothing held: no write
    assertEquals(counter.writes, 2);
    held.close();
    assertEquals(read(held.path), read(plain.path));
    assertEquals(read(held.indexPath), read(plain.indexPath));
    assertEquals((await readLogEpisodes(held.path)).map((e) => e.episode), [
      "bank_run_M0_s1",
      "bank_run_M0_s2",
      "bank_run_M0_s3",
    ]);
  } finally {
    counter.restore();
  }
});

Deno.test("SegmentWriter.appendText() writes a block that may not wait at once, after the blocks held before it", async () => {
  const dir = await makeTempDir();
  const [a, b, c] = [await played(1), await played(2), await played(3)];
  const w = SegmentWriter.create(dir, "t", { holdBytes: 1 << 20 });
  w.appendText({ ...a, mayWait: true });
  w.appendText(b); // e.g. an episode with model calls
  assertEquals(w.heldBlocks, 0);
  assertEquals(read(w.path).length, a.bytes.length + b.bytes.length);
  w.appendText({ ...c, mayWait: true });
  assertEquals([w.heldBlocks, read(w.path).length], [1, a.bytes.length + b.bytes.length]);
  // Without holdBytes a block that may wait is written at once.
  const plain = SegmentWriter.create(dir, "plain");
  plain.appendText({ ...a, mayWait: true });
  assertEquals([plain.heldBlocks, read(plain.path).length], [0, a.bytes.length]);
  plain.close();
  // close() writes what is held.
  w.close();
  assertEquals(read(w.path).length, a.bytes.length + b.bytes.length + c.bytes.length);
  const index = Deno.readTextFileSync(segmentIndexPath(w.path)).trimEnd().split("\n");
  assertEquals(index.map((l) => JSON.parse(l).episode), [a.episode, b.episode, c.episode]);
});

Deno.test("SegmentWriter writes what it holds before the held bytes would pass holdBytes, and before it rolls over to a new file", async () => {
  const dir = await makeTempDir();
  const logs = [await played(1), await played(2), await played(3), await played(4)];
  const [a, b, c] = logs.map((l) => l.bytes.length);
  // Room for the first two blocks held; a file of the first three.
  const w = SegmentWriter.create(dir, "t", { holdBytes: a + b, maxBytes: a + b + c });
  w.appendText({ ...logs[0], mayWait: true });
  w.appendText({ ...logs[1], mayWait: true });
  assertEquals(w.heldBlocks, 2);
  w.appendText({ ...logs[2], mayWait: true }); // the held two go first
  assertEquals([w.heldBlocks, read(w.path).length], [
    1,
    logs[0].bytes.length + logs[1].bytes.length,
  ]);
  w.appendText({ ...logs[3], mayWait: true }); // the file would pass maxBytes: held block, then roll over
  assertEquals(w.paths.length, 2);
  assertEquals(
    read(w.paths[0]).length,
    logs[0].bytes.length + logs[1].bytes.length + logs[2].bytes.length,
  );
  assertEquals([w.heldBlocks, read(w.paths[1]).length], [1, 0]);
  w.close();
  assertEquals((await readLogEpisodes(w.paths[0])).length, 3);
  assertEquals((await readLogEpisodes(w.paths[1])).map((e) => e.episode), [logs[3].episode]);
});

Deno.test("SegmentWriter.flush() that fails drops the blocks it held (not logged, none recovered) and every later append throws the same error", async () => {
  const dir = await makeTempDir();
  const [a, b] = [await played(1), await played(2)];
  let writer: SegmentWriter | undefined;
  // The first block's two writes (data, index) succeed, then every write fails.
  const restore = injectWriteFaults({ match: "segment-t", after: 2 });
  try {
    const w = SegmentWriter.create(dir, "t", { holdBytes: 1 << 20 });
    w.appendText(a); // written at once
    w.appendText({ ...b, mayWait: true });
    assertThrows(() => w.flush(), Error, "No space left on device (os error 28)");
    writer = w;
  } finally {
    restore();
  }
  const w = writer!;
  assertEquals(w.heldBlocks, 0);
  assertEquals((w.writeError as { code?: string }).code, "ENOSPC");
  assertThrows(() => w.appendText({ ...b, mayWait: true }), Error, "No space left on device");
  assertThrows(() => w.flush(), Error, "No space left on device");
  const recovered = await recoverSegment(w.path);
  assertEquals(recovered.entries.map((e) => e.episode), [a.episode]);
  assertThrows(
    () => SegmentWriter.create(dir, "u", { holdBytes: -1 }),
    RangeError,
    "Segment holdBytes must be an integer >= 0: received -1",
  );
  assertThrows(
    () => SegmentWriter.create(dir, "u", { holdBytes: 1.5 }),
    RangeError,
    "Segment holdBytes must be an integer >= 0: received 1.5",
  );
});

Deno.test("executeEpisode() lets a mock episode's log wait for the writer's flush and writes an episode with model calls at once", async () => {
  const dir = await makeTempDir();
  const w = SegmentWriter.create(dir, "t", { holdBytes: 1 << 20 });
  const log = { append: w.append.bind(w), appendText: w.appendText.bind(w) };
  const mock = await executeEpisode(frail(1), { log });
  assertEquals([mock.logged, mock.usage.calls, w.heldBlocks, read(w.path).length], [true, 0, 1, 0]);
  const paid = await executeEpisode(frail(2), {
    log,
    agents: () => ({
      policy: "llm:scripted",
      decide: (req) => {
        const text = '{"withdraw_probability": 5}';
        return Promise.resolve(new AgentReply(text, { calls: [callRecord(text, req.round)] }));
      },
    }),
  });
  assert(paid.usage.calls > 0);
  // The paid episode's block is in the file, after the mock one held before it.
  assertEquals(w.heldBlocks, 0);
  assertEquals((await readLogEpisodes(w.path)).map((e) => e.episode), [
    "bank_run_M0_s1",
    "bank_run_M0_s2",
  ]);
  w.close();
});

Deno.test("HeldResults.write() fails every episode whose held log a failed write dropped, and note() those a later block's failed write dropped", async () => {
  const dir = await makeTempDir();
  const restore = injectWriteFaults({ match: "segment-", after: 2 });
  try {
    // Written before the fault (its two writes), then two held and lost with the flush.
    const w = SegmentWriter.create(dir, "t", { holdBytes: 1 << 20 });
    const log = { append: w.append.bind(w), appendText: w.appendText.bind(w) };
    const held = new HeldResults();
    const paid = () => ({
      policy: "llm:scripted",
      decide: (req: { round: number }) => {
        const text = '{"withdraw_probability": 5}';
        return Promise.resolve(new AgentReply(text, { calls: [callRecord(text, req.round)] }));
      },
    });
    const r0 = { summary: await executeEpisode(frail(0), { log, agents: paid }) };
    held.note(dir, w, r0);
    const r1 = { summary: await executeEpisode(frail(1), { log }) };
    held.note(dir, w, r1);
    const r2 = { summary: await executeEpisode(frail(2), { log }) };
    held.note(dir, w, r2);
    assertEquals([r1.summary.logged, r2.summary.logged, w.heldBlocks], [true, true, 2]);
    held.write((d) => (d === dir ? w : undefined));
    assertEquals([r0.summary.logged, r0.summary.status], [true, "ok"]);
    for (const r of [r1, r2]) {
      assertEquals(
        [r.summary.logged, r.summary.status, r.summary.writeFailure?.code, r.summary.error],
        [false, "error", "ENOSPC", "Writing the log failed: No space left on device (os error 28)"],
      );
    }
    // A second writer: two held, then a block that may not wait fails to write them.
    const v = SegmentWriter.create(dir, "u", { holdBytes: 1 << 20 });
    const vlog = { append: v.append.bind(v), appendText: v.appendText.bind(v) };
    const q1 = { summary: await executeEpisode(frail(3), { log: vlog }) };
    held.note(`${dir}/u`, v, q1);
    // As the worker does: a log that cannot be written is the episode's write failure.
    const q2 = {
      summary: await executeEpisode(frail(4), { log: vlog, agents: paid }).catch((err) =>
        failedWrite("bank_run_M0_s4", err, v.path)
      ),
    };
    assertEquals([q2.summary.logged, q2.summary.writeFailure?.code], [false, "ENOSPC"]);
    held.note(`${dir}/u`, v, q2);
    assertEquals([q1.summary.logged, q1.summary.writeFailure?.code], [false, "ENOSPC"]);
  } finally {
    restore();
  }
});

Deno.test("HeldResults keeps an episode whose held log the next block pushed out to disk logged when a later write fails", async () => {
  const dir = await makeTempDir();
  // The first block's two writes succeed, every later write fails.
  const restore = injectWriteFaults({ match: "segment-", after: 2 });
  try {
    // About one block's worth: each held block writes the one held before it.
    const w = SegmentWriter.create(dir, "t", { holdBytes: 1000 });
    const log = { append: w.append.bind(w), appendText: w.appendText.bind(w) };
    const held = new HeldResults();
    const r1 = { summary: await executeEpisode(frail(1), { log }) };
    held.note(dir, w, r1);
    const r2 = { summary: await executeEpisode(frail(2), { log }) };
    held.note(dir, w, r2);
    assertEquals(w.heldBlocks, 1);
    held.write((d) => (d === dir ? w : undefined));
    assertEquals([r1.summary.logged, r1.summary.writeFailure], [true, undefined]);
    assertEquals([r2.summary.logged, r2.summary.writeFailure?.code], [false, "ENOSPC"]);
    assertEquals((await recoverSegment(w.path)).entries.map((e) => e.episode), ["bank_run_M0_s1"]);
  } finally {
    restore();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runGrid() with a worker stopped mid-batch leaves a folder whose resume plays exactly the episodes it does not hold, none twice", async () => {
  const tmp = await makeTempDir();
  const spec = HELD;
  const reference = await runGrid(spec, { out: `${tmp}/ref`, workers: 0, progress: false });
  const out = `${tmp}/stopped`;
  const abandon = new AbortController();
  const reported: string[] = [];
  const first = await runGrid(spec, {
    out,
    workers: 1,
    progress: false,
    abandon: abandon.signal,
    // Stopped at the first reported batch: the worker is terminated while it plays (and
    // holds) the next ones.
    onEpisode: (s) => {
      if (reported.push(s.id) === 3) abandon.abort("stop");
    },
  });
  assert(first.played < 40, `the run must stop part-way, it played ${first.played}`);
  // Every episode reported done is logged.
  const logged = await digestFolder(out);
  for (const id of reported) assert(logged.has(id), `episode ${id} was reported but not logged`);
  const resumed = await runGrid(spec, { out, workers: 1, progress: false });
  // The resume finds the blocks the stop left (indexed or not) and plays the others once.
  assert(resumed.skipped >= logged.size, `${resumed.skipped} skipped, ${logged.size} logged`);
  assertEquals(resumed.played, 40 - resumed.skipped);
  assertEquals(resumed.failed, []);
  assertEquals(await digestFolder(out), await digestFolder(`${tmp}/ref`));
  assertEquals(reference.played, 40);
});

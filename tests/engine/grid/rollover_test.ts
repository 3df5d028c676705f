// Segment roll-over: a writer starts a new segment file (with its own index)
// before a block would take the current one past its size limit, never
// splitting a block; resume and every reader treat each file as a segment.
import { assert, assertEquals, assertThrows } from "../../_assert.ts";
import type { EngineEvent } from "../../../engine/core/events.ts";
import { runEpisode } from "../../../engine/run_episode.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import {
  readLogEpisodes,
  readRunEpisodes,
  SEGMENT_MAX_BYTES,
  type SegmentEntry,
  SegmentWriter,
} from "../../../engine/grid/segments.ts";
import { digestFolder, segmentFiles } from "./_logs.ts";
import { quiet, SMALL } from "./_grid_fixture.ts";
import { makeTempDir } from "../../_temp.ts";

const blockText = (events: readonly EngineEvent[]) =>
  events.map((e) => JSON.stringify(e) + "\n").join("");

/** The index lines of a segment file. */
async function indexOf(path: string): Promise<SegmentEntry[]> {
  const text = await Deno.readTextFile(`${path.slice(0, -".ndjson".length)}.idx`);
  return text.trimEnd().split("\n").map((l) => JSON.parse(l));
}

Deno.test("SegmentWriter.create() rolls over to a new file before a block would pass maxBytes", async () => {
  const dir = await makeTempDir();
  const logs: EngineEvent[][] = [];
  for (const seed of [1, 2, 3, 4, 5]) {
    logs.push((await runEpisode({ env: "bank_run", seed, run: "r" })).events);
  }
  const sizes = logs.map((l) => new TextEncoder().encode(blockText(l)).length);
  // The first two blocks fill the first file exactly: "past" is strictly more.
  const maxBytes = sizes[0] + sizes[1];
  const w = SegmentWriter.create(dir, "t", { maxBytes });
  const files: string[] = [];
  const entries = logs.map((events) => {
    const entry = w.append(events);
    files.push(w.path);
    return entry;
  });
  w.close();
  // Greedy, by the rule: a file takes the next block unless that passes maxBytes.
  const expected: number[][] = [[0]];
  let size = sizes[0];
  for (let i = 1; i < sizes.length; i++) {
    if (size + sizes[i] > maxBytes) {
      expected.push([i]);
      size = sizes[i];
    } else {
      expected.at(-1)!.push(i);
      size += sizes[i];
    }
  }
  assertEquals(expected[0], [0, 1]);
  assert(expected.length >= 3, `expected at least 3 files, got ${JSON.stringify(expected)}`);
  const names = expected.map((_, k) => `${dir}/segment-t${k === 0 ? "" : `_${k + 1}`}.ndjson`);
  assertEquals(w.paths, names);
  assertEquals(files, expected.flatMap((group, k) => group.map(() => names[k])));
  for (const [k, group] of expected.entries()) {
    const bytes = group.reduce((sum, i) => sum + sizes[i], 0);
    assertEquals((await Deno.stat(names[k])).size, bytes);
    assert(bytes <= maxBytes || group.length === 1, `${bytes} > ${maxBytes}`);
    // Each file has its own index, offsets from 0, and reads on its own.
    assertEquals(await indexOf(names[k]), group.map((i) => entries[i]));
    assertEquals(entries[group[0]].offset, 0);
    const read = await readLogEpisodes(names[k]);
    assertEquals(read.map((e) => e.episode), group.map((i) => logs[i][0].episode));
    assertEquals(read.map((e) => e.events), group.map((i) => logs[i]));
  }
});

Deno.test("SegmentWriter.create() gives a block larger than maxBytes a file of its own", async () => {
  const dir = await makeTempDir();
  const w = SegmentWriter.create(dir, "t", { maxBytes: 1 });
  for (const seed of [1, 2, 3]) w.append((await runEpisode({ env: "bank_run", seed })).events);
  w.close();
  assertEquals(w.paths, [
    `${dir}/segment-t.ndjson`,
    `${dir}/segment-t_2.ndjson`,
    `${dir}/segment-t_3.ndjson`,
  ]);
  for (const path of w.paths) assertEquals((await indexOf(path)).map((e) => e.offset), [0]);
  assertEquals(SEGMENT_MAX_BYTES, 256 * 1024 * 1024);
});

Deno.test("SegmentWriter.create() refuses a maxBytes that is not a positive integer", () => {
  for (const maxBytes of [0, -1, 1.5, NaN]) {
    assertThrows(
      () => SegmentWriter.create(".", "t", { maxBytes }),
      RangeError,
      `Segment maxBytes must be a positive integer: received ${JSON.stringify(maxBytes)}`,
    );
  }
});

Deno.test("runGrid() with segmentBytes rolls every writer over and logs the same episodes once", async () => {
  const reference = await makeTempDir();
  await runGrid(SMALL, { out: reference, ...quiet });
  const want = await digestFolder(reference);
  assertEquals(want.size, 6);
  for (const workers of [0, 1]) {
    const out = await makeTempDir();
    const r = await runGrid(SMALL, { out, ...quiet, workers, segmentBytes: 1 });
    assertEquals([r.played, r.remaining], [6, 0]);
    const data = (await segmentFiles(out)).filter((n) => n.endsWith(".ndjson"));
    const first = data.find((n) => !/_\d+\.ndjson$/.test(n))!;
    const stem = first.slice(0, -".ndjson".length);
    assertEquals(data.sort(), [first, ...[2, 3, 4, 5, 6].map((k) => `${stem}_${k}.ndjson`)].sort());
    assert(stem.endsWith(workers === 0 ? "-main" : "-w0"), stem);
    assertEquals(await digestFolder(out), want);
  }
  await assertRefused();
});

async function assertRefused() {
  const out = await makeTempDir();
  let caught: unknown;
  try {
    await runGrid(SMALL, { out, ...quiet, segmentBytes: 0 });
  } catch (err) {
    caught = err;
  }
  assert(caught instanceof RangeError);
  assertEquals(caught.message, `Grid option "segmentBytes" must be an integer >= 1, got 0`);
}

Deno.test("runGrid() resumes a folder killed in the middle of a writer's second segment file", async () => {
  const reference = await makeTempDir();
  await runGrid(SMALL, { out: reference, ...quiet });
  const want = await digestFolder(reference);
  const [refData] = (await segmentFiles(reference)).filter((n) => n.endsWith(".ndjson"));
  const largest = Math.max(...(await indexOf(`${reference}/${refData}`)).map((e) => e.bytes));
  // Any two blocks fit in a file: every file but the last holds two or more.
  const out = await makeTempDir();
  await runGrid(SMALL, { out, ...quiet, segmentBytes: 2 * largest });
  const data = (await segmentFiles(out)).filter((n) => n.endsWith(".ndjson")).sort();
  const first = data.find((n) => !/_\d+\.ndjson$/.test(n))!;
  const second = first.replace(/\.ndjson$/, "_2.ndjson");
  assert(data.includes(second), JSON.stringify(data));
  const firstBlocks = (await indexOf(`${out}/${first}`)).length;
  const secondBlocks = await indexOf(`${out}/${second}`);
  assert(firstBlocks >= 2 && secondBlocks.length >= 2, JSON.stringify([firstBlocks, secondBlocks]));
  // What a kill leaves while the second file's second block is being
  // written: that block half there and not indexed, no later file.
  const torn = secondBlocks[1];
  const secondIndex = `${out}/${second.slice(0, -".ndjson".length)}.idx`;
  await Deno.writeTextFile(secondIndex, JSON.stringify(secondBlocks[0]) + "\n");
  await Deno.truncate(`${out}/${second}`, torn.offset + Math.floor(torn.bytes / 2));
  for (const name of await segmentFiles(out)) {
    if (/_([3-9]|\d\d+)\.(ndjson|idx)$/.test(name)) await Deno.remove(`${out}/${name}`);
  }
  const again = await runGrid(SMALL, { out, ...quiet, segmentBytes: 2 * largest });
  assertEquals(
    [again.skipped, again.played, again.removedPartial, again.remaining],
    [firstBlocks + 1, 6 - firstBlocks - 1, 1, 0],
  );
  // Every episode once (readRunEpisodes refuses one logged twice), as a clean run logs it.
  assertEquals(await digestFolder(out), want);
  assertEquals((await indexOf(`${out}/${second}`)).map((e) => e.episode), [
    secondBlocks[0].episode,
  ]);
  assertEquals((await Deno.stat(`${out}/${second}`)).size, secondBlocks[0].bytes);
  let indexed = 0;
  for (const name of (await segmentFiles(out)).filter((n) => n.endsWith(".ndjson"))) {
    indexed += (await indexOf(`${out}/${name}`)).length;
  }
  assertEquals(indexed, 6);
  assertEquals((await readRunEpisodes(out)).size, 6);
});

// The loaders read a log in chunks of whole lines (so a file of any size is
// read): the scan of a file is the same in chunks of any size as in one, an
// agent call or an episode cut by a chunk boundary included, and a bad line
// is named by its line in the file, not in its chunk.
import { assert, assertEquals, assertThrows } from "../../_assert.ts";
import { serveLocalModel } from "../../../engine/agents/llm/server/local_server.ts";
import { LlmRuntime } from "../../../engine/agents/llm/runtime.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { SegmentWriter } from "../../../engine/grid/segments.ts";
import { runEpisode } from "../../../engine/run_episode.ts";
import { scanFiles } from "../../../analysis/load/_event_scan.ts";
import { FRAME_NAMES } from "../../../analysis/load/load_runs.ts";
import { findEpisode, readLogFile } from "../../../analysis/viewer/_log_source.ts";
import { tempDirRunner } from "../_temp_dir.ts";

const withTempDir = tempDirRunner("coordlab_chunks_");

/** The .ndjson files of a folder, sorted. */
async function logs(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir)))
    .filter((e) => e.name.endsWith(".ndjson")).map((e) => `${dir}/${e.name}`).sort();
}

Deno.test("scanFiles() gives the same result in chunks of any size as in one chunk", async () => {
  await withTempDir(async (dir) => {
    // Model-backed episodes (llm_call events before each report) and mock ones.
    const server = serveLocalModel();
    try {
      const runtime = new LlmRuntime({
        models: [{ id: "m", baseURL: server.url, model: "coordlab-stay", testDouble: true }],
        cacheDir: null,
      });
      await runGrid({
        episodes: 2,
        blocks: [{
          game: "frail",
          envs: ["bank_run"],
          mechanisms: ["M0", "M3"],
          params: [{ horizon: 2 }],
          agents: [{ model: "m" }],
        }],
      }, { out: `${dir}/llm`, runtime, progress: false });
    } finally {
      await server.close();
    }
    await runGrid({
      episodes: 2,
      blocks: [
        { game: "frail", envs: ["bank_run", "crowdfunding"], mechanisms: ["M1", "M2"] },
        { game: "staghunt", N: [3], M: [2], T: [2], F: [1] },
      ],
    }, { out: `${dir}/mock`, workers: 0, progress: false });
    const files = [...await logs(`${dir}/llm`), ...await logs(`${dir}/mock`)];
    assertEquals(files.length, 2);
    const whole = scanFiles(files, FRAME_NAMES, true);
    assertEquals(whole.episodes.length, 4 + 10);
    assert((whole.tables.calls?.[0].episode.length ?? 0) > 0);
    // 1 byte: every line is a chunk of its own (the buffer grows to each line).
    for (const chunkBytes of [1, 97, 4096, 65536]) {
      assertEquals(scanFiles(files, FRAME_NAMES, true, undefined, { chunkBytes }), whole);
    }
  });
});

Deno.test("scanFiles() names a malformed line by its line in the file when read in chunks", async () => {
  await withTempDir(async (dir) => {
    const { events } = await runEpisode({ env: "bank_run", seed: 1, run: "r" });
    const lines = events.map((e) => JSON.stringify(e));
    lines.splice(40, 0, '{"schema":2,"type":');
    const file = `${dir}/ep.ndjson`;
    await Deno.writeTextFile(file, lines.join("\n") + "\n");
    for (const chunkBytes of [1, 100, 1 << 20]) {
      const lax = scanFiles([file], ["episodes"], false, undefined, { chunkBytes });
      assertEquals(lax.malformed.map((m) => [m.file, m.line]), [[file, 41]]);
      assertEquals(lax.episodes.map((e) => [e.startLine, e.endLine]), [[1, lines.length]]);
      assertThrows(
        () => scanFiles([file], ["episodes"], true, undefined, { chunkBytes }),
        SyntaxError,
        `${file}:41: malformed event line`,
      );
    }
  });
});

Deno.test("scanFiles() reads only a segment's indexed blocks, retired ones blanked, in any chunks", async () => {
  await withTempDir(async (dir) => {
    const w = SegmentWriter.create(dir, "t");
    const entries = [];
    for (const seed of [1, 2, 3]) {
      entries.push(w.append((await runEpisode({ env: "bank_run", seed, run: "r" })).events));
    }
    w.close();
    const { retireBlock } = await import("../../../engine/grid/segments.ts");
    await retireBlock(w.path, entries[1]);
    // A block being written: half there, not indexed.
    const { events } = await runEpisode({ env: "bank_run", seed: 4, run: "r" });
    const text = events.map((e) => JSON.stringify(e) + "\n").join("");
    await Deno.writeTextFile(w.path, text.slice(0, text.length >> 1), { append: true });
    for (const chunkBytes of [1, 333, 1 << 20]) {
      const scan = scanFiles([w.path], ["episodes"], true, undefined, { chunkBytes });
      assertEquals(scan.episodes.map((e) => e.episode), [entries[0].episode, entries[2].episode]);
    }
  });
});

Deno.test("readLogFile() and findEpisode() read a file of many chunks as one", async () => {
  await withTempDir(async (dir) => {
    const w = SegmentWriter.create(dir, "t");
    for (const seed of [1, 2, 3]) {
      w.append((await runEpisode({ env: "bank_run", seed, run: "r" })).events);
    }
    w.close();
    const contents = await readLogFile(w.path);
    assertEquals(contents.episodes.map((e) => e.episode), [
      "bank_run_M0_stable_s1",
      "bank_run_M0_stable_s2",
      "bank_run_M0_stable_s3",
    ]);
    const { found, malformed } = await findEpisode(dir, "r", "bank_run_M0_stable_s2");
    assertEquals(found.events, contents.episodes[1].events);
    assertEquals([found.block, found.blocks, malformed], [1, 1, []]);
  });
});

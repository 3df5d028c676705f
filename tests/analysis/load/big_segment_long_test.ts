// Long group: a segment file past 512 MiB (past V8's limit on one string,
// which an older writer without roll-over reached at about 6,000 logged
// bank-run episodes) loads, compacts and opens in the viewer: every episode
// once, with the right count, welfare sum and rows. Its folder is removed
// however the test ends; with under 3 GB free the test is skipped and says so.
import { assert, assertEquals } from "../../_assert.ts";
import { compactRun } from "../../../analysis/load/compact.ts";
import { loadRuns } from "../../../analysis/load/load_runs.ts";
import { findEpisode } from "../../../analysis/viewer/_log_source.ts";
import { copyId, freeBytes, templateBlock, writeCopies } from "./_big_log.ts";
import { makeTempDir } from "../../_temp.ts";

const STRING_LIMIT = 512 * 1024 * 1024;
const NEEDED = 3 * 1024 ** 3;
const tmp = Deno.env.get("TMPDIR") ?? "/tmp";
const free = await freeBytes(tmp);
const skip = free === null || free < NEEDED;
if (skip) {
  console.warn(
    `Skipping the 512 MiB segment test: it needs 3 GB free in "${tmp}", ` +
      (free === null ? "and df could not tell" : `which has ${(free / 1024 ** 3).toFixed(1)} GB`),
  );
}

Deno.test({
  name: "loadRuns() and compactRun() read a segment file past 512 MiB, every episode once",
  ignore: skip,
  fn: async () => {
    const root = await makeTempDir({ prefix: "coordlab_big_segment_" });
    try {
      const template = await templateBlock(`${root}/template`);
      const one = await loadRuns(`${root}/template`, { frames: ["calls"] });
      const welfare = one.episodes.getColumn("welfare").toArray()[0] as number;
      const calls = one.calls.height;
      const events = template.text.trimEnd().split("\n").length - 1; // less the block header
      assert(typeof welfare === "number" && Number.isFinite(welfare), String(welfare));
      assert(calls > 0);
      // One file, as a writer without roll-over left it, just past the limit.
      const count = Math.ceil((STRING_LIMIT + 32 * 1024 * 1024) / template.entry.bytes);
      const [file] = writeCopies(`${root}/run`, template, { count, tag: "big-w0" });
      const size = (await Deno.stat(file)).size;
      assert(size > STRING_LIMIT, `${size}`);

      const frames = await loadRuns(`${root}/run`, { frames: ["calls"] });
      assertEquals(frames.episodes.height, count);
      const ids = frames.episodes.getColumn("episode").toArray() as string[];
      assertEquals(new Set(ids).size, count);
      assertEquals(ids[count - 1], copyId(template, count - 1));
      const w = frames.episodes.getColumn("welfare");
      assertEquals([w.min(), w.max(), w.nullCount()], [welfare, welfare, 0]);
      const sum = w.sum() as number;
      assert(Math.abs(sum - count * welfare) <= 1e-9 * Math.abs(count * welfare), `${sum}`);
      assertEquals(frames.calls.height, count * calls);
      assertEquals([frames.malformed, frames.duplicates], [[], []]);

      const compacted = await compactRun(`${root}/run`, { out: `${root}/parquet` });
      assertEquals(
        [compacted.logs, compacted.rows.episodes, compacted.rows.calls, compacted.rows.events],
        [1, count, count * calls, count * events],
      );
      const back = await loadRuns(`${root}/parquet`);
      assertEquals(back.episodes.height, count);
      assertEquals(back.episodes.getColumn("welfare").sum(), sum);

      // The viewer finds the last episode, past the limit.
      const { found, malformed } = await findEpisode(
        `${root}/run`,
        template.entry.run,
        ids[count - 1],
      );
      assertEquals([found.events.length, malformed], [events, []]);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

// loadRuns returns rows in a fixed order whatever order the episodes were
// logged in: a grid played by two workers logs them as they finish, and a
// mean over the frame must not change in its last bits from run to run.
import assert from "node:assert/strict";
import { loadRuns } from "../../../analysis/mod.ts";
import { runEpisode } from "../../../engine/run_episode.ts";
import { tempDirRunner } from "../_temp_dir.ts";

const withTempDir = tempDirRunner("coordlab-order-");

Deno.test("loadRuns() orders rows by run, episode and event, whatever order the logs were written in", async () => {
  await withTempDir(async (dir) => {
    const results = [];
    for (const seed of [5, 1, 3]) {
      results.push(
        await runEpisode({ env: "bank_run", seed, outDir: dir, run: "r", ndjson: true }),
      );
    }
    // One segment-like file holding the three episodes in the order 5, 1, 3.
    await Deno.remove(`${dir}/r`, { recursive: true });
    await Deno.mkdir(`${dir}/r`);
    await Deno.writeTextFile(`${dir}/r/segment.ndjson`, results.map((r) => r.ndjson!).join(""));
    const { episodes, decisions } = await loadRuns(dir);
    assert.deepEqual(episodes.getColumn("episode").toArray(), [
      "bank_run_M0_stable_s1",
      "bank_run_M0_stable_s3",
      "bank_run_M0_stable_s5",
    ]);
    const order = decisions!.select("episode", "seq").toRecords().map((r) =>
      `${r.episode}|${r.seq}`
    );
    const sorted = [...order].sort((a, b) => {
      const [ea, sa] = a.split("|");
      const [eb, sb] = b.split("|");
      return ea < eb ? -1 : ea > eb ? 1 : Number(sa) - Number(sb);
    });
    assert.deepEqual(order, sorted);
  });
});

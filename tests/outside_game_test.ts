// A game from outside the repository (tests/fixtures/outside_game/coin.ts,
// which imports coordlab through its entry points only) is registered, run by
// runGrid with two workers, stopped and resumed, loaded and viewed.
import { assertEquals } from "./_assert.ts";
import { coinGame } from "./fixtures/outside_game/coin.ts";
import { gameDescriptor } from "../engine/mod.ts";
import { loadRuns, runGrid, writeRunSite } from "../mod.ts";
import { makeTempDir } from "./_temp.ts";

const gameModules = [new URL("./fixtures/outside_game/coin.ts", import.meta.url).href];
const spec = {
  name: "coins",
  seed: 3,
  episodes: 100,
  blocks: [{
    game: "coin",
    conditions: [{ N: 3, T: 2 }, { N: 2, T: 3 }],
    agents: [{ mock: { players: "heads" } }, { mock: { players: "alternate" } }],
  }],
};

Deno.test("runGrid() plays a game registered outside the repository in workers, resumes it, and loadRuns and writeRunSite read it", async () => {
  assertEquals(gameDescriptor("coin"), coinGame);
  const out = await makeTempDir({ prefix: "coordlab-coin-" });
  try {
    // The first run stops after 5 of the 400 episodes (those in flight finish).
    const stop = new AbortController();
    let seen = 0;
    const first = await runGrid(spec, {
      out,
      workers: 2,
      progress: false,
      gameModules,
      signal: stop.signal,
      onEpisode: () => {
        if (++seen === 5) stop.abort("enough");
      },
    });
    assertEquals([first.mode, first.total, first.stoppedBy], ["workers", 400, "signal"]);
    assertEquals(first.played + first.remaining, 400);
    assertEquals(first.remaining > 0, true);
    const second = await runGrid(spec, { out, workers: 2, progress: false, gameModules });
    assertEquals([second.skipped, second.played, second.remaining], [
      first.played,
      400 - first.played,
      0,
    ]);
    assertEquals(second.failed, []);

    const { episodes } = await loadRuns(second.dir);
    assertEquals(episodes.height, 400);
    const rows = episodes.toRecords() as Record<string, unknown>[];
    const byCell = new Map<string, string>();
    for (const r of rows) {
      const cell = String(r.episode).replace(/_e\d+$/, "");
      byCell.set(cell, `${byCell.get(cell) ?? ""}${r.welfare}`);
    }
    // All heads agree every round: N x T each; alternating players never all agree when N >= 2.
    assertEquals(Object.fromEntries([...byCell].sort()), {
      "coin_N2_T3_mock-alternate": "0".repeat(100),
      "coin_N2_T3_mock-heads": "6".repeat(100),
      "coin_N3_T2_mock-alternate": "0".repeat(100),
      "coin_N3_T2_mock-heads": "6".repeat(100),
    });
    assertEquals(new Set(rows.map((r) => r.env)), new Set(["coin"]));

    const site = await writeRunSite(second.dir);
    assertEquals(site.episodes, 400);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

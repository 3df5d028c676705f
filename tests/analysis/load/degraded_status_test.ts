// Degraded episodes (issue 12, item 1) reach the episodes frame with their status,
// and the tables, which keep only status "ok", leave them out.
import { bankRunGame } from "../../../engine/games/bank_run/descriptor.ts";
import { frailSetup } from "../../../engine/frail/descriptor.ts";
import { assertEquals } from "../../_assert.ts";
import { loadRuns } from "../../../analysis/load/load_runs.ts";
import { successTable } from "../../../analysis/frail/success_table.ts";
import type { Agent } from "../../../engine/core/agent.ts";
import { playEpisode } from "../../../engine/core/episode.ts";
import { writeEpisodeLog } from "../../../engine/core/log_file.ts";
import { bankRun } from "../../../engine/games/bank_run/environment.ts";
import { tempDirRunner } from "../_temp_dir.ts";

const inTempDir = tempDirRunner("coordlab-degraded-");

/** Depositors that stay, one of which (when `failing`) fails on its first call. */
function agents(failing: boolean) {
  let failed = false;
  return (p: { id: string }): Agent => ({
    policy: "mock:stay",
    decide: (req) => {
      if (failing && p.id === "dep_01" && !failed) {
        failed = true;
        return Promise.reject(new Error("provider down"));
      }
      return Promise.resolve(
        req.call === "withdrawal" ? { withdraw_probability: 0 } : {},
      );
    },
  });
}

Deno.test("loadRuns() reports a degraded episode's status, and successTable() leaves it out", async () => {
  await inTempDir(async (dir) => {
    for (const [episode, failing] of [["clean", false], ["hurt", true]] as const) {
      const played = await playEpisode(bankRun, {
        ...frailSetup(bankRunGame, {
          mechanism: "M0",
          regime: "stable",
          overrides: { depositors: 3, totalDeposits: 3, horizon: 2 },
        }),
        seed: 1,
        run: "r",
        episode,
        agents: agents(failing),
      });
      await writeEpisodeLog(`${dir}/r/${episode}.ndjson`, played.events);
    }
    const { episodes } = await loadRuns(dir, { frames: ["episodes"] });
    const rows = episodes.sort("episode").select("episode", "status", "success").toRecords();
    assertEquals(rows, [
      { episode: "clean", status: "ok", success: true },
      { episode: "hurt", status: "degraded", success: true },
    ]);
    const [cell] = successTable(episodes).toRecords();
    assertEquals([cell.successes, cell.episodes], [1, 1]);
  });
});

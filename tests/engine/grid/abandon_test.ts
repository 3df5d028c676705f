import { assert, assertEquals, assertRejects } from "../../_assert.ts";
import type { Agent } from "../../../engine/core/agent.ts";
import { EpisodeAbandoned } from "../../../engine/core/abandon.ts";
import { playEpisode } from "../../../engine/core/episode.ts";
import { bankRunGame } from "../../../engine/games/bank_run/descriptor.ts";
import { frailSetup } from "../../../engine/frail/descriptor.ts";
import { readManifest } from "../../../engine/grid/manifest.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { readRunEpisodes } from "../../../engine/grid/segments.ts";
import { makeTempDir } from "../../_temp.ts";

const stay = (policy: string): Agent => ({
  policy,
  decide: (req) => Promise.resolve(req.call === "withdrawal" ? { withdraw_probability: 0 } : {}),
});

Deno.test("playEpisode() rethrows EpisodeAbandoned after every call of the step has settled", async () => {
  const settled: string[] = [];
  const setup = frailSetup(bankRunGame, { mechanism: "M0", regime: "stable" });
  const err = await assertRejects(
    () =>
      playEpisode(bankRunGame.environment, {
        ...setup,
        seed: 1,
        agents: (p) => ({
          policy: "t",
          decide: async () => {
            if (p.id === "dep_01") throw new EpisodeAbandoned("Cost budget reached");
            await new Promise((r) => setTimeout(r, 5));
            settled.push(p.id);
            return { withdraw_probability: 0 };
          },
        }),
      }),
    EpisodeAbandoned,
    "Cost budget reached",
  );
  assertEquals(err.name, "EpisodeAbandoned");
  // The other 14 depositors of round 1 were awaited before the episode stopped.
  assertEquals(settled.length, 14);
});

Deno.test("runGrid() does not log an abandoned episode, stops starting others, and plays it again on resume", async () => {
  const out = await makeTempDir();
  const spec = {
    name: "abandon",
    episodes: 3,
    blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0"], agents: [{ model: "m" }] }],
  };
  let calls = 0;
  const first = await runGrid(spec, {
    out,
    progress: false,
    concurrency: 1,
    agents: () => (player) => ({
      policy: "test",
      decide: (req) => {
        // The second episode's first call is refused: the run stops there.
        if (++calls === 12 * 15 + 1) throw new EpisodeAbandoned("Cost budget reached: 1 of 1");
        return stay(player.id).decide(req);
      },
    }),
  });
  assertEquals([first.played, first.remaining, first.interrupted], [1, 2, true]);
  assertEquals(first.stopped, "Cost budget reached: 1 of 1");
  assertEquals(first.failed, []);
  assertEquals([...(await readRunEpisodes(out)).keys()], ["bank_run_M0_stable_m_e0"]);
  assertEquals((await readManifest(out))?.status, "interrupted");
  const again = await runGrid(spec, {
    out,
    progress: false,
    agents: () => (player) => stay(player.id),
  });
  assertEquals([again.skipped, again.played, again.remaining], [1, 2, 0]);
  assert(!again.interrupted);
});

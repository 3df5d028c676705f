// Seeded exact values: a refactor that changes any bank-run rule, draw or
// state field changes these. Update them only for a deliberate change, and say
// why in the commit.
import { assertEquals } from "../../../_assert.ts";
import { runEpisode } from "../../../../engine/run_episode.ts";
import { sha256Hex } from "../../../../engine/core/hash.ts";
import { MECHANISMS } from "../../../../engine/frail/types.ts";
import { playEpisode } from "../../../../engine/core/episode.ts";
import { frailSetup } from "../../../../engine/frail/descriptor.ts";
import { bankRunGame } from "../../../../engine/games/bank_run/descriptor.ts";
import { bankRun } from "../../../../engine/games/bank_run/environment.ts";
import { mockPopulation } from "../../../../engine/agents/mock/population.ts";

Deno.test("bank-run episodes for seeds 0-3 under M0-M3 keep their pinned outcomes and final hashes", async () => {
  const rows: string[] = [];
  const hashes: string[] = [];
  for (const m of MECHANISMS) {
    for (let seed = 0; seed < 4; seed++) {
      const r = await runEpisode({
        env: "bank_run",
        mechanism: m,
        seed,
        params: { depositSplit: "heterogeneous" },
        hashes: true,
      });
      rows.push(`${m}/${seed}: ${r.outcome.rounds} ${r.outcome.welfare.toFixed(6)}`);
      hashes.push(r.hashes.at(-1)!);
    }
  }
  assertEquals(rows, [
    "M0/0: 12 18.174825",
    "M0/1: 4 13.938750",
    "M0/2: 4 13.938750",
    "M0/3: 6 13.938750",
    "M1/0: 12 18.174825",
    "M1/1: 12 18.174825",
    "M1/2: 12 18.174825",
    "M1/3: 12 18.174825",
    "M2/0: 12 18.174825",
    "M2/1: 12 18.174825",
    "M2/2: 12 18.174825",
    "M2/3: 12 18.174825",
    "M3/0: 12 18.174825",
    "M3/1: 12 18.174825",
    "M3/2: 12 17.683901",
    "M3/3: 12 18.137799",
  ]);
  // "lines-v4" (the default since issue 23): checkpoint states without the depositors' histories.
  assertEquals(
    sha256Hex(hashes.join("")),
    "6ccd9e4f98a5b040bddb4a39dce2c8ea69cd2a8f8a628f18c43b1e72262b32b5",
  );
  // "lines-v3": whole states, the hashes pinned before.
  const whole: string[] = [];
  for (const m of MECHANISMS) {
    for (let seed = 0; seed < 4; seed++) {
      const r = await playEpisode(bankRun, {
        ...frailSetup(bankRunGame, {
          mechanism: m,
          regime: "stable",
          overrides: { depositSplit: "heterogeneous" },
        }),
        seed,
        agents: mockPopulation({ seed }),
        hashes: true,
        hashing: "lines-v3",
      });
      whole.push(r.hashes.at(-1)!);
    }
  }
  assertEquals(
    sha256Hex(whole.join("")),
    "75d01d79073696cb0b55d192b0df822734285b68bc1eabc33610aac4d1d4bbcc",
  );
});

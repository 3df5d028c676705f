// The minimum-effort game through the grid, as an author runs it: the spec
// { "game": "min_effort" } with nothing else plays mock agents in workers,
// resumes, loads, replays and is viewed; and a block of two conditions and two
// agents entries. The welfare values are pinned; each was checked by hand from
// the rounds frame (welfare = sum over rounds of N * (a * minimum + c) - b *
// the efforts' sum) and, for always_max, from T * N * (a * 7 - b * 7 + c).
import { assertAlmostEquals, assertEquals } from "../../../_assert.ts";
import { readRunEpisodes } from "../../../../engine/grid/mod.ts";
import { loadRuns, type pl, replayEpisode, runGrid, writeRunSite } from "../../../../mod.ts";
import { makeTempDir } from "../../../_temp.ts";

const CONDITION = ["N", "T", "a", "b", "c", "efforts"];

type Row = Record<string, unknown>;

/** Welfare of each episode recomputed from its rounds (game A's payoffs). */
function welfareFromRounds(rounds: pl.DataFrame): Map<string, number> {
  const sums = new Map<string, number>();
  for (const r of rounds.toRecords() as Row[]) {
    const N = r.N as number;
    const round = N * ((r.a as number) * (r.minimum as number) + (r.c as number)) -
      (r.b as number) * N * (r.mean_effort as number);
    sums.set(r.episode as string, (sums.get(r.episode as string) ?? 0) + round);
  }
  return sums;
}

Deno.test('runGrid() plays the spec { "game": "min_effort" } with nothing else in two workers, resumes, and loadRuns, replayEpisode and writeRunSite read it', async () => {
  const out = await makeTempDir({ prefix: "coordlab-me-grid-" });
  const spec = { name: "me", blocks: [{ game: "min_effort" }] };
  try {
    const first = await runGrid(spec, { out, workers: 2, progress: false });
    assertEquals([first.mode, first.total, first.played, first.skipped, first.remaining], [
      "workers",
      5,
      5,
      0,
      0,
    ]);
    assertEquals(first.failed, []);
    const logs = [...Deno.readDirSync(out)].map((e) => e.name).filter((n) => n.endsWith(".ndjson"));
    assertEquals(logs.length, 2); // one segment per worker
    const again = await runGrid(spec, { out, workers: 2, progress: false });
    assertEquals([again.total, again.played, again.skipped, again.remaining], [5, 0, 5, 0]);

    const { episodes, rounds } = await loadRuns(out);
    const eps = episodes.sort("episode").toRecords() as Row[];
    assertEquals(
      eps.map((r) => r.episode),
      [0, 1, 2, 3, 4].map((i) => `min_effort_N7_T10_mock_e${i}`),
    );
    for (const r of eps) {
      assertEquals(
        [r.game, r.env, r.condition_id, r.status, r.rounds, r.model, r.best],
        [
          "min_effort",
          "min_effort",
          "min_effort_N7_T10",
          "ok",
          10,
          "mock:best_response(epsilon=0.1)",
          91,
        ],
      );
      assertEquals(CONDITION.map((k) => r[k]), [7, 10, 0.2, 0.1, 0.6, 7]);
      // T * (payoff(1, 1) + (N - 1) * payoff(7, 1)) = 10 * (0.7 + 6 * 0.1) = 13, as floats add it.
      assertEquals(r.worst, 12.999999999999998);
    }
    assertEquals(eps.map((r) => r.welfare), [
      54.8,
      49.8,
      56.900000000000006,
      52.20000000000001,
      64.1,
    ]);
    assertEquals(eps.map((r) => r.seed), [
      3083514748196743,
      411604656065126,
      1002205108355609,
      32239748610994,
      3682016986442186,
    ]);

    assertEquals(rounds!.height, 50);
    for (const k of [...CONDITION, "round", "minimum", "mean_effort", "mean_payoff", "effort_7"]) {
      assertEquals(rounds!.columns.includes(k), true, k);
    }
    const e0 = (rounds!.toRecords() as Row[]).filter((r) =>
      r.episode === "min_effort_N7_T10_mock_e0"
    ).sort((x, y) => (x.round as number) - (y.round as number));
    assertEquals(e0.map((r) => r.minimum), [7, 7, 2, 2, 2, 1, 1, 1, 1, 1]);
    assertEquals(e0.map((r) => Math.round((r.mean_effort as number) * 7)), [
      49,
      49,
      41,
      14,
      14,
      13,
      7,
      11,
      17,
      7,
    ]);
    // By hand for e0: 10 * 7 * 0.6 + 0.2 * 7 * (sum of minima 25) - 0.1 * (sum of efforts 222) = 54.8.
    const recomputed = welfareFromRounds(rounds!);
    for (const r of eps) {
      assertAlmostEquals(recomputed.get(r.episode as string)!, r.welfare as number);
    }

    const logged = await readRunEpisodes(out);
    const events = logged.get("min_effort_N7_T10_mock_e0")!;
    const check = await replayEpisode(events);
    assertEquals(check.ok, true, JSON.stringify(check.mismatch));

    const site = await writeRunSite(out);
    assertEquals([site.episodes, site.malformed], [5, []]);
    const page = await Deno.readTextFile(`${site.out}/episodes/me/min_effort_N7_T10_mock_e0.html`);
    assertEquals(page.includes("Disclosure metrics by round: minimum, mean effort."), true);
    assertEquals(page.includes("Y-axis titled 'Effort'"), true);
    const minima = new Map<number, number>();
    for (const m of page.matchAll(/Round: (\d+); Effort: ([\d.]+); series: minimum"/g)) {
      minima.set(Number(m[1]), Number(m[2]));
    }
    assertEquals([...minima].sort((x, y) => x[0] - y[0]).map(([, v]) => v), [
      7,
      7,
      2,
      2,
      2,
      1,
      1,
      1,
      1,
      1,
    ]);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("runGrid() plays a min_effort block of two conditions and two agents entries, each cell keyed by its condition and agents", async () => {
  const out = await makeTempDir({ prefix: "coordlab-me-grid2-" });
  const spec = {
    name: "me2",
    blocks: [{
      game: "min_effort",
      conditions: [{ N: 7 }, { N: 16 }],
      agents: [{ mock: { players: "best_response" } }, { mock: { players: "always_max" } }],
    }],
  };
  try {
    const run = await runGrid(spec, { out, workers: 2, progress: false });
    assertEquals([run.total, run.played, run.failed], [20, 20, []]);
    const { episodes } = await loadRuns(out);
    const rows = episodes.sort("episode").toRecords() as Row[];
    const cells = new Map<string, unknown[]>();
    for (const r of rows) {
      const cell = String(r.episode).replace(/_e\d+$/, "");
      cells.set(cell, [...(cells.get(cell) ?? []), r.welfare]);
      assertEquals(CONDITION.map((k) => r[k]), [r.N, 10, 0.2, 0.1, 0.6, 7]);
    }
    // always_max: T * N * (0.2 * 7 - 0.1 * 7 + 0.6) = 91 (N 7) and 208 (N 16), the best welfare.
    for (const [N, w] of [[7, 91], [16, 208]]) {
      for (const x of cells.get(`min_effort_N${N}_T10_mock-always_max`)!) {
        assertAlmostEquals(x as number, 10 * N * (0.2 * 7 - 0.1 * 7 + 0.6));
        assertAlmostEquals(x as number, w);
      }
    }
    assertEquals(Object.fromEntries(cells), {
      "min_effort_N16_T10_mock-always_max": Array(5).fill(208.00000000000003),
      "min_effort_N16_T10_mock-best_response": [
        100.30000000000001,
        101.19999999999999,
        135.5,
        102.20000000000002,
        100.6,
      ],
      "min_effort_N7_T10_mock-always_max": Array(5).fill(91.00000000000001),
      "min_effort_N7_T10_mock-best_response": [
        55.19999999999999,
        47.300000000000004,
        69.6,
        51.50000000000001,
        47,
      ],
    });
    const models = new Map(rows.map((r) => [String(r.episode).replace(/_e\d+$/, ""), r.model]));
    assertEquals(models.get("min_effort_N16_T10_mock-always_max"), "mock:always_max");
    assertEquals(
      models.get("min_effort_N7_T10_mock-best_response"),
      "mock:best_response(epsilon=0.1)",
    );
    // Both agents entries of a condition play the same seeds (common random numbers).
    const seeds = (cell: string) =>
      rows.filter((r) => String(r.episode).startsWith(`${cell}_e`)).map((r) => r.seed);
    assertEquals(
      seeds("min_effort_N7_T10_mock-always_max"),
      seeds("min_effort_N7_T10_mock-best_response"),
    );
    const bounds = new Set(rows.map((r) => `${r.N}:${r.worst}:${r.best}`));
    assertEquals([...bounds].sort(), ["16:21.999999999999993:208", "7:12.999999999999998:91"]);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

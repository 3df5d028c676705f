// The worker pool sends the episodes asked for together in one message and
// gets results back in batches: every job still resolves with its own
// episode's summary, and every log lands in the worker's segment once.
import { assertEquals } from "../../_assert.ts";
import type { GridEpisode } from "../../../engine/grid/cells.ts";
import { readRunEpisodes } from "../../../engine/grid/segments.ts";
import {
  DEFAULT_DEPTH,
  REPORT_EVERY,
  reportEvery,
  WorkerPool,
} from "../../../engine/grid/worker_pool.ts";
import { makeTempDir } from "../../_temp.ts";

Deno.test("WorkerPool.run() resolves each of 30 batched jobs with its own episode's summary", async () => {
  const dir = await makeTempDir();
  const pool = new WorkerPool({ size: 1, depth: 6 });
  const episodes: GridEpisode[] = Array.from({ length: 30 }, (_, i) => ({
    id: `ep${i}`,
    index: i,
    run: "pool",
    cell: "c",
    replicate: i,
    seed: i,
    condition: i % 2
      ? { game: "frail", env: "bank_run", mechanism: "M0", regime: "stable", params: {} }
      : {
        game: "staghunt",
        N: 3,
        M: 2,
        T: 1 + (i % 3),
        F: 1,
        corruption: "base",
        heterogeneity: "h1",
        payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 },
      },
    agents: { kind: "mock", mock: {} },
  } as GridEpisode));
  try {
    const summaries = await Promise.all(episodes.map((ep) => pool.run(ep, dir)));
    assertEquals(summaries.map((s) => s.id), episodes.map((e) => e.id));
    assertEquals(summaries.every((s) => s.status === "ok" && s.logged), true);
    // A Stag Hunt episode of N = 3 with one corrupted player makes 4 calls a round
    // (episodes 0, 2 and 4 play 1, 3 and 2 rounds).
    assertEquals(summaries.filter((_, i) => i % 2 === 0).map((s) => s.calls).slice(0, 3), [
      4,
      12,
      8,
    ]);
  } finally {
    await pool.close();
  }
  const logs = await readRunEpisodes(dir);
  assertEquals([...logs.keys()].sort(), episodes.map((e) => e.id).sort());
});

Deno.test("a pool holds 64 episodes a worker by default and its workers report 8 at a time (half the depth when fewer)", async () => {
  const pool = new WorkerPool({ size: 1 });
  try {
    assertEquals([pool.depth, DEFAULT_DEPTH, REPORT_EVERY], [64, 64, 8]);
  } finally {
    await pool.close();
  }
  assertEquals([64, 16, 6, 2, 1].map(reportEvery), [8, 8, 3, 1, 1]);
});

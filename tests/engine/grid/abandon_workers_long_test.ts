// An abandoned grid's worker writes nothing after runGrid returns (issue 23 review): the pool
// stops its workers by a shared flag and waits for them, as Worker.terminate() alone does not stop
// a worker whose mock episodes settle in microtasks. Before, 14 of 20 such runs went on writing,
// and an immediate resume logged episodes twice. Five runs (long group: each starts two grids).
import { assertEquals } from "../../_assert.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { readRunEpisodes } from "../../../engine/grid/segments.ts";
import { HELD } from "./_grid_fixture.ts";
import { makeTempDir } from "../../_temp.ts";

Deno.test("runGrid() abandoned while its worker plays writes nothing after it returns, and its resume logs every episode once", async () => {
  const spec = HELD;
  const sizes = (dir: string) =>
    [...Deno.readDirSync(dir)].filter((e) => e.name.startsWith("segment-"))
      .map((e) => `${e.name}:${Deno.statSync(`${dir}/${e.name}`).size}`).sort().join(" ");
  for (let k = 0; k < 5; k++) {
    const out = await makeTempDir({ prefix: "coordlab-pool-" });
    try {
      const abandon = new AbortController();
      let seen = 0;
      await runGrid(spec, {
        out,
        workers: 1,
        progress: false,
        abandon: abandon.signal,
        onEpisode: () => {
          if (++seen === 3) abandon.abort("test");
        },
      });
      const returned = sizes(out);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assertEquals(sizes(out), returned, `run ${k}: a segment grew after runGrid returned`);
      const resumed = await runGrid(spec, { out, workers: 1, progress: false });
      assertEquals(resumed.remaining, 0);
      assertEquals((await readRunEpisodes(out)).size, 40, `run ${k}`);
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  }
});

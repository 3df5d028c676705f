// A notebook that forgets `await` before runGrid, runEpisode or loadRuns is
// told so: the promise shows a message (Deno's Jupyter kernel shows a value's
// Symbol.for("Jupyter.display") bundle) and reading a result field throws.
import { assert, assertEquals, assertThrows } from "../../_assert.ts";
import { loadRuns } from "../../../analysis/load/load_runs.ts";
import { JUPYTER_DISPLAY } from "../../../engine/core/jupyter.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { runEpisode } from "../../../engine/run_episode.ts";
import { makeTempDir } from "../../_temp.ts";

type Shown = { [JUPYTER_DISPLAY]: () => Record<string, string> };

function assertHint(promise: Promise<unknown>, call: string, field: string): void {
  const message = `${call} returned a Promise: put await before it, ` +
    `as in \`const result = await ${call}\`, to get its result.`;
  assertEquals((promise as unknown as Shown)[JUPYTER_DISPLAY](), {
    "text/plain": message,
    "text/html": `<p class="coordlab-await">${message}</p>`,
  });
  assertThrows(
    () => (promise as unknown as Record<string, unknown>)[field],
    TypeError,
    `${message} (".${field}" is a field of the result, not of the Promise)`,
  );
}

Deno.test("runGrid(), runEpisode() and loadRuns() without await say to put await before them", async () => {
  const dir = await makeTempDir();
  try {
    const grid = runGrid(
      { name: "hint", episodes: 1, blocks: [{ game: "frail", envs: ["bank_run"] }] },
      { out: `${dir}/run`, progress: false, workers: 0 },
    );
    assertHint(grid, "runGrid(...)", "dir");
    const result = await grid;
    assertEquals(result.dir, `${dir}/run`);
    // The awaited result shows its own summary, not the hint.
    assert(!JSON.stringify((result as unknown as Shown)[JUPYTER_DISPLAY]()).includes("a Promise"));

    const episode = runEpisode({ env: "bank_run", mechanism: "M0", seed: 1 });
    assertHint(episode, "runEpisode(...)", "outcome");
    assertEquals(typeof (await episode).outcome.welfare, "number");

    const frames = loadRuns(`${dir}/run`, { frames: ["episodes"] });
    assertHint(frames, "loadRuns(...)", "episodes");
    assertEquals((await frames).episodes.height, 4); // M0-M3
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

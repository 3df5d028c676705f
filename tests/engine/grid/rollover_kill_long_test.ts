// Long group: a grid whose writers roll over to new segment files, killed
// with SIGKILL while writing their second (or a later) file, then resumed,
// ends with the logs of an uninterrupted run: every episode once.
import { assert, assertEquals } from "../../_assert.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { readRunEpisodes } from "../../../engine/grid/segments.ts";
import { digestFolder, segmentFiles } from "./_logs.ts";
import { makeTempDir } from "../../_temp.ts";

const CHILD = new URL("./_rollover_child.ts", import.meta.url).pathname;
const SEGMENT_BYTES = 1024 * 1024;

const SPEC = {
  name: "killed-rolled",
  seed: 7,
  episodes: 30,
  blocks: [
    { game: "frail", envs: ["bank_run"] },
    { game: "staghunt", N: [5], M: [3], F: [1, 2] },
  ],
};
const TOTAL = (4 + 2) * 30;

/** Index lines of every segment of a folder, by file name. */
async function indexed(dir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  try {
    for (const name of await segmentFiles(dir)) {
      if (!name.endsWith(".idx")) continue;
      out.set(name, (await Deno.readTextFile(`${dir}/${name}`)).split("\n").length - 1);
    }
  } catch {
    // not there yet
  }
  return out;
}

Deno.test("runGrid() resumed after SIGKILL in a writer's second segment file logs every episode once", async () => {
  const tmp = await makeTempDir({ prefix: "coordlab-rolled-kill-" });
  try {
    const specPath = `${tmp}/spec.json`;
    await Deno.writeTextFile(specPath, JSON.stringify(SPEC));
    const reference = await runGrid(SPEC, { out: `${tmp}/reference`, workers: 0, progress: false });
    assertEquals(reference.played, TOTAL);

    const out = `${tmp}/killed`;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CHILD, specPath, out, String(SEGMENT_BYTES)],
      stdout: "null",
      stderr: "piped",
    }).spawn();
    // Killed once a writer's second file holds a block.
    const rolled = (m: Map<string, number>) =>
      [...m].some(([name, n]) => /_2\.idx$/.test(name) && n >= 1);
    while (!rolled(await indexed(out))) await new Promise((r) => setTimeout(r, 5));
    child.kill("SIGKILL");
    assertEquals((await child.output()).signal, "SIGKILL");
    const atKill = [...(await indexed(out)).values()].reduce((a, b) => a + b, 0);
    assert(atKill < TOTAL, `the grid must be killed part-way, found ${atKill} of ${TOTAL} logs`);

    const resumed = await runGrid(SPEC, {
      out,
      workers: 2,
      progress: false,
      segmentBytes: SEGMENT_BYTES,
    });
    assertEquals(resumed.skipped + resumed.played, TOTAL);
    assertEquals([resumed.remaining, resumed.failed.length], [0, 0]);
    // Every file within the limit (but a file of one block), every episode once.
    for (const name of await segmentFiles(out)) {
      if (!name.endsWith(".ndjson")) continue;
      const blocks = (await Deno.readTextFile(`${out}/${name.slice(0, -".ndjson".length)}.idx`))
        .trimEnd().split("\n").length;
      const size = (await Deno.stat(`${out}/${name}`)).size;
      assert(size <= SEGMENT_BYTES || blocks === 1, `${name}: ${size} bytes in ${blocks} blocks`);
    }
    assertEquals([...(await indexed(out)).values()].reduce((a, b) => a + b, 0), TOTAL);
    assertEquals((await readRunEpisodes(out)).size, TOTAL);
    const ref = await digestFolder(`${tmp}/reference`);
    const got = await digestFolder(out);
    assertEquals([...got.keys()], [...ref.keys()]);
    for (const [name, d] of got) assertEquals(d, ref.get(name), name);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

// The acceptance test: a grid process killed with SIGKILL part-way,
// then resumed, ends with the same episode logs (same checkpoint hashes and
// outcomes) as an uninterrupted run of the same spec, with no duplicates,
// whatever the kill left in the segments (a torn block, unindexed blocks).
import { assert, assertEquals } from "../../_assert.ts";
import { readManifest } from "../../../engine/grid/manifest.ts";
import { runGrid } from "../../../engine/grid/run_grid.ts";
import { digestFolder, fileNames, segmentFiles } from "./_logs.ts";
import { gridCommand } from "./_grid_fixture.ts";
import { makeTempDir } from "../../_temp.ts";

const SPEC = {
  name: "killed",
  seed: 42,
  episodes: 40,
  blocks: [
    { game: "frail", envs: ["bank_run"] },
    { game: "staghunt", N: [5], M: [3], F: [1, 2], corruption: ["base", "b3"] },
  ],
};
const TOTAL = (4 + 4) * 40;

function grid(specPath: string, out: string) {
  return gridCommand(specPath, out, { workers: 2 });
}

/** Episodes indexed in the segments of a folder so far. */
async function countLogs(dir: string): Promise<number> {
  try {
    let n = 0;
    for (const name of await segmentFiles(dir)) {
      if (!name.endsWith(".idx")) continue;
      n += (await Deno.readTextFile(`${dir}/${name}`)).split("\n").length - 1;
    }
    return n;
  } catch {
    return 0;
  }
}

Deno.test("runGrid() resumed after SIGKILL ends with logs identical to an uninterrupted run, none duplicated", async () => {
  const tmp = await makeTempDir({ prefix: "coordlab-kill-" });
  const specPath = `${tmp}/spec.json`;
  await Deno.writeTextFile(specPath, JSON.stringify(SPEC));

  // Reference: uninterrupted, in-process (no workers), in this process.
  const reference = await runGrid(SPEC, { out: `${tmp}/reference`, workers: 0, progress: false });
  assertEquals([reference.played, reference.failed.length], [TOTAL, 0]);

  // Killed: the command line with two workers, SIGKILLed once 30 logs exist.
  const out = `${tmp}/killed`;
  const child = grid(specPath, out).spawn();
  while (await countLogs(out) < 30) await new Promise((r) => setTimeout(r, 5));
  child.kill("SIGKILL");
  const killed = await child.output();
  assertEquals(killed.signal, "SIGKILL");
  const atKill = await countLogs(out);
  assert(atKill < TOTAL, `the grid must be killed part-way, found ${atKill} of ${TOTAL} logs`);
  const manifestAtKill = await readManifest(out);
  assertEquals(manifestAtKill?.status, "running");

  // What a kill can leave behind, planted for certain: a block written but
  // not yet indexed and cut in half (its episode must be redone), a temporary
  // manifest of ours (removed); and a user's own file (kept).
  const index = (await segmentFiles(out)).find((n) => n.endsWith(".idx"))!;
  const segment = `${out}/${index.slice(0, -".idx".length)}.ndjson`;
  const lines = (await Deno.readTextFile(`${out}/${index}`)).trimEnd().split("\n");
  const last = JSON.parse(lines.at(-1)!) as { offset: number; bytes: number };
  await Deno.writeTextFile(`${out}/${index}`, lines.slice(0, -1).join("\n") + "\n");
  await Deno.truncate(segment, last.offset + Math.floor(last.bytes / 2));
  await Deno.writeTextFile(`${out}/manifest.json.${crypto.randomUUID()}.tmp`, "{");
  await Deno.writeTextFile(`${out}/notes.tmp`, "mine");

  // Resume with the same command.
  const resumed = await grid(specPath, out).output();
  const stdout = new TextDecoder().decode(resumed.stdout);
  assertEquals(resumed.code, 0, new TextDecoder().decode(resumed.stderr));
  assert(
    /\(\d+ already there, \d+ played now, 0 failed, [1-9]\d* half-written logs and 1 temporary files removed\)/
      .test(stdout),
    stdout,
  );

  // No leftovers but the user's file, and every log identical up to wall-clock times.
  const names = await fileNames(out);
  assertEquals(names.filter((n) => !n.startsWith("segment-")), ["manifest.json", "notes.tmp"]);
  assertEquals(await Deno.readTextFile(`${out}/notes.tmp`), "mine");
  const ref = await digestFolder(`${tmp}/reference`);
  const got = await digestFolder(out);
  assertEquals(got.size, TOTAL);
  assertEquals([...got.keys()], [...ref.keys()]);
  for (const [name, d] of got) {
    assertEquals([d.starts, d.ends, d.contiguous], [1, 1, true], name);
    assertEquals(d, ref.get(name), name);
  }
  const manifest = (await readManifest(out))!;
  assertEquals(manifest.status, "complete");
  assertEquals(manifest.sessions.length, 2);
  assertEquals(manifest.sessions[0].ended, null);
  assertEquals(manifest.sessions[1].skipped + manifest.sessions[1].played, TOTAL);
  await Deno.remove(tmp, { recursive: true });
});

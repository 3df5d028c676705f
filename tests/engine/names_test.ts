// Names are names: run, episode and spec names never hold a path, and every
// log path is proven to lie inside its folder.
import { assertEquals, assertRejects, assertThrows } from "../_assert.ts";
import { checkName, pathInside } from "../../engine/names.ts";
import { runEpisode } from "../../engine/run_episode.ts";
import { runStagHuntEpisode } from "../../engine/run_staghunt_episode.ts";
import { makeTempDir } from "../_temp.ts";

const HINT = "use letters, digits, '_', '-' or '.', starting with a letter, digit or '_'";

/** Every file under a folder, as paths relative to it. */
async function filesUnder(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory) out.push(...await filesUnder(`${dir}/${e.name}`, rel));
    else out.push(rel);
  }
  return out.sort();
}

Deno.test("checkName() refuses '.', '..', separators, hidden and option-like names", () => {
  for (const ok of ["demo", "bank_run_M0_stable_mock_e0", "v1.2", "_x", "9-a"]) {
    assertEquals(checkName("run", ok), ok);
  }
  for (
    const bad of [".", "..", "../x", "a/b", "a\\b", ".hidden", "-x", "", "a b", "x".repeat(201)]
  ) {
    assertThrows(
      () => checkName("run", bad),
      RangeError,
      `Invalid run name ${JSON.stringify(bad)}`,
    );
  }
});

Deno.test("pathInside() joins names under a root and refuses anything that leaves it", () => {
  assertEquals(pathInside("/tmp/out", "run", "ep.ndjson"), "/tmp/out/run/ep.ndjson");
  assertThrows(() => pathInside("/tmp/out", "..", "ep.ndjson"), RangeError, "lies outside");
  assertThrows(() => pathInside("/tmp/out", "run/../../x"), RangeError, "lies outside");
  assertEquals(pathInside("/tmp/out", "/etc/passwd"), "/tmp/out/etc/passwd");
  assertThrows(() => pathInside("/tmp/out", "."), RangeError, "lies outside");
});

Deno.test("runEpisode() and runStagHuntEpisode() with run '..' write nothing, inside or outside outDir", async () => {
  const root = await makeTempDir({ prefix: "coordlab-names-" });
  const outDir = `${root}/out`;
  await Deno.mkdir(outDir);
  for (const run of ["..", "../escape", "."]) {
    await assertRejects(
      () => runEpisode({ env: "bank_run", seed: 1, run, outDir }),
      RangeError,
      `Invalid episode config "run": ${HINT}`,
    );
    await assertRejects(
      () => runStagHuntEpisode({ seed: 1, run, outDir }),
      RangeError,
      `Invalid Stag Hunt config "run": ${HINT}`,
    );
  }
  await assertRejects(
    () => runEpisode({ env: "bank_run", seed: 1, episode: "..", outDir }),
    RangeError,
    `Invalid episode config "episode"`,
  );
  await assertRejects(
    () => runStagHuntEpisode({ seed: 1, episode: "..", outDir }),
    RangeError,
    `Invalid Stag Hunt config "episode"`,
  );
  assertEquals(await filesUnder(root), []);
  await Deno.remove(root, { recursive: true });
});

// docs/adding-a-game.md lists exactly the files the minimum-effort game took:
// every file of its package, its analysis and its tests, and nothing else.
import { assertEquals } from "./_assert.ts";

const ROOT = new URL("../", import.meta.url);
const FOLDERS = [
  "engine/games/min_effort",
  "analysis/games",
  "tests/engine/games/min_effort",
  "tests/analysis/games",
];

async function filesUnder(folder: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(new URL(`${folder}/`, ROOT))) {
    const path = `${folder}/${e.name}`;
    if (e.isDirectory) out.push(...await filesUnder(path));
    else out.push(path);
  }
  return out;
}

Deno.test("docs/adding-a-game.md lists every file of the minimum-effort game's folders, and no other", async () => {
  const guide = await Deno.readTextFile(new URL("docs/adding-a-game.md", ROOT));
  const section = guide.split("## The files it took")[1].split("\n## ")[0];
  const listed = [...section.matchAll(/^\| `([^`]+)`/gm)].map((m) => m[1]);
  const present = (await Promise.all(FOLDERS.map(filesUnder))).flat();
  assertEquals([...listed].sort(), [...present].sort());
  assertEquals(listed.length, 24);
});

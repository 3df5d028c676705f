// The tests' temporary folders: made through tests/_temp.ts, so that a run
// of the suite leaves none behind.
import { assert, assertEquals } from "./_assert.ts";
import { testFiles } from "./_batches.ts";
import { makeTempDir, makeTempFile, testTempRoot } from "./_temp.ts";

const ROOT = new URL("../", import.meta.url);

Deno.test("no test module makes a temporary folder or file but through tests/_temp.ts", async () => {
  const modules: string[] = [];
  for await (const path of walkTs(new URL("./", import.meta.url))) modules.push(path);
  assert(modules.length > 150, `${modules.length} modules under tests/`);
  const direct = /Deno\.makeTemp(Dir|File)(Sync)?\(/;
  const offenders = [];
  for (const path of modules) {
    if (path.endsWith("/tests/_temp.ts")) continue;
    if (direct.test(await Deno.readTextFile(path))) offenders.push(path);
  }
  assertEquals(offenders, []);
  // The default task's files are among those scanned.
  const scanned = new Set(modules.map((p) => p.slice(ROOT.pathname.length)));
  assertEquals((await testFiles()).filter((f) => !scanned.has(f)), []);
});

Deno.test("makeTempDir() and makeTempFile() make them under one folder, removed when the process exits", async () => {
  const dir = await makeTempDir({ prefix: "probe-" });
  const file = await makeTempFile({ suffix: ".json" });
  const root = testTempRoot();
  assert(dir.startsWith(`${root}/probe-`), dir);
  assert(file.startsWith(`${root}/`) && file.endsWith(".json"), file);
  // Another user (slurm_long_test.ts's munge) can reach a folder a test opens to it.
  assertEquals(Deno.statSync(root).mode! & 0o777, 0o711);
  // A process that makes some and exits with Deno.exit(): its folder is gone after.
  const script = `import { makeTempDir, testTempRoot } from ${
    JSON.stringify(new URL("./_temp.ts", import.meta.url).href)
  };
const dir = await makeTempDir();
await Deno.writeTextFile(dir + "/x.ndjson", "{}\\n");
console.log(testTempRoot());
Deno.exit(3);
`;
  const ran = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-check", "--allow-read", "--allow-write", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = ran.stdin.getWriter();
  await writer.write(new TextEncoder().encode(script));
  await writer.close();
  const out = await ran.output();
  assertEquals(out.code, 3, new TextDecoder().decode(out.stderr));
  const childRoot = new TextDecoder().decode(out.stdout).trim();
  assert(childRoot.includes("/coordlab-tests-"), childRoot);
  assertEquals(await exists(childRoot), false, `${childRoot} was left behind`);
});

Deno.test("every JSDoc and Markdown example that makes a temporary folder or file removes it", async () => {
  // `deno task test:doc` runs them all (CI does, every time): one that leaves
  // its folder behind leaves it in the system's temporary folder for good.
  const sources: string[] = [];
  for (const top of ["engine/", "analysis/"]) {
    for await (const path of walkTs(new URL(top, ROOT))) sources.push(path);
  }
  for (const name of ["mod.ts", "README.md"]) sources.push(new URL(name, ROOT).pathname);
  for await (const entry of Deno.readDir(new URL("docs/", ROOT))) {
    if (entry.isFile && entry.name.endsWith(".md")) {
      sources.push(new URL(`docs/${entry.name}`, ROOT).pathname);
    }
  }
  assert(sources.length > 250, `${sources.length} source files`);
  const makes = /Deno\.makeTemp(Dir|File)(Sync)?\(/;
  const removes = /Deno\.remove(Sync)?\(/;
  const leaking: string[] = [];
  let examples = 0;
  for (const path of sources) {
    const text = await Deno.readTextFile(path);
    const lines = text.split("\n");
    // A fenced block of TypeScript: in a JSDoc comment, each line starts with " * ".
    for (let i = 0; i < lines.length; i++) {
      const open = /^(\s*\*\s?)?```(ts|typescript)\s*$/.exec(lines[i]);
      if (!open) continue;
      let j = i + 1;
      while (j < lines.length && !/^(\s*\*\s?)?```\s*$/.test(lines[j])) j++;
      const block = lines.slice(i + 1, j).join("\n");
      if (makes.test(block)) {
        examples++;
        if (!removes.test(block)) leaking.push(`${path.slice(ROOT.pathname.length)}:${i + 1}`);
      }
      i = j;
    }
  }
  assert(examples >= 25, `only ${examples} examples make temporary folders: is the scan broken?`);
  assertEquals(leaking, []);
});

async function* walkTs(dir: URL): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory && entry.name !== "fixtures") yield* walkTs(url);
    else if (entry.isFile && entry.name.endsWith(".ts")) yield url.pathname;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

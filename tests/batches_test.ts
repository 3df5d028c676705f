// The default test task runs each test file once: in its own worker (ALONE)
// or in exactly one batch (tests/_batches.ts), and each batch has its module
// in tests/_batches/. (tests/docs_test.ts checks that the task names them all.)
import { assertEquals, assertThrows } from "./_assert.ts";
import { ALONE, BATCHES, batchFiles, folderOf, testFiles } from "./_batches.ts";

Deno.test("every test file of the default task is in ALONE or in exactly one batch", async () => {
  const files = await testFiles();
  const where = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const file of ALONE) where.get(file)?.push("ALONE");
  for (const name of Object.keys(BATCHES)) {
    const mine = batchFiles(name, files);
    assertEquals(mine.length > 0, true, `batch ${name} has no file`);
    for (const file of mine) where.get(file)!.push(name);
  }
  const wrong = [...where].filter(([, at]) => at.length !== 1).map(([f, at]) =>
    `${f}: ${at.length === 0 ? "in no batch (add its folder to one in tests/_batches.ts)" : at}`
  );
  assertEquals(wrong, []);
  // Each file of ALONE is a test file of the task.
  assertEquals(ALONE.filter((f) => !where.has(f)), []);
  // The long group is not in the default task.
  assertEquals(files.some((f) => f.endsWith("_long_test.ts")), false);
  assertEquals(files.includes("tests/batches_test.ts"), true);
  assertEquals(folderOf("tests/engine/grid/lock_test.ts"), "tests/engine/grid");
});

Deno.test("each batch has its module in tests/_batches/, and each module there is a batch", async () => {
  const modules = (await Array.fromAsync(Deno.readDir(new URL("./_batches/", import.meta.url))))
    .map((e) => e.name).sort();
  assertEquals(modules, Object.keys(BATCHES).map((b) => `${b}.ts`).sort());
  for (const name of modules) {
    const text = await Deno.readTextFile(new URL(`./_batches/${name}`, import.meta.url));
    assertEquals(text.includes("\nawait importBatch(import.meta.url);\n"), true, name);
  }
});

Deno.test("batchFiles() splits a folder's files into its shares in name order, and names an unknown batch", () => {
  const files = [
    "tests/engine/cli/a_test.ts",
    "tests/engine/cli/reproduce_test.ts",
    "tests/engine/grid/a_test.ts",
    "tests/engine/grid/b_test.ts",
    "tests/engine/grid/c_test.ts",
    "tests/engine/grid/sub/d_test.ts",
  ];
  // reproduce_test.ts runs alone; sub/ is another folder.
  assertEquals(batchFiles("engine", files), ["tests/engine/cli/a_test.ts"]);
  assertEquals(batchFiles("grid_1", files), [
    "tests/engine/grid/a_test.ts",
    "tests/engine/grid/c_test.ts",
  ]);
  assertEquals(batchFiles("grid_2", files), ["tests/engine/grid/b_test.ts"]);
  assertThrows(
    () => batchFiles("grid", files),
    RangeError,
    'Unknown test batch "grid": tests/_batches.ts has engine, games, analysis_views, llm_2, ' +
      "grid_2, grid_1, analysis_load, analysis, root, llm_1",
  );
});

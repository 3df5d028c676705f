// Every export of every entry point has JSDoc, and every function or class
// a notebook imports from mod.ts (the public entry points) has an @example,
// run by `deno test --doc`. Exports of the other entry points need JSDoc
// only: an example on an internal constant would be filler.
import { assertEquals } from "./_assert.ts";
import { ALONE, BATCHES } from "./_batches.ts";
import { makeTempDir } from "./_temp.ts";

interface Declaration {
  kind: string;
  jsDoc?: { doc?: string; tags?: { kind: string }[] };
}
interface DocSymbol {
  name: string;
  declarations: Declaration[];
}

// Each `deno doc` run parses the whole module graph: one per entry point, kept.
// (One run over all of them would not do: it turns re-exports into references.)
const symbolsOf = new Map<string, Promise<DocSymbol[]>>();
function symbols(entry: string): Promise<DocSymbol[]> {
  if (!symbolsOf.has(entry)) symbolsOf.set(entry, docSymbols(entry));
  return symbolsOf.get(entry)!;
}

async function docSymbols(entry: string): Promise<DocSymbol[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", entry],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  const doc = JSON.parse(new TextDecoder().decode(out.stdout));
  const key = Object.keys(doc.nodes).find((k) => k.endsWith(entry.replace(/^\.\//, "")))!;
  return doc.nodes[key].symbols;
}

/** The entry points (`deno.json` exports), and whether their functions need examples. */
const ENTRIES: readonly [string, boolean][] = [
  ["mod.ts", true],
  ["engine/mod.ts", false],
  ["engine/games/staghunt/mod.ts", false],
  ["engine/agents/llm/mod.ts", false],
  ["engine/grid/mod.ts", false],
  ["engine/testing.ts", false],
  ["analysis/mod.ts", false],
];

for (const [entry, examples] of ENTRIES) {
  Deno.test(`${entry}: every export has JSDoc${examples ? ", every function an @example" : ""}`, async () => {
    const missingDoc: string[] = [];
    const missingExample: string[] = [];
    for (const s of await symbols(entry)) {
      // `pl` is nodejs-polars itself, re-exported so notebooks share its instance.
      if (entry === "mod.ts" && s.name === "pl") continue;
      const decls = s.declarations.filter((d) => d.kind !== "import");
      if (decls.length === 0) continue;
      if (!decls.some((d) => d.jsDoc?.doc || d.jsDoc?.tags?.length)) missingDoc.push(s.name);
      const runnable = decls.some((d) => ["function", "class"].includes(d.kind));
      if (
        examples && runnable &&
        !decls.some((d) => d.jsDoc?.tags?.some((t) => t.kind === "example"))
      ) {
        missingExample.push(s.name);
      }
    }
    assertEquals({ missingDoc, missingExample }, { missingDoc: [], missingExample: [] });
  });
}

Deno.test("mod.ts, the notebook API, stays small", async () => {
  const names = (await symbols("mod.ts")).map((s) => s.name);
  // The functions a notebook calls (83 names); their option and result types
  // and everything else live in the other entry points.
  assertEquals(names.length <= 90, true, `${names.length} symbols: ${names.join(", ")}`);
});

Deno.test("the entry points together export at most 200 unique names", async () => {
  const unique = new Set<string>();
  for (const [entry] of ENTRIES) for (const s of await symbols(entry)) unique.add(s.name);
  // 164 when this test was written (723 before, 845 at its peak): what a
  // researcher imports. Internal helpers stay internal (tests import them by path).
  assertEquals(unique.size <= 200, true, `${unique.size} names: ${[...unique].sort().join(", ")}`);
  assertEquals(unique.size >= 100, true, `${unique.size} names`);
});

Deno.test("every entry point lists the names it exports: no `export *`", async () => {
  const stars: string[] = [];
  for (const [entry] of ENTRIES) {
    const text = await Deno.readTextFile(new URL(`../${entry}`, import.meta.url));
    text.split("\n").forEach((line, i) => {
      if (/^\s*export\s+(type\s+)?\*/.test(line)) stars.push(`${entry}:${i + 1}: ${line.trim()}`);
    });
  }
  assertEquals(stars, []);
});

Deno.test("deno.json exports every entry point, and only those", async () => {
  const config = JSON.parse(
    (await Deno.readTextFile(new URL("../deno.json", import.meta.url))).replace(
      /^\s*\/\/.*$/gm,
      "",
    ),
  ) as { exports: Record<string, string> };
  assertEquals(
    Object.values(config.exports).map((p) => p.replace(/^\.\//, "")).sort(),
    ENTRIES.map(([e]) => e).sort(),
  );
});

/** deno.json's tasks (the file is JSONC: whole-line comments). */
async function tasks(): Promise<Record<string, string>> {
  const text = await Deno.readTextFile(new URL("../deno.json", import.meta.url));
  return JSON.parse(text.replace(/^\s*\/\/.*$/gm, "")).tasks;
}

Deno.test("deno task test type-checks every example and runs tests/; test:doc runs the examples, and CI runs both", async () => {
  const t = await tasks();
  // Side by side: the task fails if either does (the next test).
  const [check, run] = t.test.split(" & ");
  // One program over every file (tests, CLIs, worker modules) and every
  // JSDoc and Markdown example; the tests run without checking again.
  assertEquals(check, "NO_COLOR=1 deno check --quiet --doc . docs/*.md README.md");
  assertEquals(run.includes(" --no-check "), true, run);
  assertEquals(run.includes("--doc"), false, run);
  // The files of ALONE and every batch (tests/_batches.ts), each once:
  // tests/batches_test.ts checks that they hold every test file.
  const [, files] = run.split(" --ignore='tests/**/*_long_test.ts' ");
  const named = files.split(" ");
  assertEquals(
    [...named].sort(),
    [...ALONE, ...Object.keys(BATCHES).map((b) => `tests/_batches/${b}.ts`)].sort(),
    run,
  );
  for (const file of named) await Deno.stat(new URL(`../${file}`, import.meta.url));
  // Every example still executes: deno test --doc over everything but tests/.
  assertEquals(t["test:doc"].includes(" --doc "), true, t["test:doc"]);
  assertEquals(t["test:doc"].includes("--no-check"), false, t["test:doc"]);
  assertEquals(t["test:doc"].endsWith(" --ignore=tests/"), true, t["test:doc"]);
  const ci = await Deno.readTextFile(new URL("../.ci/run", import.meta.url));
  for (const line of ["npx -y deno@2.9.6 task test 2>&1", "npx -y deno@2.9.6 task test:doc 2>&1"]) {
    assertEquals(ci.includes(line), true, line);
  }
  assertEquals(ci.includes('$(count "$doc_summary" passed)'), true);
  assertEquals(ci.includes('$(count "$doc_summary" failed)'), true);
});

Deno.test("a deno task command run with & fails the task when it fails, after the rest succeeds", async () => {
  const dir = await makeTempDir({ prefix: "coordlab-task-" });
  try {
    const run = async (command: string) => {
      await Deno.writeTextFile(`${dir}/deno.json`, JSON.stringify({ tasks: { t: command } }));
      const ran = await new Deno.Command(Deno.execPath(), {
        args: ["task", "--quiet", "t"],
        cwd: dir,
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      return [ran.code, new TextDecoder().decode(ran.stdout)];
    };
    // The check failing after the tests passed, the tests failing, both passing.
    assertEquals(await run("(sleep 0.2 && echo check && exit 3) & echo tests"), [
      3,
      "tests\ncheck\n",
    ]);
    assertEquals((await run("(sleep 0.2 && echo check) & (echo tests && exit 5)"))[0], 5);
    assertEquals(await run("(sleep 0.2 && echo check) & echo tests"), [0, "tests\ncheck\n"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every Markdown file with a TypeScript example is one deno task test type-checks", async () => {
  // `deno check` reads Markdown only when named (docs/*.md README.md), while
  // test:doc finds it anywhere: an example elsewhere would run unchecked by
  // the default task.
  const root = new URL("../", import.meta.url);
  const skip = new Set([".git", "node_modules", "runs", "docs/api"]);
  const withExamples: string[] = [];
  async function walk(dir: string): Promise<void> {
    for await (const e of Deno.readDir(new URL(dir, root))) {
      const path = dir + e.name;
      if (skip.has(path)) continue;
      if (e.isDirectory) await walk(path + "/");
      else if (e.name.endsWith(".md")) {
        const text = await Deno.readTextFile(new URL(path, root));
        if (/^\s*```(ts|typescript|tsx|js|javascript|jsx)\b/m.test(text)) withExamples.push(path);
      }
    }
  }
  await walk("");
  const unchecked = withExamples.filter((p) => !/^(docs\/[^/]+\.md|README\.md)$/.test(p));
  assertEquals(unchecked, []);
  assertEquals(withExamples.length > 0, true);
});

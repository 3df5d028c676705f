// Every export of every entry point has JSDoc, and every function or class
// a notebook imports from mod.ts (the public entry points) has an @example,
// run by `deno test --doc`. Exports of the other entry points need JSDoc
// only: an example on an internal constant would be filler.
import { assertEquals } from "./_assert.ts";

interface Declaration {
  kind: string;
  jsDoc?: { doc?: string; tags?: { kind: string }[] };
}
interface DocSymbol {
  name: string;
  declarations: Declaration[];
}

async function symbols(entry: string): Promise<DocSymbol[]> {
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
  ["engine/staghunt/mod.ts", false],
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
  // About 80 names a notebook uses; the rest live in the other entry points.
  assertEquals(names.length <= 100, true, `${names.length} symbols: ${names.join(", ")}`);
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

// Every public export of mod.ts and analysis/mod.ts has JSDoc; every exported
// function, class and value also has an @example (run by `deno test --doc`).
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

for (const entry of ["mod.ts", "analysis/mod.ts"]) {
  Deno.test(`${entry}: every export has JSDoc and every runnable export an @example`, async () => {
    const missingDoc: string[] = [];
    const missingExample: string[] = [];
    for (const s of await symbols(entry)) {
      const decls = s.declarations.filter((d) => d.kind !== "import");
      if (!decls.some((d) => d.jsDoc?.doc || d.jsDoc?.tags?.length)) missingDoc.push(s.name);
      const runnable = decls.some((d) => ["function", "class", "variable"].includes(d.kind));
      if (runnable && !decls.some((d) => d.jsDoc?.tags?.some((t) => t.kind === "example"))) {
        missingExample.push(s.name);
      }
    }
    assertEquals({ missingDoc, missingExample }, { missingDoc: [], missingExample: [] });
  });
}

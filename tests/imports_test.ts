// The toolkit is imported by path from any folder (a notebook or script with
// no deno.json of its own), so its source names npm packages with full
// `npm:<name>@<version>` specifiers and never bare names that only this
// repository's import map could resolve. Each package is pinned to one
// exact version everywhere.
import { assertEquals } from "./_assert.ts";

const BARE =
  /(?:from\s*|import\s*\(\s*)["'](zod|nodejs-polars|openai|vega|vega-lite|@resvg\/resvg-js|pure-rand|dejavu-fonts-ttf)(?:\/[^"']*)?["']/;
const NPM = /["'`]npm:((?:@[\w.-]+\/)?[\w.-]+)@([^/"'`]+)/g;

async function sourceFiles(): Promise<string[]> {
  const out = await new Deno.Command("git", { args: ["ls-files", "*.ts"], stdout: "piped" })
    .output();
  return new TextDecoder().decode(out.stdout).split("\n").filter((f) => f.length > 0);
}

Deno.test("source files import npm packages by full specifier, one exact version each", async () => {
  const versions = new Map<string, Set<string>>();
  const bare: string[] = [];
  for (const file of await sourceFiles()) {
    if (file === "tests/imports_test.ts") continue;
    const text = await Deno.readTextFile(file);
    text.split("\n").forEach((line, i) => {
      if (BARE.test(line)) bare.push(`${file}:${i + 1}`);
    });
    for (const m of text.matchAll(NPM)) {
      const set = versions.get(m[1]) ?? new Set<string>();
      set.add(m[2]);
      versions.set(m[1], set);
    }
  }
  assertEquals(bare, [], "bare package imports resolve only inside this repository");
  const mixed = [...versions].filter(([, v]) => v.size > 1).map(([p, v]) => `${p}: ${[...v]}`);
  assertEquals(mixed, []);
  for (const [pkg, v] of versions) {
    const [version] = [...v];
    assertEquals(
      /^\d+\.\d+\.\d+$/.test(version),
      true,
      `${pkg}@${version} is not an exact version`,
    );
  }
});

// What a module loads when it is imported: the heavy npm packages are
// imported (dynamically) by the functions that use them, so that a program
// importing the analysis layer or the grid runner, every test file, doc
// example and CLI among them, does not load them for nothing (docs/benchmarks.md,
// "The test suite"). The packages stay in the module graph (`deno install`,
// `deno cache` and the lockfile still include them).
import { assertEquals } from "./_assert.ts";
import { denoInfo, type InfoModule } from "./_import_graph.ts";

const ROOT = new URL("../", import.meta.url);

/** The graph of `deno info --json` from one module of the repository. */
async function info(path: string): Promise<Map<string, InfoModule>> {
  return new Map((await denoInfo(path)).map((m) => [m.specifier, m]));
}

/**
 * The npm packages the repository's modules import, reached from `path`: the
 * `static` ones load with it, the `dynamic` ones only when imported at run time.
 */
async function npmImports(path: string): Promise<{ static: string[]; dynamic: string[] }> {
  const modules = await info(path);
  const staticNpm = new Set<string>();
  const dynamicNpm = new Set<string>();
  const seen = new Set<string>();
  const walk = (specifier: string, dynamic: boolean) => {
    const key = `${dynamic} ${specifier}`;
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of modules.get(specifier)?.dependencies ?? []) {
      const to = dep.code?.specifier;
      if (to === undefined) continue; // type-only
      const late = dynamic || dep.isDynamic === true;
      if (to.startsWith("npm:")) {
        const name = to.slice(4).replace(/(?<=.)@.*$/, "");
        (late ? dynamicNpm : staticNpm).add(name);
      } else if (to.startsWith(ROOT.href)) walk(to, late);
    }
  };
  walk(new URL(path, ROOT).href, false);
  const dynamicOnly = [...dynamicNpm].filter((p) => !staticNpm.has(p));
  return { static: [...staticNpm].sort(), dynamic: dynamicOnly.sort() };
}

const CHARTS = ["@resvg/resvg-js", "vega", "vega-lite"];

Deno.test("analysis/mod.ts loads Vega, Vega-Lite and resvg only when a chart is drawn", async () => {
  const npm = await npmImports("analysis/mod.ts");
  assertEquals(npm.static.filter((p) => CHARTS.includes(p) || p === "openai"), []);
  assertEquals(npm.dynamic.filter((p) => CHARTS.includes(p)), CHARTS);
});

Deno.test("the grid runner and the grid and reproduce CLIs load the OpenAI package only with models", async () => {
  for (const path of ["engine/grid/run_grid.ts", "engine/cli/grid.ts", "engine/cli/reproduce.ts"]) {
    const npm = await npmImports(path);
    assertEquals(npm.static.includes("openai"), false, `${path} loads openai at import`);
    assertEquals(npm.dynamic.includes("openai"), true, `${path} never imports openai`);
  }
});

Deno.test("mod.ts loads neither the chart packages nor the OpenAI package at import", async () => {
  const npm = await npmImports("mod.ts");
  assertEquals(npm.static.filter((p) => CHARTS.includes(p) || p === "openai"), []);
  assertEquals(npm.static, ["dejavu-fonts-ttf", "nodejs-polars", "zod"]);
});

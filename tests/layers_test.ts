// Layers point down only (tests/layers.ts declares them, lowest first): every
// import of every module of engine/, analysis/ and mod.ts (static, dynamic,
// type-only, and the worker modules a module starts; JSDoc examples are
// their own modules and left out) goes to the module's own layer or one
// below; no game package imports another; engine/core imports only itself
// and engine/names.ts; and no modules import each other in a cycle, however
// long and whether or not the imports are type-only.
import { assertEquals } from "./_assert.ts";
import { cycles, type ImportEdge, importEdges, trackedModules } from "./_import_graph.ts";
import { LAYERED_ROOTS, layerOf, LAYERS, packageOf } from "./layers.ts";

let graph: Promise<{ files: string[]; edges: ImportEdge[] }> | undefined;
function importGraph(): Promise<{ files: string[]; edges: ImportEdge[] }> {
  graph ??= (async () => {
    const files = await trackedModules(LAYERED_ROOTS);
    return { files, edges: await importEdges(files) };
  })();
  return graph;
}

const show = (e: ImportEdge) => `${e.from} -> ${e.to}${e.kind === "code" ? "" : ` (${e.kind})`}`;

Deno.test("cycles() finds every strongly connected component, self-imports included", () => {
  const g = new Map<string, string[]>([
    ["a", ["b"]],
    ["b", ["c"]],
    ["c", ["a", "d"]],
    ["d", ["e"]],
    ["e", []],
    ["f", ["f"]],
    ["g", ["h"]],
    ["h", ["g", "a"]],
  ]);
  assertEquals(cycles(g), [["a", "b", "c"], ["f"], ["g", "h"]]);
  assertEquals(cycles(new Map([["x", ["y"]], ["y", []]])), []);
});

Deno.test("layerOf() picks the layer of the longest path that holds the module", () => {
  const name = (p: string) => LAYERS[layerOf(p)]?.name ?? null;
  assertEquals(name("engine/frail/capacity.ts"), "frail family");
  assertEquals(name("engine/frail/registry.ts"), "registries");
  assertEquals(name("engine/games/bank_run/environment.ts"), "games");
  assertEquals(name("engine/games/staghunt/mod.ts"), "engine entry points");
  assertEquals(name("analysis/viewer/cli.ts"), "command line");
  assertEquals(name("bench/grid.ts"), null);
  assertEquals(packageOf("engine/games/bank_run/prompts/blocks.ts"), "engine/games/bank_run/");
  assertEquals(packageOf("engine/games/registry.ts"), null);
  assertEquals(packageOf("engine/core/game.ts"), null);
});

Deno.test("every module of engine/, analysis/ and mod.ts is in a layer of tests/layers.ts", async () => {
  const { files } = await importGraph();
  assertEquals(files.length > 250, true, `${files.length} modules`);
  assertEquals(files.filter((f) => layerOf(f) < 0), []);
});

Deno.test("every import goes to the module's own layer or one below", async () => {
  const { edges } = await importGraph();
  const up = edges.filter((e) => layerOf(e.to) > layerOf(e.from)).map((e) =>
    `${show(e)}: ${LAYERS[layerOf(e.from)].name} imports ${LAYERS[layerOf(e.to)].name}`
  );
  assertEquals(up, []);
  // The graph is the real one: imports of every kind are in it.
  assertEquals(edges.length > 1000, true, `${edges.length} imports`);
  assertEquals(edges.some((e) => e.kind === "type"), true);
  assertEquals(edges.some((e) => e.kind === "worker"), true);
});

Deno.test("no engine module but the command-line programs imports from analysis/", async () => {
  const { edges } = await importGraph();
  assertEquals(
    edges.filter((e) =>
      e.from.startsWith("engine/") && !e.from.startsWith("engine/cli/") &&
      e.to.startsWith("analysis/")
    ).map(show),
    [],
  );
});

Deno.test("engine/core imports only itself and engine/names.ts", async () => {
  const { edges } = await importGraph();
  assertEquals(
    edges.filter((e) =>
      e.from.startsWith("engine/core/") && !e.to.startsWith("engine/core/") &&
      e.to !== "engine/names.ts"
    ).map(show),
    [],
  );
});

Deno.test("no game package imports another game's package", async () => {
  const { edges } = await importGraph();
  assertEquals(
    edges.filter((e) => {
      const [a, b] = [packageOf(e.from), packageOf(e.to)];
      return a !== null && b !== null && a !== b;
    }).map(show),
    [],
  );
});

Deno.test("no modules import each other in a cycle, type-only imports included", async () => {
  const { edges } = await importGraph();
  const g = new Map<string, string[]>();
  // Worker modules run in a module graph of their own: not an import.
  for (const e of edges.filter((e) => e.kind !== "worker")) {
    g.set(e.from, [...(g.get(e.from) ?? []), e.to]);
  }
  const found = cycles(g).map((c) => {
    const inside = new Set(c);
    return edges.filter((e) => e.kind !== "worker" && inside.has(e.from) && inside.has(e.to))
      .map(show);
  });
  assertEquals(found, []);
});

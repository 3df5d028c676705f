import { makeTempDir } from "./_temp.ts";

/**
 * The import graph of the repository's own modules, as Deno resolves it
 * (`deno info --json`: static imports and re-exports, type-only ones,
 * dynamic imports of a literal specifier), plus the worker modules a module
 * starts (`new URL("./x.ts", import.meta.url)`); and a cycle finder over it.
 * JSDoc examples are left out: each runs as a module of its own, as a user's
 * code would.
 *
 * @module
 */

/** One import: the importing module, the imported one, and how. */
export interface ImportEdge {
  /** Importing module, from the repository's root. */
  from: string;
  /** Imported module, from the repository's root. */
  to: string;
  /** `"code"`, `"type"` (type-only), or `"worker"` (a worker module it starts). */
  kind: "code" | "type" | "worker";
}

/** One dependency of a module in `deno info --json`. */
export interface InfoDependency {
  /** The code import's resolved module. */
  code?: { specifier?: string };
  /** The type-only import's resolved module. */
  type?: { specifier?: string };
  /** Whether the import is dynamic (`import()`). */
  isDynamic?: boolean;
}
/** One module of `deno info --json`. */
export interface InfoModule {
  /** Its resolved specifier. */
  specifier: string;
  /** What it imports. */
  dependencies?: InfoDependency[];
  /** Why it could not be loaded, if it could not. */
  error?: string;
}

const ROOT = new URL("../", import.meta.url);

/** The modules of `deno info --json <entry>` run from the repository's root. */
export async function denoInfo(entry: string): Promise<InfoModule[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return (JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: InfoModule[] }).modules;
}

/** The repository's tracked TypeScript files under these roots (folders end in `/`). */
export async function trackedModules(roots: readonly string[]): Promise<string[]> {
  const out = await new Deno.Command("git", {
    args: ["ls-files", "--", ...roots.map((r) => r.endsWith("/") ? `${r}*.ts` : r)],
    cwd: ROOT,
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter((f) => f.endsWith(".ts"));
}

/** Every import between the repository's modules reachable from these files. */
export async function importEdges(files: readonly string[]): Promise<ImportEdge[]> {
  const root = ROOT.href;
  const dir = await makeTempDir();
  try {
    const entry = `${dir}/all.ts`;
    await Deno.writeTextFile(
      entry,
      files.map((f) => `import ${JSON.stringify(new URL(f, ROOT).href)};`).join("\n") + "\n",
    );
    const info = { modules: await denoInfo(entry) };
    const edges = new Map<string, ImportEdge>();
    const add = (edge: ImportEdge) => {
      const key = `${edge.from} ${edge.to}`;
      // A module imported both ways counts as a code import.
      if (!edges.has(key) || edge.kind === "code") edges.set(key, edge);
    };
    for (const m of info.modules) {
      if (m.error) throw new Error(`${m.specifier}: ${m.error}`);
      if (!m.specifier.startsWith(root)) continue;
      const from = m.specifier.slice(root.length);
      for (const dep of m.dependencies ?? []) {
        for (const kind of ["type", "code"] as const) {
          const to = dep[kind]?.specifier;
          if (to?.startsWith(root)) add({ from, to: to.slice(root.length), kind });
        }
      }
      if (files.includes(from)) {
        const text = await Deno.readTextFile(new URL(from, ROOT));
        for (
          const w of text.matchAll(/new URL\(\s*"(\.\.?\/[^"]+\.ts)",\s*import\.meta\.url\s*\)/g)
        ) {
          add({
            from,
            to: new URL(w[1], new URL(from, ROOT)).href.slice(root.length),
            kind: "worker",
          });
        }
      }
    }
    return [...edges.values()].sort((a, b) =>
      a.from < b.from ? -1 : a.from > b.from ? 1 : a.to < b.to ? -1 : a.to > b.to ? 1 : 0
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * The strongly connected components of more than one node (and the nodes
 * that import themselves) of a directed graph: its cycles, each sorted, in
 * the order of their first node (Tarjan's algorithm, iterative).
 */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  const nodes = [...new Set([...graph.keys(), ...[...graph.values()].flat()])].sort();
  for (const start of nodes) {
    if (index.has(start)) continue;
    // Each frame: a node and the position of the next successor to visit.
    const frames: [string, number][] = [[start, 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      const [v, i] = frame;
      const succ = graph.get(v) ?? [];
      if (i < succ.length) {
        frame[1]++;
        const w = succ[i];
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          frames.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      frames.pop();
      if (frames.length > 0) {
        const parent = frames[frames.length - 1][0];
        low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
      }
      if (low.get(v) === index.get(v)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== v);
        if (component.length > 1 || succ.includes(v)) found.push(component.sort());
      }
    }
  }
  return found.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

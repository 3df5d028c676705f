/**
 * The layers of coordlab, lowest first, as data: a module may import modules
 * of its own layer or of a layer below, never above (`layers_test.ts` checks
 * every import, type-only and dynamic ones included, against this list). A
 * module's layer is the one with the longest path that contains it: a file
 * path names one module, a path ending in `/` a folder.
 *
 * A module that no layer contains fails the test: a new folder or top-level
 * file says here where it sits.
 *
 * @module
 */

/** One layer: the modules it holds. */
export interface Layer {
  /** The layer's name in messages. */
  name: string;
  /** Files, and folders ending in `/`. */
  paths: readonly string[];
  /**
   * Each sub-folder of these folders is a package that imports no other
   * (the games: one folder each, none importing another).
   */
  packages?: boolean;
  /** What the layer is for, and why it sits where it does. */
  why: string;
}

/** The layers, lowest first. */
export const LAYERS: readonly Layer[] = [
  {
    name: "names",
    paths: ["engine/names.ts"],
    why: "the ids every layer shares (mechanisms, regimes, events' names)",
  },
  {
    name: "core",
    paths: ["engine/core/"],
    why: "the game-agnostic contract: environment, agent, events, replay, hashing",
  },
  {
    name: "frail family",
    paths: ["engine/frail/"],
    why: "what the three FRAIL games share: mechanisms, capacity, regimes, descriptor helpers",
  },
  {
    name: "agent kits",
    paths: [
      "engine/agents/llm/prompts/template.ts",
      "engine/agents/llm/prompts/_shared_blocks.ts",
      "engine/agents/mock/traits.ts",
      "engine/agents/mock/_certified_total.ts",
      "engine/agents/mock/_mechanism_replies.ts",
      "engine/agents/mock/_roles.ts",
    ],
    why: "the building blocks a game's prompt set and mock policies are written with",
  },
  {
    name: "games",
    paths: ["engine/games/"],
    packages: true,
    why: "one package per game (engine/games/<id>/): environment, descriptor, mocks, prompts",
  },
  {
    name: "registries",
    paths: [
      "engine/games/registry.ts",
      "engine/frail/registry.ts",
      "engine/agents/llm/prompts/registry.ts",
      "engine/agents/mock/population.ts",
    ],
    why: "the lists of games and of their parts: above every game they list",
  },
  {
    name: "agents",
    paths: ["engine/agents/"],
    why: "LLM agents (client, cache, budget, test server) and mock populations",
  },
  {
    name: "episodes",
    paths: [
      "engine/_episode_config.ts",
      "engine/run_episode.ts",
      "engine/run_staghunt_episode.ts",
      "engine/branch_episode.ts",
    ],
    why: "playing and branching one episode of any game",
  },
  {
    name: "grid",
    paths: ["engine/grid/"],
    why: "specs, cells, runners, workers, resume: many episodes",
  },
  {
    name: "engine entry points",
    paths: ["engine/mod.ts", "engine/testing.ts", "engine/games/staghunt/mod.ts"],
    why: "the engine's public modules (deno.json exports)",
  },
  {
    name: "analysis loader",
    paths: ["analysis/load/"],
    why: "reading run folders into frames: the engine's logs, nothing of the analysis",
  },
  {
    name: "analysis",
    paths: ["analysis/"],
    why: "measures, tables, charts, reports, the viewer: above the whole engine",
  },
  {
    name: "analysis entry point",
    paths: ["analysis/mod.ts"],
    why: "the analysis's public module",
  },
  {
    name: "command line",
    paths: ["engine/cli/", "analysis/viewer/cli.ts"],
    why: "programs over the engine and the analysis",
  },
  {
    name: "notebook API",
    paths: ["mod.ts"],
    why: "the root module a notebook imports",
  },
];

/** Where the module graph starts: every module of these folders and files is checked. */
export const LAYERED_ROOTS: readonly string[] = ["engine/", "analysis/", "mod.ts"];

/**
 * The index in {@linkcode LAYERS} of the layer holding a module (a path
 * from the repository's root), or -1 when none holds it.
 */
export function layerOf(path: string): number {
  let best = -1;
  let bestLength = -1;
  LAYERS.forEach((layer, i) => {
    for (const p of layer.paths) {
      const holds = p.endsWith("/") ? path.startsWith(p) : path === p;
      if (holds && p.length > bestLength) {
        best = i;
        bestLength = p.length;
      }
    }
  });
  return best;
}

/**
 * The package of a module in a layer with `packages` (its folder below the
 * layer's folder, e.g. `engine/games/bank_run/`), or `null`.
 */
export function packageOf(path: string): string | null {
  const i = layerOf(path);
  if (i < 0 || !LAYERS[i].packages) return null;
  for (const p of LAYERS[i].paths) {
    if (p.endsWith("/") && path.startsWith(p)) {
      const rest = path.slice(p.length);
      const slash = rest.indexOf("/");
      return slash < 0 ? null : p + rest.slice(0, slash + 1);
    }
  }
  return null;
}

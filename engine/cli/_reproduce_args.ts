/**
 * `deno task reproduce`'s command line, read and checked in one place: by the
 * launcher (launch_reproduce.ts), to derive the exact permissions the command
 * needs, and by the command (reproduce.ts), to run it and check those same
 * permissions. Nothing here loads Polars: the launcher runs without its addon.
 *
 * @module
 */
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadModelsFile, type ModelConfig } from "../agents/llm/model_config.ts";
import { GAMES } from "../games/registry.ts";
import { parseGridSpec } from "../grid/spec.ts";
import { readGridSpec } from "../grid/spec_file.ts";
import type { ReportPaper } from "../../analysis/report/reproduction.ts";
import { addonFolder, modelNeeds, type Needs, POLARS_SYS, usedModels } from "./_permissions.ts";
import { numberFlags } from "./_flags.ts";

/** Bad arguments or input files of the reproduce command (exit 2, with its usage). */
export class ReproduceUsageError extends Error {}

function fail(message: string): never {
  throw new ReproduceUsageError(message);
}

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The paper designs `deno task reproduce` plays, by paper. */
export const PAPER_SPECS: Readonly<Record<ReportPaper, string>> = {
  frail: join(ROOT, "data/specs/paper_frail.json"),
  staghunt: join(ROOT, "data/specs/paper_staghunt.ts"),
};
const PAPERS = Object.keys(PAPER_SPECS) as ReportPaper[];

/** The mock stand-in of a block's games (`Game.paperMock`; the first game of its family). */
function paperMock(family: string): Readonly<Record<string, unknown>> {
  return GAMES.find((g) => g.game === family)?.paperMock ?? {};
}

/** A spec's block, as the reproduce command reads it. */
export type ReproduceBlock = Record<string, unknown> & {
  game: string;
  agents?: Record<string, unknown>[];
};
/** A spec, as the reproduce command reads it. */
export type ReproduceSpec =
  & { name?: string; episodes?: number; blocks: ReproduceBlock[] }
  & Record<
    string,
    unknown
  >;

/**
 * The spec with mock agents in place of every model entry: FRAIL blocks get
 * the default mocks, Stag Hunt h1 blocks threshold players; blocks whose
 * agents are h2 or h3 model policies are left out (returned apart).
 *
 * @example
 * ```ts
 * import { mockSpec } from "./_reproduce_args.ts";
 * const { spec, dropped } = mockSpec({ name: "p", blocks: [
 *   { game: "staghunt", agents: [{ model: "a" }] },
 *   { game: "staghunt", agents: [{ models: ["a", "b"] }] },
 * ] });
 * if (spec.name !== "p-mock" || spec.blocks.length !== 1) throw new Error();
 * if (dropped[0] !== 'blocks.1 ({"models":["a","b"]})') throw new Error(dropped[0]);
 * ```
 */
export function mockSpec(spec: ReproduceSpec): { spec: ReproduceSpec; dropped: string[] } {
  const blocks: ReproduceBlock[] = [];
  const dropped: string[] = [];
  spec.blocks.forEach((b, i) => {
    const agents = b.agents ?? [];
    // A model policy (the Stag Hunt's h2 / h3) has no mock stand-in.
    if (agents.some((a) => "models" in a)) {
      dropped.push(`blocks.${i} (${agents.map((a) => JSON.stringify(a)).join(", ")})`);
      return;
    }
    blocks.push({
      ...b,
      agents: [{ mock: { ...paperMock(b.game) } }],
    });
  });
  return { spec: { ...spec, name: `${spec.name ?? "grid"}-mock`, blocks }, dropped };
}

/**
 * The spec with `episodes` per cell (its blocks' own counts too), or as it
 * is when `episodes` is `undefined`.
 *
 * @example
 * ```ts
 * import { withEpisodes } from "./_reproduce_args.ts";
 * const s = withEpisodes({ episodes: 5, blocks: [{ game: "frail", episodes: 3 }] }, 1);
 * if (s.episodes !== 1 || s.blocks[0].episodes !== 1) throw new Error();
 * ```
 */
export function withEpisodes(spec: ReproduceSpec, episodes: number | undefined): ReproduceSpec {
  if (episodes === undefined) return spec;
  return {
    ...spec,
    episodes,
    blocks: spec.blocks.map((b) => ({ ...b, ...("episodes" in b ? { episodes } : {}) })),
  };
}

const { int, positive } = numberFlags(fail);

/** A paper's design to plan (`dryRun`) or run and report: the arguments read and checked. */
export interface ReproduceGrid {
  kind: "grid";
  /** The paper reported. */
  paper: ReportPaper;
  /** `--dry-run`: print the plan and the estimate, run nothing. */
  dryRun: boolean;
  /** The spec file read (`--spec`, else the paper's design). */
  specPath: string;
  /** The design as read, before mock agents and `--episodes`. */
  design: ReproduceSpec;
  /** The design's name (its `name`, or the default a spec gets). */
  designName: string;
  /** The spec played: mock agents without `--models`, `--episodes` applied. */
  spec: ReproduceSpec;
  /** Without `--models`: the blocks left out of the mock spec (see {@linkcode mockSpec}). */
  mock: { dropped: string[] } | null;
  /** `--models`: the path, its configurations and their prices' currency. */
  models: { path: string; configs: ModelConfig[]; currency: string } | null;
  /** Where the logs (`<out>/run`) and the report go. */
  out: string;
  /** `--cache`. */
  cache?: string;
  /** `--pack`. */
  pack?: string;
  /** `--episodes`. */
  episodes?: number;
  /** `--max-tokens`. */
  maxTokens?: number;
  /** `--max-cost`. */
  maxCost?: number;
  /** `--tokens-out` (dry run only): completion tokens assumed per call. Default 500. */
  tokensOut: number;
  /** Not `--no-preflight`. */
  preflight: boolean;
  /** Not `--no-progress`. */
  progress: boolean;
}

/** A pack's report to rebuild (`--from-pack`). */
export interface ReproduceFromPack {
  kind: "from-pack";
  /** The pack file. */
  file: string;
  /** The new folder it is unpacked into (`--out`, else `runs/<pack name>`). */
  out: string;
  /** The paper named, if any (it must be the pack's). */
  paper?: ReportPaper;
}

/** What a reproduce command line asks for. */
export type ReproduceCommand = { kind: "help" } | ReproduceFromPack | ReproduceGrid;

/**
 * Reads a reproduce command line: parses the arguments, and for a grid reads
 * the spec and the models file and builds the spec played.
 *
 * @example
 * ```ts
 * import { readReproduceCommand } from "./_reproduce_args.ts";
 * const c = await readReproduceCommand(["frail", "--episodes", "1", "--dry-run"]);
 * if (c.kind !== "grid" || !c.dryRun || c.mock === null) throw new Error();
 * if (c.out !== "runs/reproduce-frail-mock" || c.spec.name !== "paper-frail-mock") {
 *   throw new Error(c.out);
 * }
 * const p = await readReproduceCommand(["--from-pack", "x/sh.tar"]);
 * if (p.kind !== "from-pack" || p.out !== "runs/sh") throw new Error();
 * ```
 * @throws {ReproduceUsageError} For bad arguments, or a spec or models file
 * that does not exist, naming it.
 * @throws {RangeError} For a bad spec or models file, naming the field.
 * @throws {SyntaxError} For a file that is not JSON.
 */
export async function readReproduceCommand(args: readonly string[]): Promise<ReproduceCommand> {
  let values, positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: [...args],
      options: {
        models: { type: "string" },
        "dry-run": { type: "boolean" },
        out: { type: "string" },
        cache: { type: "string" },
        episodes: { type: "string" },
        pack: { type: "string" },
        "from-pack": { type: "string" },
        spec: { type: "string" },
        "max-cost": { type: "string" },
        "max-tokens": { type: "string" },
        "tokens-out": { type: "string" },
        "no-preflight": { type: "boolean" },
        "no-progress": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: true,
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (values.help) return { kind: "help" };
  if (positionals.length > 1) {
    fail(`Expected one paper, got ${positionals.length}: ${positionals.join(" ")}`);
  }
  const paperArg = positionals[0];
  if (paperArg !== undefined && !PAPERS.includes(paperArg as ReportPaper)) {
    fail(`Unknown paper "${paperArg}": expected one of ${PAPERS.join(", ")}`);
  }
  const fromPack = values["from-pack"];
  if (fromPack !== undefined) {
    for (
      const flag of [
        "models",
        "dry-run",
        "cache",
        "episodes",
        "pack",
        "spec",
        "tokens-out",
      ] as const
    ) {
      if (values[flag] !== undefined) {
        fail(`--from-pack rebuilds the packed run's report; it takes no --${flag}`);
      }
    }
    return {
      kind: "from-pack",
      file: fromPack,
      out: values.out ?? join("runs", basename(fromPack).replace(/\.tar$/, "")),
      ...(paperArg !== undefined ? { paper: paperArg as ReportPaper } : {}),
    };
  }
  if (paperArg === undefined) fail("Name the paper: frail or staghunt");
  const paper = paperArg as ReportPaper;
  const dryRun = values["dry-run"] ?? false;
  const episodes = int("episodes", values.episodes, 1);
  const maxTokens = int("max-tokens", values["max-tokens"], 1);
  const maxCost = positive("max-cost", values["max-cost"]);
  const tokensOut = int("tokens-out", values["tokens-out"], 0);
  if (tokensOut !== undefined && !dryRun) {
    fail("--tokens-out goes with --dry-run (the completion tokens the estimate assumes)");
  }
  const specPath = values.spec ?? PAPER_SPECS[paper];
  let design: ReproduceSpec;
  try {
    design = await readGridSpec(specPath) as ReproduceSpec;
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) fail(`Spec file "${specPath}" does not exist`);
    throw err;
  }
  const parsed = parseGridSpec(design);
  // Each paper's design is of the family of games of the same name.
  const game: string = paper;
  const otherGames = parsed.blocks.filter((b) => b.game !== game);
  if (otherGames.length > 0) {
    fail(
      `Spec "${specPath}" has ${
        otherGames[0].game
      } blocks: the ${paper} report needs ${game} blocks only`,
    );
  }
  let models: ReproduceGrid["models"] = null;
  if (values.models !== undefined) {
    try {
      const file = await loadModelsFile(values.models);
      models = { path: values.models, configs: file.models, currency: file.currency };
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) {
        fail(`Models file "${values.models}" does not exist`);
      }
      throw err;
    }
  } else if (values.cache !== undefined) {
    fail("--cache holds model replies: it needs --models (mock agents make no model call)");
  }
  const mock = models === null ? mockSpec(design) : null;
  return {
    kind: "grid",
    paper,
    dryRun,
    specPath,
    design,
    designName: parsed.name,
    spec: withEpisodes(mock ? mock.spec : design, episodes),
    mock: mock ? { dropped: mock.dropped } : null,
    models,
    out: values.out ?? join("runs", `reproduce-${paper}${mock ? "-mock" : ""}`),
    ...(values.cache !== undefined ? { cache: values.cache } : {}),
    ...(values.pack !== undefined ? { pack: values.pack } : {}),
    ...(episodes !== undefined ? { episodes } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(maxCost !== undefined ? { maxCost } : {}),
    tokensOut: tokensOut ?? 500,
    preflight: !values["no-preflight"],
    progress: !values["no-progress"],
  };
}

/**
 * The models a reproduce command will call: those of its models file that
 * the spec played names (none for a dry run, a mock run or a pack).
 *
 * @example
 * ```ts
 * import { reproduceModels } from "./_reproduce_args.ts";
 * if (reproduceModels({ kind: "help" }).length !== 0) throw new Error();
 * ```
 */
export function reproduceModels(command: ReproduceCommand): ModelConfig[] {
  if (command.kind !== "grid" || command.dryRun || command.models === null) return [];
  return usedModels(command.spec, command.models.configs);
}

/**
 * What a reproduce command needs beyond reading, whatever it does: Polars'
 * addon (the report, and loading the command at all) and, for a run, writing
 * the output and cache folders and the pack file, the network to the
 * hosts of the models it calls (each once) and their key variables. A dry
 * run and `--from-pack` need no network and no variable; `--from-pack`
 * writes its output folder only.
 *
 * @example
 * ```ts
 * import { readReproduceCommand, reproduceNeeds } from "./_reproduce_args.ts";
 * const needs = reproduceNeeds(await readReproduceCommand(["--from-pack", "sh.tar", "--out", "/tmp/r"]));
 * if (needs.write.join() !== "/tmp/r" || needs.net.length || needs.env.length) throw new Error();
 * ```
 */
export function reproduceNeeds(command: ReproduceCommand): Needs {
  const polars = { sys: [...POLARS_SYS], ffi: addonFolder() };
  if (command.kind === "help") return { write: [], net: [], env: [], ...polars };
  if (command.kind === "from-pack") return { write: [command.out], net: [], env: [], ...polars };
  if (command.dryRun) return { write: [], net: [], env: [], ...polars };
  return {
    write: [
      ...new Set([
        command.out,
        ...(command.cache !== undefined ? [command.cache] : []),
        ...(command.pack !== undefined ? [command.pack] : []),
      ]),
    ],
    ...modelNeeds(reproduceModels(command)),
    ...polars,
  };
}

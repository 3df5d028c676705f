/**
 * Experiment specs: which episodes a grid runs, as one zod-validated object
 * (written as JSON or as a TypeScript object).
 *
 * A spec names its run, a base seed, a default number of episodes per cell
 * and a list of blocks. Each block is a cartesian product:
 *
 * - `{ game: "frail" }`: `envs` x `mechanisms` x `regimes` x `params`
 *   (override sets on top of the regime preset, optionally named) x
 *   `agents` (`_frail_block.ts`).
 * - `{ game: "staghunt" }`: `payoffs` x `N` x `M` x `T` x `F` x
 *   `corruption` x `heterogeneity` x `agents` (agents entries are matched to
 *   the heterogeneity they implement), or `paper: {...}` for the paper's own
 *   unbalanced grid with its seeded ablation subset (`stagHuntGrid`)
 *   (`_staghunt_block.ts`).
 *
 * Every field is documented in docs/grids.md, generated from these schemas
 * (`specReference`).
 *
 * An agents entry is `{ mock: {...} }` (rule-based agents, options per
 * role), `{ model: ... }` (an LLM for every player, or a FRAIL assignment by
 * role and agent id), or, for the Stag Hunt, `{ models: { kind: "h2", pool } }`
 * / `{ models: { kind: "h3", strong, weak } }`; `label` names it in file
 * names. Entries without `mock` name LLMs and need the `agents` factory of
 * `runGrid`.
 *
 * Choices where the issue leaves details open:
 * - `M: "all"` means every threshold 1..N; `F` may be a list or a record from
 *   N to a list (the paper's realised support is unbalanced).
 * - The Stag Hunt heterogeneity is a property of the agents: `{ mock }` and
 *   `{ model }` entries are h1, `{ models }` entries are their `kind`.
 * - `pairSeeds` (default `true`): cells that differ only in their agents
 *   (and, for the Stag Hunt, heterogeneity) share seeds, so model comparisons
 *   are paired on the same engine draws (common random numbers).
 * - `episodes` defaults to 5, FRAIL's episodes per cell (Appendix H.1); the
 *   Stag Hunt paper gives no count, and its blocks take the same default.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { canonicalJson } from "../core/canonical_json.ts";
import { sha256Hex } from "../core/hash.ts";
import { strictObject } from "../core/strict_input.ts";
import { NAME_HINT, NAME_PATTERN } from "../names.ts";
import { describeIssue } from "./_issue.ts";
import { assignedModels, episodes, positiveInts } from "./_spec_parts.ts";
import type {
  AgentsSpec,
  FrailAgentsSpec,
  FrailMockSpec,
  RuleSpec,
  StagHuntAgentsSpec,
  StagHuntMockSpec,
} from "./_agents_spec.ts";
import {
  FrailAgentsSchema,
  type FrailBlock,
  type FrailBlockInput,
  FrailBlockSchema,
  type FrailParamsSpec,
} from "./_frail_block.ts";
import {
  StagHuntAgentsSchema,
  type StagHuntBlock,
  type StagHuntBlockInput,
  StagHuntBlockSchema,
  type StagHuntPaperSpec,
} from "./_staghunt_block.ts";
import { holdsFunction } from "../games/staghunt/rule_spec.ts";
import { type GameAgentsSpec, type GameBlock, gameBlockSchema } from "./_game_block.ts";
import { GAMES } from "../games/registry.ts";
import { FAMILY_BLOCKS } from "./_family_blocks.ts";
import { label, ModelAssignmentSchema, withKind } from "./_spec_parts.ts";

export type {
  AgentsSpec,
  FrailAgentsSpec,
  FrailBlock,
  FrailBlockInput,
  FrailMockSpec,
  FrailParamsSpec,
  RuleSpec,
  StagHuntAgentsSpec,
  StagHuntBlock,
  StagHuntBlockInput,
  StagHuntMockSpec,
  StagHuntPaperSpec,
};

/** Games a grid can run (`"branch"`: branches of another run's episodes). */
export type GameId = "frail" | "staghunt" | "branch";

/**
 * A branch block: every episode of a finished run folder (or those its
 * `filter` keeps), forked at each of `rounds` under each of `changes`
 * (`branchEpisode`), with each agents entry. Its episodes are the parents'
 * (their seeds), one cell per (round, change, agents); the id of a branch
 * is `<parent>_b<round>_<change label>` (with `_<agents label>` when the
 * block has more than one agents entry).
 */
export interface BranchBlock {
  /** `"branch"`. */
  game: "branch";
  /** The parent run folder (absolute, or relative to the working folder). */
  from: string;
  /** Branch rounds. */
  rounds: number[];
  /** Changes (see `BranchChange`); `{}` replays the parents' draws with the block's agents. */
  changes: Record<string, unknown>[];
  /** Which parents: by condition id and/or episode id (both lists must match when given). Default all. */
  filter?: { condition_id?: string[]; episodes?: string[] };
  /** Agents entries from the branch round on. Default `[{ mock: {} }]`. */
  agents: AgentsSpec[];
}

/** A branch block as written: `game`, `from`, `rounds` and `changes`; `filter` and `agents` optional. */
export interface BranchBlockInput {
  /** `"branch"`. */
  game: "branch";
  /** The parent run folder (absolute, or relative to the working folder). */
  from: string;
  /** Branch rounds. */
  rounds: number[];
  /** Changes (see `BranchChange`); `{}` replays the parents' draws with the block's agents. */
  changes: Record<string, unknown>[];
  /** Which parents: by condition id and/or episode id. Default all. */
  filter?: { condition_id?: string[]; episodes?: string[] };
  /** Agents entries from the branch round on. Default `[{ mock: {} }]`. */
  agents?: (FrailBlockInput["agents"] | StagHuntBlockInput["agents"]) & unknown[];
}

/** A block of a spec (`GameBlock`: a registered game without a block of its own). */
export type GridBlock = FrailBlock | StagHuntBlock | BranchBlock | GameBlock;

export type { GameAgentsSpec, GameBlock };

/** A block of a spec as written. */
export type GridBlockInput = FrailBlockInput | StagHuntBlockInput | BranchBlockInput;

/** A validated spec, defaults filled. */
export interface GridSpec {
  /** Run id, written in every event (`run`). Default `"grid"`. */
  name: string;
  /** Base seed. Default 0. */
  seed: number;
  /** Episodes per cell. Default 5. */
  episodes: number;
  /** Whether cells that differ only in agents share seeds. Default `true`. */
  pairSeeds: boolean;
  /** Blocks, each a cartesian product. */
  blocks: GridBlock[];
}

/** A spec as written: every field with a default may be left out. */
export interface GridSpecInput {
  /** Run id. */
  name?: string;
  /** Base seed. */
  seed?: number;
  /** Episodes per cell. */
  episodes?: number;
  /** Whether cells that differ only in agents share seeds. */
  pairSeeds?: boolean;
  /** Blocks, each a cartesian product: `{ game: "frail", ... }`, `{ game: "staghunt", ... }` or `{ game: "branch", ... }`. */
  blocks: GridBlockInput[];
}

const BranchBlockSchema = strictObject({
  game: z.literal("branch"),
  from: z.string().min(1).describe(
    "The parent run folder (absolute, or relative to the working folder).",
  ),
  rounds: positiveInts().describe("Branch rounds."),
  changes: z.array(z.record(z.string(), z.unknown())).min(1).describe(
    "Changes (see BranchChange); {} replays the parents' draws with the block's agents.",
  ),
  filter: strictObject({
    condition_id: z.array(z.string().min(1)).min(1).optional(),
    episodes: z.array(z.string().min(1)).min(1).optional(),
  }).optional().describe(
    "Which parents: by condition id and/or episode id (both lists must match when given). " +
      "Default all.",
  ),
  agents: z.array(z.union([FrailAgentsSchema, StagHuntAgentsSchema])).min(1).default([
    { kind: "mock", mock: {} },
  ]).meta({ accepts: "non-empty list of agents entries (below)" }).describe(
    "Agents entries from the branch round on. Default [{ mock: {} }].",
  ),
});

/**
 * Zod schema of {@linkcode GridSpec} (prefer {@linkcode parseGridSpec}, whose
 * errors are one sentence).
 *
 * @example
 * ```ts
 * import { GridSpecSchema } from "./spec.ts";
 * if (!GridSpecSchema.safeParse({ blocks: [{ game: "staghunt" }] }).success) throw new Error();
 * ```
 */
export const GridSpecSchema: z.ZodType<GridSpec> = specSchema([
  FrailBlockSchema,
  StagHuntBlockSchema,
  BranchBlockSchema,
]);

function specSchema(blocks: z.ZodType[]): z.ZodType<GridSpec> {
  return strictObject({
    name: z.string().regex(NAME_PATTERN, NAME_HINT).max(80).default("grid").describe(
      'Run id, written in every event (run) and the default folder runs/<name>. Default "grid".',
    ),
    seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0).describe(
      "Base seed of every episode seed. Default 0.",
    ),
    episodes: episodes().default(5).describe("Episodes per cell. Default 5."),
    pairSeeds: z.boolean().default(true).describe(
      "Whether cells that differ only in their agents share seeds. Default true.",
    ),
    blocks: z.array(
      // deno-lint-ignore no-explicit-any
      z.discriminatedUnion("game", blocks as any),
    ).min(1).meta({
      accepts: "non-empty list of FRAIL, Stag Hunt, branch and registered games' blocks (below)",
    }).describe("Blocks, each a cartesian product of its fields."),
  }) as unknown as z.ZodType<GridSpec>;
}

const GameAgentsSchema: z.ZodType<GameAgentsSpec> = z.preprocess(
  withKind,
  z.discriminatedUnion("kind", [
    strictObject({
      kind: z.literal("mock"),
      mock: z.record(z.string(), z.unknown()),
      label: label().optional(),
    }),
    strictObject({
      kind: z.literal("model"),
      model: ModelAssignmentSchema,
      label: label().optional(),
    }),
  ]),
);

// The spec schema with the blocks of the games registered so far, by their ids.
let withGames: z.ZodType<GridSpec> | undefined;

/**
 * The block of the registered games without a block of their own (their
 * `game` one of their ids; see `_game_block.ts`), or `null` when there is
 * none.
 *
 * @example
 * ```ts
 * import { registeredGameBlock } from "./spec.ts";
 * if (!registeredGameBlock()?.safeParse({ game: "min_effort" }).success) throw new Error();
 * ```
 */
export function registeredGameBlock(): z.ZodType | null {
  // Every game of a family without a block of its own gets the generic block.
  const ids = GAMES.filter((g) => !Object.hasOwn(FAMILY_BLOCKS, g.game)).map((g) => g.id);
  if (ids.length === 0) return null;
  const key = ids.join();
  if (gameBlock?.key !== key) {
    gameBlock = {
      key,
      schema: gameBlockSchema(ids as [string, ...string[]], {
        agents: GameAgentsSchema,
        episodes: episodes(),
      }),
    };
    withGames = undefined;
  }
  return gameBlock.schema;
}

// The block of the games registered so far, by their ids.
let gameBlock: { key: string; schema: z.ZodType } | undefined;

/**
 * The schema of a spec with a block for every registered game (see
 * {@linkcode registeredGameBlock}), as {@linkcode parseGridSpec} validates it.
 *
 * @example
 * ```ts
 * import { gridSpecSchema } from "./spec.ts";
 * if (!gridSpecSchema().safeParse({ blocks: [{ game: "min_effort" }] }).success) throw new Error();
 * ```
 */
export function gridSpecSchema(): z.ZodType<GridSpec> {
  const games = registeredGameBlock();
  if (games === null) return GridSpecSchema;
  withGames ??= specSchema([FrailBlockSchema, StagHuntBlockSchema, BranchBlockSchema, games]);
  return withGames;
}

/**
 * Validates a spec, filling defaults.
 *
 * @example
 * ```ts
 * import { type FrailBlock, parseGridSpec } from "./spec.ts";
 * const spec = parseGridSpec({ name: "demo", blocks: [{ game: "frail", envs: ["bank_run"] }] });
 * const block = spec.blocks[0] as FrailBlock;
 * if (block.game !== "frail" || block.mechanisms.length !== 4 || spec.episodes !== 5) throw new Error();
 * try {
 *   parseGridSpec({ blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M5"] }] });
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e instanceof RangeError) || !e.message.includes('"blocks.0.mechanisms.0"')) throw e;
 * }
 * ```
 * @throws {RangeError} Naming the field, and the allowed values where there is a list of them.
 */
export function parseGridSpec(input: unknown): GridSpec {
  const r = gridSpecSchema().safeParse(input);
  if (r.success) return r.data;
  throw new RangeError(describeIssue(r.error.issues[0], input));
}

/**
 * SHA-256 of the canonical JSON of a validated spec: two specs that differ
 * only in key order or in spelled-out defaults have the same hash.
 *
 * @example
 * ```ts
 * import { parseGridSpec, specHash } from "./spec.ts";
 * const a = parseGridSpec({ blocks: [{ game: "frail", envs: ["bank_run"] }] });
 * const b = parseGridSpec({ episodes: 5, blocks: [{ envs: ["bank_run"], game: "frail", regimes: ["stable"] }] });
 * if (specHash(a) !== specHash(b)) throw new Error();
 * ```
 */
export function specHash(spec: GridSpec): string {
  // A rule object of a TypeScript spec counts as its id (what the manifest records).
  return sha256Hex(canonicalJson(holdsFunction(spec) ? JSON.parse(JSON.stringify(spec)) : spec));
}

/**
 * The model ids an agents entry names (none for mock agents).
 *
 * @example
 * ```ts
 * import { modelsOf } from "./spec.ts";
 * if (modelsOf({ kind: "models", models: { kind: "h3", strong: "a", weak: "b" } }).join() !== "a,b") throw new Error();
 * if (modelsOf({ kind: "mock", mock: {} }).length !== 0) throw new Error();
 * ```
 */
export function modelsOf(agents: AgentsSpec): string[] {
  switch (agents.kind) {
    case "mock":
      return [];
    case "model":
      return assignedModels(agents.model);
    case "models": {
      if (agents.mock) return [];
      const m = agents.models;
      return m.kind === "h1"
        ? [m.model]
        : m.kind === "h2"
        ? [...new Set(m.pool)]
        : [m.strong, m.weak];
    }
  }
}

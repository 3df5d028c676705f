/**
 * Experiment specs: which episodes a grid runs, as one zod-validated object
 * (written as JSON or as a TypeScript object).
 *
 * A spec names its run, a base seed, a default number of episodes per cell
 * and a list of blocks. Each block is a cartesian product:
 *
 * - `{ game: "frail" }`: `envs` x `mechanisms` x `regimes` x `params`
 *   (override objects on top of the regime preset) x `agents`.
 * - `{ game: "staghunt" }`: `N` x `M` x `T` x `F` x `corruption` x
 *   `heterogeneity` x `agents` (agents entries are matched to the
 *   heterogeneity they implement), or `paper: {...}` for the paper's own
 *   unbalanced grid with its seeded ablation subset (`stagHuntGrid`).
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
import { assignedModels, type ModelAssignment } from "../agents/llm/model_assignment.ts";
import type { BankPolicy, DepositorPolicy } from "../games/bank_run/mock.ts";
import type { BackerPolicy, FounderPolicy } from "../games/crowdfunding/mock.ts";
import type { BorrowerPolicy, CreditorPolicy } from "../games/debt_rollover/mock.ts";
import type { StagHuntMockSpec } from "../games/staghunt/mock_options.ts";
import type { GameDescriptor } from "../core/game.ts";
import { strictObject } from "../core/strict_input.ts";
import { type RegimeId, REGIMES } from "../frail/params.ts";
import { FRAIL_ENV_IDS, FRAIL_GAMES } from "../frail/registry.ts";
import { type EnvId, type MechanismId, MECHANISMS } from "../frail/types.ts";
import { paperRules } from "../games/staghunt/beliefs/paper_rules.ts";
import { stagHuntGame } from "../games/staghunt/descriptor.ts";
import { GRID_CONDITIONS, type GridCondition } from "../games/staghunt/grid.ts";
import {
  HETEROGENEITY_IDS,
  type HeterogeneityId,
  type ModelPolicy,
  ModelPolicySchema,
} from "../games/staghunt/heterogeneity.ts";
import { CORRUPTION_MODES, type CorruptionMode } from "../games/staghunt/params.ts";
import {
  type PayoffsInput,
  PayoffsSchema,
  type StagHuntPayoffs,
} from "../games/staghunt/payoffs.ts";
import { NAME_HINT, NAME_PATTERN } from "../names.ts";
import { describeIssue } from "./_issue.ts";
import { type GameAgentsSpec, type GameBlock, gameBlockSchema } from "./_game_block.ts";
import { GAMES } from "../games/registry.ts";

/** Games a grid can run (`"branch"`: branches of another run's episodes). */
export type GameId = "frail" | "staghunt" | "branch";

/** Options of the rule-based FRAIL agents, by role (each environment reads its own; the policies are listed in each environment's descriptor). */
export interface FrailMockSpec {
  /** Bank-run depositors. Default `"defensive"`. */
  depositors?: DepositorPolicy;
  /** Bank-run bank. Default `"active"`. */
  bank?: BankPolicy;
  /** Debt-rollover creditors. Default `"defensive"`. */
  creditors?: CreditorPolicy;
  /** Debt-rollover borrower. Default `"active"`. */
  borrower?: BorrowerPolicy;
  /** Crowdfunding backers. Default `"hesitant"`. */
  backers?: BackerPolicy;
  /** Crowdfunding founder. Default `"active"`. */
  founder?: FounderPolicy;
}

export type { StagHuntMockSpec };

/** An agents entry of a FRAIL block. */
export type FrailAgentsSpec =
  | { kind: "mock"; mock: FrailMockSpec; label?: string }
  | { kind: "model"; model: ModelAssignment; label?: string };

/** An agents entry of a Stag Hunt block. */
export type StagHuntAgentsSpec =
  | { kind: "mock"; mock: StagHuntMockSpec; label?: string }
  | { kind: "model"; model: string; label?: string }
  | { kind: "models"; models: ModelPolicy; mock?: StagHuntMockSpec; label?: string };

/** Any agents entry. */
export type AgentsSpec = FrailAgentsSpec | StagHuntAgentsSpec | GameAgentsSpec;

/** A FRAIL block: envs x mechanisms x regimes x params x agents. */
export interface FrailBlock {
  /** `"frail"`. */
  game: "frail";
  /** Environments. */
  envs: EnvId[];
  /** Mechanisms. Default all four. */
  mechanisms: MechanismId[];
  /** Regimes (Table 5). Default `["stable"]`. */
  regimes: RegimeId[];
  /** Parameter override variants on top of the regime preset. Default `[{}]`. */
  params: Record<string, unknown>[];
  /** Agents entries. Default `[{ mock: {} }]`. */
  agents: FrailAgentsSpec[];
  /** Episodes per cell. Default: the spec's `episodes`. */
  episodes?: number;
}

/** The paper's Stag Hunt grid (options of `stagHuntGrid`) plus which conditions to keep. */
export interface StagHuntPaperSpec {
  /** Seed of the ablation subset. Default 0. */
  seed?: number;
  /** Base points in the ablation subset. Default 50. */
  ablationPoints?: number;
  /** Conditions to keep. Default all: `["base", "b3", "h2", "h3"]`. */
  include?: GridCondition[];
  /** Player counts. Default `[2, 3, 5]`. */
  N?: number[];
  /** Horizons. Default `[1, 2, 4]`. */
  T?: number[];
}

/** A Stag Hunt block. */
export interface StagHuntBlock {
  /** `"staghunt"`. */
  game: "staghunt";
  /** Player counts. Default `[5]`. */
  N?: number[];
  /** Thresholds, or `"all"` for 1..N. Default `[3]`. */
  M?: number[] | "all";
  /** Rounds. Default `[4]`. */
  T?: number[];
  /** Corrupted players, or a record from N to its list. Default `[0]`. */
  F?: number[] | Record<string, number[]>;
  /** Corruption modes. Default `["base"]`. */
  corruption?: CorruptionMode[];
  /** Heterogeneity conditions. Default `["h1"]`. */
  heterogeneity?: HeterogeneityId[];
  /** The paper's grid instead of N, M, T, F, corruption and heterogeneity. */
  paper?: StagHuntPaperSpec;
  /** Payoffs (R_S, H_S, R_F, H_F). Default (4, 2, 0, 2). */
  payoffs: StagHuntPayoffs;
  /** Agents entries. Default `[{ mock: {} }]`. */
  agents: StagHuntAgentsSpec[];
  /** Episodes per cell. Default: the spec's `episodes`. */
  episodes?: number;
}

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

/** A block of a spec (`GameBlock`: a registered game without a block of its own). */
export type GridBlock = FrailBlock | StagHuntBlock | BranchBlock | GameBlock;

export type { GameAgentsSpec, GameBlock };

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
  /** Blocks. */
  blocks: Record<string, unknown>[];
}

const label = () => z.string().regex(NAME_PATTERN, NAME_HINT).max(60);
const unit = () => z.number().min(0).max(1);
const positiveInts = () => z.array(z.number().int().min(1)).min(1);

/** One optional enum per mock option of the descriptors' roles. */
function mockOptionsShape(
  games: readonly GameDescriptor[],
): Record<string, z.ZodOptional<z.ZodEnum>> {
  const shape: Record<string, z.ZodOptional<z.ZodEnum>> = {};
  for (const g of games) {
    for (const m of g.mockPolicies) shape[m.option] = z.enum(m.policies).optional();
  }
  return shape;
}

const FrailMockSchema = strictObject(
  mockOptionsShape(FRAIL_GAMES as unknown as GameDescriptor[]),
) as unknown as z.ZodType<FrailMockSpec>;

const StagHuntMockSchema = strictObject({
  ...mockOptionsShape([stagHuntGame as GameDescriptor]),
  rule: z.enum(paperRules().map((r) => r.id) as [string, ...string[]]).optional(),
  noise: unit().optional(),
  firstSpeakerPrior: unit().optional(),
  hare: z.enum(["HF", "HS", "expected"]).optional(),
  confidence: unit().optional(),
}) as unknown as z.ZodType<StagHuntMockSpec>;

const modelId = () => z.string().min(1);
const ModelAssignmentSchema: z.ZodType<ModelAssignment> = z.union([
  modelId(),
  strictObject({
    default: modelId(),
    roles: z.record(z.string(), modelId()).optional(),
    agents: z.record(z.string(), modelId()).optional(),
  }),
]);

/** Adds the `kind` of an agents entry from the key it has (`mock`, `model` or `models`). */
function withKind(input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input) || "kind" in input) {
    return input;
  }
  const kind = ["models", "model", "mock"].find((k) => k in input);
  return kind ? { kind, ...input } : input;
}

const FrailAgentsSchema: z.ZodType<FrailAgentsSpec> = z.preprocess(
  withKind,
  z.discriminatedUnion("kind", [
    strictObject({ kind: z.literal("mock"), mock: FrailMockSchema, label: label().optional() }),
    strictObject({
      kind: z.literal("model"),
      model: ModelAssignmentSchema,
      label: label().optional(),
    }),
  ]),
);

const StagHuntAgentsSchema: z.ZodType<StagHuntAgentsSpec> = z.preprocess(
  withKind,
  z.discriminatedUnion("kind", [
    strictObject({ kind: z.literal("mock"), mock: StagHuntMockSchema, label: label().optional() }),
    strictObject({ kind: z.literal("model"), model: modelId(), label: label().optional() }),
    strictObject({
      kind: z.literal("models"),
      models: ModelPolicySchema,
      mock: StagHuntMockSchema.optional(),
      label: label().optional(),
    }),
  ]),
);

const episodes = () => z.number().int().min(1).max(1_000_000);

const FrailBlockSchema = strictObject({
  game: z.literal("frail"),
  envs: z.array(z.enum(FRAIL_ENV_IDS)).min(1),
  mechanisms: z.array(z.enum(MECHANISMS)).min(1).default([...MECHANISMS]),
  regimes: z.array(z.enum(REGIMES)).min(1).default(["stable"]),
  params: z.array(z.record(z.string(), z.unknown())).min(1).default([{}]),
  agents: z.array(FrailAgentsSchema).min(1).default([{ kind: "mock", mock: {} }]),
  episodes: episodes().optional(),
});

const PaperSchema: z.ZodType<StagHuntPaperSpec> = strictObject({
  seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  ablationPoints: z.number().int().min(0).optional(),
  include: z.array(z.enum(GRID_CONDITIONS)).min(1).optional(),
  N: positiveInts().optional(),
  T: positiveInts().optional(),
});

const StagHuntBlockSchema = strictObject({
  game: z.literal("staghunt"),
  N: positiveInts().optional(),
  M: z.union([z.literal("all"), positiveInts()]).optional(),
  T: positiveInts().optional(),
  F: z.union([
    z.array(z.number().int().min(0)).min(1),
    z.record(
      z.string().regex(/^[1-9]\d*$/, "use a player count N"),
      z.array(z.number().int().min(0)).min(1),
    ),
  ]).optional(),
  corruption: z.array(z.enum(CORRUPTION_MODES)).min(1).optional(),
  heterogeneity: z.array(z.enum(HETEROGENEITY_IDS)).min(1).optional(),
  paper: PaperSchema.optional(),
  payoffs: (PayoffsSchema as z.ZodType<StagHuntPayoffs, PayoffsInput>).default({
    RS: 4,
    HS: 2,
    RF: 0,
    HF: 2,
  }),
  agents: z.array(StagHuntAgentsSchema).min(1).default([{ kind: "mock", mock: {} }]),
  episodes: episodes().optional(),
}).superRefine((b, ctx) => {
  if (!b.paper) return;
  for (const key of ["N", "M", "T", "F", "corruption", "heterogeneity"] as const) {
    if (b[key] !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: [key],
        message: `give either "paper" or "${key}": the paper's grid sets N, M, T, F, ` +
          `corruption and heterogeneity itself`,
      });
    }
  }
});

const BranchBlockSchema = strictObject({
  game: z.literal("branch"),
  from: z.string().min(1),
  rounds: positiveInts(),
  changes: z.array(z.record(z.string(), z.unknown())).min(1),
  filter: strictObject({
    condition_id: z.array(z.string().min(1)).min(1).optional(),
    episodes: z.array(z.string().min(1)).min(1).optional(),
  }).optional(),
  agents: z.array(z.union([FrailAgentsSchema, StagHuntAgentsSchema])).min(1).default([
    { kind: "mock", mock: {} },
  ]),
});

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

// The families whose games have a block of their own; every other registered
// game is given the generic block (`_game_block.ts`).
const FAMILY_BLOCKS: ReadonlySet<string> = new Set(["frail", "staghunt"]);

function specSchema(blocks: z.ZodType[]): z.ZodType<GridSpec> {
  return strictObject({
    name: z.string().regex(NAME_PATTERN, NAME_HINT).max(80).default("grid"),
    seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
    episodes: episodes().default(5),
    pairSeeds: z.boolean().default(true),
    blocks: z.array(
      // deno-lint-ignore no-explicit-any
      z.discriminatedUnion("game", blocks as any),
    ).min(1),
  }) as unknown as z.ZodType<GridSpec>;
}

// The spec schema with the blocks of the games registered so far, by their ids.
let withGames: { key: string; schema: z.ZodType<GridSpec> } | undefined;

/**
 * The schema of a spec with a block for every registered game (see
 * `_game_block.ts`), as {@linkcode parseGridSpec} validates it.
 *
 * @example
 * ```ts
 * import { gridSpecSchema } from "./spec.ts";
 * if (!gridSpecSchema().safeParse({ blocks: [{ game: "staghunt" }] }).success) throw new Error();
 * ```
 */
export function gridSpecSchema(): z.ZodType<GridSpec> {
  const ids = GAMES.filter((g) => !FAMILY_BLOCKS.has(g.game)).map((g) => g.id);
  if (ids.length === 0) return GridSpecSchema;
  const key = ids.join();
  if (withGames?.key !== key) {
    const games = gameBlockSchema(ids as [string, ...string[]], {
      agents: GameAgentsSchema,
      episodes: episodes(),
    });
    withGames = {
      key,
      schema: specSchema([FrailBlockSchema, StagHuntBlockSchema, BranchBlockSchema, games]),
    };
  }
  return withGames.schema;
}

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
  return sha256Hex(canonicalJson(spec));
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

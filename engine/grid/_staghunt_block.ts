/**
 * The Stag Hunt block of a grid spec: its schema and its expansion into
 * cells. A block is `N` x `M` x `T` x `F` x `corruption` x `heterogeneity` x
 * `agents` (agents entries are matched to the heterogeneity they implement),
 * or `paper: {...}` for the paper's own unbalanced grid with its seeded
 * ablation subset (`stagHuntGrid`); `payoffs` takes one matrix or a list of
 * them (the outermost factor), and a mock entry's `rule` one rule or a list
 * of them (one agents entry per rule).
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { strictObject } from "../core/strict_input.ts";
import { stagHuntGame } from "../games/staghunt/descriptor.ts";
import { GRID_CONDITIONS, type GridCondition, stagHuntGrid } from "../games/staghunt/grid.ts";
import {
  HETEROGENEITY_IDS,
  type HeterogeneityId,
  type ModelPolicy,
  ModelPolicySchema,
} from "../games/staghunt/heterogeneity.ts";
import {
  CORRUPTION_MODES,
  type CorruptionMode,
  parseStagHuntParams,
  type StagHuntParams,
} from "../games/staghunt/params.ts";
import {
  DEFAULT_PAYOFFS,
  type PayoffsInput,
  PayoffsSchema,
  type StagHuntPayoffs,
} from "../games/staghunt/payoffs.ts";
import type { GameDescriptor } from "../core/game.ts";
import type { RuleSpec, StagHuntAgentsSpec, StagHuntMockSpec } from "./_agents_spec.ts";
import { ruleIdOf, ruleSchema } from "../games/staghunt/rule_spec.ts";
import {
  episodes,
  label,
  mockOptionsShape,
  modelId,
  positiveInts,
  unit,
  withKind,
} from "./_spec_parts.ts";
import { agentsLabel, safePart } from "./labels.ts";

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

/** A validated Stag Hunt block. */
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
  /** Payoffs (R_S, H_S, R_F, H_F), or a list of them. Default (4, 2, 0, 2). */
  payoffs: StagHuntPayoffs | StagHuntPayoffs[];
  /** Agents entries. Default `[{ mock: {} }]`. */
  agents: StagHuntAgentsSpec[];
  /** Episodes per cell. Default: the spec's `episodes`. */
  episodes?: number;
}

/** A Stag Hunt block as written: `game: "staghunt"`, every other field optional. */
export interface StagHuntBlockInput extends Omit<StagHuntBlock, "payoffs" | "agents"> {
  /** Payoffs as `[R_S, H_S, R_F, H_F]` or `{ RS, HS, RF, HF }`, or a list of them. Default (4, 2, 0, 2). */
  payoffs?: PayoffsInput | PayoffsInput[];
  /** Agents entries: `{ mock }`, `{ model }` or `{ models }`, each with an optional `label`. Default `[{ mock: {} }]`. */
  agents?: (
    | { mock: StagHuntMockSpec; label?: string }
    | { model: string; label?: string }
    | { models: ModelPolicy; mock?: StagHuntMockSpec; label?: string }
  )[];
}

/** What a Stag Hunt cell plays, besides its agents: the game's parameters and a heterogeneity. */
export interface StagHuntCondition extends StagHuntParams {
  /** `"staghunt"`. */
  game: "staghunt";
  /** Heterogeneity (implemented by the cell's agents). */
  heterogeneity: HeterogeneityId;
}

/** Schema of the options of the rule-based Stag Hunt players. */
export const StagHuntMockSchema = strictObject({
  ...mockOptionsShape([stagHuntGame as GameDescriptor]),
  rule: ruleSchema(true).optional().describe(
    "Belief rule of threshold players, or a list of them (one agents entry per rule). " +
      'Default "naive".',
  ),
  noise: unit().optional().describe(
    "Probability a threshold player plays the other action. Default 0.",
  ),
  firstSpeakerPrior: unit().optional().describe("q-hat where the rule is undefined. Default 0.5."),
  hare: z.enum(["HF", "HS", "expected"]).optional().describe(
    'Hare payoff q* compares with. Default "HF".',
  ),
  confidence: unit().optional().describe("Confidence reported by always players. Default 1."),
}) as unknown as z.ZodType<StagHuntMockSpec>;

/** Schema of an agents entry of a Stag Hunt block. */
export const StagHuntAgentsSchema: z.ZodType<StagHuntAgentsSpec> = z.preprocess(
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

const PaperSchema: z.ZodType<StagHuntPaperSpec> = strictObject({
  seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().describe(
    "Seed of the ablation subset. Default 0.",
  ),
  ablationPoints: z.number().int().min(0).optional().describe(
    "Base points in the ablation subset. Default 50.",
  ),
  include: z.array(z.enum(GRID_CONDITIONS)).min(1).optional().describe(
    "Conditions to keep. Default all.",
  ),
  N: positiveInts().optional().describe("Player counts. Default [2, 3, 5]."),
  T: positiveInts().optional().describe("Horizons. Default [1, 2, 4]."),
});

const Payoffs = PayoffsSchema as z.ZodType<StagHuntPayoffs, PayoffsInput>;

/** Schema of a Stag Hunt block. */
export const StagHuntBlockSchema = strictObject({
  game: z.literal("staghunt"),
  N: positiveInts().optional().describe("Player counts. Default [5]."),
  M: z.union([z.literal("all"), positiveInts()]).optional().describe(
    'Thresholds, or "all" for 1..N. Default [3].',
  ),
  T: positiveInts().optional().describe("Rounds. Default [4]."),
  F: z.union([
    z.array(z.number().int().min(0)).min(1),
    z.record(
      z.string().regex(/^[1-9]\d*$/, "use a player count N"),
      z.array(z.number().int().min(0)).min(1),
    ),
  ]).optional().describe("Corrupted players, or a record from N to its list. Default [0]."),
  corruption: z.array(z.enum(CORRUPTION_MODES)).min(1).optional().describe(
    'Corruption modes. Default ["base"].',
  ),
  heterogeneity: z.array(z.enum(HETEROGENEITY_IDS)).min(1).optional().describe(
    'Heterogeneity conditions, implemented by the agents entries. Default ["h1"].',
  ),
  paper: PaperSchema.optional().describe(
    "The paper's grid instead of N, M, T, F, corruption and heterogeneity.",
  ),
  payoffs: z.union([Payoffs, z.array(Payoffs).min(1)]).default({
    RS: 4,
    HS: 2,
    RF: 0,
    HF: 2,
  }).describe(
    "Payoffs as [R_S, H_S, R_F, H_F] or { RS, HS, RF, HF }, or a list of them. Default (4, 2, 0, 2).",
  ),
  agents: z.array(StagHuntAgentsSchema).min(1).default([{ kind: "mock", mock: {} }]).meta({
    accepts: "non-empty list of agents entries (below)",
  }).describe(
    "Agents entries: { mock }, { model } or { models }. Default [{ mock: {} }].",
  ),
  episodes: episodes().optional().describe("Episodes per cell. Default: the spec's episodes."),
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

/** A cell of a block, before the grid adds its block index and episode count. */
export interface StagHuntCellDraft {
  /** Cell id. */
  id: string;
  /** What is played. */
  condition: StagHuntCondition;
  /** Who plays. */
  agents: StagHuntAgentsSpec;
}

/** A point of a Stag Hunt block: its condition but for the block's payoffs. */
type Point = Omit<StagHuntCondition, "game" | "payoffs">;

function heterogeneityOf(a: StagHuntAgentsSpec): HeterogeneityId {
  return a.kind === "models" ? a.models.kind : "h1";
}

/** The block's payoff matrices, as a list. */
function payoffList(block: StagHuntBlock): StagHuntPayoffs[] {
  return Array.isArray(block.payoffs) ? block.payoffs : [block.payoffs];
}

/**
 * The block's agents entries with a list of rules spread into one entry per
 * rule, labelled by the entry's label (or its label without a rule) and the
 * rule's id.
 */
function agentEntries(block: StagHuntBlock): StagHuntAgentsSpec[] {
  return block.agents.flatMap((a) => {
    const rules = a.kind === "model" ? undefined : a.mock?.rule;
    if (!Array.isArray(rules)) return [a];
    const { mock } = a as { mock: StagHuntMockSpec };
    return rules.map((rule: RuleSpec) => {
      const id = ruleIdOf(rule);
      // The label a rule with parameters gets (the rule's id in place of a hash).
      const named = { ...a, mock: { ...mock, rule: { id } } } as StagHuntAgentsSpec;
      const label = a.label ? `${a.label}-${safePart(id)}` : agentsLabel(named);
      return { ...a, mock: { ...mock, rule }, label } as StagHuntAgentsSpec;
    });
  });
}

/**
 * The number of cells of a validated block, counted from its factors (a
 * block that sets a factor out of range is counted as written).
 */
export function count(block: StagHuntBlock, b: number): number {
  const agents = agentEntries(block);
  const agentsFor = (h: HeterogeneityId) => agents.filter((a) => heterogeneityOf(a) === h).length;
  const pay = payoffList(block).length;
  if (block.paper) {
    return pay *
      stagHuntPoints(block, b).points.reduce((n, p) => n + agentsFor(p.heterogeneity), 0);
  }
  const perPoint = (block.T ?? [4]).length * (block.corruption ?? ["base"]).length *
    (block.heterogeneity ?? ["h1"]).reduce((n, h) => n + agentsFor(h), 0);
  const F = block.F ?? [0];
  let cells = 0;
  for (const N of block.N ?? [5]) {
    const Ms = block.M === "all" ? N : (block.M ?? [3]).length;
    const Fs = Array.isArray(F) ? F.length : F[String(N)]?.length ?? 0;
    cells += Ms * Fs * perPoint;
  }
  return pay * cells;
}

function stagHuntPoints(block: StagHuntBlock, b: number): { points: Point[]; field: string } {
  if (block.paper) {
    const p = block.paper;
    const include = new Set<string>(p.include ?? GRID_CONDITIONS);
    const grid = stagHuntGrid({ seed: p.seed, ablationPoints: p.ablationPoints, N: p.N, T: p.T });
    return {
      points: grid.filter((c) => include.has(c.condition)),
      field: "paper.include",
    };
  }
  const points: Point[] = [];
  const corruption = block.corruption ?? ["base"];
  const heterogeneity = block.heterogeneity ?? ["h1"];
  for (const N of block.N ?? [5]) {
    const Ms = block.M === "all" ? Array.from({ length: N }, (_, i) => i + 1) : block.M ?? [3];
    const F = block.F ?? [0];
    const Fs = Array.isArray(F) ? F : F[String(N)];
    if (!Fs) {
      throw new RangeError(
        `Invalid grid spec "blocks.${b}.F": no list of corrupted-player counts for N = ${N} ` +
          `(the record has ${Object.keys(F).map((k) => `"${k}"`).join(", ")})`,
      );
    }
    for (const M of Ms) {
      if (M > N) {
        throw new RangeError(
          `Invalid grid spec "blocks.${b}.M": ${M} is not in 1..N = 1..${N} for N = ${N}`,
        );
      }
      for (const T of block.T ?? [4]) {
        for (const f of Fs) {
          if (f > N) {
            throw new RangeError(
              `Invalid grid spec "blocks.${b}.F": ${f} is not in 0..N = 0..${N} for N = ${N}`,
            );
          }
          for (const c of corruption) {
            for (const h of heterogeneity) {
              points.push({ N, M, T, F: f, corruption: c, heterogeneity: h });
            }
          }
        }
      }
    }
  }
  return { points, field: "heterogeneity" };
}

/**
 * The cells of a validated Stag Hunt block (`b`: its index, for messages):
 * for each payoff matrix, the points in the order N, M, T, F, corruption,
 * heterogeneity (or the paper grid's order), then the agents entries that
 * implement the point's heterogeneity. Ids are
 * `staghunt_N<N>_M<M>_T<T>_F<F>_<corruption>_<heterogeneity>[_pay<RS>-<HS>-<RF>-<HF>]_<agents>`,
 * the payoff part only for other payoffs than (4, 2, 0, 2).
 *
 * @example
 * ```ts
 * import { expand, StagHuntBlockSchema } from "./_staghunt_block.ts";
 * const block = StagHuntBlockSchema.parse({ game: "staghunt", payoffs: [[4, 2, 0, 2], [5, 2, 0, 3]] });
 * const ids = expand(block as never, 0).map((c) => c.id);
 * if (ids.join() !== "staghunt_N5_M3_T4_F0_base_h1_mock,staghunt_N5_M3_T4_F0_base_h1_pay5-2-0-3_mock") throw new Error(ids.join());
 * ```
 * @throws {RangeError} For factors out of range or payoffs that are not a Stag Hunt (naming the field), and a heterogeneity no agents entry implements.
 */
export function expand(block: StagHuntBlock, b: number): StagHuntCellDraft[] {
  const { points, field } = stagHuntPoints(block, b);
  const list = Array.isArray(block.payoffs);
  const agentsList = agentEntries(block);
  const out: StagHuntCellDraft[] = [];
  payoffList(block).forEach((payoffs, i) => {
    try {
      parseStagHuntParams({ payoffs });
    } catch (err) {
      throw new RangeError(
        `Invalid grid spec "blocks.${b}.payoffs${list ? `.${i}` : ""}": ${(err as Error).message}`,
      );
    }
    const { RS, HS, RF, HF } = payoffs;
    const isDefault = RS === DEFAULT_PAYOFFS.RS && HS === DEFAULT_PAYOFFS.HS &&
      RF === DEFAULT_PAYOFFS.RF && HF === DEFAULT_PAYOFFS.HF;
    const pay = isDefault ? "" : `_pay${safePart(`${RS}-${HS}-${RF}-${HF}`)}`;
    const unmatched = new Set<HeterogeneityId>();
    for (const p of points) {
      const agents = agentsList.filter((a) => heterogeneityOf(a) === p.heterogeneity);
      if (agents.length === 0) unmatched.add(p.heterogeneity);
      for (const a of agents) {
        out.push({
          id: `staghunt_N${p.N}_M${p.M}_T${p.T}_F${p.F}_${p.corruption}_${p.heterogeneity}${pay}_${
            agentsLabel(a)
          }`,
          condition: { game: "staghunt", ...p, payoffs },
          agents: a,
        });
      }
    }
    if (unmatched.size > 0) {
      const h = [...unmatched][0];
      const hint = h === "h1"
        ? `{ "model": "<id>" } or { "mock": {} }`
        : h === "h2"
        ? `{ "models": { "kind": "h2", "pool": [...] } }`
        : `{ "models": { "kind": "h3", "strong": "<id>", "weak": "<id>" } }`;
      throw new RangeError(
        `Invalid grid spec "blocks.${b}.${field}": "${h}" has no agents entry that implements it ` +
          `(add ${hint} to "agents", or drop "${h}")`,
      );
    }
  });
  return out;
}

/**
 * The part of a Stag Hunt cell's condition its seeds depend on: with seeds
 * paired across agents, all of it but the heterogeneity (which the agents
 * implement), else all of it.
 *
 * @example
 * ```ts
 * import { seedCondition } from "./_staghunt_block.ts";
 * const c = { game: "staghunt", N: 3, M: 2, T: 2, F: 0, corruption: "base", heterogeneity: "h2" } as never;
 * if ("heterogeneity" in (seedCondition(c, true) as object)) throw new Error();
 * ```
 */
export function seedCondition(condition: StagHuntCondition, paired: boolean): unknown {
  if (!paired) return condition;
  const { heterogeneity: _h, ...rest } = condition;
  return rest;
}

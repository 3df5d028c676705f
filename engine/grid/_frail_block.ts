/**
 * The FRAIL block of a grid spec: its schema and its expansion into cells,
 * `envs` x `mechanisms` x `regimes` x `params` x `agents`. A `params` entry
 * is an override set on top of the regime preset; one with a `name` (or a
 * `params` record from names to override sets) is recorded and shown by its
 * name instead of the hash of its overrides.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { isPlainObject, strictObject } from "../core/strict_input.ts";
import { isOverridesName, overridesId } from "../frail/descriptor.ts";
import { type RegimeId, REGIMES } from "../frail/params.ts";
import { FRAIL_ENV_IDS, FRAIL_GAMES } from "../frail/registry.ts";
import { type EnvId, type MechanismId, MECHANISMS } from "../frail/types.ts";
import type { GameDescriptor } from "../core/game.ts";
import type { ModelAssignment } from "../agents/llm/model_assignment.ts";
import type { FrailAgentsSpec, FrailMockSpec } from "./_agents_spec.ts";
import {
  episodes,
  label,
  mockOptionsShape,
  ModelAssignmentSchema,
  withKind,
} from "./_spec_parts.ts";
import { agentsLabel } from "./labels.ts";

/**
 * An override set of a FRAIL block: parameter overrides on top of the regime
 * preset, and optionally its `name` (shown instead of the overrides' hash).
 */
export type FrailParamsSpec = { name?: string } & Record<string, unknown>;

/** A validated FRAIL block: envs x mechanisms x regimes x params x agents. */
export interface FrailBlock {
  /** `"frail"`. */
  game: "frail";
  /** Environments. */
  envs: EnvId[];
  /** Mechanisms. Default all four. */
  mechanisms: MechanismId[];
  /** Regimes (Table 5). Default `["stable"]`. */
  regimes: RegimeId[];
  /** Override sets on top of the regime preset, each with an optional `name`. Default `[{}]`. */
  params: FrailParamsSpec[];
  /** Agents entries. Default `[{ mock: {} }]`. */
  agents: FrailAgentsSpec[];
  /** Episodes per cell. Default: the spec's `episodes`. */
  episodes?: number;
}

/** A FRAIL block as written: `game` and `envs`, every other field optional. */
export interface FrailBlockInput {
  /** `"frail"`. */
  game: "frail";
  /** Environments. */
  envs: EnvId[];
  /** Mechanisms. Default all four. */
  mechanisms?: MechanismId[];
  /** Regimes (Table 5). Default `["stable"]`. */
  regimes?: RegimeId[];
  /**
   * Override sets: a list (an entry may have a `name`), or a record from
   * names to override sets. Default `[{}]` (the presets).
   */
  params?: FrailParamsSpec[] | Record<string, Record<string, unknown>>;
  /** Agents entries: `{ mock }` or `{ model }`, each with an optional `label`. Default `[{ mock: {} }]`. */
  agents?: (
    | { mock: FrailMockSpec; label?: string }
    | { model: ModelAssignment; label?: string }
  )[];
  /** Episodes per cell. Default: the spec's `episodes`. */
  episodes?: number;
}

/** What a FRAIL cell plays, besides its agents. */
export interface FrailCondition {
  /** `"frail"`. */
  game: "frail";
  /** Environment. */
  env: EnvId;
  /** Mechanism. */
  mechanism: MechanismId;
  /** Regime. */
  regime: RegimeId;
  /** Parameter overrides on top of the regime preset. */
  params: Record<string, unknown>;
  /** Name of the override set, when it has one (recorded as its `overrides_id`). */
  paramsName?: string;
}

/** Schema of the options of the rule-based FRAIL agents. */
export const FrailMockSchema = strictObject(
  mockOptionsShape(FRAIL_GAMES as unknown as GameDescriptor[]),
) as unknown as z.ZodType<FrailMockSpec>;

/** Schema of an agents entry of a FRAIL block. */
export const FrailAgentsSchema: z.ZodType<FrailAgentsSpec> = z.preprocess(
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

const NAME_RULE = 'use at most 40 letters, digits, "_", "-" or ".", other than "none" and a ' +
  'hash id ("p" and 8 hex digits)';
const setName = () => z.string().refine(isOverridesName, { message: NAME_RULE });

const ParamsListSchema = z.array(
  z.looseObject({ name: setName().optional() }).describe(
    "Parameter overrides on top of the regime preset (each environment's parameters), " +
      "with an optional name.",
  ),
).min(1).superRefine((list, ctx) => {
  const seen = new Set<string>();
  list.forEach((p, i) => {
    if (p.name === undefined) return;
    if (seen.has(p.name)) {
      ctx.addIssue({
        code: "custom",
        path: [i, "name"],
        message: `the name "${p.name}" is given to two override sets`,
        input: p.name,
      });
    }
    seen.add(p.name);
  });
});

/** A record from names to override sets, as a list of named sets (anything else as it is). */
function namedSets(v: unknown, ctx: z.core.$RefinementCtx<unknown>): unknown {
  if (!isPlainObject(v)) return v;
  return Object.entries(v).map(([name, o]) => {
    if (!isPlainObject(o)) {
      ctx.addIssue({
        code: "custom",
        path: [name],
        message: "expected an object of parameter overrides",
        input: o,
      });
    } else if ("name" in o) {
      ctx.addIssue({
        code: "custom",
        path: [name, "name"],
        message: 'a set of a params record is named by its key: remove its "name"',
        input: o.name,
      });
    }
    return { name, ...(isPlainObject(o) ? o : {}) };
  });
}

/** Schema of a FRAIL block. */
export const FrailBlockSchema = strictObject({
  game: z.literal("frail"),
  envs: z.array(z.enum(FRAIL_ENV_IDS)).min(1).describe("Environments."),
  mechanisms: z.array(z.enum(MECHANISMS)).min(1).default([...MECHANISMS]).describe(
    "Mechanisms. Default all four.",
  ),
  regimes: z.array(z.enum(REGIMES)).min(1).default(["stable"]).describe(
    'Regimes (Table 5). Default ["stable"].',
  ),
  params: z.preprocess(namedSets, ParamsListSchema).default([{}]).describe(
    "Override sets on top of the regime preset: a list (an entry may have a name), or a " +
      "record from names to override sets. A named set is shown by its name, an unnamed one " +
      'by the hash of its overrides ("p" and 8 hex digits). Default [{}].',
  ),
  agents: z.array(FrailAgentsSchema).min(1).default([{ kind: "mock", mock: {} }]).meta({
    accepts: "non-empty list of agents entries (below)",
  }).describe(
    "Agents entries: { mock } or { model }. Default [{ mock: {} }].",
  ),
  episodes: episodes().optional().describe("Episodes per cell. Default: the spec's episodes."),
});

/** A cell of a block, before the grid adds its block index and episode count. */
export interface FrailCellDraft {
  /** Cell id. */
  id: string;
  /** What is played. */
  condition: FrailCondition;
  /** Who plays. */
  agents: FrailAgentsSpec;
}

/**
 * The number of cells of a validated FRAIL block.
 *
 * @example
 * ```ts
 * import { count, FrailBlockSchema } from "./_frail_block.ts";
 * if (count(FrailBlockSchema.parse({ game: "frail", envs: ["bank_run"] }) as never) !== 4) throw new Error();
 * ```
 */
export function count(block: FrailBlock): number {
  return block.envs.length * block.mechanisms.length * block.regimes.length *
    block.params.length * block.agents.length;
}

/**
 * The cells of a validated FRAIL block in the order env, mechanism, regime,
 * params, agents. Ids are `<env>_<mechanism>_<regime>[_<set>]_<agents>`,
 * where `<set>` is the override set's name, or `p` and the hash of its
 * overrides (none for the preset).
 *
 * @example
 * ```ts
 * import { expand, FrailBlockSchema } from "./_frail_block.ts";
 * const block = FrailBlockSchema.parse({
 *   game: "frail", envs: ["bank_run"], mechanisms: ["M0"], params: { crisis: { capacity: 3 } },
 * });
 * const [cell] = expand(block as never);
 * if (cell.id !== "bank_run_M0_stable_crisis_mock" || cell.condition.paramsName !== "crisis") throw new Error(cell.id);
 * ```
 */
export function expand(block: FrailBlock): FrailCellDraft[] {
  const out: FrailCellDraft[] = [];
  for (const env of block.envs) {
    for (const mechanism of block.mechanisms) {
      for (const regime of block.regimes) {
        for (const entry of block.params) {
          const { name, ...params } = entry;
          const oid = name ?? overridesId(params);
          const p = oid === "none" ? "" : `_${oid}`;
          for (const agents of block.agents) {
            out.push({
              id: `${env}_${mechanism}_${regime}${p}_${agentsLabel(agents, env)}`,
              condition: name === undefined
                ? { game: "frail", env, mechanism, regime, params }
                : { game: "frail", env, mechanism, regime, params, paramsName: name },
              agents,
            });
          }
        }
      }
    }
  }
  return out;
}

/**
 * The part of a FRAIL cell's condition its seeds depend on: all of it but an
 * override set's name (a label: naming a set leaves its draws as they were).
 *
 * @example
 * ```ts
 * import { seedCondition } from "./_frail_block.ts";
 * const c = { game: "frail", env: "bank_run", mechanism: "M0", regime: "stable", params: {}, paramsName: "crisis" } as const;
 * if ("paramsName" in (seedCondition(c) as object)) throw new Error();
 * ```
 */
export function seedCondition(condition: FrailCondition): unknown {
  if (condition.paramsName === undefined) return condition;
  const { paramsName: _n, ...rest } = condition;
  return rest;
}

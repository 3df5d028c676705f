/**
 * The FRAIL family's descriptor helper: what the three environments share
 * (family `"frail"`, the condition keys, the four mechanisms, the set-up from
 * mechanism, regime and parameter overrides, the cross-environment mock
 * population and the default episode id), so that each environment's
 * descriptor spells out only what is its own.
 *
 * A FRAIL condition's fields, as `setup` takes them: `mechanism` (default
 * `"M0"`), `regime` (default `"stable"`) and the parameter overrides, as
 * `params` (how configs and grid cells spell them) or `overrides` (how
 * `episode_start.condition` records them), not both; `env`, when present,
 * must be the environment's id, and `overrides_id` is ignored (it follows
 * from the overrides).
 *
 * @module
 */
import type { AgentFactory } from "../core/agent.ts";
import type { Environment } from "../core/environment.ts";
import type {
  BatchedPlay,
  BranchHook,
  GameDescriptor,
  GameMeasure,
  MockPolicyInfo,
} from "../core/game.ts";
import type { PromptSet } from "../agents/llm/prompts/template.ts";
import {
  checkMockOptions,
  FRAIL_CONDITION_KEYS,
  FRAIL_DERIVED_KEYS,
  type FrailDerived,
  type FrailGameDescriptor,
  frailSetup,
  frailView,
  type ReferenceLine,
} from "../frail/descriptor.ts";
import type { RegimeId } from "../frail/params.ts";
import { type MechanismId, MECHANISMS } from "../frail/types.ts";

/** A FRAIL game: its descriptor and its prompt set. */
export interface FrailGame<P = unknown, Id extends string = string>
  extends FrailGameDescriptor<P, Id> {
  /** The LLM prompt templates of its calls. */
  readonly prompts: PromptSet;
}

/** What a FRAIL environment's descriptor spells out: everything but what the family shares. */
export interface FrailGameSpec<P, Id extends string> {
  /** Environment id. */
  id: Id;
  /** Display name, as in the paper's tables. */
  label: string;
  /** The state machine. */
  // deno-lint-ignore no-explicit-any
  environment: Environment<P, any>;
  /** The central player's role and the participants' role. */
  roles: FrailGameDescriptor<P, Id>["roles"];
  /** Rule-based policies by role. */
  mockPolicies: readonly MockPolicyInfo[];
  /** Its package's rule-based agents, from mock options it has checked (`seed` among them). */
  mockPopulation(options: Readonly<Record<string, unknown>>): AgentFactory;
  /** Named mock options the local test double serves (see {@linkcode GameDescriptor.mockPresets}). */
  mockPresets?: GameDescriptor["mockPresets"];
  /** Its per-episode measures (Table 9), for the analysis tables. */
  measures?: readonly GameMeasure[];
  /** Table 5 presets, by regime. */
  regimes: Readonly<Record<RegimeId, Partial<P>>>;
  /** Mechanisms it supports. Default all four. */
  mechanisms?: readonly MechanismId[];
  /** Disclosure metrics the figures and tables use. */
  metrics: FrailGameDescriptor<P, Id>["metrics"];
  /** Figure 4's reference line without its position. */
  referenceLine: Omit<ReferenceLine, "value">;
  /** Quantities that follow from resolved parameters. */
  derive(params: P): FrailDerived;
  /** The LLM prompt templates of its calls. */
  prompts: PromptSet;
  /** Its batched path (see {@linkcode GameDescriptor.batched}). Default none. */
  batched?: BatchedPlay<P>;
}

/** The condition fields a FRAIL set-up reads. */
const SETUP_KEYS: readonly string[] = ["mechanism", "regime", "params", "overrides", "paramsName"];

/** A FRAIL branch: the mechanism, the regime, or overrides merged over the parent's. */
const FRAIL_BRANCH: BranchHook = {
  keys: ["mechanism", "regime", "params"],
  apply(c, change) {
    return {
      ...c,
      ...(change.mechanism !== undefined ? { mechanism: change.mechanism } : {}),
      ...(change.regime !== undefined ? { regime: change.regime } : {}),
      overrides: {
        ...(c.overrides as Record<string, unknown> ?? {}),
        ...(change.params as Record<string, unknown> ?? {}),
      },
    };
  },
};

// The mock options of every FRAIL game built so far (each descriptor adds its
// own when its module loads; the registry loads all three before any episode).
// A new list on each addition: the option check caches its keys by the list.
let familyMocks: readonly { mockPolicies: readonly MockPolicyInfo[] }[] = [];

/**
 * A FRAIL environment's descriptor, from what is its own.
 *
 * @example
 * ```ts
 * import { frailGameDescriptor } from "./_frail_game.ts";
 * import { bankRunGame } from "./bank_run/descriptor.ts";
 * import { bankRunMockPopulation } from "./bank_run/mock.ts";
 * const g = frailGameDescriptor({
 *   ...bankRunGame,
 *   id: "bank_run_copy",
 *   mockPopulation: bankRunMockPopulation,
 * });
 * const s = g.setup({ mechanism: "M2", regime: "contraction" });
 * if (s.condition.id !== "bank_run_copy_M2_contraction" || g.episodeId(s, 4) !== "bank_run_copy_M2_contraction_s4") {
 *   throw new Error(s.condition.id);
 * }
 * if (g.mockAgents({ seed: 1, depositors: "always_run" })({ id: "dep_01", role: "depositor" }).policy !== "mock:always_run") {
 *   throw new Error();
 * }
 * ```
 */
export function frailGameDescriptor<P, Id extends string>(
  spec: FrailGameSpec<P, Id>,
): FrailGame<P, Id> {
  familyMocks = [...familyMocks, { mockPolicies: spec.mockPolicies }];
  const game: FrailGame<P, Id> = {
    id: spec.id,
    game: "frail",
    label: spec.label,
    environment: spec.environment,
    roles: spec.roles,
    mockPolicies: spec.mockPolicies,
    ...(spec.mockPresets === undefined ? {} : { mockPresets: spec.mockPresets }),
    conditionKeys: FRAIL_CONDITION_KEYS,
    derivedKeys: FRAIL_DERIVED_KEYS,
    view: frailView(spec.metrics.financial.id),
    ...(spec.measures === undefined ? {} : { measures: spec.measures }),
    regimes: spec.regimes,
    mechanisms: spec.mechanisms ?? MECHANISMS,
    metrics: spec.metrics,
    referenceLine: spec.referenceLine,
    derive: spec.derive,
    prompts: spec.prompts,
    setupKeys: SETUP_KEYS,
    setup(fields) {
      return frailSetup(game, frailConditionInput(spec.id, fields));
    },
    mockAgents(options): AgentFactory {
      // One options object covers every FRAIL role (a grid block's `mock`
      // entry plays across environments): the keys of any FRAIL game pass,
      // the policies of this game's keys are checked.
      checkMockOptions(options, familyMocks, ["seed"]);
      return spec.mockPopulation(options);
    },
    episodeId({ condition: { fields } }, seed) {
      return `${spec.id}_${fields.mechanism}_${fields.regime}_s${seed}`;
    },
    branch: FRAIL_BRANCH,
    ...(spec.batched === undefined ? {} : { batched: spec.batched }),
  };
  return game;
}

/** A FRAIL condition's fields as `frailSetup` takes them. */
function frailConditionInput(id: string, fields: Readonly<Record<string, unknown>>) {
  const { env, mechanism = "M0", regime = "stable", params, overrides } = fields;
  // A named override set: `paramsName` as a config or a cell gives it, `overrides_name` as logged.
  const name = fields.paramsName ?? fields.overrides_name;
  if (env !== undefined && env !== id) {
    throw new RangeError(`Invalid condition "env": ${JSON.stringify(env)} is not "${id}"`);
  }
  if (params !== undefined && overrides !== undefined) {
    throw new RangeError(
      `Invalid condition "params": give the overrides as "params" or as "overrides", not both`,
    );
  }
  return {
    mechanism: mechanism as MechanismId,
    regime: regime as RegimeId,
    overrides: (params ?? overrides ?? {}) as Record<string, unknown>,
    ...(name === undefined ? {} : { name: name as string }),
  };
}

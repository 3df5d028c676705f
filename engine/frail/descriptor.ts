/**
 * What a FRAIL game adds to a game descriptor: its regime presets (Table 5),
 * the mechanisms it supports, the disclosure metrics the figures draw, and
 * how an episode's condition (environment, mechanism, regime and parameter
 * overrides) is resolved into parameters and recorded.
 *
 * The condition of a FRAIL episode, as logged in `episode_start.condition`:
 * `env`, `mechanism`, `regime`, `overrides` (the override object as given)
 * and `overrides_id` (`"none"`, or `p` and the first 8 hex digits of the
 * SHA-256 of the overrides' canonical JSON), or the set's name when it has
 * one (then also `overrides_name`, so a replay knows it is a name). Its
 * `condition_id` is `<env>_<mechanism>_<regime>` with `_<overrides_id>` when
 * there are overrides or a name.
 *
 * @module
 */
import type {
  DerivedQuantities,
  EpisodeCondition,
  GameDescriptor,
  GameView,
  MockPolicyInfo,
} from "../core/game.ts";
import { copyData } from "../core/copy_data.ts";
import { shortHash } from "../core/hash.ts";
import { assertKnownKeys } from "../core/strict_input.ts";
import { isName } from "../names.ts";
import { assertRegime, type RegimeId } from "./params.ts";
import type { MechanismId } from "./types.ts";

/**
 * Fields of a FRAIL condition that identify it (the `overrides_id` stands
 * for the override set), in display order.
 *
 * @example
 * ```ts
 * import { FRAIL_CONDITION_KEYS } from "./descriptor.ts";
 * if (FRAIL_CONDITION_KEYS.join() !== "env,mechanism,regime,overrides_id") throw new Error();
 * ```
 */
export const FRAIL_CONDITION_KEYS: readonly string[] = [
  "env",
  "mechanism",
  "regime",
  "overrides_id",
];

/**
 * Fields every FRAIL episode's `derived` holds (see {@linkcode FrailDerived}).
 *
 * @example
 * ```ts
 * import { FRAIL_DERIVED_KEYS } from "./descriptor.ts";
 * if (FRAIL_DERIVED_KEYS.join() !== "bounds,funding,central_best,reference") throw new Error();
 * ```
 */
export const FRAIL_DERIVED_KEYS: readonly string[] = [
  "bounds",
  "funding",
  "central_best",
  "reference",
];

/** A line the figures draw for an environment (Figure 4). */
export interface ReferenceLine {
  /** `"y"`: a level of `metric`; `"x"`: a round. */
  axis: "x" | "y";
  /** Disclosure metric the line belongs to. */
  metric: string;
  /** What it marks. */
  label: string;
  /** Where it lies, or `null` where the parameters put no such point in range. */
  value: number | null;
}

/** What every FRAIL descriptor derives from resolved parameters. */
export interface FrailDerived extends DerivedQuantities {
  /** Total initial funding: the denominator of withdrawal, redemption and commitment shares. */
  funding: number;
  /** The central player's payoff in the best case of Appendix D.3. */
  central_best: number;
  /** Figure 4's reference line. */
  reference: ReferenceLine;
}

/** A FRAIL environment's descriptor; `Id` is its literal id. */
export interface FrailGameDescriptor<P = unknown, Id extends string = string>
  extends GameDescriptor<P> {
  /** Environment id. */
  readonly id: Id;
  /** `"frail"`. */
  readonly game: "frail";
  /** Table 5 presets, by regime. */
  readonly regimes: Readonly<Record<RegimeId, Partial<P>>>;
  /** Mechanisms it supports. */
  readonly mechanisms: readonly MechanismId[];
  /** Disclosure metrics the figures and tables use. */
  readonly metrics: {
    /** The financial state drawn in Figure 4's top row, and its label. */
    readonly financial: { readonly id: string; readonly label: string };
    /** Cumulative exit volume (Table 9), if the environment has one. */
    readonly exit: string | null;
    /** 1 once the project launched (crowdfunding), else `null`. */
    readonly launch: string | null;
  };
  /** Figure 4's reference line without its position (which `derive` adds from the parameters). */
  readonly referenceLine: Omit<ReferenceLine, "value">;
  /** Quantities that follow from resolved parameters. */
  derive(params: P): FrailDerived;
}

/**
 * How the viewer shows a FRAIL environment's episodes: the disclosure
 * metrics of the paper's Figure 4 (the financial metric and the committed
 * amount), with the logged reference line; agent calls counted per round.
 *
 * @example
 * ```ts
 * import { frailView } from "./descriptor.ts";
 * const view = frailView("pool");
 * if (view.chart.kind !== "disclosure" || view.chart.metrics?.join() !== "pool,committed") throw new Error();
 * ```
 */
export function frailView(financialMetric: string): GameView {
  return {
    familyLabel: "FRAIL",
    chart: {
      kind: "disclosure",
      metrics: [...new Set([financialMetric, "committed"])],
      yTitle: "Amount",
    },
    flips: false,
    roundPills: [],
    countsCalls: true,
    callsHeading: "Agent calls",
  };
}

/** A FRAIL condition as a user writes it. */
export interface FrailConditionInput {
  /** Mechanism. */
  mechanism: MechanismId;
  /** Regime. */
  regime: RegimeId;
  /** Parameter overrides on top of the regime preset. Default none. */
  overrides?: Record<string, unknown>;
  /** Name of the override set, recorded as `overrides_id` instead of its hash (see {@linkcode isOverridesName}). Default none. */
  name?: string;
}

/** Resolved parameters and the recorded condition of a FRAIL episode. */
export interface FrailSetup<P> {
  /** Validated parameters: the regime preset with the overrides on top. */
  params: P;
  /** The condition to record. */
  condition: EpisodeCondition;
}

/**
 * The overrides' id: `"none"`, or `p` and a short hash of their canonical JSON.
 *
 * @example
 * ```ts
 * import { overridesId } from "./descriptor.ts";
 * if (overridesId({}) !== "none" || !/^p[0-9a-f]{8}$/.test(overridesId({ capacity: 3 }))) throw new Error();
 * ```
 */
export function overridesId(overrides: Readonly<Record<string, unknown>>): string {
  return Object.keys(overrides).length === 0 ? "none" : `p${shortHash(overrides)}`;
}

/**
 * Whether a text can name an override set: a name (letters, digits, `_`, `-`,
 * `.`) of at most 40 characters that is neither `"none"` nor shaped like a
 * hash id (`p` and 8 hex digits), so it never reads as an unnamed set.
 *
 * @example
 * ```ts
 * import { isOverridesName } from "./descriptor.ts";
 * if (!isOverridesName("crisis") || isOverridesName("none") || isOverridesName("p044a07ef")) throw new Error();
 * ```
 */
export function isOverridesName(name: unknown): name is string {
  return typeof name === "string" && isName(name) && name.length <= 40 && name !== "none" &&
    !/^p[0-9a-f]{8}$/.test(name);
}

/**
 * Resolves a FRAIL condition into parameters (the regime preset, then the
 * overrides, validated by the environment) and the condition to record.
 *
 * @example
 * ```ts
 * import { frailSetup } from "./descriptor.ts";
 * import { bankRunGame } from "../games/bank_run/descriptor.ts";
 * const { params, condition } = frailSetup(bankRunGame, { mechanism: "M1", regime: "contraction" });
 * if ((params as { earlySalePrice: number }).earlySalePrice !== 0.75) throw new Error();
 * if (condition.id !== "bank_run_M1_contraction" || condition.fields.overrides_id !== "none") throw new Error();
 * ```
 * @throws {RangeError} For a mechanism the environment does not support, an unknown regime, a bad override or a bad name.
 */
export function frailSetup<P>(
  game: FrailGameDescriptor<P>,
  input: FrailConditionInput,
): FrailSetup<P> {
  const { mechanism, regime, name } = input;
  const overrides = input.overrides ?? {};
  if (name !== undefined && !isOverridesName(name)) {
    throw new RangeError(
      `Invalid override set name ${
        JSON.stringify(name)
      }: use at most 40 letters, digits, "_", "-" ` +
        `or ".", other than "none" and a hash id ("p" and 8 hex digits)`,
    );
  }
  if (!game.mechanisms.includes(mechanism)) {
    throw new RangeError(
      `Unknown mechanism "${mechanism}" for ${game.id}: expected one of ${
        game.mechanisms.map((m) => `"${m}"`).join(", ")
      }`,
    );
  }
  assertRegime(regime);
  const { params, derived, oid: hashId } = resolved(game, regime, overrides);
  const oid = name ?? hashId;
  return {
    params,
    condition: {
      game: "frail",
      fields: name === undefined
        ? { env: game.id, mechanism, regime, overrides, overrides_id: oid }
        : { env: game.id, mechanism, regime, overrides, overrides_id: oid, overrides_name: name },
      id: `${game.id}_${mechanism}_${regime}${oid === "none" ? "" : `_${oid}`}`,
      derived,
      mechanism,
      centralRole: game.roles.central?.id ?? null,
      centralId: game.roles.central?.player ?? null,
    },
  };
}

/** Parameters, derived quantities and overrides id of a (regime, overrides) pair. */
interface Resolved<P> {
  params: P;
  derived: FrailDerived;
  oid: string;
}

// Resolved regimes without overrides, by game: validating and deriving cost
// more than a whole mock episode's rules. The cache hands out deep copies, so
// no two episodes share an object. (Overrides are resolved every time.)
const presetCache = new WeakMap<object, Map<RegimeId, Resolved<unknown>>>();

function resolved<P>(
  game: FrailGameDescriptor<P>,
  regime: RegimeId,
  overrides: Readonly<Record<string, unknown>>,
): Resolved<P> {
  const preset = Object.keys(overrides).length === 0;
  let byRegime = presetCache.get(game);
  const hit = preset ? byRegime?.get(regime) as Resolved<P> | undefined : undefined;
  if (hit) return copyData(hit);
  const params = game.environment.parseParams({ ...game.regimes[regime], ...overrides }) as P;
  const made: Resolved<P> = {
    params,
    derived: game.derive(params),
    oid: overridesId(overrides),
  };
  if (preset) {
    if (!byRegime) presetCache.set(game, byRegime = new Map());
    byRegime.set(regime, copyData(made));
  }
  return made;
}

// The options of each list of games, built once per list (the lists are constants).
const policiesByOption = new WeakMap<
  readonly MockPolicySource[],
  Map<string, MockPolicyInfo>
>();

/** What {@linkcode checkMockOptions} reads of a game: its mock options (a descriptor will do). */
export interface MockPolicySource {
  /** Rule-based policies by role. */
  readonly mockPolicies: readonly MockPolicyInfo[];
}

/**
 * Checks FRAIL mock options against the policies the descriptors list:
 * unknown option keys (with a suggestion) and unknown policies are errors.
 *
 * @example
 * ```ts
 * import { checkMockOptions } from "./descriptor.ts";
 * import { bankRunGame } from "../games/bank_run/descriptor.ts";
 * checkMockOptions({ depositors: "always_stay" }, [bankRunGame], ["seed"]);
 * try {
 *   checkMockOptions({ depositor: "always_stay" }, [bankRunGame], ["seed"]);
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e as Error).message.includes('did you mean "depositors"?')) throw e;
 * }
 * ```
 * @throws {RangeError} Naming the option and what it accepts.
 */
export function checkMockOptions(
  options: Readonly<Record<string, unknown>>,
  games: readonly MockPolicySource[],
  extraKeys: readonly string[] = [],
): void {
  let byOption = policiesByOption.get(games);
  if (byOption === undefined) {
    byOption = new Map(games.flatMap((g) => g.mockPolicies.map((m) => [m.option, m])));
    policiesByOption.set(games, byOption);
  }
  for (const key of Object.keys(options)) {
    if (!byOption.has(key) && !extraKeys.includes(key)) {
      assertKnownKeys(options, [...byOption.keys(), ...extraKeys], "mock options");
    }
  }
  for (const [key, value] of Object.entries(options)) {
    const info = byOption.get(key);
    if (info === undefined || value === undefined || typeof value === "function") continue;
    if (!info.policies.includes(value as string)) {
      throw new RangeError(
        `Invalid mock options "${key}": expected one of ${
          info.policies.map((p) => `"${p}"`).join(", ")
        } (got ${JSON.stringify(value)})`,
      );
    }
  }
}

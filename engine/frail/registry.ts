/**
 * The FRAIL environments: one descriptor each, listed once here. Adding an
 * environment means one new folder (its state machine, parameters and
 * descriptor) and one line in {@linkcode FRAIL_GAMES}; configs, grid specs,
 * labels, the demo and the analysis read the list from here.
 *
 * @module
 */
import type { Environment } from "../core/environment.ts";
import { bankRunGame } from "../games/bank_run/descriptor.ts";
import { crowdfundingGame } from "../games/crowdfunding/descriptor.ts";
import { debtRolloverGame } from "../games/debt_rollover/descriptor.ts";
import { type FrailGameDescriptor, frailSetup } from "./descriptor.ts";
import type { RegimeId } from "./params.ts";
import type { EnvId } from "./types.ts";

/**
 * The FRAIL environments' descriptors, in the paper's order.
 *
 * @example
 * ```ts
 * import { FRAIL_GAMES } from "./registry.ts";
 * if (FRAIL_GAMES.map((g) => g.id).join() !== "bank_run,debt_rollover,crowdfunding") throw new Error();
 * ```
 */
export const FRAIL_GAMES = [bankRunGame, debtRolloverGame, crowdfundingGame] as const;

export type { EnvId };

// The ids in `types.ts` (which the games import, below this registry) and the
// descriptors' ids are one set: this fails to compile if either side gains one.
type SameSet<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _idsMatch: SameSet<EnvId, (typeof FRAIL_GAMES)[number]["id"]> = true;

/**
 * FRAIL environment ids, in the paper's order.
 *
 * @example
 * ```ts
 * import { FRAIL_ENV_IDS } from "./registry.ts";
 * if (FRAIL_ENV_IDS[0] !== "bank_run") throw new Error();
 * ```
 */
export const FRAIL_ENV_IDS: readonly [EnvId, ...EnvId[]] = FRAIL_GAMES.map((g) => g.id) as [
  EnvId,
  ...EnvId[],
];

/** An environment of any parameter and state types. */
// deno-lint-ignore no-explicit-any
export type AnyEnvironment = Environment<any, any>;

/**
 * Environment ids this build provides.
 *
 * @example
 * ```ts
 * import { availableEnvironments } from "./registry.ts";
 * if (!availableEnvironments().includes("bank_run")) throw new Error();
 * ```
 */
export function availableEnvironments(): EnvId[] {
  return [...FRAIL_ENV_IDS];
}

/**
 * The descriptor of a FRAIL environment.
 *
 * @example
 * ```ts
 * import { frailGame } from "./registry.ts";
 * if (frailGame("crowdfunding").roles.central?.id !== "founder") throw new Error();
 * ```
 * @throws {RangeError} For an id this build does not provide, listing those it does.
 */
export function frailGame(id: string): FrailGameDescriptor {
  const game = FRAIL_GAMES.find((g) => g.id === id);
  if (!game) {
    throw new RangeError(
      `Unknown environment "${id}": this build provides ${
        FRAIL_ENV_IDS.map((e) => `"${e}"`).join(", ")
      }`,
    );
  }
  return game as unknown as FrailGameDescriptor;
}

/**
 * The environment with this id.
 *
 * @example
 * ```ts
 * import { environment } from "./registry.ts";
 * if (environment("bank_run").id !== "bank_run") throw new Error();
 * ```
 * @throws {RangeError} For an id this build does not provide, listing those it does.
 */
export function environment(id: string): AnyEnvironment {
  return frailGame(id).environment;
}

/**
 * Validated parameters for an environment in a regime, with overrides applied
 * on top of the regime preset (Table 5).
 *
 * @example
 * ```ts
 * import { resolveParams } from "./registry.ts";
 * const p = resolveParams("bank_run", "contraction", { capacity: 3 }) as { earlySalePrice: number };
 * if (p.earlySalePrice !== 0.75) throw new Error();
 * ```
 * @throws {RangeError} Naming the bad field, regime or environment.
 */
export function resolveParams(env: string, regime: string, overrides: object = {}): unknown {
  return frailSetup(frailGame(env), {
    mechanism: "M0",
    regime: regime as RegimeId,
    overrides: overrides as Record<string, unknown>,
  }).params;
}

/**
 * Closed-form welfare bounds (Appendix D.3) of an environment in a regime.
 *
 * @example
 * ```ts
 * import { welfareBounds } from "./registry.ts";
 * const b = welfareBounds("bank_run", "stable");
 * if (b.worst.toFixed(3) !== "13.939" || b.best.toFixed(3) !== "18.175") throw new Error();
 * ```
 */
export function welfareBounds(
  env: EnvId,
  regime: RegimeId,
  overrides: object = {},
): { worst: number; best: number } {
  return environment(env).bounds(resolveParams(env, regime, overrides));
}

/**
 * The FRAIL environments by id, their regime presets, and parameter resolution.
 *
 * @module
 */
import type { Environment } from "../core/environment.ts";
import { bankRun } from "./bank_run/environment.ts";
import { BANK_RUN_REGIMES } from "./bank_run/params.ts";
import { crowdfunding } from "./crowdfunding/environment.ts";
import { CROWDFUNDING_REGIMES } from "./crowdfunding/params.ts";
import { debtRollover } from "./debt_rollover/environment.ts";
import { DEBT_ROLLOVER_REGIMES } from "./debt_rollover/params.ts";
import { assertRegime, type RegimeId } from "./params.ts";
import type { EnvId } from "./types.ts";

/** An environment of any parameter and state types. */
// deno-lint-ignore no-explicit-any
export type AnyEnvironment = Environment<any, any>;

const ENVIRONMENTS: Record<EnvId, { env: AnyEnvironment; regimes: Record<RegimeId, object> }> = {
  bank_run: { env: bankRun, regimes: BANK_RUN_REGIMES },
  debt_rollover: { env: debtRollover, regimes: DEBT_ROLLOVER_REGIMES },
  crowdfunding: { env: crowdfunding, regimes: CROWDFUNDING_REGIMES },
};

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
  return Object.keys(ENVIRONMENTS) as EnvId[];
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
  const entry = Object.hasOwn(ENVIRONMENTS, id) ? ENVIRONMENTS[id as EnvId] : undefined;
  if (!entry) {
    throw new RangeError(
      `Unknown environment "${id}": this build provides ${
        availableEnvironments().map((e) => `"${e}"`).join(", ")
      }`,
    );
  }
  return entry.env;
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
  const e = environment(env);
  assertRegime(regime);
  const preset = ENVIRONMENTS[env as EnvId].regimes[regime];
  return e.parseParams({ ...preset, ...overrides });
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

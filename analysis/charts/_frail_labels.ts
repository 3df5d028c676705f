/**
 * How the FRAIL chart builders name and order environments and mechanisms:
 * environments by the paper's names in the paper's order, mechanisms M0-M3.
 *
 * @module
 */

import { ENV_LABELS, ENV_ORDER, MECHANISM_ORDER } from "../frail/env_profiles.ts";

export { MECHANISM_ORDER };

/**
 * The environments' display names, in the paper's order.
 *
 * @example
 * ```ts
 * import { ENV_NAMES } from "./_frail_labels.ts";
 * if (ENV_NAMES[0] !== "Bank run") throw new Error();
 * ```
 */
export const ENV_NAMES: readonly string[] = ENV_ORDER.map((env) => ENV_LABELS[env]);

/**
 * The display name of an environment id; anything else is returned as is.
 *
 * @param env An environment id, or any value.
 * @returns Its display name, or `env` itself.
 *
 * @example
 * ```ts
 * import { envName } from "./_frail_labels.ts";
 * if (envName("crowdfunding") !== "Reward crowdfunding" || envName("moon") !== "moon") {
 *   throw new Error();
 * }
 * ```
 */
export function envName(env: unknown): unknown {
  return ENV_LABELS[String(env)] ?? env;
}

/** A facet (row or column) of one panel per environment. */
export interface EnvFacet {
  /** Always `"env"`. */
  field: "env";
  /** Always `"nominal"`. */
  type: "nominal";
  /** No facet title. */
  title: null;
  /** The environments' display names, in the paper's order. */
  sort: string[];
}

/**
 * A facet with one panel per environment (rows hold display names, see
 * {@linkcode envName}), in the paper's order, untitled.
 *
 * @returns A new facet definition.
 *
 * @example
 * ```ts
 * import { envFacet } from "./_frail_labels.ts";
 * if (envFacet().sort.length !== 3 || envFacet().title !== null) throw new Error();
 * ```
 */
export function envFacet(): EnvFacet {
  return { field: "env", type: "nominal", title: null, sort: [...ENV_NAMES] };
}

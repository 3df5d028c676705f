/**
 * Seeded traits for mock agents: each agent draws its own, from its own
 * stream, so populations are heterogeneous yet reproducible.
 *
 * @module
 */
import { openStream } from "../../core/rng.ts";

/**
 * A trait uniform on [0, 1) for (seed, agent).
 *
 * @example
 * ```ts
 * import { trait } from "./traits.ts";
 * if (trait(1, "dep_01") !== trait(1, "dep_01")) throw new Error();
 * ```
 */
export function trait(seed: number, agent: string): number {
  return openStream({ seed, round: 0, agent, purpose: "mock_trait" }).uniform();
}

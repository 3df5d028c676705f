/**
 * Seeded traits for mock agents: each agent draws its own, from its own
 * stream, so populations are heterogeneous yet reproducible.
 *
 * @module
 */
import { type RoundStreams, roundStreams } from "../../core/rng.ts";

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
  // A population's agents are made one after another with one seed: the
  // seed's round-0 opener is kept for the next call (the same streams as
  // `openStream`, with the seed checked and absorbed once).
  if (seed !== traitSeed) {
    traitStreams = roundStreams(seed, 0);
    traitSeed = seed;
  }
  return traitStreams!(agent, "mock_trait").uniform();
}

let traitSeed = NaN;
let traitStreams: RoundStreams | undefined;

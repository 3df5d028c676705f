/**
 * Player ids and the fixed speaking order: players `p01`, `p02`, ... speak
 * in index order every round (the paper's primary condition fixes the order;
 * index order is the choice made here).
 *
 * @module
 */
import type { Agent } from "../../core/agent.ts";

/**
 * The ids of N players, in speaking order.
 *
 * @example
 * ```ts
 * import { playerIds } from "./players.ts";
 * if (playerIds(3).join() !== "p01,p02,p03") throw new Error();
 * ```
 * @throws {RangeError} When N is not an integer >= 1.
 */
export function playerIds(N: number): string[] {
  if (!Number.isSafeInteger(N) || N < 1) {
    throw new RangeError(`Number of players must be an integer >= 1, got ${N}`);
  }
  // Every episode of a game asks for the same ids: the last list is kept.
  if (N !== lastIds.length) {
    const width = Math.max(2, String(N).length);
    lastIds = Array.from({ length: N }, (_, i) => `p${String(i + 1).padStart(width, "0")}`);
  }
  return lastIds.slice();
}

let lastIds: string[] = [];

/** What a Stag Hunt agent factory is told about the player it builds. */
export interface StagHuntPlayer {
  /** Player id, e.g. `"p01"`. */
  id: string;
  /** Role (`"player"`). */
  role: string;
  /** Index in the speaking order, from 0. */
  index: number;
  /** The model assigned by the heterogeneity policy, when one is configured. */
  model?: string;
}

/**
 * Builds the agent of one player. It is never told whether the player is
 * corrupted; the model assignment (h3) is the only thing that may depend on it.
 */
export type StagHuntAgentFactory = (player: StagHuntPlayer) => Agent;

/**
 * The speaking index (from 0) read off a player id.
 *
 * @example
 * ```ts
 * import { playerIndex } from "./players.ts";
 * if (playerIndex("p03") !== 2) throw new Error();
 * ```
 * @throws {RangeError} For an id without a number.
 */
export function playerIndex(id: string): number {
  // The digits at its end (what /(\d+)$/ finds), read without a regular expression.
  let start = id.length;
  while (start > 0) {
    const c = id.charCodeAt(start - 1);
    if (c < 48 || c > 57) break;
    start--;
  }
  if (start === id.length) throw new RangeError(`Player id "${id}" does not end in a number`);
  return Number(id.slice(start)) - 1;
}

/**
 * Every game this build provides, across families: the FRAIL environments
 * (listed in `frail/registry.ts`) and the Stag Hunt. Analysis reads display
 * labels, roles and condition keys from here.
 *
 * @module
 */
import type { GameDescriptor } from "../core/game.ts";
import { FRAIL_GAMES } from "../frail/registry.ts";
import { stagHuntGame } from "./staghunt/descriptor.ts";

/**
 * All game descriptors: the FRAIL environments in the paper's order, then the Stag Hunt.
 *
 * @example
 * ```ts
 * import { GAMES } from "./registry.ts";
 * if (GAMES.map((g) => g.id).join() !== "bank_run,debt_rollover,crowdfunding,staghunt") throw new Error();
 * ```
 */
export const GAMES: readonly GameDescriptor[] = [
  ...FRAIL_GAMES,
  stagHuntGame,
] as unknown as readonly GameDescriptor[];

/**
 * The descriptor of a game by id.
 *
 * @example
 * ```ts
 * import { gameDescriptor } from "./registry.ts";
 * if (gameDescriptor("staghunt").roles.central !== null) throw new Error();
 * ```
 * @throws {RangeError} For an unknown id, listing the known ones.
 */
export function gameDescriptor(id: string): GameDescriptor {
  const game = GAMES.find((g) => g.id === id);
  if (!game) {
    throw new RangeError(
      `Unknown game "${id}": this build provides ${GAMES.map((g) => `"${g.id}"`).join(", ")}`,
    );
  }
  return game;
}

/**
 * The families whose games have a grid block of their own (the FRAIL block:
 * `envs` x `mechanisms` x `regimes` x `params`; the Stag Hunt block: its
 * parameter lists and paper conditions), by family id, and how a block is
 * told apart from the generic block of every other registered game
 * (`_game_block.ts`). `cells.ts` and `spec.ts` dispatch through this record
 * instead of comparing ids.
 *
 * @module
 */
import type { GameBlock } from "./_game_block.ts";
import * as frailBlock from "./_frail_block.ts";
import * as stagHuntBlock from "./_staghunt_block.ts";
import type { GridCell } from "./cell.ts";

/** A cell as a block expands it, before its block index and episode count. */
export type CellDraft = Omit<GridCell, "block" | "episodes">;

/** What a family's own block provides the grid. */
export interface FamilyBlock {
  /** The block's cells, in order. */
  // deno-lint-ignore no-explicit-any
  expand(block: any, b: number): CellDraft[];
  /** How many cells it expands to, without expanding it. */
  // deno-lint-ignore no-explicit-any
  count(block: any, b: number): number;
  /** The part of a cell's condition its seeds depend on (`paired`: seeds shared across agents). */
  // deno-lint-ignore no-explicit-any
  seedCondition(condition: any, paired: boolean): unknown;
}

/**
 * The family blocks, by family id (the `game` of a block).
 *
 * @example
 * ```ts
 * import { FAMILY_BLOCKS } from "./_family_blocks.ts";
 * if (Object.keys(FAMILY_BLOCKS).join() !== "frail,staghunt") throw new Error();
 * ```
 */
export const FAMILY_BLOCKS: Readonly<Record<string, FamilyBlock>> = Object.freeze({
  frail: frailBlock,
  staghunt: stagHuntBlock,
});

/** The id of a branch block (`branch_block.ts`): a block of no game. */
const BRANCH = "branch";

/**
 * Whether a block is the generic block of a registered game: neither a
 * family's own block nor a branch block.
 *
 * @example
 * ```ts
 * import { isGameBlock } from "./_family_blocks.ts";
 * if (isGameBlock({ game: "frail" }) || !isGameBlock({ game: "coin" })) throw new Error();
 * ```
 */
export function isGameBlock(block: { game: string }): block is GameBlock {
  return block.game !== BRANCH && !Object.hasOwn(FAMILY_BLOCKS, block.game);
}

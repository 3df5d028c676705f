/**
 * What a grid plays, as plain data: its cells (`GridCell`), its episodes
 * (`GridEpisode`) and their conditions. The types alone, below everything
 * that expands (`cells.ts`, `branch_block.ts`) or plays (`runners.ts`) them.
 *
 * @module
 */
import type { FrailCondition } from "./_frail_block.ts";
import type { StagHuntCondition } from "./_staghunt_block.ts";
import type { GameCondition } from "./_game_block.ts";
import type { AgentsSpec } from "./_agents_spec.ts";

export type { FrailCondition, StagHuntCondition };

/** What a branch cell plays (see `branch_block.ts`); an episode names its `parent`. */
export interface BranchCondition {
  /** `"branch"`. */
  game: "branch";
  /** The parent run folder, resolved. */
  from: string;
  /** The parents' game family (`episode_start.game`). */
  parentGame: string;
  /** The parents' game (`"mixed"` when they differ). */
  env: string;
  /** The branch round. */
  atRound: number;
  /** The change (`BranchChange`). */
  change: Record<string, unknown>;
  /** The parent episode (set on episodes, not on cells). */
  parent?: string;
}

/** A cell's condition. */
export type CellCondition = FrailCondition | StagHuntCondition | BranchCondition | GameCondition;

/** One cell: a condition and an agents entry, played `episodes` times. */
export interface GridCell {
  /** Cell id (episode ids add `_e<k>`). */
  id: string;
  /** Index of its block in the spec. */
  block: number;
  /** What is played. */
  condition: CellCondition;
  /** Who plays. */
  agents: AgentsSpec;
  /** Episodes of the cell. */
  episodes: number;
  /** A branch cell's parent episodes (its k-th episode branches the k-th). */
  parents?: BranchParent[];
}

/** One episode of a grid: everything needed to play it, as plain data. */
export interface GridEpisode {
  /** Episode id: the log is `<run folder>/<id>.ndjson`. */
  id: string;
  /** Position in the grid's order, from 0. */
  index: number;
  /** Run id (the spec's name). */
  run: string;
  /** Id of its cell. */
  cell: string;
  /** Replicate number within the cell, from 0. */
  replicate: number;
  /** Episode seed. */
  seed: number;
  /** What is played. */
  condition: CellCondition;
  /** Who plays. */
  agents: AgentsSpec;
}

/** One parent episode of a branch block. */
export interface BranchParent {
  /** Episode id. */
  episode: string;
  /** Its seed. */
  seed: number;
  /** Its game family (`episode_start.game`, e.g. `"frail"`). */
  game: string;
  /** Its game (`env`). */
  env: string;
  /** Its condition id. */
  conditionId: string;
}

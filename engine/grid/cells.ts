/**
 * Cell expansion: a spec becomes a flat, deterministically ordered list of
 * cells and of episodes, each episode with its seed and its id (the log's
 * file name without `.ndjson`).
 *
 * Order: cells in block order, and within a block in the nested order of its
 * factors (FRAIL: env, mechanism, regime, params, agents; Stag Hunt:
 * payoffs, N, M, T, F, corruption, heterogeneity, agents; the paper's grid in
 * its own order, then agents). Episodes are replicate-major: replicate 0 of every cell, then
 * replicate 1, ..., so a run that stops part-way has covered every cell
 * about equally.
 *
 * Ids: FRAIL `bank_run_M0_stable[_<set>]_<agents>_e<k>`; Stag Hunt
 * `staghunt_N5_M3_T4_F2_base_h1[_pay<RS>-<HS>-<RF>-<HF>]_<agents>_e<k>`,
 * where `<agents>` is the entry's label (see `agentsLabel`) and `<set>` the
 * override set's name, or `p` and the short hash of its overrides. Two cells
 * with the same id are refused with a `RangeError`. Each family's block
 * (schema, cells and count) is its own module: `_frail_block.ts`,
 * `_staghunt_block.ts`.
 *
 * @module
 */
import { agentsLabel } from "./labels.ts";
import { branchCells, branchParents } from "./branch_block.ts";
import { branchLabel } from "../branch_episode.ts";
import { episodeSeed } from "./seeds.ts";
import type { GridSpec } from "./spec.ts";
import { gameBlockCells } from "./_game_block.ts";
import { type CellDraft, FAMILY_BLOCKS, isGameBlock } from "./_family_blocks.ts";
import type {
  BranchCondition,
  CellCondition,
  FrailCondition,
  GridCell,
  GridEpisode,
  StagHuntCondition,
} from "./cell.ts";

export type {
  BranchCondition,
  CellCondition,
  FrailCondition,
  GridCell,
  GridEpisode,
  StagHuntCondition,
};

/**
 * The id of the game a cell's condition plays (its descriptor's, see
 * `gameDescriptor`): its `env` in a family of several games (FRAIL), else
 * its `game`. The condition itself holds the fields the game's `setup` takes.
 *
 * @example
 * ```ts
 * import { cellGameId } from "./cells.ts";
 * if (cellGameId({ game: "frail", env: "crowdfunding", mechanism: "M0", regime: "stable", params: {} }) !== "crowdfunding") {
 *   throw new Error();
 * }
 * ```
 */
export function cellGameId(condition: CellCondition): string {
  const { env, game } = condition as { env?: unknown; game: string };
  return typeof env === "string" ? env : game;
}

/** What {@linkcode expandGrid} returns. */
export interface ExpandedGrid {
  /** Cells in order. */
  cells: GridCell[];
  /** Episodes in order. */
  episodes: GridEpisode[];
}

/**
 * Expands a validated spec into cells and episodes.
 *
 * @example
 * ```ts
 * import { expandGrid } from "./cells.ts";
 * import { parseGridSpec } from "./spec.ts";
 * const spec = parseGridSpec({ name: "demo", episodes: 2, blocks: [
 *   { game: "frail", envs: ["bank_run"], mechanisms: ["M0", "M3"] },
 * ] });
 * const { cells, episodes } = expandGrid(spec);
 * if (cells.length !== 2 || episodes.length !== 4) throw new Error();
 * if (episodes[1].id !== "bank_run_M3_stable_mock_e0") throw new Error(episodes[1].id);
 * ```
 * @throws {RangeError} For Stag Hunt factors out of range (naming the field) and for two cells with one id.
 */
export function expandGrid(spec: GridSpec): ExpandedGrid {
  const cells = expandCells(spec);
  return { cells, episodes: [...gridEpisodes(spec, cells)] };
}

/**
 * The cells of a validated spec, in order, each with its episode count.
 *
 * @example
 * ```ts
 * import { expandCells } from "./cells.ts";
 * import { parseGridSpec } from "./spec.ts";
 * const cells = expandCells(parseGridSpec({ episodes: 2, blocks: [{ game: "frail", envs: ["bank_run"] }] }));
 * if (cells.length !== 4 || cells[3].id !== "bank_run_M3_stable_mock") throw new Error();
 * ```
 * @throws {RangeError} For Stag Hunt factors out of range (naming the field) and for two cells with one id.
 */
export function expandCells(spec: GridSpec): GridCell[] {
  const cells: GridCell[] = [];
  spec.blocks.forEach((block, b) => {
    if (isGameBlock(block)) {
      const episodes = block.episodes ?? spec.episodes;
      for (const c of gameBlockCells(block, b, (a) => agentsLabel(a))) {
        cells.push({ ...c, block: b, episodes });
      }
      return;
    }
    if (block.game === "branch") {
      for (const c of branchCells(block, b)) {
        cells.push({ ...c, block: b, episodes: c.parents.length });
      }
      return;
    }
    const episodes = block.episodes ?? spec.episodes;
    const out: CellDraft[] = FAMILY_BLOCKS[block.game].expand(block, b);
    for (const c of out) cells.push({ ...c, block: b, episodes });
  });
  const seen = new Map<string, GridCell>();
  for (const c of cells) {
    const prior = seen.get(c.id);
    if (prior) {
      throw new RangeError(
        `Invalid grid spec "blocks.${c.block}": cell "${c.id}" also comes from blocks.${prior.block}; ` +
          `remove the repeat, or give the agents entries distinct "label"s`,
      );
    }
    seen.set(c.id, c);
  }
  return cells;
}

/**
 * The episodes of a spec's cells, in grid order (replicate-major), one at a
 * time: a long grid is never held in memory whole.
 *
 * @example
 * ```ts
 * import { expandCells, gridEpisodes } from "./cells.ts";
 * import { parseGridSpec } from "./spec.ts";
 * const spec = parseGridSpec({ episodes: 2, blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0"] }] });
 * const ids = [...gridEpisodes(spec, expandCells(spec))].map((e) => e.id);
 * if (ids.join() !== "bank_run_M0_stable_mock_e0,bank_run_M0_stable_mock_e1") throw new Error();
 * ```
 */
export function* gridEpisodes(
  spec: GridSpec,
  cells: readonly GridCell[],
): Generator<GridEpisode> {
  const most = cells.reduce((m, c) => Math.max(m, c.episodes), 0);
  const keys = cells.map((c) => seedKey(c, spec.pairSeeds));
  let index = 0;
  for (let k = 0; k < most; k++) {
    for (let i = 0; i < cells.length; i++) {
      const c = cells[i];
      if (k >= c.episodes) continue;
      if (c.parents !== undefined) {
        // A branch: the k-th parent's episode, with its seed.
        const p = c.parents[k];
        const many = spec.blocks[c.block].agents.length > 1;
        const condition = c.condition as BranchCondition;
        yield {
          id: `${p.episode}_b${condition.atRound}_${branchLabel(condition.change)}${
            many ? `_${agentsLabel(c.agents)}` : ""
          }`,
          index: index++,
          run: spec.name,
          cell: c.id,
          replicate: k,
          seed: p.seed,
          condition: { ...condition, parent: p.episode },
          agents: c.agents,
        };
        continue;
      }
      yield {
        id: `${c.id}_e${k}`,
        index: index++,
        run: spec.name,
        cell: c.id,
        replicate: k,
        seed: episodeSeed(keys[i], { base: spec.seed, replicate: k }),
        condition: c.condition,
        agents: c.agents,
      };
    }
  }
}

/**
 * The number of episodes a validated spec expands to, counted from its
 * factors without expanding it (a spec that repeats a cell or sets a Stag
 * Hunt factor out of range is counted as written; expanding it then fails).
 *
 * @example
 * ```ts
 * import { countGridEpisodes } from "./cells.ts";
 * import { parseGridSpec } from "./spec.ts";
 * const spec = parseGridSpec({ episodes: 1_000_000, blocks: [
 *   { game: "frail", envs: ["bank_run", "debt_rollover", "crowdfunding"], regimes: ["expansion", "stable", "contraction"] },
 * ] });
 * if (countGridEpisodes(spec) !== 36_000_000) throw new Error();
 * ```
 */
export function countGridEpisodes(spec: GridSpec): number {
  let total = 0;
  spec.blocks.forEach((block, b) => {
    if (isGameBlock(block)) {
      total += (block.episodes ?? spec.episodes) * block.conditions.length * block.agents.length;
      return;
    }
    if (block.game === "branch") {
      total += branchParents(block, b).length * block.rounds.length * block.changes.length *
        block.agents.length;
      return;
    }
    const episodes = block.episodes ?? spec.episodes;
    total += episodes * FAMILY_BLOCKS[block.game].count(block, b);
  });
  return total;
}

/**
 * What a cell's seeds depend on: its condition, and its agents unless seeds
 * are paired. An override set's name is a label: naming a set leaves its
 * draws as they were.
 */
function seedKey(c: GridCell, paired: boolean): unknown {
  const family = FAMILY_BLOCKS[c.condition.game];
  const condition = family === undefined ? c.condition : family.seedCondition(c.condition, paired);
  if (paired) return condition;
  const { label: _label, ...agents } = c.agents;
  return { condition, agents };
}

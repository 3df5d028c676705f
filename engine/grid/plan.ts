/**
 * Planning a grid: validate the spec, count its episodes (refusing more
 * than a limit, default 1,000,000, before anything is expanded), expand it,
 * check every cell can run in this build, and select a shard. A dry run
 * streams the plan ({@linkcode streamPlan}: cells are held, episodes are
 * generated one at a time) and prints it (`formatPlan`, in `plan_text.ts`)
 * with the estimate of `estimateUsage`.
 *
 * @module
 */
import {
  countGridEpisodes,
  expandCells,
  expandGrid,
  type GridCell,
  type GridEpisode,
  gridEpisodes,
} from "./cells.ts";
import { episodeRunner } from "./runners.ts";
import { parseShard, type Shard, shardOf } from "./shard.ts";
import { type GridSpec, modelsOf, parseGridSpec, specHash } from "./spec.ts";
import { formatInt as int } from "../core/progress.ts";

/**
 * The default most episodes a grid may have.
 *
 * @example
 * ```ts
 * import { MAX_EPISODES } from "./plan.ts";
 * if (MAX_EPISODES !== 1_000_000) throw new Error();
 * ```
 */
export const MAX_EPISODES = 1_000_000;

/** Options of {@linkcode planGrid}. */
export interface PlanGridOptions {
  /** Shard to select, as `{ index, count }` or `"i/n"`. Default: the whole grid. */
  shard?: Shard | string;
  /** Refuse a grid of more episodes than this (the whole grid, before sharding). Default {@linkcode MAX_EPISODES}. */
  maxEpisodes?: number;
  /**
   * Also check that each cell's mock agents can be built (the options its
   * game refuses are refused before any episode starts). Default `true`; a
   * plan of a recorded spec (the loader's) leaves it out: a manifest records
   * a belief-rule object by its id only, which plans but cannot be played.
   */
  checkAgents?: boolean;
}

/** A validated, expanded grid. */
export interface GridPlan {
  /** The validated spec, defaults filled. */
  spec: GridSpec;
  /** Its hash. */
  hash: string;
  /** The shard, or `null` for the whole grid. */
  shard: Shard | null;
  /** Every cell of the grid, with `episodes` counting the shard's episodes of it. */
  cells: GridCell[];
  /** The shard's episodes, in grid order. */
  episodes: GridEpisode[];
  /** Episodes of the whole grid. */
  total: number;
  /** Whether any of the shard's episodes names LLM agents. */
  llm: boolean;
}

/**
 * Validates and expands a spec, and selects a shard.
 *
 * @example
 * ```ts
 * import { planGrid } from "./plan.ts";
 * const spec = { name: "demo", episodes: 3, blocks: [{ game: "frail", envs: ["bank_run"] }] };
 * const plan = planGrid(spec, { shard: "1/2" });
 * if (plan.total !== 12 || plan.episodes.length !== 6 || plan.llm) throw new Error();
 * ```
 * @throws {RangeError} Naming the field, for a bad spec, a cell this build cannot run, or a bad shard.
 */
export function planGrid(spec: unknown, options: PlanGridOptions = {}): GridPlan {
  const parsed = parseGridSpec(spec);
  checkEpisodeCount(parsed, options.maxEpisodes);
  const { cells, episodes } = expandGrid(parsed);
  checkCells(cells, options.checkAgents ?? true);
  const shard = shardOption(options.shard);
  const mine = shard ? shardOf(episodes, { seed: parsed.seed, shard }) : episodes;
  const counts = new Map<string, number>();
  for (const e of mine) counts.set(e.cell, (counts.get(e.cell) ?? 0) + 1);
  return {
    spec: parsed,
    hash: specHash(parsed),
    shard: shard ?? null,
    cells: cells.map((c) => ({ ...c, episodes: counts.get(c.id) ?? 0 })),
    episodes: mine,
    total: episodes.length,
    llm: mine.some((e) => modelsOf(e.agents).length > 0),
  };
}

/**
 * Refuses a spec of more episodes than `max` (default {@linkcode MAX_EPISODES}),
 * counting them without expanding the spec; returns the count.
 *
 * @example
 * ```ts
 * import { checkEpisodeCount } from "./plan.ts";
 * import { parseGridSpec } from "./spec.ts";
 * const spec = parseGridSpec({ name: "big", episodes: 1_000_000, blocks: [{ game: "frail", envs: ["bank_run"] }] });
 * try {
 *   checkEpisodeCount(spec);
 *   throw new Error("should fail");
 * } catch (e) {
 *   if (!(e instanceof RangeError) || !e.message.startsWith('Grid "big" has 4,000,000 episodes')) throw e;
 * }
 * if (checkEpisodeCount(spec, 4_000_000) !== 4_000_000) throw new Error();
 * ```
 * @throws {RangeError} Naming the count and the limit.
 */
export function checkEpisodeCount(spec: GridSpec, max: number = MAX_EPISODES): number {
  if (!Number.isSafeInteger(max) || max < 1) {
    throw new RangeError(`Grid option "maxEpisodes" must be an integer >= 1, got ${max}`);
  }
  const count = countGridEpisodes(spec);
  if (count > max) {
    throw new RangeError(
      `Grid "${spec.name}" has ${int(count)} episodes, more than the limit of ${int(max)}: ` +
        `split it into several specs, or raise the limit (maxEpisodes, --max-episodes)`,
    );
  }
  return count;
}

/** Checks that every cell can run in this build (once per condition and kind of agents). */
function checkCells(cells: readonly GridCell[], agents: boolean): void {
  const checked = new Set<string>();
  for (const cell of cells) {
    const key = JSON.stringify([cell.condition, cell.agents.kind]);
    if (checked.has(key)) continue;
    checked.add(key);
    try {
      episodeRunner(cell.condition).check(cell, { agents });
    } catch (err) {
      throw new RangeError(
        `Invalid grid spec "blocks.${cell.block}": cell "${cell.id}" cannot run: ${
          (err as Error).message
        }`,
      );
    }
  }
}

function shardOption(shard: Shard | string | undefined): Shard | null {
  return shard === undefined ? null : typeof shard === "string" ? parseShard(shard) : shard;
}

/** A plan whose episodes are generated on each iteration instead of held (see {@linkcode streamPlan}). */
export interface StreamedPlan extends Omit<GridPlan, "episodes"> {
  /** The shard's episodes, in grid order, generated anew on each iteration. */
  episodes: Iterable<GridEpisode>;
  /** Number of the shard's episodes. */
  count: number;
}

/**
 * Like {@linkcode planGrid}, but holds only the cells (and, for a shard, one
 * bit per episode of the grid): the episodes are generated when iterated, so
 * a dry run of a large grid runs in bounded memory.
 *
 * @example
 * ```ts
 * import { planGrid, streamPlan } from "./plan.ts";
 * const spec = { name: "demo", episodes: 3, blocks: [{ game: "frail", envs: ["bank_run"] }] };
 * const streamed = streamPlan(spec, { shard: "1/2" });
 * const ids = [...streamed.episodes].map((e) => e.id);
 * if (streamed.count !== 6 || ids.join() !== planGrid(spec, { shard: "1/2" }).episodes.map((e) => e.id).join()) {
 *   throw new Error();
 * }
 * ```
 * @throws {RangeError} As {@linkcode planGrid}.
 */
export function streamPlan(spec: unknown, options: PlanGridOptions = {}): StreamedPlan {
  const parsed = parseGridSpec(spec);
  const total = checkEpisodeCount(parsed, options.maxEpisodes);
  const cells = expandCells(parsed);
  checkCells(cells, options.checkAgents ?? true);
  const shard = shardOption(options.shard);
  let member: Uint8Array | null = null;
  if (shard) {
    member = new Uint8Array(total);
    const all = Array.from({ length: total }, (_, i) => i);
    for (const i of shardOf(all, { seed: parsed.seed, shard })) member[i] = 1;
  }
  const episodes: Iterable<GridEpisode> = {
    *[Symbol.iterator]() {
      for (const e of gridEpisodes(parsed, cells)) if (member === null || member[e.index]) yield e;
    },
  };
  const counts = new Map<string, number>();
  let count = 0;
  for (const e of episodes) {
    counts.set(e.cell, (counts.get(e.cell) ?? 0) + 1);
    count++;
  }
  return {
    spec: parsed,
    hash: specHash(parsed),
    shard,
    cells: cells.map((c) => ({ ...c, episodes: counts.get(c.id) ?? 0 })),
    episodes,
    count,
    total,
    llm: cells.some((c) => (counts.get(c.id) ?? 0) > 0 && modelsOf(c.agents).length > 0),
  };
}

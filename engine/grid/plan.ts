/**
 * Planning a grid: validate the spec, count its episodes (refusing more
 * than a limit, default 1,000,000, before anything is expanded), expand it,
 * check every cell can run in this build, and select a shard. A dry run
 * streams the plan ({@linkcode streamPlan}: cells are held, episodes are
 * generated one at a time) and prints it with the estimate of
 * `estimateUsage`.
 *
 * @module
 */
import { formatTable, wrap } from "../cli/format_table.ts";
import {
  countGridEpisodes,
  expandCells,
  expandGrid,
  type GridCell,
  type GridEpisode,
  gridEpisodes,
} from "./cells.ts";
import { formatEstimate, type UsageEstimate } from "./estimate.ts";
import { episodeRunner } from "./runners.ts";
import { parseShard, type Shard, shardOf } from "./shard.ts";
import { type GridSpec, modelsOf, parseGridSpec, specHash } from "./spec.ts";

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
  checkCells(cells);
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
function checkCells(cells: readonly GridCell[]): void {
  const checked = new Set<string>();
  for (const cell of cells) {
    const key = JSON.stringify([cell.condition, cell.agents.kind]);
    if (checked.has(key)) continue;
    checked.add(key);
    try {
      episodeRunner(cell.condition).check(cell);
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
  checkCells(cells);
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

/** Options of {@linkcode formatPlan}. */
export interface FormatPlanOptions {
  /** Usage estimate to show (calls per episode, and by model calls, tokens and cost). Default none. */
  usage?: UsageEstimate;
  /** List every episode with its seed. Default `true`. */
  episodes?: boolean;
  /**
   * Show the table of cells: `true`, `false`, or `"auto"` (only when it has
   * at most {@linkcode CELLS_SHOWN} rows, else one line of calls per episode
   * saying `--list` shows them). Default `true`.
   */
  cells?: boolean | "auto";
  /** The models file named in the hint on adding a price. */
  modelsFile?: string;
}

/**
 * The most cells `formatPlan` shows as a table with `cells: "auto"` (so a
 * dry run fits on one screen).
 *
 * @example
 * ```ts
 * import { CELLS_SHOWN } from "./plan.ts";
 * if (CELLS_SHOWN !== 12) throw new Error();
 * ```
 */
export const CELLS_SHOWN = 12;

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const mean = (n: number) => Number.isInteger(n) ? String(n) : n.toFixed(1);

/**
 * The plan as text: a summary line, a table of cells, the estimate by
 * model (with `usage`), and the list of episodes.
 *
 * @example
 * ```ts
 * import { formatPlan, planGrid } from "./plan.ts";
 * const text = formatPlan(planGrid({ name: "demo", episodes: 1, blocks: [
 *   { game: "frail", envs: ["bank_run"], mechanisms: ["M0"] }] }));
 * if (!text.startsWith('Grid "demo": 1 cell, 1 episode')) throw new Error(text);
 * if (!text.includes("bank_run_M0_stable_mock_e0")) throw new Error(text);
 * ```
 */
export function formatPlan(plan: GridPlan | StreamedPlan, options: FormatPlanOptions = {}): string {
  const count = "count" in plan ? plan.count : plan.episodes.length;
  const usage = options.usage;
  const s = (n: number, word: string) => `${int(n)} ${word}${n === 1 ? "" : "s"}`;
  const lines: string[] = [];
  const shown = plan.cells.filter((c) => c.episodes > 0);
  let head = `Grid "${plan.spec.name}": ${s(plan.cells.length, "cell")}, ${
    s(plan.total, "episode")
  }, base seed ${plan.spec.seed}, spec ${plan.hash.slice(0, 12)}`;
  if (plan.shard) {
    head += `; shard ${plan.shard.index}/${plan.shard.count}: ${s(count, "episode")} of ${
      s(shown.length, "cell")
    }`;
  }
  lines.push(head, "");
  const table = options.cells ?? true;
  if (table === true || (table === "auto" && shown.length <= CELLS_SHOWN)) {
    const header = ["cell", "game", "agents", "episodes"];
    if (usage) header.push("calls per episode (mean)");
    const rows = shown.map((c) => {
      const models = modelsOf(c.agents);
      const row = [
        c.id,
        c.condition.game,
        models.length ? models.join(",") : "mock",
        String(c.episodes),
      ];
      if (usage) {
        const n = usage.callsPerEpisode[c.id];
        row.push(n === undefined ? "" : mean(n));
      }
      return row;
    });
    lines.push(formatTable(header, rows));
  } else if (usage) {
    const per = shown.map((c) => [c.id, usage.callsPerEpisode[c.id]] as const)
      .filter(([, n]) => n !== undefined);
    const low = per.reduce((a, b) => b[1] < a[1] ? b : a);
    const high = per.reduce((a, b) => b[1] > a[1] ? b : a);
    lines.push(
      ...wrap(
        `Agent calls per episode (mean over a cell's episodes): ${mean(low[1])} (${low[0]}) ` +
          `to ${mean(high[1])} (${high[0]}); ${mean(usage.calls / usage.episodes)} over all ` +
          `${int(usage.episodes)} episodes.`,
      ),
      "Add --list to see every cell and every episode's seed.",
    );
  } else {
    lines.push(`${s(shown.length, "cell")}: add --list to see each and every episode's seed.`);
  }
  if (usage) {
    lines.push(
      "",
      ...wrap(
        usage.llmEpisodes === 0
          ? `Agent calls: ${int(usage.calls)} (rule-based agents only: no LLM calls).`
          : `Agent calls: ${int(usage.calls)} (played with rule-based stand-ins), ` +
            `of which LLM calls: ${int(usage.llmCalls)} in ${s(usage.llmEpisodes, "episode")}.`,
      ),
    );
    if (usage.llmEpisodes > 0) {
      lines.push("", ...formatEstimate(usage, { modelsFile: options.modelsFile }));
    }
  }
  if (options.episodes ?? true) {
    lines.push("", "episode  seed");
    for (const e of plan.episodes) lines.push(formatEpisodeLine(e));
  }
  return lines.join("\n");
}

/**
 * One line of a plan's episode list: the id and the seed.
 *
 * @example
 * ```ts
 * import { formatEpisodeLine } from "./plan.ts";
 * if (formatEpisodeLine({ id: "ep_e0", seed: 7 } as never) !== "ep_e0  7") throw new Error();
 * ```
 */
export function formatEpisodeLine(episode: GridEpisode): string {
  return `${episode.id}  ${episode.seed}`;
}

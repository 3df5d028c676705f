/**
 * Planning a grid: validate the spec, expand it, check every cell can run in
 * this build, and select a shard. A dry run prints the plan with the
 * estimate of `estimateUsage`.
 *
 * @module
 */
import { formatTable } from "../cli/format_table.ts";
import { expandGrid, type GridCell, type GridEpisode } from "./cells.ts";
import { formatCost } from "../core/progress.ts";
import type { UsageEstimate } from "./estimate.ts";
import { episodeRunner } from "./runners.ts";
import { parseShard, type Shard, shardOf } from "./shard.ts";
import { type GridSpec, modelsOf, parseGridSpec, specHash } from "./spec.ts";

/** Options of {@linkcode planGrid}. */
export interface PlanGridOptions {
  /** Shard to select, as `{ index, count }` or `"i/n"`. Default: the whole grid. */
  shard?: Shard | string;
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
  const { cells, episodes } = expandGrid(parsed);
  const checked = new Set<string>();
  for (const cell of cells) {
    const key = JSON.stringify([cell.condition, cell.agents.kind]);
    if (checked.has(key)) continue;
    checked.add(key);
    try {
      episodeRunner(cell.condition.game).check(cell);
    } catch (err) {
      throw new RangeError(
        `Invalid grid spec "blocks.${cell.block}": cell "${cell.id}" cannot run: ${
          (err as Error).message
        }`,
      );
    }
  }
  const shard = options.shard === undefined
    ? null
    : typeof options.shard === "string"
    ? parseShard(options.shard)
    : options.shard;
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

/** Options of {@linkcode formatPlan}. */
export interface FormatPlanOptions {
  /** Usage estimate to show (calls per episode, LLM calls, tokens, cost). Default none. */
  usage?: UsageEstimate;
  /** List every episode with its seed. Default `true`. */
  episodes?: boolean;
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");

/**
 * The plan as text: a summary line, a table of cells and the list of episodes.
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
export function formatPlan(plan: GridPlan, options: FormatPlanOptions = {}): string {
  const usage = options.usage;
  const s = (n: number, word: string) => `${int(n)} ${word}${n === 1 ? "" : "s"}`;
  const lines: string[] = [];
  const shown = plan.cells.filter((c) => c.episodes > 0);
  let head = `Grid "${plan.spec.name}": ${s(plan.cells.length, "cell")}, ${
    s(plan.total, "episode")
  }, base seed ${plan.spec.seed}, spec ${plan.hash.slice(0, 12)}`;
  if (plan.shard) {
    head += `; shard ${plan.shard.index}/${plan.shard.count}: ${
      s(plan.episodes.length, "episode")
    } of ${s(shown.length, "cell")}`;
  }
  lines.push(head, "");
  const header = ["cell", "game", "agents", "episodes"];
  if (usage) header.push("calls/episode");
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
      row.push(n === undefined ? "" : Number.isInteger(n) ? String(n) : n.toFixed(1));
    }
    return row;
  });
  lines.push(formatTable(header, rows));
  if (usage) {
    lines.push("", `Estimated agent calls: ${int(usage.calls)}`);
    if (usage.llmEpisodes > 0) {
      const perCall = int(usage.llmCalls ? usage.tokensOut / usage.llmCalls : 0);
      const caps = usage.maxTokensOut === null ? "" : `; ${int(usage.maxTokensOut)} at the caps`;
      lines.push(
        `LLM: ${s(usage.llmEpisodes, "episode")}, ${s(usage.llmCalls, "call")}, ` +
          `${int(usage.tokensIn)} prompt tokens, ~${int(usage.tokensOut)} completion tokens ` +
          `(assuming ${perCall} per call${caps})`,
      );
      if (usage.cost !== null) {
        lines.push(
          `Estimated cost ${formatCost(usage.cost)} (prompts alone ${
            formatCost(usage.minCost!)
          }, ` +
            `every completion at its cap ${formatCost(usage.maxCost!)})` +
            (usage.unpriced.length ? `; no price for ${usage.unpriced.join(", ")}` : ""),
        );
      }
    }
  }
  if (options.episodes ?? true) {
    lines.push("", "episode  seed");
    for (const e of plan.episodes) lines.push(`${e.id}  ${e.seed}`);
  }
  return lines.join("\n");
}

/**
 * A grid's plan as text (`formatPlan`): the summary line, the table of
 * cells, the estimate by model of `estimateUsage` and the list of episodes.
 * Apart from `plan.ts` because the estimate streams the plan: the plan
 * itself knows nothing of the estimate.
 *
 * @module
 */
import type { GridEpisode } from "./cells.ts";
import { formatEstimate, type UsageEstimate } from "./estimate.ts";
import { formatTable, wrap } from "./format_table.ts";
import type { GridPlan, StreamedPlan } from "./plan.ts";
import { modelsOf } from "./spec.ts";
import { formatInt as int } from "../core/progress.ts";

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
 * import { CELLS_SHOWN } from "./plan_text.ts";
 * if (CELLS_SHOWN !== 12) throw new Error();
 * ```
 */
export const CELLS_SHOWN = 12;

const mean = (n: number) => Number.isInteger(n) ? String(n) : n.toFixed(1);

/**
 * The plan as text: a summary line, a table of cells, the estimate by
 * model (with `usage`), and the list of episodes.
 *
 * @example
 * ```ts
 * import { planGrid } from "./plan.ts";
 * import { formatPlan } from "./plan_text.ts";
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
 * import { formatEpisodeLine } from "./plan_text.ts";
 * if (formatEpisodeLine({ id: "ep_e0", seed: 7 } as never) !== "ep_e0  7") throw new Error();
 * ```
 */
export function formatEpisodeLine(episode: GridEpisode): string {
  return `${episode.id}  ${episode.seed}`;
}

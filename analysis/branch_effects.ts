/**
 * `branchEffects`: the effect of a branch's change as paired differences
 * (branch minus parent, episode by episode: common random numbers), with
 * paired confidence intervals, beside the unpaired contrast of the same
 * episodes, to show the variance the pairing saves.
 *
 * Choices:
 * - A group is a (parent condition, branch condition, branch round, change)
 *   combination; each branch is paired with its parent, found in the same
 *   frame by `branch_of_run` and `branch_of` (load the parent run with the
 *   branches: `loadRuns([parentDir, branchDir])`). A branch whose parent is
 *   not in the frame is an error naming it.
 * - Pairs where either episode is not `ok` (degraded, error, incomplete) or
 *   the outcome is null are left out and counted (`dropped`).
 * - Intervals are normal-approximation, mean ± z · se (z = 1.96), as
 *   everywhere in the toolkit (`stats.ts`). The paired se is sd(d) / sqrt(n)
 *   of the differences; the unpaired se is sqrt(var(branch) / n +
 *   var(parent) / n), the contrast of independent samples of the same
 *   sizes. `variance_saved` is 1 - (paired se / unpaired se)², NaN when the
 *   unpaired se is 0.
 * - `success` (a boolean) counts as 1 and 0.
 *
 * @module
 */
import pl from "npm:nodejs-polars@0.25.2";
import { meanSe, requireColumns, Z_95 } from "./stats.ts";

/** Options of {@linkcode branchEffects}. */
export interface BranchEffectsOptions {
  /** Outcome columns of the episodes frame. Default `["welfare", "welfare_realization", "success"]`. */
  outcomes?: string[];
  /** Normal quantile of the intervals. Default 1.96. */
  z?: number;
}

interface Row {
  run: string;
  episode: string;
  status: string;
  condition_id: string | null;
  branch_of_run: string | null;
  branch_of: string | null;
  branch_round: number | null;
  branch_change: string | null;
  [column: string]: unknown;
}

/**
 * Paired branch effects, one row per group and outcome: `parent_condition`,
 * `condition_id` (the branch's), `branch_round`, `change` (JSON), `outcome`,
 * `pairs`, `dropped`, `parent_mean`, `branch_mean`, `effect` (mean
 * difference), `paired_se`, `paired_lower`, `paired_upper`, `unpaired_se`,
 * `unpaired_lower`, `unpaired_upper`, `variance_saved`.
 *
 * @param frames The frames of `loadRuns` over a folder holding the parent and branch runs (or
 * their episodes frame).
 * @param options Outcome columns and the normal quantile.
 * @throws {RangeError} When the frame has no branch, a branch's parent is missing, or an
 * outcome column is unknown or not numeric or boolean.
 *
 * @example
 * ```ts
 * import { branchEffects } from "./branch_effects.ts";
 * import { loadRuns } from "./load/load_runs.ts";
 * import { runEpisode } from "../engine/run_episode.ts";
 * import { branchEpisode } from "../engine/branch_episode.ts";
 * const dir = await Deno.makeTempDir();
 * for (const seed of [1, 2, 3]) {
 *   const p = await runEpisode({ env: "bank_run", regime: "contraction", seed, run: "p", outDir: dir });
 *   await branchEpisode(p.events, { atRound: 2, change: { mechanism: "M3" }, agents: {}, run: "b", outDir: dir });
 * }
 * const frames = await loadRuns(dir);
 * const rows = branchEffects(frames, { outcomes: ["welfare"] }).toRecords();
 * if (rows.length !== 1 || rows[0].pairs !== 3 || rows[0].condition_id !== "bank_run_M3_contraction") {
 *   throw new Error(JSON.stringify(rows));
 * }
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function branchEffects(
  frames: { episodes: pl.DataFrame } | pl.DataFrame,
  options: BranchEffectsOptions = {},
): pl.DataFrame {
  const episodes = "episodes" in frames && !("columns" in frames)
    ? frames.episodes
    : frames as pl.DataFrame;
  const outcomes = options.outcomes ?? ["welfare", "welfare_realization", "success"];
  const z = options.z ?? Z_95;
  requireColumns(
    episodes,
    [
      "run",
      "episode",
      "status",
      "condition_id",
      "branch_of_run",
      "branch_of",
      "branch_round",
      "branch_change",
    ],
    "branchEffects()",
  );
  for (const o of outcomes) {
    if (!episodes.columns.includes(o)) {
      throw new RangeError(`branchEffects(): the episodes frame has no column "${o}"`);
    }
    const dtype = String(episodes.getColumn(o).dtype).replace(/^DataType\((.*)\)$/, "$1");
    if (!/^(Float|Int|UInt|Bool)/.test(dtype)) {
      throw new RangeError(`branchEffects(): column "${o}" is ${dtype}, not numeric or boolean`);
    }
  }
  const rows = episodes.toRecords() as unknown as Row[];
  const byId = new Map(rows.map((r) => [`${r.run}\u0000${r.episode}`, r]));
  const groups = new Map<string, { key: [string, string, number, string]; pairs: [Row, Row][] }>();
  for (const b of rows) {
    if (b.branch_of === null || b.branch_of_run === null) continue;
    const parent = byId.get(`${b.branch_of_run}\u0000${b.branch_of}`);
    if (parent === undefined) {
      throw new RangeError(
        `branchEffects(): the parent "${b.branch_of_run}/${b.branch_of}" of branch "${b.run}/${b.episode}" ` +
          `is not in the frame; load the parent run with the branches`,
      );
    }
    const key: [string, string, number, string] = [
      String(parent.condition_id),
      String(b.condition_id),
      Number(b.branch_round),
      String(b.branch_change),
    ];
    const k = JSON.stringify(key);
    const g = groups.get(k) ?? { key, pairs: [] };
    g.pairs.push([parent, b]);
    groups.set(k, g);
  }
  if (groups.size === 0) throw new RangeError("branchEffects(): the frame holds no branch");
  const out: Record<string, unknown>[] = [];
  const sorted = [...groups.values()].sort((x, y) =>
    JSON.stringify(x.key) < JSON.stringify(y.key) ? -1 : 1
  );
  for (const g of sorted) {
    for (const o of outcomes) {
      const p: number[] = [];
      const b: number[] = [];
      let dropped = 0;
      for (const [parent, branch] of g.pairs) {
        const x = value(parent[o]);
        const y = value(branch[o]);
        if (parent.status !== "ok" || branch.status !== "ok" || x === null || y === null) {
          dropped++;
          continue;
        }
        p.push(x);
        b.push(y);
      }
      const d = meanSe(b.map((v, i) => v - p[i]));
      const sp = meanSe(p);
      const sb = meanSe(b);
      const n = d.n;
      const unpaired = n === 0 ? NaN : Math.sqrt((sb.sd ** 2 + sp.sd ** 2) / n);
      out.push({
        parent_condition: g.key[0],
        condition_id: g.key[1],
        branch_round: g.key[2],
        change: g.key[3],
        outcome: o,
        pairs: n,
        dropped,
        parent_mean: sp.mean,
        branch_mean: sb.mean,
        effect: d.mean,
        paired_se: d.se,
        paired_lower: d.mean - z * d.se,
        paired_upper: d.mean + z * d.se,
        unpaired_se: unpaired,
        unpaired_lower: d.mean - z * unpaired,
        unpaired_upper: d.mean + z * unpaired,
        variance_saved: unpaired > 0 ? 1 - (d.se / unpaired) ** 2 : NaN,
      });
    }
  }
  const col = (name: string, dtype: pl.DataType) =>
    pl.Series(name, out.map((r) => r[name] as never), dtype);
  return pl.DataFrame([
    col("parent_condition", pl.Utf8),
    col("condition_id", pl.Utf8),
    col("branch_round", pl.Int32),
    col("change", pl.Utf8),
    col("outcome", pl.Utf8),
    col("pairs", pl.Int32),
    col("dropped", pl.Int32),
    ...[
      "parent_mean",
      "branch_mean",
      "effect",
      "paired_se",
      "paired_lower",
      "paired_upper",
      "unpaired_se",
      "unpaired_lower",
      "unpaired_upper",
      "variance_saved",
    ].map((c) => col(c, pl.Float64)),
  ]);
}

function value(v: unknown): number | null {
  if (typeof v === "boolean") return v ? 1 : 0;
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/**
 * What a grid result shows in a notebook: `runGrid` gives its result a
 * `Symbol.for("Jupyter.display")` method that returns
 * {@linkcode gridSummary}'s table instead of the object's many fields.
 * It holds counts only (no times, paths or host names), so a re-executed
 * notebook does not change.
 *
 * @module
 */
import { fixedText, summaryBundle, type TextHtmlBundle } from "../core/jupyter.ts";
import type { GridResult } from "./run_grid.ts";

/** Most failed episodes a summary names; the rest are counted. */
const LISTED_FAILURES = 5;

/**
 * The summary table of a grid result: its status, the episodes (all,
 * finished earlier, played now, failed, degraded, without a log), the
 * model calls, tokens and estimated cost when there were calls, and the
 * first failed episodes with their errors (escaped in HTML).
 *
 * @param result What `runGrid` returned.
 * @returns The text and HTML bundle.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runGrid } from "./run_grid.ts";
 * import { gridSummary } from "./grid_summary.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const result = await runGrid({
 *   name: "tiny", seed: 1, episodes: 2,
 *   blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0"], agents: [{ mock: {} }] }],
 * }, { out: dir, progress: false, workers: 0 });
 * assert.equal(
 *   gridSummary(result)["text/plain"],
 *   'Grid "tiny"\n  status     complete\n  episodes   2 (0 finished earlier, 2 played now)\n' +
 *     "  failed     0\n  degraded   0\n  remaining  0",
 * );
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function gridSummary(result: GridResult): TextHtmlBundle {
  const status = result.stopped !== null
    ? `stopped: ${result.stopped}`
    : result.interrupted
    ? "interrupted"
    : result.remaining > 0
    ? "incomplete"
    : "complete";
  const rows: [string, string][] = [
    ["status", status],
    [
      "episodes",
      `${result.total} (${result.skipped} finished earlier, ${result.played} played now)`,
    ],
    ["failed", String(result.failed.length)],
    ["degraded", String(result.degraded.length)],
    ["remaining", String(result.remaining)],
  ];
  const { usage } = result;
  if (usage.calls > 0) {
    rows.push(
      [
        "model calls",
        `${usage.calls} (${usage.cacheHits} from cache, ${usage.failedCalls} failed)`,
      ],
      ["tokens", `${usage.tokensIn} in, ${usage.tokensOut} out`],
      [
        "cost",
        `${fixedText(usage.cost, 4)} (estimated` +
        (usage.unpricedCalls > 0 ? `; ${usage.unpricedCalls} calls without a price)` : ")"),
      ],
    );
  }
  for (const failure of result.failed.slice(0, LISTED_FAILURES)) {
    rows.push([`failed ${failure.id}`, failure.error]);
  }
  if (result.failed.length > LISTED_FAILURES) {
    rows.push(["more failures", String(result.failed.length - LISTED_FAILURES)]);
  }
  return summaryBundle(`Grid "${result.run}"`, rows);
}

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
import type { SpendTotals as GridSpendTotals } from "../agents/llm/accounting.ts";
import type { GridResult, GridSpend } from "./grid_result.ts";

/** Most failed episodes a summary names; the rest are counted. */
const LISTED_FAILURES = 5;

/**
 * The summary table of a grid result: its status, the episodes (all,
 * finished earlier, played now, failed, degraded, without a log), the
 * model calls, tokens and estimated cost when there were calls, the run's
 * spend (every session) with its limit and what is left when it has LLM
 * episodes, and the first failed episodes with their errors (escaped in
 * HTML).
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
  const spend = result.spend;
  if (spend !== null && (spend.spent.total.requests > 0 || spend.limit !== null)) {
    rows.push(["spent", spentText(spend.spent.total)], ["limit", limitText(spend)]);
  }
  for (const failure of result.failed.slice(0, LISTED_FAILURES)) {
    rows.push([`failed ${failure.id}`, failure.error]);
  }
  if (result.failed.length > LISTED_FAILURES) {
    rows.push(["more failures", String(result.failed.length - LISTED_FAILURES)]);
  }
  return summaryBundle(`Grid "${result.run}"`, rows);
}

/**
 * A run's billed spend in one line: tokens, cost and requests of every
 * session, and how many were counted at their reservation.
 *
 * @example
 * ```ts
 * import { spentText } from "./grid_summary.ts";
 * const t = { requests: 3, tokensIn: 90, tokensOut: 30, tokensReasoning: 0, tokens: 120,
 *   cost: 0.5, unpriced: 0, unknown: 1 };
 * if (spentText(t) !== "120 tokens, estimated cost 0.5000, 3 requests, every session " +
 *   "(1 of unknown billing counted at their reservation)") throw new Error(spentText(t));
 * ```
 */
export function spentText(t: GridSpendTotals): string {
  const notes = [
    t.unknown ? `${t.unknown} of unknown billing counted at their reservation` : "",
    t.unpriced ? `${t.unpriced} without a price` : "",
  ].filter(Boolean);
  const requests = `${t.requests} request${t.requests === 1 ? "" : "s"}`;
  return `${t.tokens} tokens, estimated cost ${fixedText(t.cost, 4)}, ${requests}, ` +
    `every session` + (notes.length ? ` (${notes.join("; ")})` : "");
}

/**
 * A run's limit and what is left of it, in one line (`"none"` without one).
 *
 * @example
 * ```ts
 * import { limitText } from "./grid_summary.ts";
 * const text = limitText({ limit: { maxCost: 2, maxTokens: 1000 }, remaining: { cost: 0.25, tokens: 40 } });
 * if (text !== "cost 2 (0.2500 left), 1000 tokens (40 left), for the whole run") throw new Error(text);
 * ```
 */
export function limitText(spend: Pick<GridSpend, "limit" | "remaining">): string {
  const { limit, remaining } = spend;
  const parts = [
    limit?.maxCost !== undefined
      ? `cost ${limit.maxCost} (${fixedText(remaining.cost!, 4)} left)`
      : "",
    limit?.maxTokens !== undefined ? `${limit.maxTokens} tokens (${remaining.tokens} left)` : "",
  ].filter(Boolean);
  return parts.length ? `${parts.join(", ")}, for the whole run` : "none";
}

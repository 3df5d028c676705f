/**
 * Progress of an LLM grid as data and as one line of text. The line always
 * says when calls are waiting on a rate limit or a provider slot, or sleeping
 * before a retry, so a slow run never looks stuck.
 *
 * @module
 */
import type { UsageTotals } from "./accounting.ts";
import type { RuntimeStatus } from "./runtime.ts";

/** Where a grid is. */
export interface GridProgress {
  /** Episodes in the grid. */
  total: number;
  /** Episodes finished with status ok (resumed ones included). */
  done: number;
  /** Episodes whose log ends with status error. */
  failed: number;
  /** Episodes running now. */
  running: number;
  /** Episodes taken from an existing complete log (no calls). */
  resumed: number;
  /** Calls, tokens and cost so far. */
  usage: UsageTotals;
  /** What the runtime is doing now. */
  runtime: RuntimeStatus;
  /** Why the grid stopped starting episodes, or `null`. */
  stopped: string | null;
}

function compact(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)}M`;
  if (n >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

/**
 * One line describing a grid's progress.
 *
 * @example
 * ```ts
 * import { formatProgress } from "./progress.ts";
 * import { emptyTotals } from "./accounting.ts";
 * const line = formatProgress({ total: 20, done: 3, failed: 0, running: 4, resumed: 0,
 *   usage: { ...emptyTotals(), calls: 120, cacheHits: 20, billedTokens: 150000 },
 *   runtime: { inFlight: 6, active: 2, queued: 0, rateWaiting: 3, retryWaiting: 1, fatal: null,
 *     lastRetry: { model: "ds", kind: "rate_limit", status: 429, attempt: 1, waitMs: 1200 } },
 *   stopped: null });
 * if (!line.includes("waiting on rate limit: 3") || !line.includes("retrying: 1")) throw new Error(line);
 * ```
 */
export function formatProgress(p: GridProgress): string {
  const parts = [
    `episodes ${p.done}/${p.total} done` + (p.running ? `, ${p.running} running` : "") +
    (p.failed ? `, ${p.failed} failed` : "") +
    (p.resumed ? ` (${p.resumed} resumed from logs)` : ""),
    `calls ${p.usage.calls} (cache ${p.usage.cacheHits})`,
    `billed tokens ${compact(p.usage.billedTokens)}` +
    (p.usage.cost > 0 ? `, est. cost ${p.usage.cost.toFixed(4)}` : ""),
  ];
  const r = p.runtime;
  if (r.active || r.queued) {
    parts.push(`in flight ${r.active}` + (r.queued ? `, waiting for a slot: ${r.queued}` : ""));
  }
  if (r.rateWaiting) parts.push(`waiting on rate limit: ${r.rateWaiting}`);
  if (r.retryWaiting && r.lastRetry) {
    const l = r.lastRetry;
    parts.push(
      `retrying: ${r.retryWaiting} (last: ${l.status ?? l.kind} from "${l.model}", attempt ${
        l.attempt + 1
      } in ${(l.waitMs / 1000).toFixed(1)} s)`,
    );
  } else if (r.retryWaiting) parts.push(`retrying: ${r.retryWaiting}`);
  if (p.usage.failedCalls) parts.push(`failed calls (neutral defaults): ${p.usage.failedCalls}`);
  if (p.stopped) parts.push(`STOPPED: ${p.stopped}`);
  return parts.join(" | ");
}

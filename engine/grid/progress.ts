/**
 * Progress of a grid: one line with done/total, rate, ETA and failures and,
 * for runs with LLM agents, tokens, estimated cost, calls and what the LLM
 * runtime is waiting on (a provider slot, a rate-limit window, a retry), so a
 * slow run never looks stuck; and why the run stopped starting episodes
 * (budget, unusable model). Shown through the toolkit's one progress module
 * (`engine/core/progress.ts`): a bar redrawn in place on a terminal, periodic
 * lines when stderr is not a terminal (batch logs), or a notebook output
 * updated in place in the Deno Jupyter kernel.
 *
 * @module
 */
import type { UsageTotals } from "../agents/llm/accounting.ts";
import type { RuntimeStatus } from "../agents/llm/runtime.ts";
import { jupyterDisplay } from "../core/jupyter.ts";
import {
  formatCost,
  formatCount,
  formatDuration,
  notebookProgress,
  type ProgressFrame,
  type ProgressSink,
  terminalProgress,
  textBar,
} from "../core/progress.ts";

/** Where a grid stands. */
export interface GridProgress {
  /** Run id. */
  run: string;
  /** Episodes of the run folder (its shard). */
  total: number;
  /** Episodes already finished when this session started. */
  skipped: number;
  /** Episodes finished in this session (failures included). */
  done: number;
  /** Episodes of this session that failed. */
  failed: number;
  /** Episodes of this session that finished degraded. Default 0. */
  degraded?: number;
  /** Episodes in flight. */
  running: number;
  /** Time since this session started, in ms. */
  elapsedMs: number;
  /** Model calls of this session so far, or `null` for a run without LLM agents. */
  usage: UsageTotals | null;
  /** What the LLM runtime is doing now, or `null` without a runtime. */
  runtime: RuntimeStatus | null;
  /** Why the grid stopped starting episodes (a budget, a failing provider), or `null`. */
  stopped: string | null;
}

/** Options of {@linkcode formatProgress}. */
export interface FormatProgressOptions {
  /** Width of the bar in characters; 0 for no bar. Default 24. */
  width?: number;
}

/** The parts of the line that say what the LLM runtime is doing. */
function runtimeParts(r: RuntimeStatus): string[] {
  const parts: string[] = [];
  if (r.active || r.queued) {
    parts.push(`in flight ${r.active}` + (r.queued ? `, waiting for a slot: ${r.queued}` : ""));
  }
  if (r.rateWaiting) parts.push(`waiting on rate limit: ${r.rateWaiting}`);
  if (r.retryWaiting) {
    const l = r.lastRetry;
    parts.push(
      `retrying: ${r.retryWaiting}` +
        (l
          ? ` (last: ${l.status ?? l.kind} from "${l.model}", attempt ${l.attempt + 1} in ${
            (l.waitMs / 1000).toFixed(1)
          } s)`
          : ""),
    );
  }
  return parts;
}

/**
 * The progress line. Rate and ETA count this session's episodes only; the
 * cost has 2 decimals from 1 on and 4 below.
 *
 * @example
 * ```ts
 * import { emptyTotals } from "../agents/llm/accounting.ts";
 * import { formatProgress } from "./progress.ts";
 * const p = { run: "paper", total: 420, skipped: 20, done: 100, failed: 1, running: 8,
 *   elapsedMs: 50_000, usage: null, runtime: null, stopped: null };
 * const line = formatProgress(p, { width: 10 });
 * if (line !== "paper [##--------] 120/420 28.6% | 2.00 ep/s | ETA 2m30s | 1 failed") throw new Error(line);
 * const llm = formatProgress({ ...p,
 *   usage: { ...emptyTotals(), calls: 120, cacheHits: 20, tokensIn: 1_000_000, tokensOut: 234_567, cost: 3.4 },
 *   runtime: { inFlight: 6, active: 2, queued: 0, rateWaiting: 3, retryWaiting: 1, fatal: null, halt: null,
 *     lastRetry: { model: "ds", kind: "rate_limit", status: 429, attempt: 1, waitMs: 1200 } },
 * }, { width: 0 });
 * if (!llm.endsWith("| 1.23M tokens | cost 3.40 | calls 120 (cache 20) | in flight 2 | " +
 *   'waiting on rate limit: 3 | retrying: 1 (last: 429 from "ds", attempt 2 in 1.2 s)')) throw new Error(llm);
 * ```
 */
export function formatProgress(p: GridProgress, options: FormatProgressOptions = {}): string {
  const width = options.width ?? 24;
  const finished = p.skipped + p.done;
  const share = p.total > 0 ? finished / p.total : 1;
  const parts: string[] = [];
  const head = width > 0 ? `${p.run} ${textBar(share, width)}` : p.run;
  parts.push(`${head} ${finished}/${p.total} ${(share * 100).toFixed(1)}%`);
  const seconds = p.elapsedMs / 1000;
  const rate = seconds > 0 ? p.done / seconds : 0;
  parts.push(`${rate >= 10 ? rate.toFixed(0) : rate.toFixed(2)} ep/s`);
  const remaining = p.total - finished;
  parts.push(
    remaining === 0
      ? `took ${formatDuration(seconds)}`
      : `ETA ${rate > 0 ? formatDuration(remaining / rate) : "?"}`,
  );
  parts.push(`${p.failed} failed`);
  if (p.degraded) parts.push(`${p.degraded} degraded`);
  const u = p.usage;
  if (u) {
    parts.push(`${formatCount(u.tokensIn + u.tokensOut)} tokens`);
    parts.push(`cost ${formatCost(u.cost)}`);
    parts.push(`calls ${u.calls}` + (u.cacheHits ? ` (cache ${u.cacheHits})` : ""));
  }
  if (p.runtime) parts.push(...runtimeParts(p.runtime));
  if (u?.failedCalls) parts.push(`failed calls (neutral defaults): ${u.failedCalls}`);
  if (p.stopped) parts.push(`STOPPED: ${p.stopped}`);
  return parts.join(" | ");
}

/**
 * The notebook frame of a grid's progress: the bar at the finished episodes,
 * the line (without its text bar) beside it.
 *
 * @example
 * ```ts
 * import { gridProgressFrame } from "./progress.ts";
 * const f = gridProgressFrame({ run: "r", total: 4, skipped: 1, done: 1, failed: 0, running: 1,
 *   elapsedMs: 1000, usage: null, runtime: null, stopped: null });
 * if (f.done !== 2 || f.total !== 4 || !f.text.startsWith("r 2/4 50.0%")) throw new Error(f.text);
 * ```
 */
export function gridProgressFrame(p: GridProgress): ProgressFrame {
  return { done: p.skipped + p.done, total: p.total, text: formatProgress(p, { width: 0 }) };
}

/** How progress is shown: `true` or `"auto"` picks the notebook, a terminal bar or log lines; `false` shows nothing. */
export type ProgressOption =
  | boolean
  | "auto"
  | "terminal"
  | "log"
  | "notebook"
  | ProgressSink<GridProgress>;

/**
 * The sink for a progress option, or `null` for none.
 *
 * @example
 * ```ts
 * import { progressSink } from "./progress.ts";
 * if (progressSink(false) !== null || progressSink("log") === null) throw new Error();
 * ```
 * @throws {RangeError} For `"notebook"` outside a Jupyter kernel.
 */
export function progressSink(option: ProgressOption): ProgressSink<GridProgress> | null {
  if (option === false) return null;
  if (typeof option === "object") return option;
  const line = (p: GridProgress) => formatProgress(p);
  if (option === "terminal") return terminalProgress(line, { interactive: true });
  if (option === "log") return terminalProgress(line, { interactive: false });
  const display = jupyterDisplay();
  if (option === "notebook" && !display) {
    throw new RangeError('Progress "notebook" needs the Deno Jupyter kernel');
  }
  return display ? notebookProgress(gridProgressFrame, { display }) : terminalProgress(line);
}

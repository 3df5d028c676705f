/**
 * What `runGrid` returns (`GridResult`, `GridSpend`): plain data, apart from
 * `run_grid.ts` so that its summary (`grid_summary.ts`), which `runGrid`
 * attaches, reads the type without importing the runner.
 *
 * @module
 */

import type { Budget, Spend, UsageTotals } from "../agents/llm/accounting.ts";
import type { Degradation } from "../core/events.ts";
import type { LockHolder } from "./lock.ts";
import type { Shard } from "./shard.ts";

/**
 * What `runGrid` returns: plain data, with a non-enumerable
 * `Symbol.for("Jupyter.display")` method, so a notebook cell that ends with
 * it shows its summary table (see `gridSummary`).
 */
export interface GridResult {
  /** Run folder. */
  dir: string;
  /** Run id. */
  run: string;
  /** Spec hash. */
  hash: string;
  /** Shard, or `null`. */
  shard: Shard | null;
  /** Episodes of the folder (its shard). */
  total: number;
  /** Episodes already finished at start. */
  skipped: number;
  /** Episodes played now (failures included). */
  played: number;
  /** Episodes played now that failed, with why. */
  failed: { id: string; error: string }[];
  /** Episodes played now that finished degraded (some decisions are neutral defaults), with the counts. */
  degraded: { id: string; counts: Degradation }[];
  /** Episodes without a finished log at the end. */
  remaining: number;
  /** Whether the run stopped early (signal, abandon, budget, or a failing provider). */
  interrupted: boolean;
  /**
   * Why new episodes stopped starting (a budget, a failing provider, a
   * signal's string reason, a folder that cannot be written), or `null`.
   */
  stopped: string | null;
  /**
   * What stopped them: `"budget"`, `"provider"` (a failing or refusing
   * provider, also when found after the last episode started), `"cache"` (a
   * response cache that cannot be written), `"ledger"` (a spend ledger that
   * cannot be written), `"signal"` (`signal` or
   * `abandon`), `"disk"` (a log or the manifest that cannot be written), or
   * `null`.
   */
  stoppedBy: "budget" | "provider" | "cache" | "ledger" | "signal" | "disk" | null;
  /** Temporary files of an earlier, killed run that were removed. */
  removedTemporary: number;
  /** Unfinished logs that were removed (torn segment blocks, partial per-episode logs) and played again. */
  removedPartial: number;
  /** The holder of a stale lock (a killed run) that was taken over, or `null`. */
  staleLock: LockHolder | null;
  /** `"workers"` or `"in-process"`. */
  mode: "workers" | "in-process";
  /** Wall time in ms. */
  elapsedMs: number;
  /** Model calls of this invocation: calls, cache hits, tokens, estimated cost. */
  usage: UsageTotals;
  /** The run's spend against its budget, or `null` without LLM episodes and a runtime. */
  spend: GridSpend | null;
}

/** What a run spent (see `GridResult.spend`). */
export interface GridSpend {
  /** The spend ledger's path. */
  ledger: string;
  /** The budget of this invocation (which bounds the whole run), or `null`. */
  limit: Budget | null;
  /** Billed spend of the whole run, every session (an upper bound: unknown billing counts at its reservation). */
  spent: Spend;
  /** Billed spend of this invocation. */
  session: Spend;
  /** What is left of the limit: tokens and cost, each `null` without that limit. */
  remaining: { tokens: number | null; cost: number | null };
  /** Requests of earlier sessions that never settled (killed in flight), counted at their reservation. */
  unsettled: number;
  /**
   * Requests of this session still in flight when it returned (abandoned by a
   * second interrupt), counted at their reservation in `spent`, `session` and
   * `remaining`: their replies are not used, and the ledger counts them so.
   */
  inFlight: number;
  /** The torn last line cut from the ledger when the run started (a kill mid-write), or `null`. */
  cut: { bytes: number; sample: string } | null;
}

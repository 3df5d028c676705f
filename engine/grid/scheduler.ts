/**
 * The grid's scheduler: which episodes a session plays, when it must stop
 * starting them and why, and how the session ends, decided from plain data
 * (no file, no runtime, no clock). `runGrid`'s session (`grid_session.ts`)
 * gathers the data and applies the decisions.
 *
 * @module
 */
import {
  type Budget,
  budgetExhausted,
  spendExhausted,
  type SpendTotals,
  type UsageTotals,
} from "../agents/llm/accounting.ts";
import type { EpisodeSummary } from "./execute.ts";

/**
 * What stopped new episodes from starting: `"budget"`, `"provider"`,
 * `"cache"`, `"ledger"`, `"signal"` or `"disk"` (see `GridResult.stoppedBy`).
 */
export type StopCause = "budget" | "provider" | "cache" | "ledger" | "signal" | "disk";

/** Why a run stops starting episodes (both `null` while it goes on). */
export interface StopState {
  /** Why, in words, or `null`. */
  stopped: string | null;
  /** What, or `null`. */
  stoppedBy: StopCause | null;
}

/** The state before any stop. */
export const NO_STOP: Readonly<StopState> = Object.freeze({ stopped: null, stoppedBy: null });

/**
 * The episodes a session plays: those without a finished log, and with
 * `redoFailed` those whose log ended with another status than `"ok"`; in
 * the plan's order.
 *
 * @example
 * ```ts
 * import { episodesToPlay } from "./scheduler.ts";
 * const episodes = [{ id: "a" }, { id: "b" }, { id: "c" }];
 * const finished = new Map([["a", { status: "ok" }], ["b", { status: "error" }]]);
 * if (episodesToPlay(episodes, finished, false).map((e) => e.id).join() !== "c") throw new Error();
 * if (episodesToPlay(episodes, finished, true).map((e) => e.id).join() !== "b,c") throw new Error();
 * ```
 */
export function episodesToPlay<E extends { id: string }>(
  episodes: readonly E[],
  finished: ReadonlyMap<string, { status: string }>,
  redoFailed: boolean | undefined,
): E[] {
  return episodes.filter((e) => {
    const s = finished.get(e.id);
    return s === undefined || (s.status !== "ok" && redoFailed === true);
  });
}

/** What the running episodes are played by: the size of the worker pool, 0 for in-process. */
export interface PoolInput {
  /** Whether a custom agents factory is given (a function cannot cross into a worker). */
  agents: boolean;
  /** Whether LLM episodes are played with a runtime (in-process). */
  llmInProcess: boolean;
  /** Workers asked for (0: in-process). */
  workers: number;
  /** Episodes to play. */
  todo: number;
}

/**
 * How many workers play the session's episodes: none (in-process) with an
 * agents factory, LLM episodes with a runtime, no worker asked for or
 * nothing to play; else as many as asked, at most one an episode.
 *
 * @example
 * ```ts
 * import { poolSize } from "./scheduler.ts";
 * if (poolSize({ agents: false, llmInProcess: false, workers: 4, todo: 3 }) !== 3) throw new Error();
 * if (poolSize({ agents: true, llmInProcess: false, workers: 4, todo: 3 }) !== 0) throw new Error();
 * ```
 */
export function poolSize(input: PoolInput): number {
  const use = !input.agents && !input.llmInProcess && input.workers > 0 && input.todo > 0;
  return use ? Math.min(input.workers, input.todo) : 0;
}

/** What {@linkcode stopFor} decides from. */
export interface StopInput {
  /** The runtime's halt (a budget, a cache, a ledger, ...), or `null`. */
  halt: { reason: string; by: StopCause } | null;
  /** The run's budget, or `null`. */
  budget: Budget | null;
  /** The whole run's billed spend (every session, from the spend ledger), or `null` without one. */
  spent: SpendTotals | null;
  /** This session's model calls (checked against the budget when there is no spend ledger). */
  usage: UsageTotals | null;
  /** The runtime's failing provider (its circuit breaker opened), or `null`. */
  fatal: string | null;
  /** Set when every model call of a finished episode failed, or `null`. */
  allCallsFailed: string | null;
  /** Whether no episode is left to start: spending the budget with the last episode stops nothing. */
  atEnd: boolean;
}

/**
 * Whether new episodes must not start, and why: a halted runtime first,
 * then a budget reached (the spend ledger's whole-run total, else this
 * session's usage; not at the end), then a failing provider; `null` to go
 * on.
 *
 * @example
 * ```ts
 * import { stopFor } from "./scheduler.ts";
 * const go = { halt: null, budget: null, spent: null, usage: null, fatal: null, allCallsFailed: null, atEnd: false };
 * if (stopFor(go) !== null) throw new Error();
 * const s = stopFor({ ...go, fatal: 'Provider "p" is failing' });
 * if (s?.stoppedBy !== "provider" || s.stopped !== 'Provider "p" is failing') throw new Error();
 * ```
 */
export function stopFor(input: StopInput): StopState | null {
  const { halt, budget } = input;
  const spent = halt === null && budget && !input.atEnd
    ? (input.spent ? spendExhausted(input.spent, budget) : null) ??
      (input.usage ? budgetExhausted(input.usage, budget) : null)
    : null;
  const provider = input.fatal ?? input.allCallsFailed;
  const stopped = halt?.reason ?? spent ?? provider;
  if (stopped === null) return null;
  return { stopped, stoppedBy: halt?.by ?? (spent ? "budget" : provider ? "provider" : null) };
}

/**
 * The stop after an episode whose log could not be written: the folder
 * write failure (`reason`) replaces any stop but an earlier one of the disk.
 *
 * @example
 * ```ts
 * import { stopForDisk } from "./scheduler.ts";
 * const s = stopForDisk({ stopped: "Token budget reached", stoppedBy: "budget" }, "Could not write");
 * if (s.stopped !== "Could not write" || s.stoppedBy !== "disk") throw new Error();
 * if (stopForDisk(s, "again").stopped !== "Could not write") throw new Error();
 * ```
 */
export function stopForDisk(current: StopState, reason: string): StopState {
  return current.stoppedBy === "disk" ? current : { stopped: reason, stoppedBy: "disk" };
}

/**
 * The stop after an episode abandoned mid-way because the run is stopping:
 * its reason, unless the run already says why it stops.
 *
 * @example
 * ```ts
 * import { NO_STOP, stopForAbandoned } from "./scheduler.ts";
 * const s = stopForAbandoned(NO_STOP, "Token budget reached", "budget");
 * if (s.stopped !== "Token budget reached" || s.stoppedBy !== "budget") throw new Error();
 * if (stopForAbandoned(s, "other", "cache") !== s) throw new Error();
 * ```
 */
export function stopForAbandoned(current: StopState, reason: string, by: StopCause): StopState {
  return current.stopped === null ? { stopped: reason, stoppedBy: by } : current;
}

/**
 * Why a finished episode shows its provider failing: every one of its model
 * calls failed (the last failure named), or `null`.
 *
 * @example
 * ```ts
 * import { allCallsFailed } from "./scheduler.ts";
 * const s = { id: "e1", usage: { calls: 2, failedCalls: 2 },
 *   lastFailure: { provider: "p", model: "m", error: "HTTP 500" } };
 * if (allCallsFailed(s) !== 'Every model call of episode "e1" failed (2 calls); the last, to ' +
 *   'provider "p" (model "m"): HTTP 500') throw new Error();
 * if (allCallsFailed({ ...s, usage: { calls: 2, failedCalls: 1 } }) !== null) throw new Error();
 * ```
 */
export function allCallsFailed(
  s: Pick<EpisodeSummary, "id" | "lastFailure"> & {
    usage: Pick<UsageTotals, "calls" | "failedCalls">;
  },
): string | null {
  if (!(s.usage.calls > 0 && s.usage.failedCalls === s.usage.calls && s.lastFailure)) return null;
  const f = s.lastFailure;
  return `Every model call of episode "${s.id}" failed (${s.usage.calls} calls); the last, to ` +
    `provider "${f.provider}" (model "${f.model}"): ${f.error}`;
}

/** A signal as the scheduler reads it. */
export type SignalState = Pick<AbortSignal, "aborted" | "reason">;

/** What {@linkcode endOfRun} decides from. */
export interface EndInput {
  /** Episodes the session was to play. */
  todo: number;
  /** Episodes that finished (failures included). */
  done: number;
  /** Episodes abandoned mid-way because the run was stopping. */
  abandoned: number;
  /** Episodes whose log was written. */
  logged: number;
  /** The stop, once checked at the end (see {@linkcode stopFor}'s `atEnd`). */
  stop: StopState;
  /** `runGrid`'s `signal`, if any. */
  signal?: SignalState;
  /** `runGrid`'s `abandon`, if any. */
  abandon?: SignalState;
}

/** How a session ends (see {@linkcode endOfRun}). */
export interface EndOfRun {
  /** Whether episodes were left unplayed or abandoned. */
  interrupted: boolean;
  /** Episodes of the session without a log. */
  remaining: number;
  /** The manifest's closing status. */
  status: "interrupted" | "complete" | "incomplete";
  /** The stop: an interrupted run with no other stop is stopped by its signal. */
  stop: StopState;
}

/**
 * How a session ends: interrupted when an episode was left or abandoned
 * (then, with no other stop, the signal is why: its reason when a string);
 * else complete when every episode has a log, else incomplete (some could
 * not start).
 *
 * @example
 * ```ts
 * import { endOfRun, NO_STOP } from "./scheduler.ts";
 * const e = endOfRun({ todo: 4, done: 2, abandoned: 0, logged: 2, stop: NO_STOP,
 *   signal: { aborted: true, reason: "Received SIGTERM" } });
 * if (e.status !== "interrupted" || e.remaining !== 2 || e.stop.stopped !== "Received SIGTERM") throw new Error();
 * if (endOfRun({ todo: 2, done: 2, abandoned: 0, logged: 2, stop: NO_STOP }).status !== "complete") throw new Error();
 * ```
 */
export function endOfRun(input: EndInput): EndOfRun {
  const interrupted = input.done < input.todo || input.abandoned > 0;
  let stop = input.stop;
  if (stop.stopped === null && interrupted && (input.signal?.aborted || input.abandon?.aborted)) {
    const reason = input.signal?.aborted ? input.signal.reason : input.abandon?.reason;
    stop = { stopped: typeof reason === "string" ? reason : null, stoppedBy: "signal" };
  }
  const remaining = input.todo - input.logged;
  const status = interrupted ? "interrupted" : remaining === 0 ? "complete" : "incomplete";
  return { interrupted, remaining, status, stop };
}

/** What {@linkcode closingMessage} says. */
export interface ClosingInput {
  /** The run folder. */
  dir: string;
  /** Episodes of the folder (its shard). */
  total: number;
  /** Episodes of the session without a log. */
  remaining: number;
  /** Whether the session was interrupted. */
  interrupted: boolean;
  /** The final stop. */
  stop: StopState;
  /** Episodes played now that failed. */
  failed: number;
  /** Episodes played now that finished degraded. */
  degraded: number;
}

/**
 * The progress display's closing line: stopped (why, and how to resume),
 * done (with a note on failed and degraded episodes), interrupted, or some
 * episodes that could not start.
 *
 * @example
 * ```ts
 * import { closingMessage, NO_STOP } from "./scheduler.ts";
 * const m = closingMessage({ dir: "runs/x", total: 2, remaining: 0, interrupted: false, stop: NO_STOP,
 *   failed: 0, degraded: 0 });
 * if (m !== "Done: 2 episodes in runs/x.") throw new Error(m);
 * ```
 */
export function closingMessage(input: ClosingInput): string {
  const { dir, total, remaining, interrupted, stop } = input;
  const finished = total - remaining;
  const resume = `${finished} of ${total} episodes finished in ${dir}; ` +
    `run the same spec on the same folder to resume.`;
  return stop.stopped !== null && (interrupted || stop.stoppedBy === "disk")
    ? `Stopped: ${stop.stopped}. ${resume}`
    : stop.stopped !== null && remaining === 0
    ? `Done: ${total} episodes in ${dir}` + doneNote(input) + ` Stopped: ${stop.stopped}.`
    : interrupted
    ? `Interrupted: ${resume}`
    : remaining > 0
    ? `${remaining} episodes could not start (see the failures); run again to retry them.`
    : `Done: ${total} episodes in ${dir}` + doneNote(input);
}

/** What the closing line adds about failed and degraded episodes. */
function doneNote(counts: { failed: number; degraded: number }): string {
  const parts = [
    counts.degraded
      ? `${counts.degraded} degraded: some decisions are neutral defaults after failed calls`
      : "",
    counts.failed ? `${counts.failed} ended with an error` : "",
  ].filter(Boolean);
  return parts.length
    ? ` (${parts.join("; ")}); run again with redoFailed (--redo-failed) to play them again.`
    : ".";
}

/**
 * Progress of a grid: one line with done/total, rate, ETA, failures and, for
 * LLM runs, tokens and estimated cost; shown as a bar redrawn in place in a
 * terminal, as periodic lines when stderr is not a terminal (batch logs), or
 * as a display updated in place in a Deno Jupyter notebook
 * (`Deno.jupyter.display(bundle, { raw: true, display_id, update: true })`).
 *
 * @module
 */

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
  /** Episodes in flight. */
  running: number;
  /** Time since this session started, in ms. */
  elapsedMs: number;
  /** Prompt plus completion tokens so far, or `null` for a run without LLM agents. */
  tokens: number | null;
  /** Estimated cost so far, or `null` for a run without LLM agents. */
  cost: number | null;
}

/** Receives progress. */
export interface ProgressSink {
  /** Called whenever something changed (and about once a second). */
  update(progress: GridProgress): void;
  /** Called once at the end, with a closing message (e.g. how to resume). */
  finish(progress: GridProgress, message?: string): void;
}

/**
 * A duration as `42s`, `1m34s` or `2h05m`.
 *
 * @example
 * ```ts
 * import { formatDuration } from "./progress.ts";
 * if (formatDuration(94) !== "1m34s" || formatDuration(7500) !== "2h05m" || formatDuration(4.2) !== "4s") {
 *   throw new Error();
 * }
 * ```
 */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "?";
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

/**
 * A count as `950`, `12.3k` or `4.56M`.
 *
 * @example
 * ```ts
 * import { formatCount } from "./progress.ts";
 * if (formatCount(950) !== "950" || formatCount(12345) !== "12.3k" || formatCount(4560000) !== "4.56M") {
 *   throw new Error();
 * }
 * ```
 */
export function formatCount(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1e6) return `${(n / 1e3).toFixed(n < 1e4 ? 2 : 1)}k`;
  if (n < 1e9) return `${(n / 1e6).toFixed(n < 1e7 ? 2 : 1)}M`;
  return `${(n / 1e9).toFixed(2)}G`;
}

/** Options of {@linkcode formatProgress}. */
export interface FormatProgressOptions {
  /** Width of the bar in characters; 0 for no bar. Default 24. */
  width?: number;
}

/**
 * The progress line. Rate and ETA count this session's episodes only.
 *
 * @example
 * ```ts
 * import { formatProgress } from "./progress.ts";
 * const line = formatProgress({ run: "paper", total: 420, skipped: 20, done: 100, failed: 1,
 *   running: 8, elapsedMs: 50_000, tokens: 1_234_567, cost: 3.4 }, { width: 10 });
 * if (line !== "paper [##--------] 120/420 28.6% | 2.00 ep/s | ETA 2m30s | 1 failed | 1.23M tokens | cost 3.40") {
 *   throw new Error(line);
 * }
 * ```
 */
export function formatProgress(p: GridProgress, options: FormatProgressOptions = {}): string {
  const width = options.width ?? 24;
  const finished = p.skipped + p.done;
  const share = p.total > 0 ? finished / p.total : 1;
  const parts: string[] = [];
  let head = p.run;
  if (width > 0) {
    const full = Math.min(width, Math.floor(share * width));
    head += ` [${"#".repeat(full)}${"-".repeat(width - full)}]`;
  }
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
  if (p.tokens !== null) parts.push(`${formatCount(p.tokens)} tokens`);
  if (p.cost !== null) parts.push(`cost ${p.cost.toFixed(2)}`);
  return parts.join(" | ");
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The notebook MIME bundle of the progress: an HTML `<progress>` bar with the
 * line beside it, and the line as plain text.
 *
 * @example
 * ```ts
 * import { progressBundle } from "./progress.ts";
 * const b = progressBundle({ run: "a<b", total: 4, skipped: 0, done: 1, failed: 0, running: 1,
 *   elapsedMs: 1000, tokens: null, cost: null });
 * if (!b["text/html"].includes('<progress max="4" value="1">') || b["text/html"].includes("a<b")) throw new Error();
 * ```
 */
export function progressBundle(p: GridProgress): { "text/plain": string; "text/html": string } {
  const line = formatProgress(p, { width: 0 });
  return {
    "text/plain": formatProgress(p),
    "text/html": `<div style="font-family: monospace"><progress max="${p.total}" value="${
      p.skipped + p.done
    }"></progress> ${escapeHtml(line)}</div>`,
  };
}

/** Options of {@linkcode terminalProgress}. */
export interface TerminalProgressOptions {
  /** Redraw one line in place (`true`, for a terminal) or print lines (`false`, for logs). Default: whether stderr is a terminal. */
  interactive?: boolean;
  /** Minimum ms between two outputs. Default 100 in place, 30000 for lines. */
  intervalMs?: number;
  /** Where text goes. Default stderr. */
  write?: (text: string) => void;
  /** Clock in ms. Default `performance.now`. */
  now?: () => number;
}

/**
 * Progress on a terminal (a bar redrawn in place) or in a log (a line every
 * 30 s and at the end).
 *
 * @example
 * ```ts
 * import { terminalProgress } from "./progress.ts";
 * let out = "";
 * const sink = terminalProgress({ interactive: false, write: (t) => (out += t) });
 * const p = { run: "r", total: 2, skipped: 0, done: 2, failed: 0, running: 0, elapsedMs: 1000, tokens: null, cost: null };
 * sink.finish(p, "Done.");
 * if (!out.startsWith("r [") || !out.endsWith("Done.\n")) throw new Error(out);
 * ```
 */
export function terminalProgress(options: TerminalProgressOptions = {}): ProgressSink {
  const interactive = options.interactive ?? Deno.stderr.isTerminal();
  const interval = options.intervalMs ?? (interactive ? 100 : 30_000);
  const encoder = new TextEncoder();
  const write = options.write ?? ((t: string) => Deno.stderr.writeSync(encoder.encode(t)));
  const now = options.now ?? (() => performance.now());
  let last = -Infinity;
  const columns = () => {
    try {
      return Deno.consoleSize().columns;
    } catch {
      return 120;
    }
  };
  const draw = (p: GridProgress) => {
    if (interactive) {
      const line = formatProgress(p).slice(0, Math.max(20, columns() - 1));
      write(`\r\x1b[2K${line}`);
    } else {
      write(`${formatProgress(p)}\n`);
    }
  };
  return {
    update(p) {
      const t = now();
      if (t - last < interval) return;
      last = t;
      draw(p);
    },
    finish(p, message) {
      draw(p);
      if (interactive) write("\n");
      if (message) write(`${message}\n`);
    },
  };
}

/** The part of `Deno.jupyter` a notebook display needs. */
export interface JupyterDisplay {
  /** `Deno.jupyter.display`. */
  display(
    obj: unknown,
    options?: { raw?: boolean; update?: boolean; display_id?: string },
  ): Promise<void>;
}

/**
 * `Deno.jupyter` inside the Deno Jupyter kernel, else `undefined` (reading it
 * throws outside the kernel).
 *
 * @example
 * ```ts
 * import { jupyterDisplay } from "./progress.ts";
 * if (jupyterDisplay() !== undefined) throw new Error("not in a kernel");
 * ```
 */
export function jupyterDisplay(): JupyterDisplay | undefined {
  try {
    const j = Deno.jupyter;
    return typeof j?.display === "function" ? j : undefined;
  } catch {
    return undefined;
  }
}

/** Options of {@linkcode notebookProgress}. */
export interface NotebookProgressOptions {
  /** Minimum ms between two updates. Default 250. */
  intervalMs?: number;
  /** Clock in ms. Default `performance.now`. */
  now?: () => number;
}

/**
 * Progress in a notebook: one display, updated in place.
 *
 * @example
 * ```ts
 * import { notebookProgress } from "./progress.ts";
 * const calls: { update?: boolean; display_id?: string }[] = [];
 * const sink = notebookProgress({ display: (_b, o) => (calls.push(o ?? {}), Promise.resolve()) }, { intervalMs: 0 });
 * const p = { run: "r", total: 2, skipped: 0, done: 1, failed: 0, running: 1, elapsedMs: 10, tokens: null, cost: null };
 * sink.update(p);
 * sink.finish({ ...p, done: 2 });
 * if (calls.length !== 2 || calls[0].update || !calls[1].update || calls[0].display_id !== calls[1].display_id) {
 *   throw new Error();
 * }
 * ```
 */
export function notebookProgress(
  jupyter: JupyterDisplay,
  options: NotebookProgressOptions = {},
): ProgressSink {
  const interval = options.intervalMs ?? 250;
  const now = options.now ?? (() => performance.now());
  const id = `coordlab-grid-${crypto.randomUUID()}`;
  let shown = false;
  let last = -Infinity;
  const show = (p: GridProgress, message?: string) => {
    const bundle = progressBundle(p);
    if (message) {
      bundle["text/plain"] += `\n${message}`;
      bundle["text/html"] += `<div style="font-family: monospace">${escapeHtml(message)}</div>`;
    }
    jupyter.display(bundle, { raw: true, display_id: id, update: shown }).catch(() => {});
    shown = true;
  };
  return {
    update(p) {
      const t = now();
      if (t - last < interval) return;
      last = t;
      show(p);
    },
    finish(p, message) {
      show(p, message);
    },
  };
}

/** How progress is shown: `true` or `"auto"` picks the notebook, a terminal bar or log lines; `false` shows nothing. */
export type ProgressOption = boolean | "auto" | "terminal" | "log" | "notebook" | ProgressSink;

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
export function progressSink(option: ProgressOption): ProgressSink | null {
  if (option === false) return null;
  if (typeof option === "object") return option;
  if (option === "terminal") return terminalProgress({ interactive: true });
  if (option === "log") return terminalProgress({ interactive: false });
  const jupyter = jupyterDisplay();
  if (option === "notebook") {
    if (!jupyter) throw new RangeError('Progress "notebook" needs the Deno Jupyter kernel');
    return notebookProgress(jupyter);
  }
  return jupyter ? notebookProgress(jupyter) : terminalProgress();
}

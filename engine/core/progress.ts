/**
 * Progress of a long computation (a grid run, a loader reading thousands of
 * logs), shown in a terminal or in a notebook. One module for every progress
 * display of the toolkit: the engine and the analysis both build on it.
 *
 * - Formatting: {@linkcode formatDuration}, {@linkcode formatCount},
 *   {@linkcode formatCost}, {@linkcode textBar}, and {@linkcode progressBundle} (an HTML `<progress>`
 *   bar with a line of text beside it, plus a plain-text twin).
 * - {@linkcode terminalProgress}: a line redrawn in place on a terminal, or
 *   whole lines at an interval in a log.
 * - {@linkcode notebookProgress}: one notebook output updated in place with
 *   `Deno.jupyter.display(bundle, { raw: true, display_id, update: true })`
 *   (the first send omits `update`); outside the kernel nothing is sent and
 *   the latest bundle stays readable.
 *
 * The sinks are generic: each caller passes a function from its own progress
 * record to a line (terminal) or to a {@linkcode ProgressFrame} (notebook).
 *
 * Choices: sends to the notebook are chained, so they arrive in order, and a
 * failed send is ignored (a display must never fail the computation); a
 * frame with `done >= total` is always shown, whatever the throttling.
 *
 * @module
 */
import { type DisplayFunction, escapeHtml, jupyterDisplay } from "./jupyter.ts";

/** What a notebook progress output shows: a bar at `done` of `total`, and a line beside it. */
export interface ProgressFrame {
  /** Units done (the bar's value). */
  done: number;
  /** Units in all (the bar's maximum). */
  total: number;
  /** The line shown beside the bar (plain text; escaped in HTML). */
  text: string;
}

/** A progress bundle: an HTML `<progress>` bar with its line, and the line as plain text. */
export interface ProgressBundle {
  /** HTML with a `<progress>` element and the escaped line. */
  "text/html": string;
  /** The line (and the closing note, if any). */
  "text/plain": string;
}

/** Receives progress records of type `T`. */
export interface ProgressSink<T> {
  /** Called whenever something changed (the sink throttles its output). */
  update(progress: T): void;
  /** Called once at the end, with a closing message (e.g. how to resume). */
  finish(progress: T, message?: string): void;
  /** Resolves when everything sent so far has been delivered. Default: nothing to wait for. */
  flush?(): Promise<void>;
}

/**
 * A duration as `42s`, `1m34s` or `2h05m` (`?` for a negative or infinite one).
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

/**
 * A number rounded to an integer, its thousands separated by commas, as
 * `toLocaleString("en-US")` writes it (but a rounded -0 as `0`), without
 * its first call's cost of loading the locale data (12-50 ms in each
 * command that prints a plan).
 *
 * @example
 * ```ts
 * import { formatInt } from "./progress.ts";
 * if (formatInt(118831.4) !== "118,831" || formatInt(-1234567) !== "-1,234,567" || formatInt(999) !== "999") throw new Error();
 * ```
 */
export function formatInt(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+$)/g, ",");
}

/**
 * An estimated cost with 2 decimals from 1 on (and for 0), 4 below.
 *
 * @example
 * ```ts
 * import { formatCost } from "./progress.ts";
 * if (formatCost(41.5) !== "41.50" || formatCost(0.01234) !== "0.0123" || formatCost(0) !== "0.00") throw new Error();
 * ```
 */
export function formatCost(cost: number): string {
  return cost.toFixed(cost >= 1 || cost === 0 ? 2 : 4);
}

/**
 * A text bar of `width` characters filled to `share` (clamped to 0..1, rounded down).
 *
 * @example
 * ```ts
 * import { textBar } from "./progress.ts";
 * if (textBar(0.29, 10) !== "[##--------]" || textBar(2, 3) !== "[###]") throw new Error();
 * ```
 */
export function textBar(share: number, width: number): string {
  const full = Math.max(0, Math.min(width, Math.floor(share * width)));
  return `[${"#".repeat(full)}${"-".repeat(width - full)}]`;
}

/**
 * The notebook bundle of a frame, with an optional closing note under it.
 *
 * @example
 * ```ts
 * import { progressBundle } from "./progress.ts";
 * const b = progressBundle({ done: 1, total: 3, text: "<runs>: 1/3" }, "Done.");
 * if (!b["text/html"].includes('<progress value="1" max="3"></progress> <span>&lt;runs&gt;: 1/3</span>')) {
 *   throw new Error(b["text/html"]);
 * }
 * if (b["text/plain"] !== "<runs>: 1/3\nDone.") throw new Error();
 * ```
 */
export function progressBundle(frame: ProgressFrame, note?: string): ProgressBundle {
  const html = `<div class="coordlab-progress" style="font-family: monospace">` +
    `<progress value="${frame.done}" max="${frame.total}"></progress> ` +
    `<span>${escapeHtml(frame.text)}</span>` +
    (note ? `<div>${escapeHtml(note)}</div>` : "") + `</div>`;
  return { "text/html": html, "text/plain": note ? `${frame.text}\n${note}` : frame.text };
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
 * Progress on a terminal (a line redrawn in place, cut to the terminal's
 * width) or in a log (a line every 30 s and at the end).
 *
 * @param format The line of a progress record.
 * @param options Mode, interval, output and clock.
 * @returns The sink.
 *
 * @example
 * ```ts
 * import { terminalProgress } from "./progress.ts";
 * let out = "";
 * const sink = terminalProgress((n: number) => `step ${n}`, { interactive: false, write: (t) => (out += t) });
 * sink.update(1);
 * sink.update(2); // within 30 s of the last line: not printed
 * sink.finish(3, "Done.");
 * if (out !== "step 1\nstep 3\nDone.\n") throw new Error(out);
 * ```
 */
export function terminalProgress<T>(
  format: (progress: T) => string,
  options: TerminalProgressOptions = {},
): ProgressSink<T> {
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
  const draw = (p: T) => {
    if (interactive) write(`\r\x1b[2K${format(p).slice(0, Math.max(20, columns() - 1))}`);
    else write(`${format(p)}\n`);
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

/** The options of every send of a notebook progress output (`update` from the second send on). */
export interface ProgressSendOptions {
  /** Always `true`: the bundle is a raw MIME bundle. */
  raw: true;
  /** The output's display id. */
  display_id: string;
  /** `true` from the second send on. */
  update?: boolean;
}

/** Options of {@linkcode notebookProgress}. */
export interface NotebookProgressOptions {
  /** Sends the bundles. Default: `Deno.jupyter.display` inside the kernel, otherwise nothing is sent. */
  display?: DisplayFunction<ProgressBundle, ProgressSendOptions>;
  /** The display id tying the sends to one output. Default a fresh `coordlab-progress-<uuid>`. */
  displayId?: string;
  /** Minimum ms between two sends. Default 250. */
  intervalMs?: number;
  /** Least change of the shown percentage between two sends. Default 0. */
  stepPercent?: number;
  /** Clock in ms. Default `performance.now`. */
  now?: () => number;
}

/** A notebook progress output. */
export interface NotebookProgress<T> extends ProgressSink<T> {
  /** Resolves when every bundle sent so far has been delivered. */
  flush(): Promise<void>;
  /** The latest bundle (sent or not), or `undefined` before the first update. */
  readonly last: ProgressBundle | undefined;
  /** The display id used. */
  readonly displayId: string;
}

/**
 * Progress in a notebook: one output, created by the first send and then
 * updated in place.
 *
 * @param frame The frame of a progress record.
 * @param options Display function, display id, throttling and clock.
 * @returns The notebook output.
 *
 * @example
 * ```ts
 * import { notebookProgress } from "./progress.ts";
 * const sent: unknown[] = [];
 * const out = notebookProgress((done: number) => ({ done, total: 2, text: `${done}/2` }), {
 *   displayId: "p", intervalMs: 0,
 *   display: (bundle, options) => void sent.push([bundle["text/plain"], options]),
 * });
 * out.update(1);
 * out.finish(2, "Done.");
 * await out.flush();
 * if (JSON.stringify(sent) !== JSON.stringify([
 *   ["1/2", { raw: true, display_id: "p" }],
 *   ["2/2\nDone.", { raw: true, display_id: "p", update: true }],
 * ])) throw new Error(JSON.stringify(sent));
 * ```
 */
export function notebookProgress<T>(
  frame: (progress: T) => ProgressFrame,
  options: NotebookProgressOptions = {},
): NotebookProgress<T> {
  const display = options.display ?? jupyterDisplay();
  const displayId = options.displayId ?? `coordlab-progress-${crypto.randomUUID()}`;
  const interval = options.intervalMs ?? 250;
  const step = options.stepPercent ?? 0;
  const now = options.now ?? (() => performance.now());
  let last: ProgressBundle | undefined;
  let lastTime = -Infinity;
  let shownPercent = -Infinity;
  let sentAny = false;
  let pending: Promise<void> = Promise.resolve();
  const send = (bundle: ProgressBundle) => {
    if (display === undefined) return;
    const update = sentAny;
    sentAny = true;
    pending = pending
      .then(() =>
        display(bundle, { raw: true, display_id: displayId, ...(update ? { update } : {}) })
      )
      .catch(() => {});
  };
  return {
    displayId,
    get last() {
      return last;
    },
    update(p) {
      const f = frame(p);
      last = progressBundle(f);
      const percent = f.total > 0 ? Math.floor((100 * f.done) / f.total) : 100;
      const t = now();
      if (f.done < f.total && (t - lastTime < interval || percent - shownPercent < step)) return;
      lastTime = t;
      shownPercent = percent;
      send(last);
    },
    finish(p, message) {
      last = progressBundle(frame(p), message);
      send(last);
    },
    flush() {
      return pending;
    },
  };
}

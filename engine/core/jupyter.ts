/**
 * The one guarded access to the Deno Jupyter kernel's display function.
 * Reading `Deno.jupyter` throws outside the kernel, so every notebook output
 * of the toolkit (progress displays, charts, tables) goes through
 * {@linkcode jupyterDisplay}, which returns `undefined` there instead.
 *
 * It also holds what lets results show themselves in a notebook: the
 * {@linkcode JUPYTER_DISPLAY} symbol, {@linkcode withJupyterDisplay}, and
 * the short summaries of {@linkcode summaryBundle} and
 * {@linkcode episodeSummary} (escaped HTML and aligned text; no times or
 * paths, so re-executed notebooks do not change).
 *
 * @module
 */

import type { EpisodeOutcome } from "./events.ts";

/** The options of `Deno.jupyter.display` the toolkit uses. */
export interface DisplayOptions {
  /** Send the bundle as a raw MIME bundle. */
  raw?: boolean;
  /** Ties several sends to one output. */
  display_id?: string;
  /** Replace the output with this `display_id` instead of adding one. */
  update?: boolean;
}

/**
 * How a bundle of type `B` (a MIME bundle) is sent to the notebook with
 * options of type `O`: `Deno.jupyter.display`'s signature.
 */
export type DisplayFunction<B extends object = object, O extends DisplayOptions = DisplayOptions> =
  (
    bundle: B,
    options: O,
  ) => Promise<void> | void;

/**
 * `Deno.jupyter.display` inside the Deno Jupyter kernel, else `undefined`.
 *
 * @returns The display function, or `undefined` outside the kernel.
 *
 * @example
 * ```ts
 * import { jupyterDisplay } from "./jupyter.ts";
 * if (jupyterDisplay() !== undefined) throw new Error("not in a kernel");
 * ```
 */
export function jupyterDisplay(): DisplayFunction | undefined {
  try {
    const jupyter = Deno.jupyter;
    if (typeof jupyter?.display !== "function") return undefined;
    return (bundle, options) => jupyter.display(bundle, options);
  } catch {
    return undefined;
  }
}

/**
 * The symbol under which a value tells Deno's Jupyter kernel how to show
 * itself: when a cell ends with a value that has a method under this key,
 * the kernel calls it and shows the MIME bundle it returns (or resolves
 * to). It is `Deno.jupyter.$display`, reachable here outside the kernel too.
 *
 * @example
 * ```ts
 * import { JUPYTER_DISPLAY } from "./jupyter.ts";
 * if (JUPYTER_DISPLAY !== Symbol.for("Jupyter.display")) throw new Error();
 * ```
 */
export const JUPYTER_DISPLAY: unique symbol = Symbol.for("Jupyter.display");

/**
 * The method stored under {@linkcode JUPYTER_DISPLAY}: it returns (or
 * resolves to) a MIME bundle, an object from MIME type to content.
 */
export type DisplayMethod = () => object | Promise<object>;

/**
 * Gives `value` a non-enumerable {@linkcode JUPYTER_DISPLAY} method, so a
 * notebook cell that ends with it shows `display()`'s bundle. The value is
 * otherwise unchanged: `JSON.stringify`, spreading and deep equality ignore
 * the method. Giving it again replaces the method.
 *
 * @param value The object to make displayable (changed in place).
 * @param display Builds the bundle when the kernel asks.
 * @returns `value` itself.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { JUPYTER_DISPLAY, withJupyterDisplay } from "./jupyter.ts";
 *
 * const result = withJupyterDisplay({ done: 3 }, () => ({ "text/plain": "3 done" }));
 * assert.equal(JSON.stringify(result), '{"done":3}');
 * assert.deepEqual(result, { done: 3 });
 * assert.deepEqual(result[JUPYTER_DISPLAY](), { "text/plain": "3 done" });
 * ```
 */
export function withJupyterDisplay<T extends object>(
  value: T,
  display: DisplayMethod,
): T & { readonly [JUPYTER_DISPLAY]: DisplayMethod } {
  Object.defineProperty(value, JUPYTER_DISPLAY, {
    value: display,
    enumerable: false,
    configurable: true,
    writable: false,
  });
  return value as T & { readonly [JUPYTER_DISPLAY]: DisplayMethod };
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes text for use in HTML element content and quoted attributes.
 *
 * @param text Any text, e.g. an agent's reply.
 * @returns The text with `&`, `<`, `>`, `"` and `'` as entities.
 *
 * @example
 * ```ts
 * import { escapeHtml } from "./jupyter.ts";
 * if (escapeHtml(`<b a="1">`) !== "&lt;b a=&quot;1&quot;&gt;") throw new Error();
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

/** A plain-text and an HTML rendering of the same thing. */
export interface TextHtmlBundle {
  /** Aligned `label  value` lines under the title. */
  "text/plain": string;
  /** A two-column table with the title as its caption; every piece escaped. */
  "text/html": string;
}

/**
 * A short summary as a MIME bundle: a title and `[label, value]` rows, as
 * aligned text lines and as an HTML table in which the title, every label
 * and every value is escaped.
 *
 * @param title The summary's title, e.g. `Episode bank_run_M0_stable_s1`.
 * @param rows The rows, in order.
 * @returns The bundle.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { summaryBundle } from "./jupyter.ts";
 *
 * const bundle = summaryBundle("Run <1>", [["W", "1.500"], ["outcome", "success"]]);
 * assert.equal(bundle["text/plain"], "Run <1>\n  W        1.500\n  outcome  success");
 * assert.ok(bundle["text/html"].includes("<caption>Run &lt;1&gt;</caption>"));
 * assert.ok(bundle["text/html"].includes("<tr><th>W</th><td>1.500</td></tr>"));
 * ```
 */
export function summaryBundle(
  title: string,
  rows: readonly (readonly [string, string])[],
): TextHtmlBundle {
  const width = Math.max(0, ...rows.map(([label]) => label.length));
  const text = [title, ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)];
  const html = [
    `<table class="coordlab-summary">`,
    `<caption>${escapeHtml(title)}</caption>`,
    `<tbody>`,
    ...rows.map(([label, value]) =>
      `<tr><th>${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`
    ),
    `</tbody>`,
    `</table>`,
  ];
  return { "text/plain": text.join("\n"), "text/html": html.join("\n") };
}

/**
 * A number with a fixed number of decimals, as summaries and tables print
 * it: never `-0.000`, and `NaN` or `inf` for non-finite values.
 *
 * @param value The number.
 * @param decimals Digits after the point.
 * @returns The text.
 *
 * @example
 * ```ts
 * import { fixedText } from "./jupyter.ts";
 * if ([fixedText(0.0178757, 3), fixedText(-1e-9, 3), fixedText(-Infinity, 3)].join() !== "0.018,0.000,-inf") {
 *   throw new Error();
 * }
 * ```
 */
export function fixedText(value: number, decimals: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  const text = value.toFixed(decimals);
  return /^-[0.]*$/.test(text) ? text.slice(1) : text;
}

/** What {@linkcode episodeSummary} shows of an episode. */
export interface EpisodeFacts {
  /** The condition id (`episode_start.condition_id`). */
  condition: string;
  /** The episode id. */
  episode: string;
  /** The outcome. */
  outcome: EpisodeOutcome;
}

/**
 * The summary an episode result shows in a notebook: its condition, its
 * outcome (success or the failure kind, and the rounds played), the
 * welfare W and its realization W~, each with 3 decimals.
 *
 * @param facts The condition and episode ids and the outcome.
 * @returns The text and HTML bundle.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { episodeSummary } from "./jupyter.ts";
 *
 * const bundle = episodeSummary({
 *   condition: "bank_run_M0_stable",
 *   episode: "e1",
 *   outcome: {
 *     success: false, failure: "insolvency", rounds: 3, payoffs: {}, welfare: 12.34567,
 *     welfareRealization: 0.25, bounds: { worst: 10, best: 20 },
 *   },
 * });
 * assert.equal(
 *   bundle["text/plain"],
 *   "Episode e1\n  condition  bank_run_M0_stable\n  outcome    failure (insolvency) after 3 rounds\n" +
 *     "  W          12.346\n  W~         0.250",
 * );
 * ```
 */
export function episodeSummary(facts: EpisodeFacts): TextHtmlBundle {
  const { outcome } = facts;
  const rounds = `${outcome.rounds} round${outcome.rounds === 1 ? "" : "s"}`;
  const result = outcome.success
    ? "success"
    : `failure${outcome.failure ? ` (${outcome.failure})` : ""}`;
  return summaryBundle(`Episode ${facts.episode}`, [
    ["condition", facts.condition],
    ["outcome", `${result} after ${rounds}`],
    ["W", fixedText(outcome.welfare, 3)],
    ["W~", fixedText(outcome.welfareRealization, 3)],
  ]);
}

/**
 * Makes a promise say so when a notebook uses it without `await`: a cell
 * that ends with it shows "`call` returned a Promise: put await before it"
 * (text and HTML) instead of `Promise { <pending> }`, and reading one of
 * the result's `fields` on the promise throws a `TypeError` saying the same,
 * instead of giving `undefined`. Awaiting it is unchanged.
 *
 * @param promise The promise a toolkit function returns.
 * @param call How the call is written, e.g. `"runGrid(...)"`.
 * @param fields Fields of the resolved value (not of a promise) that throw on the promise.
 * @returns The same promise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { awaitHint, JUPYTER_DISPLAY } from "./jupyter.ts";
 *
 * const p = awaitHint(Promise.resolve({ dir: "runs/x" }), "runGrid(...)", ["dir"]);
 * const bundle = (p as unknown as Record<symbol, () => Record<string, string>>)[JUPYTER_DISPLAY]();
 * assert.ok(bundle["text/plain"].startsWith("runGrid(...) returned a Promise"));
 * assert.throws(() => (p as unknown as { dir: string }).dir, TypeError);
 * assert.equal((await p).dir, "runs/x");
 * ```
 */
export function awaitHint<T>(
  promise: Promise<T>,
  call: string,
  fields: readonly string[],
): Promise<T> {
  const message = `${call} returned a Promise: put await before it, ` +
    `as in \`const result = await ${call}\`, to get its result.`;
  withJupyterDisplay(promise, () => ({
    "text/plain": message,
    "text/html": `<p class="coordlab-await">${escapeHtml(message)}</p>`,
  }));
  for (const field of fields) {
    if (field in promise) continue;
    Object.defineProperty(promise, field, {
      get() {
        throw new TypeError(
          `${message} (".${field}" is a field of the result, not of the Promise)`,
        );
      },
      enumerable: false,
      configurable: true,
    });
  }
  return promise;
}

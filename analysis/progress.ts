/**
 * Progress shown in place in a notebook: one output that a long computation
 * (such as `loadRuns()` over thousands of logs) updates, through
 * `Deno.jupyter.display(bundle, { raw: true, display_id, update: true })`.
 * Outside Jupyter nothing is shown; the latest bundle stays readable.
 *
 * @module
 */

import { escapeHtml } from "./_html.ts";

/** A progress bundle: an HTML `<progress>` bar and a plain-text twin. */
export interface ProgressBundle {
  /** HTML with a `<progress>` element and the count. */
  "text/html": string;
  /** E.g. `Loading runs: 120/400 (30%)`. */
  "text/plain": string;
}

/** How a bundle is sent: `Deno.jupyter.display`'s signature. */
export type DisplayFunction = (
  bundle: ProgressBundle,
  options: { raw: true; display_id: string; update?: boolean },
) => Promise<void> | void;

/** Options for {@linkcode progressDisplay}. */
export interface ProgressDisplayOptions {
  /**
   * The display id that ties the updates to one output.
   *
   * @default {a fresh random id}
   */
  displayId?: string;
  /**
   * Least change of the shown percentage between two updates (the last
   * update is always sent).
   *
   * @default {1}
   */
  stepPercent?: number;
  /**
   * Sends the bundles.
   *
   * @default {`Deno.jupyter.display` inside the Jupyter kernel, otherwise nothing}
   */
  display?: DisplayFunction;
}

/** A progress output; pass `update` as a loader's `onProgress`. */
export interface ProgressDisplay {
  /** Shows `done` of `total`. */
  update(done: number, total: number): void;
  /** Waits until every bundle sent so far has been delivered. */
  flush(): Promise<void>;
  /** The latest bundle, or `undefined` before the first update. */
  readonly last: ProgressBundle | undefined;
  /** The display id used. */
  readonly displayId: string;
}

/**
 * Creates a progress output that updates in place.
 *
 * @param label What is in progress, e.g. `"Loading runs"`.
 * @param options Display id, update granularity and the display function.
 * @returns The progress display.
 *
 * @example Track a loop (outside Jupyter only `last` changes)
 * ```ts
 * import assert from "node:assert/strict";
 * import { progressDisplay } from "./progress.ts";
 *
 * const sent: unknown[] = [];
 * const progress = progressDisplay("Loading runs", {
 *   displayId: "load-1",
 *   display: (bundle, options) => void sent.push({ text: bundle["text/plain"], ...options }),
 * });
 * for (let done = 1; done <= 4; done++) progress.update(done, 4);
 * await progress.flush();
 * assert.equal(progress.last?.["text/plain"], "Loading runs: 4/4 (100%)");
 * assert.deepEqual(sent[0], { text: "Loading runs: 1/4 (25%)", raw: true, display_id: "load-1" });
 * assert.deepEqual(sent[3], {
 *   text: "Loading runs: 4/4 (100%)", raw: true, display_id: "load-1", update: true,
 * });
 * ```
 */
export function progressDisplay(
  label: string,
  options: ProgressDisplayOptions = {},
): ProgressDisplay {
  const {
    displayId = `coordlab-progress-${crypto.randomUUID()}`,
    stepPercent = 1,
    display = jupyterDisplay(),
  } = options;
  let last: ProgressBundle | undefined;
  let shownPercent = -Infinity;
  let sentAny = false;
  let pending: Promise<void> = Promise.resolve();
  return {
    displayId,
    get last() {
      return last;
    },
    update(done: number, total: number) {
      const percent = total > 0 ? Math.floor((100 * done) / total) : 100;
      last = progressBundle(label, done, total);
      if (display === undefined) return;
      if (done < total && percent - shownPercent < stepPercent) return;
      shownPercent = percent;
      const bundle = last;
      const update = sentAny;
      sentAny = true;
      pending = pending.then(() =>
        display(bundle, { raw: true, display_id: displayId, ...(update ? { update } : {}) })
      ).catch(() => {});
    },
    flush() {
      return pending;
    },
  };
}

/**
 * The bundle showing `done` of `total`.
 *
 * @param label What is in progress.
 * @param done Units done.
 * @param total Units in all.
 * @returns The bundle; the label is escaped in the HTML.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { progressBundle } from "./progress.ts";
 *
 * const bundle = progressBundle("<runs>", 1, 3);
 * assert.equal(bundle["text/plain"], "<runs>: 1/3 (33%)");
 * assert.ok(bundle["text/html"].includes('<progress value="1" max="3">'));
 * assert.ok(bundle["text/html"].includes("&lt;runs&gt;"));
 * ```
 */
export function progressBundle(label: string, done: number, total: number): ProgressBundle {
  const percent = total > 0 ? Math.floor((100 * done) / total) : 100;
  const text = `${label}: ${done}/${total} (${percent}%)`;
  return {
    "text/html": `<div class="coordlab-progress"><progress value="${done}" max="${total}">` +
      `</progress> <span>${escapeHtml(text)}</span></div>`,
    "text/plain": text,
  };
}

function jupyterDisplay(): DisplayFunction | undefined {
  try {
    const jupyter = Deno.jupyter;
    if (typeof jupyter?.display !== "function") return undefined;
    return (bundle, options) => jupyter.display(bundle, options);
  } catch {
    return undefined;
  }
}

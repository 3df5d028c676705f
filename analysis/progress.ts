/**
 * Progress shown in place in a notebook: one output that a long computation
 * (such as `loadRuns()` over thousands of logs) updates, through the
 * toolkit's one progress module (`engine/core/progress.ts`, which sends
 * `Deno.jupyter.display(bundle, { raw: true, display_id, update: true })`).
 * Outside Jupyter nothing is shown; the latest bundle stays readable.
 *
 * @module
 */

import type { DisplayFunction } from "../engine/core/jupyter.ts";
import {
  notebookProgress,
  type ProgressBundle,
  type ProgressSendOptions,
} from "../engine/core/progress.ts";

export type { DisplayFunction, ProgressBundle, ProgressSendOptions };

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
  display?: DisplayFunction<ProgressBundle, ProgressSendOptions>;
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
 * Creates a progress output that updates in place, showing
 * `<label>: <done>/<total> (<percent>%)` beside a bar.
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
  const output = notebookProgress(({ done, total }: { done: number; total: number }) => {
    const percent = total > 0 ? Math.floor((100 * done) / total) : 100;
    return { done, total, text: `${label}: ${done}/${total} (${percent}%)` };
  }, {
    display: options.display,
    displayId: options.displayId,
    stepPercent: options.stepPercent ?? 1,
    intervalMs: 0,
  });
  return {
    displayId: output.displayId,
    get last() {
      return output.last;
    },
    update(done: number, total: number) {
      output.update({ done, total });
    },
    flush() {
      return output.flush();
    },
  };
}

/**
 * The one guarded access to the Deno Jupyter kernel's display function.
 * Reading `Deno.jupyter` throws outside the kernel, so every notebook output
 * of the toolkit (progress displays, charts, tables) goes through
 * {@linkcode jupyterDisplay}, which returns `undefined` there instead.
 *
 * @module
 */

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

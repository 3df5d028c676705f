// Vega, Vega-Lite and resvg, loaded when the first chart is drawn.
//
// Together they take about 125 ms to load (Vega and Vega-Lite 85 ms each,
// sharing most of it; resvg, a native addon, 30 ms), and most programs that
// import the analysis layer (every test file, doc example and CLI that
// touches it) draw no chart. The functions that draw are async already, so
// they await these loaders instead of importing the packages at load; each
// loader imports its packages once and hands every caller the same modules.

import "../_node_warnings.ts"; // first: silences the `punycode` warning Vega's loader causes
import type * as VegaModule from "npm:vega@5.33.1";
import type { compile as compileVegaLite } from "npm:vega-lite@5.23.0";
import type { Resvg as ResvgClass } from "npm:@resvg/resvg-js@2.6.2";

/** The modules a chart is compiled and drawn with. */
export interface VegaModules {
  /** The `npm:vega` module. */
  vega: typeof VegaModule;
  /** Vega-Lite's `compile`. */
  compile: typeof compileVegaLite;
}

let vegaModules: Promise<VegaModules> | undefined;
let resvgClass: Promise<typeof ResvgClass> | undefined;

/** Vega and Vega-Lite, imported on the first call. */
export function loadVega(): Promise<VegaModules> {
  vegaModules ??= Promise.all([import("npm:vega@5.33.1"), import("npm:vega-lite@5.23.0")])
    .then(([vega, vegaLite]) => ({ vega, compile: vegaLite.compile }));
  return vegaModules;
}

/** resvg's `Resvg` class, imported on the first call. */
export function loadResvg(): Promise<typeof ResvgClass> {
  resvgClass ??= import("npm:@resvg/resvg-js@2.6.2").then((resvg) => resvg.Resvg);
  return resvgClass;
}

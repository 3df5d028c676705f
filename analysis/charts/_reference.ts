/**
 * Dashed reference lines with their labels, drawn the same way by every chart
 * builder that marks a threshold or a boundary (a run threshold, 1 - M/N,
 * q-hat = q*, the FRAIL critical boundaries).
 *
 * @module
 */

import type { VegaLiteSpec } from "./spec.ts";

/** One layer of a layered Vega-Lite spec. */
export type Layer = Extract<VegaLiteSpec, { layer: unknown }>["layer"][number];

/**
 * The grey of reference lines and their labels.
 *
 * @example
 * ```ts
 * import { REFERENCE_COLOR } from "./_reference.ts";
 * if (REFERENCE_COLOR !== "#666666") throw new Error();
 * ```
 */
export const REFERENCE_COLOR = "#666666";

/** Options of {@linkcode referenceLayers}. */
export interface ReferenceLayerOptions {
  /** Field holding the line's position on its axis. */
  value: string;
  /** Field holding the label text. */
  label: string;
  /** Font size of the label. @default {the Vega-Lite default} */
  fontSize?: number;
  /** Title of the position's axis. @default {none} */
  title?: string;
}

/**
 * A dashed rule and its label. On the `"x"` axis the rule is vertical and
 * labelled at its top right; on the `"y"` axis it is horizontal and
 * labelled just above its left end. The label is drawn twice: first as a
 * white halo (the text stroked wide in white), then as the text, so that
 * data lines drawn before these layers pass behind the label instead of
 * striking it through. The layers carry no data: callers add `data` or a
 * filtering `transform`, and put the layers after the data's.
 *
 * @param axis The axis on which the line has its position.
 * @param options Its fields, label size and axis title.
 * @returns The rule layer, the label's halo layer, then the label layer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { referenceLayers } from "./_reference.ts";
 *
 * const [rule, halo, label] = referenceLayers("y", { value: "y", label: "name" });
 * assert.deepEqual(rule.encoding, { y: { field: "y", type: "quantitative" } });
 * assert.deepEqual(label.encoding?.x, { value: 0 });
 * assert.equal((halo as { mark: { stroke: string } }).mark.stroke, "white");
 * ```
 */
export function referenceLayers(
  axis: "x" | "y",
  options: ReferenceLayerOptions,
): [Layer, Layer, Layer] {
  const { value, label, fontSize, title } = options;
  const position = {
    field: value,
    type: "quantitative",
    ...(title === undefined ? {} : { title }),
  } as const;
  const text = { field: label, type: "nominal" } as const;
  const size = fontSize === undefined ? {} : { fontSize };
  const rule: Layer = {
    mark: { type: "rule", strokeDash: [6, 4], color: REFERENCE_COLOR },
    encoding: axis === "x" ? { x: position } : { y: position },
  };
  const caption: Layer = axis === "x"
    ? {
      mark: {
        type: "text",
        align: "left",
        baseline: "top",
        dx: 4,
        ...size,
        color: REFERENCE_COLOR,
      },
      encoding: { x: position, y: { value: 0 }, text },
    }
    : {
      mark: {
        type: "text",
        align: "left",
        baseline: "bottom",
        dx: 4,
        dy: -2,
        ...size,
        color: REFERENCE_COLOR,
      },
      encoding: { x: { value: 0 }, y: position, text },
    };
  const mark = caption.mark as unknown as Record<string, unknown>;
  const halo: Layer = {
    ...caption,
    mark: { ...mark, color: "white", stroke: "white", strokeWidth: 4, strokeJoin: "round" },
  } as Layer;
  return [rule, halo, caption];
}

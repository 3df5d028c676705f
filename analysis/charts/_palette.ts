/**
 * Fixed colours, so that one mechanism, belief rule or model has the same
 * colour in every chart of a notebook, whatever subset a chart draws:
 * - mechanisms M0-M3: one colour each, always the same;
 * - belief rules: the paper's three (naive, carryover, outcome alignment)
 *   keep theirs; any other rule takes the next colour of a fixed palette in
 *   the order the rows first name it (a notebook's new rule comes after the
 *   paper's, so it gets the fourth colour and the paper's keep theirs);
 * - models: each model's colour is picked by a hash of its name (FNV-1a)
 *   in a palette of ten, so it does not depend on which other models a
 *   chart shows; two models of one chart that hash to the same colour are
 *   told apart by giving the later one (by name) the next free colour.
 *
 * The colours are those of Vega's default `tableau10` scheme.
 *
 * @module
 */

/** Vega's `tableau10` scheme, in its order. */
const TABLEAU10 = [
  "#4c78a8",
  "#f58518",
  "#e45756",
  "#72b7b2",
  "#54a24b",
  "#eeca3b",
  "#b279a2",
  "#ff9da6",
  "#9d755d",
  "#bab0ac",
] as const;

/**
 * The colour of each mechanism (those charts drew with all four present).
 *
 * @example
 * ```ts
 * import { MECHANISM_COLORS } from "./_palette.ts";
 * if (MECHANISM_COLORS.M0 !== "#4c78a8") throw new Error();
 * ```
 */
export const MECHANISM_COLORS: Readonly<Record<string, string>> = {
  M0: TABLEAU10[0],
  M1: TABLEAU10[1],
  M2: TABLEAU10[2],
  M3: TABLEAU10[3],
};

/**
 * The colour of each of the paper's belief rules.
 *
 * @example
 * ```ts
 * import { PAPER_RULE_COLORS } from "./_palette.ts";
 * if (PAPER_RULE_COLORS.carryover !== "#f58518") throw new Error();
 * ```
 */
export const PAPER_RULE_COLORS: Readonly<Record<string, string>> = {
  naive: TABLEAU10[0],
  carryover: TABLEAU10[1],
  outcome_alignment: TABLEAU10[4],
};

/** Colours for rules other than the paper's, in order. */
const NEW_RULE_COLORS = TABLEAU10.filter((c) => !Object.values(PAPER_RULE_COLORS).includes(c));

/** A Vega-Lite colour scale: the categories and their colours, index by index. */
export interface ColorScale {
  /** The categories, in legend order. */
  domain: string[];
  /** Their colours. */
  range: string[];
}

/**
 * The colour scale of the mechanisms in `values`: those present, in the
 * order M0-M3, each with its colour of {@linkcode MECHANISM_COLORS}; an
 * unknown id comes last, in grey.
 *
 * @param values The mechanism of each row.
 * @returns The scale.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mechanismColors } from "./_palette.ts";
 *
 * assert.deepEqual(mechanismColors(["M3", "M1", "M3"]), {
 *   domain: ["M1", "M3"],
 *   range: ["#f58518", "#72b7b2"],
 * });
 * ```
 */
export function mechanismColors(values: Iterable<unknown>): ColorScale {
  return fixedThenOthers(values, MECHANISM_COLORS, () => TABLEAU10[9]);
}

/**
 * The colour scale of the belief rules in `values`: the paper's rules
 * present, in the paper's order, with their colours; then the other rules
 * in order of first appearance, with the palette's remaining colours in
 * turn (repeating after seven new rules).
 *
 * @param values The rule of each row.
 * @returns The scale.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ruleColors } from "./_palette.ts";
 *
 * const paper = ruleColors(["naive", "carryover", "outcome_alignment"]);
 * const added = ruleColors(["naive", "carryover", "outcome_alignment", "mine"]);
 * assert.deepEqual(added.range.slice(0, 3), paper.range);
 * assert.deepEqual(added.domain, ["naive", "carryover", "outcome_alignment", "mine"]);
 * assert.equal(added.range[3], "#e45756");
 * ```
 */
export function ruleColors(values: Iterable<unknown>): ColorScale {
  return fixedThenOthers(
    values,
    PAPER_RULE_COLORS,
    (i) => NEW_RULE_COLORS[i % NEW_RULE_COLORS.length],
  );
}

/**
 * The categories of `values` that `fixed` colours, in its order and with
 * its colours, then the others in order of first appearance, the i-th of
 * them coloured `other(i)`.
 */
function fixedThenOthers(
  values: Iterable<unknown>,
  fixed: Readonly<Record<string, string>>,
  other: (index: number) => string,
): ColorScale {
  const present = distinct(values);
  const known = Object.keys(fixed).filter((value) => present.includes(value));
  const rest = present.filter((value) => !(value in fixed));
  return {
    domain: [...known, ...rest],
    range: [...known.map((value) => fixed[value]), ...rest.map((_, i) => other(i))],
  };
}

/**
 * The colour scale of the models in `values`, sorted by name: each model
 * takes the palette colour its name hashes to, or the next free one when a
 * model earlier by name took it (with more than ten models colours repeat).
 *
 * @param values The model of each row.
 * @returns The scale.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { modelColors } from "./_palette.ts";
 *
 * const both = modelColors(["Qwen", "GLM"]);
 * assert.deepEqual(both, { domain: ["GLM", "Qwen"], range: ["#f58518", "#9d755d"] });
 * // A chart of one of them gives it the same colour.
 * assert.equal(modelColors(["Qwen"]).range[0], "#9d755d");
 * // "gpt-4o" and "qwen-2.5" hash to one colour: the later by name takes the next.
 * assert.deepEqual(modelColors(["qwen-2.5", "gpt-4o"]).range, ["#54a24b", "#eeca3b"]);
 * ```
 */
export function modelColors(values: Iterable<unknown>): ColorScale {
  const domain = distinct(values).sort();
  const taken = new Set<number>();
  const range = domain.map((model) => {
    let slot = fnv1a(model) % TABLEAU10.length;
    while (taken.has(slot) && taken.size < TABLEAU10.length) slot = (slot + 1) % TABLEAU10.length;
    taken.add(slot);
    return TABLEAU10[slot];
  });
  return { domain, range };
}

/** Distinct values as strings, in order of first appearance. */
function distinct(values: Iterable<unknown>): string[] {
  return [...new Set([...values].map(String))];
}

/** The 32-bit FNV-1a hash of a string's UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * Dash patterns of lines that may lie on one another (two mechanisms both
 * at 0, a line at its cap under another): the first solid, the others
 * dashed each its own way, so the line underneath shows through the gaps
 * of the one above. Repeats after four.
 */
const DASHES: readonly (readonly number[])[] = [[1, 0], [7, 3], [2, 2], [8, 3, 2, 3]];

/**
 * The dash pattern of each category of `domain`, in order: see `DASHES`.
 *
 * @param domain The categories, e.g. a colour scale's domain.
 * @returns A Vega-Lite `strokeDash` scale.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lineDashes } from "./_palette.ts";
 *
 * assert.deepEqual(lineDashes(["M0", "M1"]), { domain: ["M0", "M1"], range: [[1, 0], [7, 3]] });
 * ```
 */
export function lineDashes(domain: readonly string[]): { domain: string[]; range: number[][] } {
  return { domain: [...domain], range: domain.map((_, i) => [...DASHES[i % DASHES.length]]) };
}

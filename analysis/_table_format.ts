// How the notebook display lays out a Polars frame: key columns first, rows
// in a stable order, numbers with a fixed number of decimals, counts as
// integers. Everything here is deterministic: a frame with the same rows in
// any order gives the same text, so re-executed notebooks do not change.

import pl from "npm:nodejs-polars@0.25.2";
import { paperRules } from "../engine/games/staghunt/beliefs/paper_rules.ts";
import { fixedText } from "../engine/core/jupyter.ts";
import { CONDITION_KEYS, sortByConditions } from "./conditions.ts";
import { ACTION_MEASURES } from "./frail/action_measures.ts";
import { SCORECARD_DIMENSIONS } from "./frail/scorecard.ts";
import { TRAJECTORY_PANELS } from "./frail/trajectories.ts";

/**
 * Orders of the values of the toolkit's own categorical columns (besides
 * the condition keys, which `sortByConditions` orders): the order their
 * tables list them in. Other values come after these, alphabetically.
 */
const VALUE_ORDERS: Readonly<Record<string, readonly string[]>> = {
  rule: paperRules().map((rule) => rule.id),
  panel: TRAJECTORY_PANELS,
  dimension: SCORECARD_DIMENSIONS,
  measure: Object.keys(ACTION_MEASURES),
  layer: ["public", "original"],
  baseline: ["included", "excluded"],
};

/** Dtypes Polars sorts by value. */
const SORTABLE =
  /^(U?Int\d+|Float\d+|Bool|String|Utf8|Date|Datetime.*|Time|Duration.*|Categorical)$/;

const FLOAT = /^Float\d+$/;
const NUMERIC = /^(U?Int\d+|Float\d+|Decimal.*)$/;

/**
 * The frame as displayed: the condition key columns first (in the frame's
 * order), then the others; with `sort`, the rows sorted by the key columns
 * (environments, mechanisms, regimes and corruption modes in the papers'
 * order), ties broken by every other sortable column in turn (belief rules,
 * Figure 4 panels, scorecard dimensions, action measures, history layers
 * and baselines in the toolkit's order, other text alphabetically, numbers
 * by value). A frame without key columns keeps its order.
 */
export function displayFrame(df: pl.DataFrame, sort: boolean): pl.DataFrame {
  const keys = df.columns.filter((name) => CONDITION_KEYS.includes(name));
  const ordered = [...keys, ...df.columns.filter((name) => !keys.includes(name))];
  const frame = ordered.every((name, i) => df.columns[i] === name) ? df : df.select(...ordered);
  if (!sort || keys.length === 0 || frame.height < 2) return frame;
  const sortable = ordered.filter((_name, i) => SORTABLE.test(frame.dtypes[i].variant));
  const ranked = sortable.filter((name) => name in VALUE_ORDERS && !keys.includes(name));
  // A known value's rank is its place in the order; any other value comes after them all.
  const rank = (name: string) => {
    const order = VALUE_ORDERS[name];
    // The positional form: nodejs-polars 0.25.2 maps every value to the default with the object form.
    return pl.col(name).cast(pl.Utf8)
      .replaceStrict([...order], order.map((_, i) => i), order.length, pl.Int32)
      .alias(`__display_rank_${name}`);
  };
  const by = sortable.flatMap((name) =>
    ranked.includes(name) ? [`__display_rank_${name}`, name] : [name]
  );
  // sortByConditions ranks the key columns in the papers' order.
  const withRanks = ranked.length === 0 ? frame : frame.withColumns(...ranked.map(rank));
  return sortByConditions(withRanks, by).select(...ordered);
}

/** Formats the cells of one column for display. */
export type CellFormatter = (value: unknown) => string;

/**
 * The formatter of a column: floats with `decimals` digits after the point,
 * unless every value of the column is a whole number (then as integers, as
 * counts that Polars made floats should read); integers and text as they
 * are; nulls as `null`; dates in ISO 8601; lists and structs as JSON with
 * their fractional numbers rounded to `decimals`.
 */
export function cellFormatter(series: pl.Series, decimals: number): CellFormatter {
  const dtype = series.dtype.variant;
  if (FLOAT.test(dtype)) {
    const values = series.toArray() as (number | null)[];
    const whole = values.every((v) => v === null || Number.isInteger(v));
    return (value) => {
      if (value === null || value === undefined) return "null";
      const number = value as number;
      return whole ? String(number === 0 ? 0 : number) : fixedText(number, decimals);
    };
  }
  return (value) => cellText(value, decimals);
}

/** Formats one table cell as plain text (escape it before use in HTML). */
export function cellText(value: unknown, decimals = 3): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return value;
  if (typeof value === "number") {
    return Number.isInteger(value) ? String(value) : fixedText(value, decimals);
  }
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") {
    return JSON.stringify(
      value,
      (_key, inner) =>
        typeof inner === "bigint"
          ? String(inner)
          : typeof inner === "number" && Number.isFinite(inner) && !Number.isInteger(inner)
          ? Number(inner.toFixed(decimals))
          : inner,
    );
  }
  return String(value);
}

/** Whether a column's values are numbers (right-aligned in text). */
export function isNumeric(series: pl.Series): boolean {
  return NUMERIC.test(series.dtype.variant);
}

/** Options for {@linkcode textTable}. */
export interface TextTableOptions {
  /** Column names. */
  header: readonly string[];
  /** Dtype names, under the header. */
  dtypes: readonly string[];
  /** Formatted cells, row by row. */
  rows: readonly (readonly string[])[];
  /** Which columns to right-align. */
  right: readonly boolean[];
  /** Lines above the table (caption, shape) and below it (rows not shown). */
  above: readonly string[];
  below: readonly string[];
}

/** Widest a text cell gets; longer cells end with `…`. */
const MAX_TEXT_CELL = 60;

/**
 * A fixed-width text table: header, dtypes, a rule and the rows, columns
 * two spaces apart, numbers right-aligned; newlines in cells shown as `\n`
 * and cells longer than 60 characters cut with `…`.
 */
export function textTable(options: TextTableOptions): string {
  const { header, dtypes, rows, right, above, below } = options;
  const clip = (text: string) => {
    const flat = text.replace(/\r?\n/g, "\\n");
    return flat.length > MAX_TEXT_CELL ? `${flat.slice(0, MAX_TEXT_CELL - 1)}…` : flat;
  };
  const cells = rows.map((row) => row.map(clip));
  const widths = header.map((name, i) =>
    Math.max(name.length, dtypes[i].length, ...cells.map((row) => row[i].length))
  );
  const line = (row: readonly string[]) =>
    row.map((cell, i) => right[i] ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))
      .join("  ").trimEnd();
  return [
    ...above,
    line(header.map(clip)),
    line(dtypes),
    line(widths.map((width) => "-".repeat(width))),
    ...cells.map(line),
    ...below,
  ].join("\n");
}

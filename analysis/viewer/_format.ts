// Text and HTML helpers of the viewer. Every value that reaches HTML goes
// through `esc` (or a helper built on it): logged strings can hold agent
// text, which is untrusted.

import { EVENT_BASE_FIELDS } from "../../engine/core/events.ts";
import { escapeHtml } from "../_html.ts";
import { isRecord } from "./_condition.ts";

/** Escapes text for HTML element content and quoted attributes. */
export const esc: (text: string) => string = escapeHtml;

/** Fields every event carries, left out when an event's own fields are listed. */
export const BASE_FIELDS: ReadonlySet<string> = EVENT_BASE_FIELDS;

/**
 * Formats a number for reading: integers as they are, others with at most
 * `digits` decimals (trailing zeros dropped), tiny non-zero values with two
 * significant digits.
 */
export function fmtNumber(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return String(value);
  const rounded = Number(value.toFixed(digits));
  if (rounded === 0) return value.toPrecision(2);
  return String(rounded);
}

/** Formats any JSON value as one line of plain text (escape it before use in HTML). */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number") return fmtNumber(value);
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (Array.isArray(value)) {
    if (value.length === 0) return "none";
    const records = value.some((item) => isRecord(item) || Array.isArray(item));
    return value.map(valueText).join(records ? "; " : ", ");
  }
  if (isRecord(value)) {
    return Object.entries(value)
      .map(([key, inner]) =>
        `${key}: ${
          isRecord(inner) || Array.isArray(inner) ? `[${valueText(inner)}]` : valueText(inner)
        }`
      )
      .join(", ");
  }
  return String(value);
}

/** A number as HTML, its exact value in the tooltip. */
export function numHtml(value: unknown, digits = 3): string {
  if (typeof value !== "number") return esc(valueText(value));
  const shown = fmtNumber(value, digits);
  const exact = String(value);
  return shown === exact ? shown : `<span title="${exact}">${shown}</span>`;
}

/** A value as HTML: numbers with their exact value in the tooltip, everything else escaped text. */
export function valueHtml(value: unknown): string {
  return typeof value === "number" ? numHtml(value) : esc(valueText(value));
}

/** The fields of an event other than the base ones and `skip`, as `key value` pairs in HTML (keys in words). */
export function fieldsHtml(event: Record<string, unknown>, skip: readonly string[] = []): string {
  return Object.entries(event)
    .filter(([key]) => !BASE_FIELDS.has(key) && !skip.includes(key))
    .map(([key, value]) =>
      `<span class="f"><i>${esc(humanKey(key))}</i> ${valueHtml(value)}</span>`
    )
    .join(" ");
}

/** A two-column key/value table, each key shown through `label`; `null` when the record is empty. */
export function kvTable(
  record: Record<string, unknown>,
  label: (key: string) => string = (key) => key,
): string | null {
  const entries = Object.entries(record);
  if (entries.length === 0) return null;
  const rows = entries.map(([key, value]) =>
    `<tr><th>${esc(label(key))}</th><td>${valueHtml(value)}</td></tr>`
  );
  return `<table class="kv">${rows.join("")}</table>`;
}

/** A plain HTML table from escaped header names and ready HTML cells. */
export function table(
  headers: readonly string[],
  rows: readonly string[][],
  className = "",
): string {
  const head = headers.map((h) => `<th>${esc(h)}</th>`).join("");
  const body = rows.map((cells) => `<tr>${cells.map((c) => `<td>${c}</td>`).join("")}</tr>`).join(
    "",
  );
  const cls = className === "" ? "" : ` class="${className}"`;
  return `<table${cls}><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/** Shortens text to `max` characters, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** "1 report", "2 reports". */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}

/** Labels of internal keys that word-splitting alone would not make readable. */
const LABELS: Record<string, string> = {
  overrides: "changed parameters",
  overrides_id: "parameters",
  q_star: "q*",
  central_best: "best central payoff",
  llm_calls: "model calls",
};

/**
 * A logged key as words: `depositsRemaining` and `deposits_remaining` become
 * `deposits remaining`; single letters and all-capital names (`N`, `RS`)
 * stay as they are; a few internal names get a label of their own.
 */
export function humanKey(key: string): string {
  const known = LABELS[key];
  if (known !== undefined) return known;
  if (/^[A-Z0-9]+$/.test(key)) return key;
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/_+/g, " ")
    .trim()
    .replace(
      /\b([A-Z])([a-z]+)\b/g,
      (_m, first: string, rest: string) => `${first.toLowerCase()}${rest}`,
    );
}

/** Whether a report field holds a probability in percent (the contracts' `*_probability`, 0-100). */
export function isPercentField(key: string): boolean {
  return /(^|_)probability$/.test(key);
}

/** A percentage (0-100) as `12%`, its exact value in the tooltip. */
export function percentHtml(value: unknown): string {
  if (typeof value !== "number") return esc(valueText(value));
  return `${numHtml(value, 2)}%`;
}

/** A probability (0-1) as a percentage, `12%`, its exact value in the tooltip. */
export function probabilityHtml(value: unknown): string {
  if (typeof value !== "number") return esc(valueText(value));
  const percent = Number((value * 100).toFixed(10));
  const shown = fmtNumber(percent, 2);
  return shown === String(percent)
    ? `${shown}%`
    : `<span title="${String(value)}">${shown}%</span>`;
}

/** A parameter record as words: `horizon 2, early sale price 0.85`; `""` when empty. */
export function paramsText(value: unknown): string {
  if (!isRecord(value)) return valueText(value);
  return Object.entries(value)
    .map(([key, inner]) => `${humanKey(key)} ${valueText(inner)}`)
    .join(", ");
}

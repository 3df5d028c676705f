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

/** The fields of an event other than the base ones and `skip`, as `key value` pairs in HTML. */
export function fieldsHtml(event: Record<string, unknown>, skip: readonly string[] = []): string {
  return Object.entries(event)
    .filter(([key]) => !BASE_FIELDS.has(key) && !skip.includes(key))
    .map(([key, value]) => `<span class="f"><i>${esc(key)}</i> ${valueHtml(value)}</span>`)
    .join(" ");
}

/** A two-column key/value table; `null` when the record is empty. */
export function kvTable(record: Record<string, unknown>, className = "kv"): string | null {
  const entries = Object.entries(record);
  if (entries.length === 0) return null;
  const rows = entries.map(([key, value]) =>
    `<tr><th>${esc(key)}</th><td>${valueHtml(value)}</td></tr>`
  );
  return `<table class="${className}">${rows.join("")}</table>`;
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

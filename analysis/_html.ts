// HTML helpers shared by the display module. Every piece of data that ends up
// in HTML goes through `escapeHtml`: cells can hold agent reasoning, which is
// untrusted text. The engine owns `escapeHtml` (its results show escaped
// summaries in notebooks too); analysis uses the same one.

import { escapeHtml } from "../engine/core/jupyter.ts";

export { escapeHtml };

/**
 * Serializes a value as JSON that is safe inside a `<script>` element: `<`
 * never appears literally, so the data cannot close the element.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

/** Formats one table cell as plain text (escape it before use in HTML). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") {
    return JSON.stringify(
      value,
      (_key, inner) => typeof inner === "bigint" ? String(inner) : inner,
    );
  }
  return String(value);
}

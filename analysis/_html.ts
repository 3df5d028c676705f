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

/**
 * Plain-text tables for terminals.
 *
 * @module
 */

/**
 * Formats rows under a header with aligned columns.
 *
 * @example
 * ```ts
 * import { formatTable } from "./format_table.ts";
 * const t = formatTable(["a", "bb"], [["1", "2"]]);
 * if (t.split("\n").length !== 3) throw new Error();
 * ```
 */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (r: readonly string[]) => r.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

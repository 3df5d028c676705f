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

/**
 * A line cut at spaces into lines of at most `width` characters (a word
 * longer than that stays whole); the lines after the first are indented.
 *
 * @example
 * ```ts
 * import { wrap } from "./format_table.ts";
 * if (wrap("aa bb cc", 5).join("|") !== "aa bb|  cc") throw new Error();
 * ```
 */
export function wrap(line: string, width = 100): string[] {
  const out: string[] = [];
  let current = "";
  for (const word of line.split(" ")) {
    const next = current === "" ? word : `${current} ${word}`;
    if (next.length > width && current !== "") {
      out.push(current);
      current = `  ${word}`;
    } else current = next;
  }
  out.push(current);
  return out;
}

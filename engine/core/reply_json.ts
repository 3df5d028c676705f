/**
 * Tolerant extraction of one JSON object from a model's reply: code fences,
 * leading or trailing prose and trailing commas are accepted.
 *
 * @module
 */

/**
 * Finds and parses the first balanced JSON object in `text`.
 * Returns `undefined` when there is none that parses.
 *
 * @example
 * ```ts
 * import { extractJsonObject } from "./reply_json.ts";
 * const fence = "`".repeat(3);
 * const v = extractJsonObject(`Sure!\n${fence}json\n{"withdraw_probability": 20,}\n${fence}`);
 * if ((v as { withdraw_probability: number }).withdraw_probability !== 20) throw new Error();
 * ```
 */
export function extractJsonObject(text: string): Record<string, unknown> | undefined {
  for (let start = text.indexOf("{"); start >= 0; start = text.indexOf("{", start + 1)) {
    const end = balancedEnd(text, start);
    if (end < 0) continue;
    const candidate = text.slice(start, end + 1).replace(/,\s*([}\]])/g, "$1");
    try {
      const value = JSON.parse(candidate);
      if (value !== null && typeof value === "object" && !Array.isArray(value)) return value;
    } catch {
      // try the next opening brace
    }
  }
  return undefined;
}

function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

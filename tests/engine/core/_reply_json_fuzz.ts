// Test helper: extractJsonObject() against a brute-force reading of seeded
// random replies (reply_json_test.ts 4,000 of them, reply_json_long_test.ts
// 20,000).
import { assertEquals } from "../../_assert.ts";
import { extractJsonObject } from "../../../engine/core/reply_json.ts";
import { openStream } from "../../../engine/core/rng.ts";

/**
 * The specification, by brute force: for each `{` in order, the first end at
 * which the text (dangling commas outside strings removed) is a JSON object.
 * Cubic; fine for short texts.
 */
function reference(text: string): Record<string, unknown> | undefined {
  for (let s = 0; s < text.length; s++) {
    if (text[s] !== "{") continue;
    for (let e = s + 1; e <= text.length; e++) {
      if (text[e - 1] !== "}") continue;
      try {
        const v = JSON.parse(stripDangling(text.slice(s, e)));
        if (v !== null && typeof v === "object" && !Array.isArray(v)) return v;
      } catch {
        // next end
      }
    }
  }
  return undefined;
}

function stripDangling(t: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (inString) {
      out += c;
      if (c === "\\" && i + 1 < t.length) out += t[++i];
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === "," && /^[ \t\n\r]*[}\]]/.test(t.slice(i + 1))) continue;
    out += c;
  }
  return out;
}

/**
 * Checks extractJsonObject() on the first `replies` seeded random replies
 * (the same stream whatever their number) and returns how many hold an object.
 */
export function fuzzReplies(replies: number): number {
  const alphabet = ["{", "}", "[", "]", '"', ":", ",", " ", "\\", "a", "1", "-", "n", "u", "x"];
  const rng = openStream({ seed: 12, round: 0, agent: "reply_json", purpose: "fuzz" });
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rng.uniform() * xs.length)];
  const value = (depth: number): unknown => {
    const u = rng.uniform();
    if (depth > 2 || u < 0.4) return pick([1, -0.5, "}{", ",]", "\\", null, true, "\u0041"]);
    if (u < 0.7) {
      return Array.from({ length: Math.floor(rng.uniform() * 3) }, () => value(depth + 1));
    }
    return Object.fromEntries(
      Array.from({ length: Math.floor(rng.uniform() * 3) }, (_, i) => [`k${i}`, value(depth + 1)]),
    );
  };
  let objects = 0;
  for (let k = 0; k < replies; k++) {
    // Prose, an object (with dangling commas), prose; then a few random edits.
    let text = pick(["", "x {", '"{', "ok: "]) +
      JSON.stringify({ a: value(0) }).replace(
        /([}\]])/g,
        (m) => (rng.uniform() < 0.3 ? `,${m}` : m),
      ) +
      pick(["", "}", " {}", ' {"b": 2}']);
    for (let edits = Math.floor(rng.uniform() * 3); edits > 0; edits--) {
      const at = Math.floor(rng.uniform() * text.length);
      text = text.slice(0, at) + (rng.uniform() < 0.5 ? pick(alphabet) : "") +
        text.slice(at + (rng.uniform() < 0.5 ? 1 : 0));
    }
    const expected = reference(text);
    if (expected !== undefined) objects++;
    assertEquals(extractJsonObject(text), expected, JSON.stringify(text));
  }
  return objects;
}

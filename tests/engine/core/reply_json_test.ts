import { assert, assertEquals } from "../../_assert.ts";
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

Deno.test("extractJsonObject() agrees with a brute-force reading on 20,000 seeded random replies", () => {
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
  for (let k = 0; k < 20_000; k++) {
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
  // The fuzz is not vacuous: many texts hold an object, many do not.
  assert(objects > 5000 && objects < 19_000, `${objects}`);
});

Deno.test("extractJsonObject() keeps commas and braces inside strings as they are", () => {
  assertEquals(extractJsonObject('{"a": "x, }", "b": [1, 2,],}'), { a: "x, }", b: [1, 2] });
  assertEquals(extractJsonObject('say "{" then {"ok": true}'), { ok: true });
  assertEquals(extractJsonObject('{"a": {"b": 1} x} {"c": 2}'), { b: 1 });
  assertEquals(extractJsonObject('{"__proto__": {"x": 1}}'), JSON.parse('{"__proto__": {"x": 1}}'));
});

/** Adversarial replies of about 1 MB (the kinds that made the old extraction quadratic). */
function adversarial(size: number): Record<string, string> {
  const fill = (unit: string) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  return {
    "open braces": fill("{"),
    "open brackets": fill("["),
    "nested keys never closed": fill('{"a":'),
    "nested keys, bad token at the bottom": fill('{"a":').slice(0, size - 1) + "x" +
      "}".repeat(64),
    "quoted braces": fill('"{'),
    "braces and quotes": fill('{"'),
    "string starts": fill('{"\\'),
    "arrays of open objects": fill("[{"),
    "deep valid object": '{"a":'.repeat(size / 10) + "1" + "}".repeat(size / 10),
    "prose": fill("Let me think about this { carefully. "),
  };
}

Deno.test("extractJsonObject() reads each adversarial 1 MB reply in at most 8 steps per character", () => {
  const size = 1 << 20;
  for (const [name, text] of Object.entries(adversarial(size))) {
    const steps = { count: 0 };
    const v = extractJsonObject(text, { steps });
    assert(
      steps.count <= 8 * text.length,
      `${name}: ${steps.count} steps for ${text.length} characters`,
    );
    assert(steps.count >= text.length, `${name}: the counter must see the text`);
    if (name === "deep valid object") assert(v !== undefined);
  }
});

import { assert, assertEquals } from "../../_assert.ts";
import { extractJsonObject } from "../../../engine/core/reply_json.ts";
import { fuzzReplies } from "./_reply_json_fuzz.ts";

Deno.test("extractJsonObject() agrees with a brute-force reading on 4,000 seeded random replies", () => {
  // 3,433 of the texts hold an object, 567 do not: the fuzz is not vacuous
  // (reply_json_long_test.ts: 20,000 replies).
  assertEquals(fuzzReplies(4000), 3433);
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

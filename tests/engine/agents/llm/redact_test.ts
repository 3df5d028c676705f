import { assertEquals } from "../../../_assert.ts";
import {
  looksLikeToken,
  redactSecrets,
  safeUrl,
  urlSecrets,
} from "../../../../engine/agents/llm/redact.ts";

const key = "sk-live-0123456789abcdefXYZ";

Deno.test("redactSecrets() redacts a key echoed as is, upper-case, lower-case and in base64", () => {
  const b64 = btoa(key).replace(/=+$/, "");
  const url = b64.replace(/\+/g, "-").replace(/\//g, "_");
  const text = `a ${key} b ${key.toUpperCase()} c ${key.toLowerCase()} d ${b64} e ${url}`;
  assertEquals(
    redactSecrets(text, [key]),
    "a [redacted] b [redacted] c [redacted] d [redacted] e [redacted]",
  );
});

Deno.test("redactSecrets() redacts a key inside a longer base64 text at any alignment", () => {
  for (const prefix of ["user:", "ab:", "x:"]) {
    const basic = btoa(`${prefix}${key}`);
    const out = redactSecrets(`Authorization: Basic ${basic}`, [key]);
    // The characters that depend on the neighbours may stay; the key's own part does not.
    const inner = btoa(`${prefix}${key}`).slice(Math.ceil(prefix.length * 4 / 3) + 1, -4);
    assertEquals(out.includes("[redacted]"), true, out);
    assertEquals(out.includes(inner), false, `${inner} in ${out}`);
  }
});

Deno.test("redactSecrets() redacts keys of any length, short ones only as whole tokens", () => {
  assertEquals(
    redactSecrets("key k3y, K3Y; k3ys mk3y", ["k3y"]),
    "key [redacted], [redacted]; k3ys mk3y",
  );
  assertEquals(redactSecrets("x", ["x"]), "[redacted]");
  assertEquals(
    redactSecrets('{"withdraw_probability": 5, "reasoning": "prob"}', ["prob"]),
    '{"withdraw_probability": 5, "reasoning": "[redacted]"}',
  );
  // A long key is redacted inside words too.
  assertEquals(redactSecrets(`x${key}y`, [key]), "x[redacted]y");
  assertEquals(redactSecrets("nothing here", ["", "zz-top-secret"]), "nothing here");
});

Deno.test("urlSecrets() and safeUrl() cover tokens in the path, and leave model names and versions", () => {
  const url = "https://gw.example.com/v1/0123456789abcdef0123456789abcdef/sk-proj-AbC123dEf456/" +
    "deployments/gpt-4o-mini-2024-07-18?api-version=2024-06-01&key=k-1";
  assertEquals(urlSecrets(url), [
    "k-1",
    "0123456789abcdef0123456789abcdef",
    "sk-proj-AbC123dEf456",
  ]);
  assertEquals(
    safeUrl(url),
    "https://gw.example.com/v1/[redacted]/[redacted]/deployments/gpt-4o-mini-2024-07-18" +
      "?api-version=2024-06-01&key=[redacted]",
  );
  assertEquals(safeUrl("https://api.deepseek.com/v1"), "https://api.deepseek.com/v1");
  assertEquals(safeUrl("javascript:alert(1)"), "javascript:alert(1)");
  assertEquals(looksLikeToken("AbCdEfGh12345678"), true);
  assertEquals(looksLikeToken("chat-completions"), false);
});

Deno.test("urlSecrets() and safeUrl() keep a malformed percent escape instead of throwing", () => {
  assertEquals(urlSecrets("https://u%E0:p%E0@h.example/v1"), ["u%E0", "p%E0"]);
  assertEquals(safeUrl("https://u%E0:p%E0@h.example/v1"), "https://[redacted]@h.example/v1");
});

import { z } from "npm:zod@4.6.7";
import { assertEquals } from "../../_assert.ts";
import { defineContract } from "../../../engine/core/contract.ts";
import { extractJsonObject } from "../../../engine/core/reply_json.ts";
import { canonicalJson } from "../../../engine/core/canonical_json.ts";
import { stateHash } from "../../../engine/core/hash.ts";

const withdrawal = defineContract<{ withdraw_probability: number; reasoning: string }>(
  "withdrawal",
  { withdraw_probability: { kind: "probability" }, reasoning: { kind: "text" } },
);

Deno.test("defineContract() accepts a valid report without corrections", () => {
  const r = withdrawal.parse({ withdraw_probability: 35, reasoning: "fine" });
  assertEquals(r, { value: { withdraw_probability: 35, reasoning: "fine" }, corrections: [] });
});

Deno.test("defineContract() defaults an unparseable probability to 0 and logs it", () => {
  const r = withdrawal.parse({ withdraw_probability: "maybe", reasoning: "x" });
  assertEquals(r.value.withdraw_probability, 0);
  assertEquals(r.corrections.length, 1);
  assertEquals(r.corrections[0].field, "withdraw_probability");
  assertEquals(r.corrections[0].raw, "maybe");
});

Deno.test("defineContract() rounds and clamps out-of-range probabilities", () => {
  assertEquals(
    withdrawal.parse({ withdraw_probability: 140, reasoning: "" }).value.withdraw_probability,
    100,
  );
  assertEquals(
    withdrawal.parse({ withdraw_probability: -3, reasoning: "" }).value.withdraw_probability,
    0,
  );
  assertEquals(
    withdrawal.parse({ withdraw_probability: 12.6, reasoning: "" }).value.withdraw_probability,
    13,
  );
  assertEquals(
    withdrawal.parse({ withdraw_probability: "40%", reasoning: "" }).value.withdraw_probability,
    40,
  );
});

Deno.test("defineContract() reads fenced replies with prose and trailing commas", () => {
  const fence = "`".repeat(3);
  const raw =
    `I think so.\n${fence}json\n{"withdraw_probability": 20, "reasoning": "calm",}\n${fence}`;
  const r = withdrawal.parse(raw);
  assertEquals(r.value, { withdraw_probability: 20, reasoning: "calm" });
  assertEquals(r.corrections, []);
});

Deno.test("defineContract() gives every neutral default to a reply with no JSON", () => {
  const r = withdrawal.parse("I refuse to answer");
  assertEquals(r.value, { withdraw_probability: 0, reasoning: "" });
  assertEquals(r.corrections.length, 1);
  assertEquals(r.corrections[0].field, "*");
});

Deno.test("defineContract() drops invalid list items and keeps valid ones", () => {
  const c = defineContract<{ actions: unknown[] }>("m", {
    actions: { kind: "list", item: z.object({ action: z.literal("join") }) },
  });
  const r = c.parse({ actions: [{ action: "join" }, { action: "fly" }, 3] });
  assertEquals(r.value.actions, [{ action: "join" }]);
  assertEquals(r.corrections[0].reason, "2 of 3 list items were invalid and dropped");
});

Deno.test("extractJsonObject() skips braces inside strings", () => {
  assertEquals(extractJsonObject('x {"a": "}{", "b": 1} y'), { a: "}{", b: 1 });
  assertEquals(extractJsonObject("no object"), undefined);
});

Deno.test("canonicalJson() sorts keys at every depth and stateHash() ignores key order", () => {
  assertEquals(canonicalJson({ b: { d: 1, c: 2 }, a: null }), '{"a":null,"b":{"c":2,"d":1}}');
  assertEquals(stateHash({ x: [1, { z: 1, y: 2 }] }), stateHash({ x: [1, { y: 2, z: 1 }] }));
});

Deno.test("defineContract() logs a correction when a required value is missing", () => {
  const c = defineContract<{ action: string; note: string }>("turn", {
    action: { kind: "value", schema: z.enum(["Stag", "Hare"]), default: "Hare", required: true },
    note: { kind: "value", schema: z.string(), default: "" },
  });
  const r = c.parse({});
  assertEquals(r.value, { action: "Hare", note: "" });
  assertEquals(r.corrections.map((x) => [x.field, x.reason]), [
    ["action", "Required field is missing; default used"],
  ]);
});

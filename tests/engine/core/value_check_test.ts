// Every hand-written value check gives exactly what its zod schema gives
// (the parsed value, key order and present-but-undefined keys included, or a
// rejection) on a seeded fuzz of values: so contracts repair and log
// corrections as the schemas would.
import { assertEquals } from "../../_assert.ts";
import { agreeing } from "./_value_check_fuzz.ts";

Deno.test("Hand-written value checks give what their zod schemas give on 800 seeded values each", () => {
  // Each schema accepted some of the values, so both sides were compared
  // (value_check_long_test.ts: 4,000 values each).
  assertEquals(agreeing(800), [66, 18, 19, 89, 22, 29, 35, 111]);
});

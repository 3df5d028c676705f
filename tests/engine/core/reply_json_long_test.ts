// extractJsonObject() against a brute-force reading of 20,000 seeded random
// replies (the long group; reply_json_test.ts checks the first 4,000 with
// their count of objects pinned).
import { assertEquals } from "../../_assert.ts";
import { fuzzReplies } from "./_reply_json_fuzz.ts";

Deno.test("extractJsonObject() agrees with a brute-force reading on 20,000 seeded random replies", () => {
  // Pinned: many texts hold an object, many do not.
  assertEquals(fuzzReplies(20_000), 17223);
});

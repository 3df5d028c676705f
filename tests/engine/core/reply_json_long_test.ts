// extractJsonObject() against a brute-force reading of 20,000 seeded random
// replies (the long group; reply_json_test.ts checks the first 4,000 with
// their count of objects pinned).
import { assert } from "../../_assert.ts";
import { fuzzReplies } from "./_reply_json_fuzz.ts";

Deno.test("extractJsonObject() agrees with a brute-force reading on 20,000 seeded random replies", () => {
  const objects = fuzzReplies(20_000);
  // The fuzz is not vacuous: many texts hold an object, many do not.
  assert(objects > 5000 && objects < 19_000, `${objects}`);
});

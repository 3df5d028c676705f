// DeltaWriter.state() against the state delta written piece by piece on
// 40,000 seeded edits of state texts (the long group; delta_layout_test.ts
// checks the first 8,000 with their count of deltas pinned).
import { assertEquals } from "../../_assert.ts";
import { fuzzStates } from "./_delta_fuzz.ts";

Deno.test("DeltaWriter.state() gives the piece-by-piece delta for 40,000 seeded edits of state texts", () => {
  assertEquals(fuzzStates(8000), { checked: 40000, deltas: 30656 });
});

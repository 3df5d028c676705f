// The Stag Hunt's batched oracle over 120 seeds of every condition and mock
// player option (the long group; batched_test.ts plays seeds 0-19 of each
// with the counts pinned).
import { assert, assertEquals } from "../../../_assert.ts";
import { sweep } from "./_batched_sweep.ts";

Deno.test("stagHuntBatched.play() gives the general path's outcome, tally and final state over 11,880 seeded episodes", async () => {
  const { episodes, successes, rejustified } = await sweep(120);
  assertEquals(episodes, 11880);
  // The sample holds successes, failures and changed public actions.
  assert(successes > 1500 && successes < episodes - 1500, String(successes));
  assert(rejustified > 10000, String(rejustified));
});

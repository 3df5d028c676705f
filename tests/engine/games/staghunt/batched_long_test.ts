// The Stag Hunt's batched oracle over 120 seeds of every condition and mock
// player option (the long group; batched_test.ts plays seeds 0-19 of each
// with the counts pinned).
import { assertEquals } from "../../../_assert.ts";
import { sweep } from "./_batched_sweep.ts";

Deno.test("stagHuntBatched.play() gives the general path's outcome, tally and final state over 11,880 seeded episodes", async () => {
  // Pinned: the sample holds successes, failures and changed public actions.
  assertEquals(await sweep(120), { episodes: 11880, successes: 5040, rejustified: 63726 });
});

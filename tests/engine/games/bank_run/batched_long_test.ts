// The bank run's batched path against its general path over thousands of
// seeds (the long group; batched_test.ts runs a few seeds of every case).
import { assert, assertEquals } from "../../../_assert.ts";
import type { MechanismId } from "../../../../engine/frail/types.ts";
import { BATCHED, defaultSurvivals, flippedDraws, sweep } from "./_batched_sweep.ts";

// Survivals among the 3,000 default episodes (seeds 0-2999) of each mechanism, on either path.
const DEFAULT_SUCCESSES: Record<MechanismId, number> = { M0: 462, M1: 3000, M2: 3000, M3: 2998 };

for (const mechanism of BATCHED) {
  Deno.test(`bankRunBatched.play() gives the general path's outcome, tally and final state over 9,600 seeded ${mechanism} episodes`, async () => {
    const { episodes, failed, liquidity, insolvency } = await sweep(mechanism, 40);
    assertEquals(episodes, 9600);
    // The sample holds survivals and both kinds of failure.
    assert(failed > 1000 && failed < episodes - 1000, String(failed));
    assert(liquidity > 100 && insolvency > 100, `${liquidity} ${insolvency}`);
  });

  Deno.test(`bankRunBatched.play() gives the general path's outcome on 3,000 seeds of the default ${mechanism} episode`, async () => {
    // About a fifth of defensive M0 episodes survive (mock.ts); more under a mechanism.
    assertEquals(await defaultSurvivals(mechanism, 3000), DEFAULT_SUCCESSES[mechanism]);
  });

  Deno.test(`the batched oracle fails on exactly the ${mechanism} episodes of 600 where one changed draw changes a decision`, async () => {
    const flips = await flippedDraws(mechanism, 600);
    assert(flips > 20, String(flips));
  });
}

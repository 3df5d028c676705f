// The long group (`deno task test:long`): the full debt-rollover replay sweep.
import { replaySweep } from "./_replay_sweep.ts";

Deno.test("1,000 seeded mock episodes across M0-M3 and the three regimes replay, hashed or not, and close their accounts", async () => {
  await replaySweep(1000);
});

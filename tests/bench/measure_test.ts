// The benchmarks' steady-state rule (bench/_measure.ts) on synthetic
// sequences and synthetic clocks: when the warm-up ends, what is timed, and
// what is reported when the rate never settles.
import { assert, assertEquals, assertThrows } from "../_assert.ts";
import { steadyIndex, SteadyMeter, steadyRate } from "../../bench/_measure.ts";

Deno.test("steadyIndex() finds the first window agreeing with the one before within the tolerance", () => {
  // A JIT warm-up: rising, then flat.
  assertEquals(steadyIndex([1000, 4000, 9000, 15_000, 16_000, 16_400, 16_500]), 5);
  // Exactly 5% of the larger rate agrees; a little more does not.
  assertEquals(steadyIndex([100, 95]), 1);
  assertEquals(steadyIndex([100, 94.9]), -1);
  assertEquals(steadyIndex([95, 100]), 1);
  // Falling agrees as rising does (a machine getting busier still settles).
  assertEquals(steadyIndex([200, 120, 118]), 2);
  // Still rising, or too few windows.
  assertEquals(steadyIndex([100, 150, 190, 250]), -1);
  assertEquals(steadyIndex([100]), -1);
  assertEquals(steadyIndex([]), -1);
  // Noise of 10% never agrees at 5%, does at 12%.
  const noisy = [100, 110, 100, 110, 100];
  assertEquals(steadyIndex(noisy), -1);
  assertEquals(steadyIndex(noisy, { tolerance: 0.12 }), 1);
  // Windows with no episode, or a broken clock, never agree.
  assertEquals(steadyIndex([0, 0, 0]), -1);
  assertEquals(steadyIndex([NaN, NaN, Infinity, Infinity, 5, 5]), 5);
});

Deno.test("steadyIndex() names a tolerance outside [0, 1)", () => {
  assertThrows(
    () => steadyIndex([1, 1], { tolerance: 1 }),
    RangeError,
    "tolerance must be in [0, 1), got 1",
  );
  assertThrows(() => steadyIndex([1, 1], { tolerance: -0.1 }), RangeError, "got -0.1");
});

/** A synthetic clock: each episode costs `cost(i)` ms of wall time and `cpuShare` of it in CPU. */
function clock(cost: (i: number) => number, cpuShare = 1) {
  let t = 0;
  let i = 0;
  return {
    now: () => t,
    cpu: () => t * cpuShare / 1000,
    play: () => {
      t += cost(i++);
    },
    get played() {
      return i;
    },
  };
}

Deno.test("SteadyMeter times one window after the warm-up windows agree", () => {
  // A JIT warm-up: the episode cost falls from 20 ms by 1 ms every 10 episodes, and stays at 5 ms
  // from the 151st (whole milliseconds, so the clock adds up exactly).
  const c = clock((i) => Math.max(5, 20 - Math.floor(i / 10)), 0.5);
  const meter = new SteadyMeter({ seconds: 2, window: 1, now: c.now, cpu: c.cpu });
  do c.play(); while (!meter.tick(10));
  const r = meter.result();
  assert(r.steady);
  // Windows close at the first episode at or past each second: 57 episodes by 1,005 ms,
  // 104 by 2,005 ms (the ramp ends at 1,950 ms), then 200 and 200, which agree.
  assertEquals(r.warmupRates, [57 / 1.005, 104, 200, 200]);
  assertEquals(r.warmupSeconds, 4.005);
  assertEquals([r.episodes, r.seconds, r.rate, r.cpuSeconds, r.cpuRate], [400, 2, 200, 1, 400]);
  assertEquals([r.reports, r.usPerReport], [4000, 500]);
  // Later ticks change nothing.
  assert(meter.tick(10));
  assertEquals(meter.result(), r);
});

Deno.test("SteadyMeter stops warming up at the cap and says the rate was not steady", () => {
  // The episode cost alternates 10 ms / 12 ms by the second: windows never agree within 5%.
  const c = clock(() => 0);
  let t = 0;
  const now = () => t;
  const meter = new SteadyMeter({ seconds: 1, window: 1, maxWarmup: 5, now, cpu: c.cpu });
  let n = 0;
  do {
    t += Math.floor(t / 1000) % 2 === 0 ? 10 : 12;
    n++;
  } while (!meter.tick());
  const r = meter.result();
  assertEquals([r.steady, r.warmupRates.length, r.usPerReport], [false, 5, null]);
  assert(r.warmupSeconds >= 5 && r.warmupSeconds < 5.02, String(r.warmupSeconds));
  assertEquals(steadyIndex(r.warmupRates), -1);
  assert(r.episodes > 80 && r.episodes <= 100, String(r.episodes));
});

Deno.test("SteadyMeter.result() says how far the meter got when the timing is not complete", () => {
  let t = 0;
  const meter = new SteadyMeter({ seconds: 1, window: 1, now: () => t, cpu: () => 0 });
  t = 500;
  meter.tick();
  assertThrows(() => meter.result(), Error, "The timing is not complete: warming up after 0.5 s");
  for (let i = 0; i < 3; i++) {
    t += 1000;
    meter.tick();
  }
  assertThrows(() => meter.result(), Error, "The timing is not complete: timing after 3.5 s");
});

Deno.test("SteadyMeter names an option that is not a positive number of seconds", () => {
  assertThrows(
    () => new SteadyMeter({ seconds: 0 }),
    RangeError,
    "seconds must be a positive number of seconds, got 0",
  );
  assertThrows(() => new SteadyMeter({ seconds: 1, window: NaN }), RangeError, "window must be");
  assertThrows(
    () => new SteadyMeter({ seconds: 1, maxWarmup: -1 }),
    RangeError,
    "maxWarmup must be",
  );
  assertThrows(
    () => new SteadyMeter({ seconds: 1, tolerance: 2 }),
    RangeError,
    "tolerance must be in [0, 1), got 2",
  );
});

Deno.test("steadyRate() plays consecutive seeds through the meter and counts their reports", async () => {
  let t = 0;
  const seeds: number[] = [];
  const r = await steadyRate((seed) => {
    seeds.push(seed);
    t += 10;
    return Promise.resolve({ reports: seed % 3 });
  }, {
    seconds: 1,
    window: 0.5,
    firstSeed: 7,
    now: () => t,
    cpu: () => t / 1000,
    reports: (x) => (x as { reports: number }).reports,
  });
  assertEquals(seeds, Array.from({ length: 200 }, (_, i) => 7 + i));
  assertEquals([r.steady, r.warmupSeconds, r.episodes, r.rate, r.cpuRate, r.nextSeed], [
    true,
    1,
    100,
    100,
    100,
    207,
  ]);
  // The timed episodes are seeds 107-206: their reports (seed % 3: 2, 0, 1, ...) sum to 101.
  assertEquals(r.reports, seeds.slice(100).reduce((s, x) => s + (x % 3), 0));
  assertEquals(r.reports, 101);
});

import { assertEquals, assertThrows } from "../../../_assert.ts";
import { Limiter, limitersByProvider } from "../../../../engine/agents/llm/limiter.ts";
import { parseModelConfig } from "../../../../engine/agents/llm/model_config.ts";

Deno.test("Limiter.acquire() admits at most `concurrency` calls and serves the queue first come, first served", async () => {
  const lim = new Limiter({ concurrency: 2 });
  const order: number[] = [];
  const releases = await Promise.all([lim.acquire(), lim.acquire()]);
  const waiting = [3, 4, 5].map((n) => lim.acquire().then((release) => (order.push(n), release)));
  assertEquals(lim.status(), { active: 2, queued: 3, rateWaiting: 0 });
  releases[0]();
  const r3 = await waiting[0];
  assertEquals(lim.status(), { active: 2, queued: 2, rateWaiting: 0 });
  releases[1]();
  r3();
  (await waiting[1])();
  (await waiting[2])();
  assertEquals(order, [3, 4, 5]);
  assertEquals(lim.status(), { active: 0, queued: 0, rateWaiting: 0 });
});

Deno.test("Limiter.acquire() makes the call after `requestsPerMinute` starts wait for the window", async () => {
  let now = 1_000;
  const waits: number[] = [];
  const lim = new Limiter({
    concurrency: 10,
    requestsPerMinute: 3,
    now: () => now,
    sleep: (ms) => {
      waits.push(ms);
      now += ms;
      return Promise.resolve();
    },
  });
  for (let i = 0; i < 3; i++) {
    (await lim.acquire())();
    now += 10;
  }
  // Starts at 1000, 1010, 1020; the fourth at 1030 must wait until 1000 + 60000.
  (await lim.acquire())();
  assertEquals(waits, [59_970]);
  // The fifth (now 61000) waits for the second start to leave the window: 1010 + 60000.
  (await lim.acquire())();
  assertEquals(waits, [59_970, 10]);
});

Deno.test("Limiter.acquire() counts calls waiting for the rate window in its status", async () => {
  let wake = () => {};
  const lim = new Limiter({
    concurrency: 5,
    requestsPerMinute: 1,
    sleep: () => new Promise<void>((r) => (wake = r)),
  });
  (await lim.acquire())();
  const second = lim.acquire();
  await Promise.resolve();
  assertEquals(lim.status().rateWaiting, 1);
  wake();
  (await second)();
  assertEquals(lim.status().rateWaiting, 0);
});

Deno.test("Limiter() throws a RangeError for a concurrency below 1", () => {
  assertThrows(() => new Limiter({ concurrency: 0 }), RangeError, "concurrency");
});

Deno.test("limitersByProvider() gives models of one provider the smallest limits any declares", async () => {
  const base = { baseURL: "http://127.0.0.1:1/v1", model: "m" };
  const pool = limitersByProvider([
    parseModelConfig({ ...base, id: "a", concurrency: 4 }),
    parseModelConfig({ ...base, id: "b", concurrency: 2 }),
    parseModelConfig({ ...base, id: "c", baseURL: "http://127.0.0.1:2/v1", concurrency: 7 }),
  ]);
  assertEquals([...pool.keys()], ["127.0.0.1:1", "127.0.0.1:2"]);
  const shared = pool.get("127.0.0.1:1")!;
  await shared.acquire();
  await shared.acquire();
  shared.acquire();
  assertEquals(shared.status(), { active: 2, queued: 1, rateWaiting: 0 });
});

import { assert, assertEquals, assertNotEquals } from "../../../_assert.ts";
import { cacheKey, ResponseCache } from "../../../../engine/agents/llm/cache.ts";
import { makeTempDir } from "../../../_temp.ts";

const parts = {
  provider: "api.deepseek.com",
  model: "deepseek-chat",
  messages: [{ role: "system" as const, content: "s" }, { role: "user" as const, content: "u" }],
  sampling: { temperature: 1, max_tokens: 8192 },
  sample: 3,
};
const response = {
  content: '{"withdraw_probability": 10}',
  reasoning: null,
  finish_reason: "stop",
  tokens_in: 100,
  tokens_out: 12,
  tokens_reasoning: 0,
};

Deno.test("cacheKey() changes when any of provider, model, messages, sampling or sample changes", () => {
  const k = cacheKey(parts);
  const variants = [
    { ...parts, provider: "other" },
    { ...parts, model: "deepseek-reasoner" },
    { ...parts, messages: [parts.messages[0], { role: "user" as const, content: "u2" }] },
    { ...parts, sampling: { temperature: 0.7, max_tokens: 8192 } },
    { ...parts, sample: 4 },
  ];
  for (const v of variants) assertNotEquals(cacheKey(v), k);
  assertEquals(cacheKey({ ...parts, sampling: { max_tokens: 8192, temperature: 1 } }), k);
});

Deno.test("ResponseCache.get() answers a stored response and counts hits and misses", async () => {
  const cache = new ResponseCache(await makeTempDir());
  const key = cacheKey(parts);
  assertEquals(await cache.get(key), undefined);
  await cache.put(key, response);
  assertEquals(await cache.get(key), response);
  assertEquals(await new ResponseCache(cache.dir).get(key), response);
  assertEquals(cache.stats(), { hits: 1, misses: 1, writes: 1, mismatched: 0 });
});

Deno.test("ResponseCache.get() treats an unreadable file as a miss", async () => {
  const cache = new ResponseCache(await makeTempDir());
  const key = cacheKey(parts);
  await cache.put(key, response);
  await Deno.writeTextFile(cache.pathOf(key), '{"cache": 1, "respo');
  assertEquals(await cache.get(key), undefined);
  assertEquals(cache.stats().misses, 1);
});

Deno.test("ResponseCache.put() leaves one file per key and no temporary file behind", async () => {
  const cache = new ResponseCache(await makeTempDir());
  const key = cacheKey(parts);
  await Promise.all([cache.put(key, response), cache.put(key, response)]);
  const names = [...Deno.readDirSync(`${cache.dir}/${key.slice(0, 2)}`)].map((e) => e.name);
  assertEquals(names, [`${key}.json`]);
  assert(cache.pathOf(key).endsWith(`/${key.slice(0, 2)}/${key}.json`));
});

Deno.test("ResponseCache.put() replaces a stored file get() cannot use", async () => {
  // A file of the right outline whose response fails the schema (negative
  // tokens) was kept by put() and missed by get(): every run paid again.
  const cache = new ResponseCache(await makeTempDir());
  const key = cacheKey(parts);
  await Deno.mkdir(`${cache.dir}/${key.slice(0, 2)}`, { recursive: true });
  const stale = { cache: 1, key, response: { ...response, tokens_in: -1 } };
  await Deno.writeTextFile(cache.pathOf(key), JSON.stringify(stale));
  assertEquals(await cache.get(key), undefined);
  await cache.put(key, response);
  assertEquals(await cache.get(key), response);
  assertEquals(cache.stats(), { hits: 1, misses: 1, writes: 1, mismatched: 0 });
});

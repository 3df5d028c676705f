// A response cache shared by concurrent processes: the first response stored
// under a key stays, so what any process read never changes afterwards.
import { assert, assertEquals } from "../../../_assert.ts";
import { type CachedResponse, ResponseCache } from "../../../../engine/agents/llm/cache.ts";
import { makeTempDir } from "../../../_temp.ts";

const reply = (content: string): CachedResponse => ({
  content,
  reasoning: null,
  finish_reason: "stop",
  tokens_in: 10,
  tokens_out: 2,
  tokens_reasoning: 0,
});
const KEYS = Array.from({ length: 150 }, (_, i) => i.toString(16).padStart(64, "0"));

Deno.test("ResponseCache.put() keeps the first response stored under a key, and repairs an unreadable one", async () => {
  const cache = new ResponseCache(await makeTempDir());
  const key = "ab".repeat(32);
  await cache.put(key, reply("first"));
  await cache.put(key, reply("second"));
  assertEquals((await cache.get(key))?.content, "first");
  assertEquals(cache.stats().writes, 1);
  await Deno.writeTextFile(cache.pathOf(key), '{"cache": 1, "respo');
  await cache.put(key, reply("third"));
  assertEquals((await cache.get(key))?.content, "third");
  const names = [...Deno.readDirSync(`${cache.dir}/ab`)].map((e) => e.name);
  assertEquals(names, [`${key}.json`]);
});

// Each child stores its own reply under every key, reading each back after its
// own put; it prints what it read.
const CHILD = `
import { ResponseCache } from ${
  JSON.stringify(new URL("../../../../engine/agents/llm/cache.ts", import.meta.url).href)
};
const [dir, name] = Deno.args;
const cache = new ResponseCache(dir);
const keys = JSON.parse(await Deno.readTextFile(dir + "/keys.json"));
const seen = {};
for (const key of keys) {
  await cache.put(key, { content: name + ":" + key, reasoning: null, finish_reason: "stop",
    tokens_in: 1, tokens_out: 1, tokens_reasoning: 0 });
  seen[key] = (await cache.get(key))?.content ?? null;
}
console.log(JSON.stringify(seen));
`;

Deno.test("two processes sharing a cache never see a stored response change or tear", async () => {
  const dir = await makeTempDir({ prefix: "coordlab-cache-" });
  await Deno.writeTextFile(`${dir}/keys.json`, JSON.stringify(KEYS));
  await Deno.writeTextFile(`${dir}/child.ts`, CHILD);
  const run = (name: string) =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${dir}/child.ts`, dir, name],
      stdout: "piped",
      stderr: "piped",
    }).output();
  const [a, b] = await Promise.all([run("a"), run("b")]);
  assertEquals([a.code, b.code], [0, 0], new TextDecoder().decode(a.stderr));
  const cache = new ResponseCache(dir);
  for (const out of [a, b]) {
    const seen = JSON.parse(new TextDecoder().decode(out.stdout)) as Record<string, string | null>;
    for (const key of KEYS) {
      const now = (await cache.get(key))?.content;
      assert(now === `a:${key}` || now === `b:${key}`, String(now));
      assertEquals(seen[key], now, key);
    }
  }
  const leftovers = [...Deno.readDirSync(dir)].filter((e) => e.isDirectory).flatMap((d) =>
    [...Deno.readDirSync(`${dir}/${d.name}`)].map((e) => e.name)
  ).filter((n) => n.endsWith(".tmp"));
  assertEquals(leftovers, []);
  await Deno.remove(dir, { recursive: true });
});

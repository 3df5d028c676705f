// deno task reproduce with LLM agents, end to end (the long group: a
// launcher and its run started four times, about 3.6 s of CPU): a packed grid
// rebuilt in a fresh folder and played again from the pack's reply cache
// against a closed port with zero requests. The default task keeps their
// cousins: reproduce_test.ts (a mock pack rebuilt byte for byte with network
// denied, an LLM run through the task, the refusal of a run directly without
// the network), runtime_test.ts (a repeated request answered from the cache
// without a network call) and estimate_test.ts (the calls a cache holds).
import { assert, assertEquals } from "../../_assert.ts";
import { serveLocalModel } from "../../../engine/agents/llm/server/local_server.ts";
import { llmInputs, reproduce } from "./_reproduce.ts";
import { makeTempDir } from "../../_temp.ts";

Deno.test("reproduce plays a packed LLM grid again from the pack's cache against a closed port with zero requests", async () => {
  const key = `sk-test-${crypto.randomUUID()}`;
  const server = serveLocalModel({ apiKey: key, seed: 5 });
  const a = await makeTempDir({ prefix: "coordlab-repro-a-" });
  const b = await makeTempDir({ prefix: "coordlab-repro-b-" });
  try {
    const args = [
      ...await llmInputs(a, server.url, "REPRO_TEST_KEY"),
      "--cache",
      "runs/cache",
      "--no-progress",
    ];
    // The launcher grants the network and the key variable: no flag to add.
    const run = await reproduce(a, [...args, "--pack", "runs/llm.tar"], { REPRO_TEST_KEY: key });
    assertEquals(run.code, 0, run.err + run.out);
    assert(run.out.includes("Report: runs/reproduce-staghunt/report.html"), run.out);
    assert(run.out.includes("(LLM agents: "), run.out);
    const sent = server.stats().chat;
    assert(sent > 0);
    const calls = Number(run.out.match(/Model calls: (\d+) \(0 from the cache\)/)?.[1]);
    assert(calls > 0, run.out);
    // The dry run counts the calls the cache holds: every one (one turn a game).
    const dry = await reproduce(a, [...args, "--dry-run"]);
    assertEquals(dry.code, 0, dry.err);
    assert(
      dry.out.includes(`Cache runs/cache: holds ${calls} of the ${calls} calls`),
      dry.out,
    );
    await server.close();
    await Deno.copyFile(`${a}/runs/llm.tar`, `${b}/llm.tar`);
    const rebuilt = await reproduce(b, ["--from-pack", "llm.tar"]);
    assertEquals(rebuilt.code, 0, rebuilt.err);
    assertEquals(
      await Deno.readFile(`${b}/runs/llm/report.html`),
      await Deno.readFile(`${a}/runs/reproduce-staghunt/report.html`),
    );
    // A port nothing listens on: any request would fail and degrade an episode.
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    listener.close();
    await llmInputs(b, `http://127.0.0.1:${port}/v1`, "REPRO_TEST_KEY");
    const replay = await reproduce(
      b,
      [
        "staghunt",
        "--spec",
        "runs/llm/spec.json",
        "--models",
        "models.json",
        "--cache",
        "runs/llm/cache",
        "--no-preflight",
        "--no-progress",
        "--out",
        "runs/again",
      ],
      { REPRO_TEST_KEY: "unused" },
    );
    assertEquals(replay.code, 0, replay.err + replay.out);
    assert(replay.out.includes(`Model calls: ${calls} (${calls} from the cache)`), replay.out);
    const reserves = async (path: string) =>
      (await Deno.readTextFile(path).catch(() => "")).split("\n")
        .filter((l) => l.includes('"type":"reserve"')).length;
    // The first run reserved before each request it sent; the replay sent none.
    assert((await reserves(`${a}/runs/reproduce-staghunt/run/spend.jsonl`)) > 0);
    assertEquals(await reserves(`${b}/runs/again/run/spend.jsonl`), 0);
    assertEquals(
      await Deno.readFile(`${b}/runs/again/report.html`),
      await Deno.readFile(`${a}/runs/reproduce-staghunt/report.html`),
    );
  } finally {
    await server.close().catch(() => {});
    await Deno.remove(a, { recursive: true });
    await Deno.remove(b, { recursive: true });
  }
});

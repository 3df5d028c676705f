import { LogLineDecoder } from "../../../../engine/core/event_layout.ts";
import { assert, assertEquals } from "../../../_assert.ts";
import { serveLocalModel } from "../../../../engine/agents/llm/server/local_server.ts";
import { LlmRuntime } from "../../../../engine/agents/llm/runtime.ts";
import { runGrid } from "../../../../engine/grid/run_grid.ts";
import { parseModelConfig } from "../../../../engine/agents/llm/model_config.ts";
import { denoPermissionFlags } from "../../../../engine/agents/llm/permissions.ts";
import { replayWith } from "../../../../engine/core/replay.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import { bankRun } from "../../../../engine/games/bank_run/environment.ts";
import { readRunEpisodes } from "../../../../engine/grid/segments.ts";
import { childSpec, filesUnder, here } from "./_helpers.ts";
import { makeTempDir } from "../../../_temp.ts";

/**
 * The episodes a killed run finished: every episode with an `episode_end`
 * in its folder's segments, indexed or not (resume indexes complete blocks
 * a kill left unindexed); a torn last line is skipped.
 */
async function finishedLogs(dir: string): Promise<EngineEvent[][]> {
  const byEpisode = new Map<string, EngineEvent[]>();
  for (const f of (await filesUnder(dir)).filter((f) => f.endsWith(".ndjson"))) {
    // A block line ("lines-v5") is read with its block's header.
    const decoder = new LogLineDecoder();
    for (const line of (await Deno.readTextFile(f)).split("\n")) {
      let e: EngineEvent;
      try {
        const decoded = decoder.decode(JSON.parse(line));
        if (typeof decoded !== "object") continue;
        e = decoded as unknown as EngineEvent;
      } catch {
        continue;
      }
      byEpisode.set(e.episode, [...(byEpisode.get(e.episode) ?? []), e]);
    }
  }
  return [...byEpisode.values()].filter((events) => events.at(-1)?.type === "episode_end");
}

const KEY_VAR = "COORDLAB_TEST_KEY";

Deno.test("a run killed mid-way and started again makes no new call for its cached part, and no file holds the key", async () => {
  const key = `sk-test-${crypto.randomUUID()}`;
  const server = serveLocalModel({ apiKey: key, seed: 2 });
  const dir = await makeTempDir();
  const runDir = `${dir}/runs`;
  const cacheDir = `${dir}/cache`;
  try {
    // 1. The first run, in a child process with the narrow permissions a run needs.
    const model = parseModelConfig({
      id: "local",
      baseURL: server.url,
      model: "x",
      apiKeyEnv: KEY_VAR,
    });
    const flags = denoPermissionFlags([model], { runDir: dir, cacheDir });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...flags, here("_grid_child.ts"), server.url, runDir, cacheDir, KEY_VAR, "1"],
      env: { [KEY_VAR]: key, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const output = child.output();
    while (server.stats().chat < 450) {
      const done = await Promise.race([
        output.then(() => true),
        new Promise((r) => setTimeout(() => r(false), 10)),
      ]);
      if (done) throw new Error("the child finished before it could be killed");
    }
    child.kill("SIGKILL");
    const out = await output;
    assert(!out.success, "the child was killed");
    const firstRun = server.stats().chat;
    const cached = (await filesUnder(cacheDir)).filter((f) => f.endsWith(".json")).length;
    assert(cached > 400 && cached <= firstRun, `${cached} cached of ${firstRun} calls`);

    // 2. Start it again, in process, with the same cache and run folder.
    server.resetStats();
    const runtime = new LlmRuntime({
      models: [{
        id: "local",
        baseURL: server.url,
        model: "coordlab-defensive",
        testDouble: true,
        apiKeyEnv: KEY_VAR,
        concurrency: 4,
      }],
      cacheDir,
      readEnv: (name) => (name === KEY_VAR ? key : undefined),
    });
    // The episodes the killed run finished: their logs stay, so they are not played again.
    const finished = await finishedLogs(`${runDir}/child`);
    let finishedCalls = 0;
    for (const log of finished) finishedCalls += log.filter((e) => e.type === "llm_call").length;
    const result = await runGrid(childSpec(1), {
      out: `${runDir}/child`,
      runtime,
      concurrency: 1,
      progress: false,
    });
    assert(finished.length >= 1, "the killed run finished an episode");
    assertEquals([result.skipped, result.played, result.failed, result.remaining], [
      finished.length,
      4 - finished.length,
      [],
      0,
    ]);
    const stats = runtime.cache!.stats();
    // Every response cached by the killed run is reused exactly once (or sits in a finished episode's log) ...
    assertEquals(stats.hits + finishedCalls, cached);
    // ... and the network sees exactly the calls the cache could not answer (and preflight's test request).
    assertEquals(server.stats().chat, stats.misses + 1);
    assertEquals(result.usage.cacheHits, stats.hits);
    const logs = await readRunEpisodes(`${runDir}/child`);
    assertEquals(logs.size, 4);
    for (const [id, log] of logs) assertEquals((await replayWith(bankRun, log)).ok, true, id);

    // 3. No file either run wrote, and nothing the child printed, holds the key.
    const files = await filesUnder(dir);
    assert(files.length > cached);
    for (const f of files) {
      assert(!(await Deno.readTextFile(f)).includes(key), `${f} holds the key`);
    }
    const printed = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert(!printed.includes(key), "the child printed the key");
  } finally {
    await server.close();
  }
});

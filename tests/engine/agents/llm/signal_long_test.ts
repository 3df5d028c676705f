// An LLM grid told to stop (issue 18): SIGTERM starts no episode, and after
// the grace period sends no further request; the replies already paid for are
// cached, so the resume pays for no call twice.
import { assert, assertEquals } from "../../../_assert.ts";
import { LlmRuntime } from "../../../../engine/agents/llm/runtime.ts";
import { LOCK_FILE } from "../../../../engine/grid/lock.ts";
import { readManifest } from "../../../../engine/grid/manifest.ts";
import { runGrid } from "../../../../engine/grid/run_grid.ts";
import { readRunEpisodes } from "../../../../engine/grid/segments.ts";
import { withServer } from "./_helpers.ts";
import { makeTempDir } from "../../../_temp.ts";

const CLI = new URL("../../../../engine/cli/grid.ts", import.meta.url).pathname;

/** Four bank-run episodes of model "local", three depositors for 20 rounds: 60 calls each. */
const SPEC = {
  name: "llm-signal",
  episodes: 4,
  blocks: [{
    game: "frail",
    envs: ["bank_run"],
    mechanisms: ["M0"],
    params: [{ depositors: 3, totalDeposits: 3, horizon: 20 }],
    agents: [{ model: "local" }],
  }],
};

Deno.test("the grid command on SIGTERM halts an LLM grid after --stop-grace, caches what it paid for, and exits 143", async () => {
  // 40 ms a call: an episode takes over a second, far beyond the grace.
  await withServer({ latencyMs: 40 }, async (server) => {
    const dir = await makeTempDir();
    const out = `${dir}/run`;
    const cache = `${dir}/cache`;
    const models = [{ id: "local", baseURL: server.url, model: "coordlab-stay", testDouble: true }];
    await Deno.writeTextFile(`${dir}/spec.json`, JSON.stringify(SPEC));
    await Deno.writeTextFile(`${dir}/models.json`, JSON.stringify({ models }));
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        CLI,
        "--spec",
        `${dir}/spec.json`,
        "--models",
        `${dir}/models.json`,
        "--cache",
        cache,
        "--out",
        out,
        "--no-progress",
        "--no-preflight",
        "--concurrency",
        "4",
        "--stop-grace",
        "0.3",
      ],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    while (server.stats().chat < 12) await new Promise((r) => setTimeout(r, 5));
    child.kill("SIGTERM");
    const r = await child.output();
    const stderr = new TextDecoder().decode(r.stderr);
    const stdout = new TextDecoder().decode(r.stdout);
    assertEquals(r.code, 143, stderr);
    assertEquals(
      stderr,
      "\nReceived SIGTERM: no new episode starts; the episodes in flight have 0.3 s to finish " +
        "(SIGTERM again abandons them now).\nAbandoning the episodes in flight: no further model " +
        "request is sent; waiting up to 0.3 s for the calls already sent.\n",
    );
    const why = "Received SIGTERM; the episodes in flight were abandoned after 0.3 s";
    assert(stdout.includes(`\nStopped: ${why}\n`), stdout);
    const m = (await readManifest(out))!;
    assertEquals([m.status, m.sessions[0].played, m.sessions[0].stopped], [
      "interrupted",
      0,
      why,
    ]);
    assert(!(await Array.fromAsync(Deno.readDir(out))).some((e) => e.name === LOCK_FILE));
    const paid = server.stats().chat;
    assert(paid > 12 && paid < 4 * 60, String(paid));
    // Resumed: every reply paid for before the stop comes from the cache, so
    // the 240 calls of the grid were each sent exactly once.
    const runtime = new LlmRuntime({ models, cacheDir: cache });
    const rest = await runGrid(SPEC, {
      out,
      runtime,
      concurrency: 4,
      preflight: false,
      progress: false,
    });
    assertEquals([rest.played, rest.remaining, rest.usage.cacheHits], [4, 0, paid]);
    assertEquals(server.stats().chat, 4 * 60);
    assertEquals((await readRunEpisodes(out)).size, 4);
    await Deno.remove(dir, { recursive: true });
  });
});

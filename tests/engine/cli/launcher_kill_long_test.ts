// A launcher killed outright (SIGKILL: nothing is forwarded) no longer leaves
// its grid playing, and spending, on its own: the grid sees its launcher gone
// and stops as for SIGHUP, and the folder resumes (the long group: a real
// launcher and LLM grid against a server answering in 50 ms, about 5 s). Its
// cousin permissions_signal_long_test.ts forwards a Ctrl-C.
import { assert, assertEquals } from "../../_assert.ts";
import { serveLocalModel } from "../../../engine/agents/llm/server/local_server.ts";
import { LOCK_FILE } from "../../../engine/grid/lock.ts";
import { launcherCommand, llmGrid } from "./_llm_grid.ts";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const EPISODES = 12;

Deno.test("a grid whose launcher is killed outright stops within a second, as for SIGHUP, and resumes", async () => {
  const key = "sk-launcher-kill";
  // 12 episodes of about 12 calls, one at a time, 50 ms each: about 7 s to play them all.
  const server = serveLocalModel({ apiKey: key, latencyMs: 50 });
  const { dir, args } = await llmGrid(server.url, "LAUNCHER_KILL_KEY", 3, EPISODES);
  args.push("--concurrency", "1");
  try {
    const launcher = launcherCommand(args, { LAUNCHER_KILL_KEY: key }).spawn();
    while (server.stats().chat < 3) await new Promise((r) => setTimeout(r, 20));
    const lock = JSON.parse(await Deno.readTextFile(`${dir}/run/${LOCK_FILE}`));
    assert(lock.pid !== launcher.pid, "the lock is the grid child's");
    const killedAt = performance.now();
    launcher.kill("SIGKILL");
    // The grid child holds the pipes the launcher was given: they end when it does.
    const ran = await launcher.output();
    const out = text(ran.stdout) + text(ran.stderr);
    while (await alive(lock.pid)) await new Promise((r) => setTimeout(r, 20));
    const stoppedIn = performance.now() - killedAt;
    assertEquals(ran.signal, "SIGKILL");
    assert(
      out.includes(`The launcher (process ${launcher.pid}) has ended without passing on a signal`),
      out,
    );
    assert(out.includes("Received SIGHUP: no new episode starts"), out);
    // Before, the grid played on to its end (about 7 s) with no one to see it.
    assert(stoppedIn < 4000, `stopped ${stoppedIn.toFixed(0)} ms after the launcher was killed`);
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/run/manifest.json`));
    assertEquals(manifest.status, "interrupted", out);
    const session = manifest.sessions.at(-1);
    assert(session.played < EPISODES, JSON.stringify(session));
    const callsAtStop = server.stats().chat;
    await new Promise((r) => setTimeout(r, 300));
    assertEquals(server.stats().chat, callsAtStop, "no request after the grid stopped");
    // The same command resumes the folder and finishes it.
    const resumed = await launcherCommand(args, { LAUNCHER_KILL_KEY: key }).output();
    const again = text(resumed.stdout);
    assertEquals(resumed.code, 0, again + text(resumed.stderr));
    assert(again.includes(`launch: ${EPISODES}/${EPISODES} episodes finished`), again);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Whether a process is alive (and not a zombie), read from /proc. */
async function alive(pid: number): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) Z /.test(stat);
  } catch {
    return false;
  }
}

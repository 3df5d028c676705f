// deno task reproduce forwards a Ctrl-C to its run once (the long group:
// a real launcher and run signalled mid-way, then resumed, about 7 s; the
// default task's fast test of the launcher's forwarding is launch_test.ts's
// "launch() forwards a signal delivered three times"; deno task grid's, also
// long, is permissions_signal_long_test.ts).
import { assert, assertEquals } from "../../_assert.ts";
import { serveLocalModel } from "../../../engine/agents/llm/server/local_server.ts";
import { decode, LAUNCHER, llmInputs, reproduce, ROOT, taskFlags } from "./_reproduce.ts";
import { makeTempDir } from "../../_temp.ts";

Deno.test("deno task reproduce forwards a Ctrl-C to the run once: it stops, says how to resume, and resumes", async () => {
  const key = "sk-signal";
  // The run makes about 300 calls, 120 of them in the first part (the signal
  // comes after about 16): 50 ms each keeps it running for seconds after the
  // first call, while 200 ms made the test wait 11 s.
  const server = serveLocalModel({ apiKey: key, latencyMs: 50 });
  const dir = await makeTempDir({ prefix: "coordlab-repro-signal-" });
  try {
    // 20 episodes: more than the 8 a run plays at once, so some are left to resume.
    const args = [
      ...await llmInputs(dir, server.url, "REPRO_TEST_KEY", { T: [2], episodes: 10 }),
      "--out",
      "out",
      "--no-progress",
      "--no-preflight",
    ];
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", `--config=${ROOT}deno.json`, ...(await taskFlags()), ROOT + LAUNCHER, ...args],
      cwd: dir,
      env: { REPRO_TEST_KEY: key, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
      // Its own process group, as a terminal's foreground job.
      detached: true,
    }).spawn();
    while (server.stats().chat === 0) await new Promise((r) => setTimeout(r, 50));
    if (Deno.build.os === "linux") {
      // The command runs in a process group of its own, so a Ctrl-C reaches
      // it only through the launcher. (Signals sent at once may merge into
      // one, so the count below alone would not show it.)
      // (ps, not /proc/<pid>/task/.../children, which Deno grants only with --allow-all.)
      const ps = async (...args: string[]) =>
        new TextDecoder().decode((await new Deno.Command("ps", { args }).output()).stdout).trim();
      const [pid] = (await ps("-o", "pid=", "--ppid", String(child.pid))).split(/\s+/).map(Number);
      const group = async (p: number) => Number(await ps("-o", "pgid=", "-p", String(p)));
      assertEquals([await group(child.pid), await group(pid)], [child.pid, pid]);
    }
    // A Ctrl-C: SIGINT to the whole foreground group, the launcher's.
    Deno.kill(-child.pid, "SIGINT");
    const ran = decode(await child.output());
    assertEquals(ran.code, 130, ran.out + ran.err);
    // Once: the launcher's forwarded signal, not a second one that would abandon them.
    assertEquals(ran.err.split("Received SIGINT").length, 2, ran.err);
    assert(ran.err.includes("Received SIGINT: no new episode starts"), ran.err);
    assert(!ran.err.includes("abandoning"), ran.err);
    assert(ran.out.includes("Not finished: run the same command again to resume."), ran.out);
    const resumed = await reproduce(dir, args, { REPRO_TEST_KEY: key });
    assertEquals(resumed.code, 0, resumed.out + resumed.err);
    assert(resumed.out.includes("tiny: 20/20 episodes in out/run"), resumed.out);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

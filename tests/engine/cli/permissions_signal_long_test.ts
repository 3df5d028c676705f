// deno task grid forwards a Ctrl-C to the grid once (the long group: a real
// launcher and grid signalled mid-way against a server answering in 50 ms,
// then resumed, about 4 s, most of it waiting). The default task keeps its
// cousins: launch_test.ts (the launcher's launch() forwards one Ctrl-C
// delivered three times once, and a second one) and stops_test.ts (the grid
// command on SIGINT stops, says how to resume and exits 130).
import { assert, assertEquals } from "../../_assert.ts";
import { serveLocalModel } from "../../../engine/agents/llm/server/local_server.ts";
import { launcherCommand, llmGrid } from "./_llm_grid.ts";

const ROOT = new URL("../../../", import.meta.url).pathname;
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("deno task grid forwards SIGINT to the grid, which stops and says how to resume; the launcher exits with its code", async () => {
  const key = "sk-signal";
  // The grid makes about 50 calls, one at a time: 50 ms each keeps it running
  // for seconds after the first (when the signal is sent), while 200 ms made
  // the test wait 10 s, most of it in the resumed part.
  const server = serveLocalModel({ apiKey: key, latencyMs: 50 });
  const { dir, args } = await llmGrid(server.url, "LAUNCH_TEST_KEY", 3);
  try {
    const child = launcherCommand([...args, "--concurrency", "1"], { LAUNCH_TEST_KEY: key })
      .spawn();
    while (server.stats().chat === 0) await new Promise((r) => setTimeout(r, 50));
    child.kill("SIGINT");
    const ran = await child.output();
    const out = text(ran.stdout) + text(ran.stderr);
    assertEquals(ran.code, 130, out);
    assert(out.includes("Received SIGINT: no new episode starts"), out);
    // Once: the launcher's forwarded signal, not a second one that would abandon them.
    assert(!out.includes("Abandoning"), out);
    const resume = out.split("\n").find((l) => l.startsWith("Resume with: "))!;
    const prefix = `Resume with: npx -y deno@${Deno.version.deno} task grid `;
    assert(resume.startsWith(`${prefix}--spec ${dir}/spec.json `), out);
    // The line runs as written, for a folder outside runs/, and finishes the grid.
    const resumed = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "grid", ...resume.slice(prefix.length).split(" ")],
      cwd: ROOT,
      env: { LAUNCH_TEST_KEY: key, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const again = new TextDecoder().decode(resumed.stdout);
    assertEquals(resumed.code, 0, again + new TextDecoder().decode(resumed.stderr));
    assert(again.includes(`launch: 4/4 episodes finished in ${dir}/run`), again);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

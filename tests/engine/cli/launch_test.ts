// The shared launcher: what a child killed outright leaves the user with.
import { assertEquals } from "../../_assert.ts";
import { launch } from "../../../engine/cli/_launch.ts";

Deno.test("launch() says how to go on when its child is killed outright, and exits 128 + the signal", async () => {
  const dir = await Deno.makeTempDir({ prefix: "coordlab-launch-" });
  const script = `${dir}/killed.ts`;
  await Deno.writeTextFile(script, `Deno.kill(Deno.pid, "SIGKILL");\n`);
  const said: string[] = [];
  const error = console.error;
  console.error = (...args: unknown[]) => said.push(args.join(" "));
  try {
    const code = await launch(script, [], {
      needs: { write: [], net: [], env: [], sys: [], ffi: null },
      keyed: [],
    });
    assertEquals(code, 137);
    assertEquals(said, [
      "The command was ended by SIGKILL: what it had in flight is lost (an episode not yet " +
      "written plays again), everything written stays; run the same command again to resume.",
    ]);
  } finally {
    console.error = error;
    await Deno.remove(dir, { recursive: true });
  }
});

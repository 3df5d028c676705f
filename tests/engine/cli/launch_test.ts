// The shared launcher: what a child killed outright leaves the user with.
import { assertEquals } from "../../_assert.ts";
import { launch } from "../../../engine/cli/_launch.ts";
import { makeTempDir } from "../../_temp.ts";

Deno.test("launch() says how to go on when its child is killed outright, and exits 128 + the signal", async () => {
  const dir = await makeTempDir({ prefix: "coordlab-launch-" });
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

Deno.test("launch() forwards a signal delivered three times within a few ms (one Ctrl-C through npx and deno task) once, and one a second later again", async () => {
  const dir = await makeTempDir({ prefix: "coordlab-launch-" });
  try {
    const count = `${dir}/count`;
    await Deno.writeTextFile(
      `${dir}/child.ts`,
      `let n = 0;
Deno.addSignalListener("SIGINT", () => {
  Deno.writeTextFileSync(Deno.args[0], String(++n));
  if (n === 2) Deno.exit(0);
});
Deno.writeTextFileSync(Deno.args[0], "0");
setTimeout(() => Deno.exit(5), 30_000);
`,
    );
    const launcher = new URL("../../../engine/cli/_launch.ts", import.meta.url).pathname;
    await Deno.writeTextFile(
      `${dir}/launcher.ts`,
      `import { launch } from ${JSON.stringify(launcher)};
const needs = { write: [${JSON.stringify(dir)}], net: [], env: [], sys: [], ffi: null };
Deno.exit(await launch(${JSON.stringify(`${dir}/child.ts`)}, [${
        JSON.stringify(count)
      }], { needs, keyed: [] }));
`,
    );
    const run = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${dir}/launcher.ts`],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const read = async () => {
      try {
        return await Deno.readTextFile(count);
      } catch {
        return null;
      }
    };
    while ((await read()) !== "0") await new Promise((r) => setTimeout(r, 20));
    // One Ctrl-C as the terminal, deno task and npx deliver it: three times,
    // a few ms apart (signals sent at once would merge in the kernel).
    for (let i = 0; i < 3; i++) {
      run.kill("SIGINT");
      await new Promise((r) => setTimeout(r, 5));
    }
    await new Promise((r) => setTimeout(r, 1000));
    assertEquals(await read(), "1");
    // A second Ctrl-C, a second later, is forwarded: the child stops on it.
    run.kill("SIGINT");
    const status = await run.output();
    assertEquals(status.code, 0, new TextDecoder().decode(status.stderr));
    assertEquals(await read(), "2");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

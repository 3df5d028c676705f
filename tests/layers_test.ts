// Layers point down only: the engine never imports the analysis (the command
// line programs in engine/cli/ sit on top of both and may).
import { assertEquals } from "./_assert.ts";

Deno.test("no engine module but the command-line programs imports from analysis/", async () => {
  const out = await new Deno.Command("git", { args: ["ls-files", "engine/*.ts"], stdout: "piped" })
    .output();
  const files = new TextDecoder().decode(out.stdout).split("\n").filter((f) =>
    f.endsWith(".ts") && !f.startsWith("engine/cli/")
  );
  const offending: string[] = [];
  for (const file of files) {
    const text = await Deno.readTextFile(file);
    for (const m of text.matchAll(/^\s*(?:import|export)[^;]*?from\s+"([^"]+)"/gm)) {
      if (/(^|\/)analysis\//.test(m[1])) offending.push(`${file}: ${m[1]}`);
    }
  }
  assertEquals(offending, []);
});

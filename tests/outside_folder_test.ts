// A script in a folder outside the repository, with no deno.json of its own,
// imports the toolkit by path: it runs an episode, loads its log and renders
// a chart (issue: bare package names resolved only inside the clone).
import { assertEquals } from "./_assert.ts";
import { makeTempDir } from "./_temp.ts";

Deno.test("a script outside the repository imports mod.ts by path, runs, loads and charts", async () => {
  const dir = await makeTempDir({ prefix: "coordlab-outside-" });
  try {
    const mod = new URL("../mod.ts", import.meta.url).href;
    await Deno.writeTextFile(
      `${dir}/script.ts`,
      `import { loadRuns, renderPng, runEpisode, stateTrajectoryChart } from "${mod}";
const r = await runEpisode({ env: "bank_run", mechanism: "M1", seed: 3, run: "outside", outDir: "runs" });
const { episodes, rounds } = await loadRuns("runs");
const rows = rounds!.toRecords().map((row) => ({
  round: Number(row.round), series: "cash", value: Number(row.cash),
}));
const png = await renderPng(stateTrajectoryChart(rows, { title: "Cash" }));
console.log(JSON.stringify({
  episodes: episodes.height,
  mechanism: episodes.getColumn("mechanism").toArray()[0],
  welfare: r.outcome.welfare === episodes.getColumn("welfare").toArray()[0],
  png: png[0] === 0x89 && png[1] === 0x50,
}));
`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", "-A", "--no-lock", "script.ts"],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 0, stderr);
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
    assertEquals(JSON.parse(lines.at(-1)!), {
      episodes: 1,
      mechanism: "M1",
      welfare: true,
      png: true,
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

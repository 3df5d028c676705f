// deno task reproduce: a launcher that runs the command with exactly the
// permissions its arguments need (an LLM run into a folder outside runs/ with
// no command to copy, keys checked first; SIGINT forwarded once is in
// reproduce_signal_long_test.ts, the long group), the command run directly
// without them naming them, the grid's one-screen dry run, a mock report, and
// a pack rebuilt offline byte for byte in a fresh folder with network denied
// (an LLM grid packed and played again from the pack's reply cache against a
// closed port with zero requests is in reproduce_pack_long_test.ts).
import { assert, assertEquals } from "../../_assert.ts";
import {
  type LocalServer,
  serveLocalModel,
} from "../../../engine/agents/llm/server/local_server.ts";
import { narrowFlags } from "../../../engine/cli/_permissions.ts";
import { readReproduceCommand, reproduceNeeds } from "../../../engine/cli/_reproduce_args.ts";
import { llmInputs, type Ran, reproduce, reproduceDirectly, ROOT, task } from "./_reproduce.ts";
import { assertPaperScreen } from "../grid/_paper_screen.ts";
import { makeTempDir } from "../../_temp.ts";

Deno.test("reproduce staghunt writes a mock report and a pack that a fresh folder rebuilds byte for byte with network denied", async () => {
  const a = await makeTempDir({ prefix: "coordlab-repro-a-" });
  const b = await makeTempDir({ prefix: "coordlab-repro-b-" });
  try {
    const run = await reproduce(a, [
      "staghunt",
      "--episodes",
      "1",
      "--no-progress",
      "--pack",
      "runs/p.tar",
    ]);
    assertEquals(run.code, 0, run.err);
    assert(run.out.includes("Mock agents (rule-based, not LLMs)"), run.out);
    assert(
      run.out.includes("paper-staghunt-mock: 140/140 episodes in runs/reproduce-staghunt-mock/run"),
      run.out,
    );
    const html = await Deno.readFile(`${a}/runs/reproduce-staghunt-mock/report.html`);
    const md = await Deno.readTextFile(`${a}/runs/reproduce-staghunt-mock/report.md`);
    const page = new TextDecoder().decode(html);
    assert(md.includes("**Played by mock agents (rule-based, not LLMs)"), md.slice(0, 400));
    for (const title of ["Figure 1", "Table 1", "Figure 3", "Figure A5", "Table A1"]) {
      assert(md.includes(`## ${title}`), title);
    }
    assert(md.includes("The paper's text prints no value of Table A1"));
    assert(!/<script|<link|src="http|href="http/.test(page));
    // Every chart names the mock agents.
    const svgs = page.match(/<svg[\s\S]*?<\/svg>/g)!;
    assertEquals(svgs.length, 8);
    for (const svg of svgs) assert(svg.includes("mock agents"), svg.slice(0, 300));
    await Deno.copyFile(`${a}/runs/p.tar`, `${b}/p.tar`);
    // The rebuild with exactly what the launcher grants it: no network, no variable.
    const args = ["--from-pack", "p.tar", "--out", "runs/rebuilt"];
    const needs = reproduceNeeds(await readReproduceCommand(args));
    assertEquals([needs.write, needs.net, needs.env], [["runs/rebuilt"], [], []]);
    const flags = narrowFlags({ ...needs, ffi: `${ROOT}node_modules` });
    assert(!flags.some((f) => /^--allow-(net|env|run)/.test(f)), flags.join(" "));
    const rebuilt = await reproduceDirectly(b, args, flags);
    assertEquals(rebuilt.code, 0, rebuilt.err);
    assert(rebuilt.out.includes("report.html: identical to the packed one"), rebuilt.out);
    assertEquals(await Deno.readFile(`${b}/runs/rebuilt/report.html`), html);
    assertEquals(await Deno.readTextFile(`${b}/runs/rebuilt/report.md`), md);
    // A second unpack into the same folder is refused: nothing written is lost.
    const again = await reproduce(b, args);
    assertEquals(again.code, 2);
    assert(
      again.err.split("\n").some((l) => l.startsWith('Output folder "runs/rebuilt" is not empty')),
      again.err,
    );
  } finally {
    await Deno.remove(a, { recursive: true });
    await Deno.remove(b, { recursive: true });
  }
});

Deno.test("reproduce.ts run directly without the network and the key variable names them and prints the narrow command", async () => {
  const server = serveLocalModel({ apiKey: "sk-x" });
  const a = await makeTempDir({ prefix: "coordlab-repro-a-" });
  try {
    const host = new URL(server.url).host;
    const args = [
      ...await llmInputs(a, server.url, "REPRO_TEST_KEY"),
      "--cache",
      "runs/cache",
      "--no-progress",
    ];
    // The command names what it lacks, prints the narrow command, and stops.
    const polarsOnly = [
      "--no-prompt",
      "--allow-read",
      "--allow-write=runs",
      `--allow-ffi=${ROOT}node_modules`,
      "--allow-sys=cpus,networkInterfaces,hostname",
    ];
    const refused = await reproduceDirectly(a, args, polarsOnly);
    assertEquals(refused.code, 2);
    // (Node's punycode deprecation warning may come first on stderr.)
    const lines = refused.err.split("\n");
    const at = lines.findIndex((line) =>
      line.startsWith(
        `This command needs permissions it was not given: network access to ${host}, ` +
          "variable REPRO_TEST_KEY. Run it with exactly what it needs:",
      )
    );
    assert(at >= 0, refused.err);
    assert(
      lines[at + 2].startsWith(
        "  npx -y deno@2.9.6 run --no-prompt --allow-read " +
          `--allow-write=runs/reproduce-staghunt,runs/cache --allow-net=${host} ` +
          "--allow-env=REPRO_TEST_KEY --allow-sys=cpus,networkInterfaces,hostname --allow-ffi=",
      ),
      refused.err,
    );
    assertEquals(server.stats().chat, 0);
  } finally {
    await server.close();
    await Deno.remove(a, { recursive: true });
  }
});

/**
 * `deno task reproduce` of the tiny LLM spec (one episode a cell) against a
 * local server holding a fresh key, with `flags` after the inputs; the
 * server and folder are closed and removed however `check` ends.
 */
async function taskAgainstServer(
  flags: (dir: string) => string[],
  check: (ran: Ran, out: string, dir: string, server: LocalServer) => Promise<void> | void,
): Promise<void> {
  const key = `sk-test-${crypto.randomUUID()}`;
  const server = serveLocalModel({ apiKey: key, seed: 3 });
  const dir = await makeTempDir({ prefix: "coordlab-repro-task-" });
  try {
    const ran = await task([
      ...await llmInputs(dir, server.url, "REPRO_TASK_KEY"),
      "--episodes",
      "1",
      "--out",
      `${dir}/out`,
      ...flags(dir),
      "--no-progress",
    ], { REPRO_TASK_KEY: key });
    await check(ran, ran.out + ran.err, dir, server);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("deno task reproduce runs LLM agents into a folder outside runs/, with no command to copy", async () => {
  await taskAgainstServer((dir) => ["--cache", `${dir}/cache`], async (ran, out, dir, server) => {
    assertEquals(ran.code, 0, out);
    assert(!out.includes("deno run") && !out.includes("needs permissions"), out);
    assert(out.includes(`tiny: 2/2 episodes in ${dir}/out/run (0 already there, 2 played`), out);
    assert(out.includes(`Report: ${dir}/out/report.html and ${dir}/out/report.md`), out);
    assert(server.stats().chat > 0);
    assert((await Array.fromAsync(Deno.readDir(`${dir}/cache`))).length > 0);
  });
});

Deno.test("deno task reproduce stopped by its budget exits 4, not a Ctrl-C's 130, and says it resumes", async () => {
  await taskAgainstServer(
    () => ["--max-tokens", "1", "--no-preflight"],
    (ran, out, _dir, server) => {
      assertEquals(ran.code, 4, out);
      assert(out.includes("Stopped: Token budget reached"), out);
      assert(out.includes("Not finished: run the same command again to resume."), out);
      assertEquals(server.stats().chat, 0);
    },
  );
});

Deno.test("deno task reproduce with a key variable unset exits 2 naming it and its model, before any request", async () => {
  const server = serveLocalModel({ apiKey: "sk-x" });
  const dir = await makeTempDir({ prefix: "coordlab-repro-task-" });
  try {
    const inputs = await llmInputs(dir, server.url, "REPRO_TEST_UNSET_KEY");
    const ran = await task([...inputs, "--out", `${dir}/out`], {});
    assertEquals(ran.code, 2, ran.out + ran.err);
    assertEquals(ran.out, "");
    assertEquals(
      ran.err,
      'The API key variable REPRO_TEST_UNSET_KEY of model "local" is not set: ' +
        "export REPRO_TEST_UNSET_KEY=... before running the grid.\n",
    );
    assertEquals(server.stats().chat, 0);
    await Deno.stat(`${dir}/out`).then(() => assert(false, "the output folder was made"), () => {});
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("reproduce --dry-run prints the grid's one screen for the paper designs and their example models", async () => {
  const screens = [
    ["frail", "models.example.json", "total          118,831  106,799,825    59,415,500  "],
    [
      "staghunt",
      "models.staghunt.example.json",
      "total                       12,669  5,099,308      6,334,500  ",
    ],
  ];
  for (const [paper, models, total] of screens) {
    const ran = await reproduce(ROOT, [paper, "--models", `data/${models}`, "--dry-run"]);
    assertEquals(ran.code, 0, ran.err);
    const lines = ran.out.trimEnd().split("\n");
    assert(lines.length <= 40, `${paper}: ${lines.length} lines\n${ran.out}`);
    // The total row: calls, prompt tokens, completion tokens (500 a call assumed).
    assert(lines.some((l) => l.startsWith(total)), `${paper}: no "${total}"\n${ran.out}`);
    assertEquals(
      lines.at(-1),
      `Run and report into runs/reproduce-${paper} (logs in runs/reproduce-${paper}/run).`,
    );
    assert(lines.some((l) => /^model +calls +prompt tokens +completion tokens/.test(l)), ran.out);
    // The hint on prices names the models file (its lines unwrapped).
    assert(ran.out.replaceAll("\n  ", " ").includes(`to their entries in data/${models}`), ran.out);
    // The grid command's screen of the same grid (estimate_long_test.ts runs the
    // grid command itself).
    if (paper === "frail") await assertPaperScreen(ran.out);
  }
});

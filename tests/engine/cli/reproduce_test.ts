// deno task reproduce: a launcher that runs the command with exactly the
// permissions its arguments need (an LLM run into a folder outside runs/ with
// no command to copy, keys checked first; SIGINT forwarded once is in
// reproduce_signal_long_test.ts, the long group), the grid's
// one-screen dry run, a mock report, a pack rebuilt offline byte for byte in
// a fresh folder with network denied, and a grid played again from a pack's
// reply cache against a closed port with zero requests.
import { assert, assertEquals } from "../../_assert.ts";
import { serveLocalModel } from "../../../engine/agents/llm/server/local_server.ts";
import { narrowFlags } from "../../../engine/cli/_permissions.ts";
import { readReproduceCommand, reproduceNeeds } from "../../../engine/cli/_reproduce_args.ts";
import { llmInputs, reproduce, reproduceDirectly, ROOT, task } from "./_reproduce.ts";
import { assertPaperScreen } from "../grid/_paper_screen.ts";

Deno.test("reproduce staghunt writes a mock report and a pack that a fresh folder rebuilds byte for byte with network denied", async () => {
  const a = await Deno.makeTempDir({ prefix: "coordlab-repro-a-" });
  const b = await Deno.makeTempDir({ prefix: "coordlab-repro-b-" });
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

Deno.test("reproduce plays a packed LLM grid again from the pack's cache against a closed port with zero requests", async () => {
  const key = `sk-test-${crypto.randomUUID()}`;
  const server = serveLocalModel({ apiKey: key, seed: 5 });
  const a = await Deno.makeTempDir({ prefix: "coordlab-repro-a-" });
  const b = await Deno.makeTempDir({ prefix: "coordlab-repro-b-" });
  try {
    const host = new URL(server.url).host;
    const args = [
      ...await llmInputs(a, server.url, "REPRO_TEST_KEY"),
      "--cache",
      "runs/cache",
      "--no-progress",
    ];
    // Run directly without the network and the key variable, the command
    // names them, prints the narrow command, and stops.
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
    // The launcher grants them: no flag to add.
    const run = await reproduce(a, [...args, "--pack", "runs/llm.tar"], { REPRO_TEST_KEY: key });
    assertEquals(run.code, 0, run.err + run.out);
    assert(run.out.includes("Report: runs/reproduce-staghunt/report.html"), run.out);
    assert(run.out.includes("(LLM agents: "), run.out);
    const sent = server.stats().chat;
    assert(sent > 0);
    const calls = Number(run.out.match(/Model calls: (\d+) \(0 from the cache\)/)?.[1]);
    assert(calls > 0, run.out);
    // The dry run counts the calls the cache holds: every one (one turn a game).
    const dry = await reproduce(a, [...args, "--dry-run"]);
    assertEquals(dry.code, 0, dry.err);
    assert(
      dry.out.includes(`Cache runs/cache: holds ${calls} of the ${calls} calls`),
      dry.out,
    );
    await server.close();
    await Deno.copyFile(`${a}/runs/llm.tar`, `${b}/llm.tar`);
    const rebuilt = await reproduce(b, ["--from-pack", "llm.tar"]);
    assertEquals(rebuilt.code, 0, rebuilt.err);
    assertEquals(
      await Deno.readFile(`${b}/runs/llm/report.html`),
      await Deno.readFile(`${a}/runs/reproduce-staghunt/report.html`),
    );
    // A port nothing listens on: any request would fail and degrade an episode.
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    listener.close();
    await llmInputs(b, `http://127.0.0.1:${port}/v1`, "REPRO_TEST_KEY");
    const replay = await reproduce(
      b,
      [
        "staghunt",
        "--spec",
        "runs/llm/spec.json",
        "--models",
        "models.json",
        "--cache",
        "runs/llm/cache",
        "--no-preflight",
        "--no-progress",
        "--out",
        "runs/again",
      ],
      { REPRO_TEST_KEY: "unused" },
    );
    assertEquals(replay.code, 0, replay.err + replay.out);
    assert(replay.out.includes(`Model calls: ${calls} (${calls} from the cache)`), replay.out);
    const reserves = async (path: string) =>
      (await Deno.readTextFile(path).catch(() => "")).split("\n")
        .filter((l) => l.includes('"type":"reserve"')).length;
    // The first run reserved before each request it sent; the replay sent none.
    assert((await reserves(`${a}/runs/reproduce-staghunt/run/spend.jsonl`)) > 0);
    assertEquals(await reserves(`${b}/runs/again/run/spend.jsonl`), 0);
    assertEquals(
      await Deno.readFile(`${b}/runs/again/report.html`),
      await Deno.readFile(`${a}/runs/reproduce-staghunt/report.html`),
    );
  } finally {
    await server.close().catch(() => {});
    await Deno.remove(a, { recursive: true });
    await Deno.remove(b, { recursive: true });
  }
});

Deno.test("deno task reproduce runs LLM agents into a folder outside runs/, with no command to copy", async () => {
  const key = `sk-test-${crypto.randomUUID()}`;
  const server = serveLocalModel({ apiKey: key, seed: 3 });
  const dir = await Deno.makeTempDir({ prefix: "coordlab-repro-task-" });
  try {
    const ran = await task([
      ...await llmInputs(dir, server.url, "REPRO_TASK_KEY"),
      "--episodes",
      "1",
      "--out",
      `${dir}/out`,
      "--cache",
      `${dir}/cache`,
      "--no-progress",
    ], { REPRO_TASK_KEY: key });
    const out = ran.out + ran.err;
    assertEquals(ran.code, 0, out);
    assert(!out.includes("deno run") && !out.includes("needs permissions"), out);
    assert(out.includes(`tiny: 2/2 episodes in ${dir}/out/run (0 already there, 2 played`), out);
    assert(out.includes(`Report: ${dir}/out/report.html and ${dir}/out/report.md`), out);
    assert(server.stats().chat > 0);
    assert((await Array.fromAsync(Deno.readDir(`${dir}/cache`))).length > 0);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task reproduce with a key variable unset exits 2 naming it and its model, before any request", async () => {
  const server = serveLocalModel({ apiKey: "sk-x" });
  const dir = await Deno.makeTempDir({ prefix: "coordlab-repro-task-" });
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

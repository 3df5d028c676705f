// deno task reproduce: a mock report, a pack rebuilt offline byte for byte in
// a fresh folder without network permission, and a grid played again from a
// pack's reply cache against a closed port with zero requests.
import { assert, assertEquals } from "../../_assert.ts";
import { serveLocalModel } from "../../../engine/agents/llm/server/local_server.ts";

const ROOT = new URL("../../../", import.meta.url).pathname;
const SCRIPT = `${ROOT}engine/cli/reproduce.ts`;

/** The reproduce task's flags (deno.json), with the addon folder made absolute. */
async function taskFlags(): Promise<string[]> {
  const text = await Deno.readTextFile(`${ROOT}/deno.json`);
  const json = text.split("\n").filter((l) => !l.trimStart().startsWith("//")).join("\n");
  const task: string = JSON.parse(json).tasks.reproduce;
  const flags = task.split(" ").filter((w) => w.startsWith("--"));
  assert(!flags.some((f) => f.startsWith("--allow-net") || f.startsWith("--allow-env")), task);
  return flags.map((f) => f === "--allow-ffi=node_modules" ? `--allow-ffi=${ROOT}node_modules` : f);
}

async function reproduce(
  cwd: string,
  args: string[],
  extra: string[] = [],
  env: Record<string, string> = {},
): Promise<{ code: number; out: string; err: string }> {
  const r = await new Deno.Command(Deno.execPath(), {
    args: ["run", `--config=${ROOT}deno.json`, ...(await taskFlags()), ...extra, SCRIPT, ...args],
    cwd,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const d = new TextDecoder();
  return { code: r.code, out: d.decode(r.stdout), err: d.decode(r.stderr) };
}

Deno.test("reproduce staghunt writes a mock report and a pack that a fresh folder rebuilds byte for byte without network", async () => {
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
    const rebuilt = await reproduce(b, ["--from-pack", "p.tar", "--out", "runs/rebuilt"]);
    assertEquals(rebuilt.code, 0, rebuilt.err);
    assert(rebuilt.out.includes("report.html: identical to the packed one"), rebuilt.out);
    assertEquals(await Deno.readFile(`${b}/runs/rebuilt/report.html`), html);
    assertEquals(await Deno.readTextFile(`${b}/runs/rebuilt/report.md`), md);
    // A second unpack into the same folder is refused: nothing written is lost.
    const again = await reproduce(b, ["--from-pack", "p.tar", "--out", "runs/rebuilt"]);
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
  const model = (baseURL: string) => ({
    models: [{
      id: "local",
      baseURL,
      model: "coordlab-defensive",
      apiKeyEnv: "REPRO_TEST_KEY",
      provider: "local",
    }],
  });
  try {
    await Deno.writeTextFile(`${a}/models.json`, JSON.stringify(model(server.url)));
    await Deno.writeTextFile(
      `${a}/spec.json`,
      JSON.stringify({
        name: "tiny",
        episodes: 1,
        blocks: [{
          game: "staghunt",
          N: [5],
          M: [3],
          T: [1],
          F: [1, 4],
          agents: [{ model: "local" }],
        }],
      }),
    );
    const host = new URL(server.url).host;
    const args = [
      "staghunt",
      "--spec",
      "spec.json",
      "--models",
      "models.json",
      "--cache",
      "runs/cache",
    ];
    // Without the network and the key variable, the command names them and stops.
    const refused = await reproduce(a, [...args, "--no-progress"], [], { REPRO_TEST_KEY: key });
    assertEquals(refused.code, 2);
    // (Node's punycode deprecation warning may come first on stderr.)
    assert(
      refused.err.split("\n").some((line) =>
        line.startsWith(
          `This command needs permissions it was not given: network access to ${host}, ` +
            "variable REPRO_TEST_KEY.",
        )
      ),
      refused.err,
    );
    assertEquals(server.stats().chat, 0);
    const run = await reproduce(
      a,
      [...args, "--no-progress", "--pack", "runs/llm.tar"],
      [`--allow-net=${host}`, "--allow-env=REPRO_TEST_KEY"],
      { REPRO_TEST_KEY: key },
    );
    assertEquals(run.code, 0, run.err + run.out);
    assert(run.out.includes("Report: runs/reproduce-staghunt/report.html"), run.out);
    assert(run.out.includes("(LLM agents: "), run.out);
    const sent = server.stats().chat;
    assert(sent > 0);
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
    await Deno.writeTextFile(
      `${b}/closed.json`,
      JSON.stringify(model(`http://127.0.0.1:${port}/v1`)),
    );
    const replay = await reproduce(
      b,
      [
        "staghunt",
        "--spec",
        "runs/llm/spec.json",
        "--models",
        "closed.json",
        "--cache",
        "runs/llm/cache",
        "--no-preflight",
        "--no-progress",
        "--out",
        "runs/again",
      ],
      [`--allow-net=127.0.0.1:${port}`, "--allow-env=REPRO_TEST_KEY"],
      { REPRO_TEST_KEY: "unused" },
    );
    assertEquals(replay.code, 0, replay.err + replay.out);
    const calls = replay.out.match(/Model calls: (\d+) \((\d+) from the cache\)/);
    assert(calls !== null, replay.out);
    assertEquals(calls[1], calls[2]);
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

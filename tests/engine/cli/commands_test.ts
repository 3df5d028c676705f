// Commands that work as written: the docs and the commands' messages spell
// Deno as the README's set-up runs it, every task they name exists, and the
// Polars and chart scripts print no `punycode` deprecation warning.
import { assert, assertEquals } from "../../_assert.ts";
import { DENO_COMMAND } from "../../../engine/cli/_permissions.ts";
import { makeTempDir } from "../../_temp.ts";

const ROOT = new URL("../../../", import.meta.url).pathname;
/** The docs a user copies commands from (reliability.md and benchmarks.md are records). */
const DOCS = [
  "analysis",
  "engine",
  "grids",
  "llm-setup",
  "modelling-choices",
  "reproduce",
  "viewer",
];

async function tasks(): Promise<Record<string, string>> {
  const text = await Deno.readTextFile(`${ROOT}/deno.json`);
  const json = text.split("\n").filter((l) => !l.trimStart().startsWith("//")).join("\n");
  return JSON.parse(json).tasks;
}

Deno.test("DENO_COMMAND is the pinned Deno these tests run under", () => {
  assertEquals(DENO_COMMAND, `npx -y deno@${Deno.version.deno}`);
});

Deno.test("the docs' shell lines run Deno as the README does, and name tasks that exist", async () => {
  const known = await tasks();
  for (const doc of DOCS) {
    const lines = (await Deno.readTextFile(`${ROOT}/docs/${doc}.md`)).split("\n");
    let fenced = false;
    let inShell = false;
    for (const [i, line] of lines.entries()) {
      if (line.startsWith("```")) {
        // An opening fence says the block's language; a closing one ends it.
        inShell = !fenced && /^```(sh|bash)?$/.test(line);
        fenced = !fenced;
        continue;
      }
      const where = `docs/${doc}.md:${i + 1}: ${line}`;
      if (inShell) assert(!/^\s*deno\s/.test(line), `${where} (use ${DENO_COMMAND})`);
      for (const m of line.matchAll(/npx -y deno@([\d.]+) task ([\w:-]+)/g)) {
        assertEquals(m[1], Deno.version.deno, where);
        assert(m[2] in known, `${where}: no task "${m[2]}"`);
      }
    }
  }
});

Deno.test("the grid, compact and reproduce commands' usage runs Deno as the README does", async () => {
  for (const script of ["grid", "compact", "reproduce"]) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${ROOT}/engine/cli/${script}.ts`, "--no-such-flag"],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(out.code, 2);
    const stderr = new TextDecoder().decode(out.stderr);
    assert(stderr.includes(`Usage: ${DENO_COMMAND} task ${script} `), stderr);
  }
});

Deno.test("deno task view prints no punycode deprecation warning", async () => {
  const dir = await makeTempDir();
  try {
    const grid = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        `${ROOT}/engine/cli/demo.ts`,
        "--episodes",
        "1",
        "--out",
        `${dir}/run`,
      ],
      cwd: ROOT,
      stdout: "null",
      stderr: "piped",
    }).output();
    assertEquals(grid.code, 0, new TextDecoder().decode(grid.stderr));
    const view = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "view", `${dir}/run`, "--out", `${dir}/site`, "--quiet"],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(view.stderr);
    assertEquals(view.code, 0, stderr);
    assert(!stderr.includes("DeprecationWarning") && !stderr.includes("punycode"), stderr);
    await Deno.stat(`${dir}/site/index.html`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

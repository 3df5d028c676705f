// No code outside a game's package branches on a game id (issue 20, part
// 1): every .ts file of the repository is scanned for a string literal equal
// to a registered game id or family id used in a comparison or a `case`
// (tests/_game_ids.ts says exactly which forms), and each one is reported as
// file:line.
//
// Where an id may still be compared:
// - inside a game's package (engine/games/<id>/), with its own id and its
//   family's;
// - in a family's own paper-specific code, with the family's id and its
//   games' ids: the folders and files of FAMILY_PATHS below (the FRAIL
//   paper's tables, figures and report; the Stag Hunt paper's; FRAIL's shared
//   engine code in engine/frail/);
// - in tests/, which name the games they test.
import { GAMES } from "../engine/games/registry.ts";
import { assertEquals } from "./_assert.ts";
import { idBranches } from "./_game_ids.ts";

/** Each family's own paper-specific code (folders end with `/`), by family id. */
const FAMILY_PATHS: Readonly<Record<string, readonly string[]>> = {
  frail: [
    "engine/frail/",
    "analysis/frail/",
    "analysis/report/_frail.ts",
    "analysis/charts/frail_estimates.ts",
    "analysis/charts/_frail_labels.ts",
  ],
  staghunt: [
    "analysis/staghunt/",
    "analysis/report/_staghunt.ts",
    "analysis/charts/staghunt_charts.ts",
  ],
};

const GAME_IDS = new Set(GAMES.map((g) => g.id));
const FAMILY_IDS = new Set(GAMES.map((g) => g.game));
const ALL_IDS = new Set([...GAME_IDS, ...FAMILY_IDS]);

/** The ids `path` may compare with: its package's or its family's, else none. */
function allowedIds(path: string): ReadonlySet<string> {
  const inPackage = GAMES.find((g) => path.startsWith(`engine/games/${g.id}/`));
  if (inPackage !== undefined) return new Set([inPackage.id, inPackage.game]);
  const allowed = new Set<string>();
  for (const [family, paths] of Object.entries(FAMILY_PATHS)) {
    if (!paths.some((p) => p.endsWith("/") ? path.startsWith(p) : path === p)) continue;
    allowed.add(family);
    for (const g of GAMES) if (g.game === family) allowed.add(g.id);
  }
  return allowed;
}

/** Every branch on an id the file may not compare with, as `file:line: ...`. */
function offending(path: string, text: string): string[] {
  if (path.startsWith("tests/")) return [];
  const allowed = allowedIds(path);
  return idBranches(text, ALL_IDS)
    .filter((b) => !allowed.has(b.id))
    .map((b) =>
      `${path}:${b.line}: compares with ${GAME_IDS.has(b.id) ? "game" : "family"} id "${b.id}"`
    );
}

/** The branches on a game id of a set of files, by file:line. */
function unexpected(files: readonly { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) => offending(path, text));
}

async function sourceFiles(): Promise<{ path: string; text: string }[]> {
  const out = await new Deno.Command("git", { args: ["ls-files", "*.ts"], stdout: "piped" })
    .output();
  const paths = new TextDecoder().decode(out.stdout).split("\n").filter((f) => f.endsWith(".ts"));
  return await Promise.all(
    paths.map(async (path) => ({ path, text: await Deno.readTextFile(path) })),
  );
}

Deno.test("no code outside a game's package or its family's own code branches on a game id", async () => {
  assertEquals(unexpected(await sourceFiles()), []);
});

Deno.test("unexpected() names file:line of a branch added to the viewer, a family folder or a command", () => {
  const branch =
    `const view = 1;\n// "staghunt" === x in a comment\nif (h.game === "staghunt") {}\n`;
  assertEquals(unexpected([{ path: "analysis/viewer/_new.ts", text: branch }]), [
    `analysis/viewer/_new.ts:3: compares with game id "staghunt"`,
  ]);
  // A family's own folder selects its own family, not another one.
  assertEquals(unexpected([{ path: "analysis/frail/x.ts", text: branch }]), [
    `analysis/frail/x.ts:3: compares with game id "staghunt"`,
  ]);
  assertEquals(
    unexpected([{ path: "analysis/staghunt/x.ts", text: branch }, {
      path: "engine/games/staghunt/x.ts",
      text: branch,
    }]),
    [],
  );
  // A package compares with its own id only.
  assertEquals(
    unexpected([{
      path: "engine/games/bank_run/x.ts",
      text: `switch (env) { case "crowdfunding": }`,
    }]),
    [`engine/games/bank_run/x.ts:1: compares with game id "crowdfunding"`],
  );
  // The command-line programs dispatch through data too.
  assertEquals(
    unexpected([{ path: "engine/cli/reproduce.ts", text: `if (paper === "frail") {}\n` }]),
    [
      `engine/cli/reproduce.ts:1: compares with family id "frail"`,
    ],
  );
  assertEquals(unexpected([{ path: "tests/x_test.ts", text: branch }]), []);
});

Deno.test("idBranches() finds comparisons, case labels and Polars eq, not other uses of an id", () => {
  const ids = new Set(["frail", "bank_run"]);
  const text = [
    `const a = x === "frail";`, // 1
    `const b = "bank_run" !== y;`, // 2
    `switch (z) { case 'frail': break; }`, // 3
    `df.filter(pl.col("env").eq(pl.lit("bank_run")));`, // 4
    "const c = x == `frail`;", // 5
    `const d = { env: "bank_run", game: "frail" };`, // 6: not compared
    `type G = "frail" | "staghunt";`, // 7: a type
    `// x === "frail"`, // 8: a comment
    `/** if (e === "bank_run") */`, // 9: JSDoc
    `const r = /"/.test(s) && s === "frail";`, // 10: a regex holding a quote
    'const t = `${x === 1 ? "a" : "b"}` === "bank_run";', // 11: after a template
    `const n = f()! / 2; const m = x !== "frail";`, // 12: division after a non-null assertion
    `const s = "say \\"frail\\"" === q;`, // 13: another string
  ].join("\n");
  assertEquals(idBranches(text, ids), [
    { line: 1, id: "frail" },
    { line: 2, id: "bank_run" },
    { line: 3, id: "frail" },
    { line: 4, id: "bank_run" },
    { line: 5, id: "frail" },
    { line: 10, id: "frail" },
    { line: 11, id: "bank_run" },
    { line: 12, id: "frail" },
  ]);
});

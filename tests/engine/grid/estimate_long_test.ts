// The grid command's dry run of the paper's FRAIL grid with the example
// models fits on one screen and names every model unpriced (long group: the
// estimate plays the 900 episodes with stand-ins, about a second of CPU; the
// default task checks the same screen, printed by reproduce --dry-run, in
// tests/engine/cli/reproduce_test.ts).
import { assert, assertEquals } from "../../_assert.ts";
import { planGrid } from "../../../engine/grid/plan.ts";
import { GRID_CLI as CLI, ROOT } from "./_grid_fixture.ts";

Deno.test("the paper grid's dry run with the example models fits in 40 lines and names every model unpriced", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      CLI,
      "--spec",
      "data/specs/paper_frail.json",
      "--models",
      "data/models.example.json",
      "--dry-run",
    ],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  const lines = new TextDecoder().decode(out.stdout).trimEnd().split("\n");
  assert(lines.length <= 40, `${lines.length} lines:\n${lines.join("\n")}`);
  assert(lines.every((l) => l.length <= 100), lines.join("\n"));
  assertEquals(
    lines[0],
    `Grid "paper-frail": 180 cells, 900 episodes, base seed 2026, spec ${
      planGrid(JSON.parse(await Deno.readTextFile(`${ROOT}/data/specs/paper_frail.json`))).hash
        .slice(0, 12)
    }`,
  );
  const text = lines.join("\n");
  assert(text.includes("Agent calls per episode (mean over a cell's episodes): "), text);
  assert(text.includes("Add --list to see every cell and every episode's seed."), text);
  assert(text.includes("low-high USD"), text);
  assert(
    text.includes(
      "No price for claude-sonnet, deepseek, glm, gpt-sol, gpt-terra, minimax, qwen: add",
    ),
    text,
  );
  for (
    const id of ["claude-sonnet", "deepseek", "glm", "gpt-sol", "gpt-terra", "minimax", "qwen"]
  ) {
    assert(
      lines.some((l) =>
        l.startsWith(`${id} `) && l.endsWith("500 assumed            -     no price")
      ),
      id,
    );
  }
  // No episode seeds without --list.
  assert(!text.includes("_e4"), text);
});

// What the dry run of the paper's FRAIL grid with the example models prints,
// whichever command prints it (the grid command: estimate_long_test.ts;
// reproduce --dry-run frail: tests/engine/cli/reproduce_test.ts).
import { assert, assertEquals } from "../../_assert.ts";
import { planGrid } from "../../../engine/grid/plan.ts";
import { ROOT } from "./_grid_fixture.ts";

/** The example models, none of which has a price. */
const UNPRICED = ["claude-sonnet", "deepseek", "glm", "gpt-sol", "gpt-terra", "minimax", "qwen"];

/**
 * Checks the paper grid's one screen: at most 40 lines none wider than 100,
 * the grid and its spec hash first, the calls, every model unpriced with 500
 * completion tokens assumed, and no episode seeds without --list.
 */
export async function assertPaperScreen(text: string): Promise<void> {
  const lines = text.trimEnd().split("\n");
  assert(lines.length <= 40, `${lines.length} lines:\n${text}`);
  assert(lines.every((l) => l.length <= 100), text);
  const spec = JSON.parse(await Deno.readTextFile(`${ROOT}data/specs/paper_frail.json`));
  assertEquals(
    lines[0],
    `Grid "paper-frail": 180 cells, 900 episodes, base seed 2026, spec ${
      planGrid(spec).hash.slice(0, 12)
    }`,
  );
  assert(text.includes("Agent calls per episode (mean over a cell's episodes): "), text);
  assert(text.includes("Add --list to see every cell and every episode's seed."), text);
  assert(text.includes("low-high USD"), text);
  assert(text.includes(`No price for ${UNPRICED.join(", ")}: add`), text);
  for (const id of UNPRICED) {
    assert(
      lines.some((l) =>
        l.startsWith(`${id} `) && l.endsWith("500 assumed            -     no price")
      ),
      id,
    );
  }
  assert(!text.includes("_e4"), text);
}

// The grid command's dry run of the paper's FRAIL grid with the example
// models fits on one screen and names every model unpriced (long group: the
// estimate plays the 900 episodes with stand-ins, about a second of CPU; the
// default task checks the same screen, printed by reproduce --dry-run, in
// tests/engine/cli/reproduce_test.ts).
import { assertEquals } from "../../_assert.ts";
import { assertPaperScreen } from "./_paper_screen.ts";
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
  await assertPaperScreen(new TextDecoder().decode(out.stdout));
});

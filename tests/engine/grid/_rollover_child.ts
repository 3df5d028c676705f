// Test child: runs a grid with small segment files (roll-over every
// `segmentBytes`), to be killed part-way. Args: spec path, out, segmentBytes.
import { runGrid } from "../../../engine/grid/run_grid.ts";

const [specPath, out, bytes] = Deno.args;
await runGrid(JSON.parse(await Deno.readTextFile(specPath)), {
  out,
  workers: 2,
  progress: false,
  segmentBytes: Number(bytes),
});

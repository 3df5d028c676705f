// Test helper: the frames of a small grid, played in-process into a temporary
// folder that is removed however the load ends.

import { loadRuns, type LoadRunsOptions, type RunFrames } from "../../analysis/mod.ts";
import { runGrid } from "../../engine/grid/run_grid.ts";
import { tempDirRunner } from "./_temp_dir.ts";

/** Plays `spec` with no workers into a temporary folder `<prefix>...` and loads it. */
export async function loadGrid(
  prefix: string,
  spec: unknown,
  options?: LoadRunsOptions,
): Promise<RunFrames> {
  let frames: RunFrames | undefined;
  await tempDirRunner(prefix)(async (out) => {
    await runGrid(spec, { out, workers: 0, progress: false });
    frames = await loadRuns(out, options);
  });
  return frames!;
}

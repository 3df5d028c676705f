/**
 * A run in a child process, for the kill-and-resume and permission tests:
 * `deno run <narrow flags> _grid_child.ts <baseURL> <runDir> <cacheDir> <keyVar> <perMechanism>`.
 * Runs `childSpec(perMechanism)` into `<runDir>/child` with log-line progress.
 *
 * @module
 */
import { LlmRuntime } from "../../../../engine/agents/llm/runtime.ts";
import { runGrid } from "../../../../engine/grid/run_grid.ts";
import { childSpec } from "./_helpers.ts";

const [baseURL, runDir, cacheDir, keyVar, perMechanism] = Deno.args;
const runtime = new LlmRuntime({
  models: [{
    id: "local",
    baseURL,
    model: "coordlab-defensive",
    testDouble: true,
    apiKeyEnv: keyVar,
    concurrency: 4,
  }],
  cacheDir,
});
const result = await runGrid(childSpec(Number(perMechanism)), {
  out: `${runDir}/child`,
  runtime,
  concurrency: 1,
  progress: "log",
});
console.log(`${result.played} played, ${result.failed.length} failed`);

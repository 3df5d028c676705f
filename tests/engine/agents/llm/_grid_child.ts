/**
 * A run in a child process, for the kill-and-resume and permission tests:
 * `deno run <narrow flags> _grid_child.ts <baseURL> <runDir> <cacheDir> <keyVar> <episodes>`.
 * Prints one line per finished episode.
 *
 * @module
 */
import { LlmRuntime } from "../../../../engine/agents/llm/runtime.ts";
import { runLlmGrid } from "../../../../engine/agents/llm/run_grid.ts";
import { childGrid } from "./_helpers.ts";

const [baseURL, runDir, cacheDir, keyVar, episodes] = Deno.args;
const runtime = new LlmRuntime({
  models: [{
    id: "local",
    baseURL,
    model: "coordlab-defensive",
    apiKeyEnv: keyVar,
    concurrency: 4,
  }],
  cacheDir,
});
const result = await runLlmGrid(childGrid(Number(episodes)), {
  runtime,
  models: "local",
  run: "child",
  outDir: runDir,
  episodeConcurrency: 1,
  onProgress: () => {},
});
for (const e of result.episodes) console.log(`${e.episode} ${e.status}`);

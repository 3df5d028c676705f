/**
 * The default test task (`deno task test`) runs most test files a few
 * modules at a time: `deno test` starts a worker of its own for each module
 * it is given, and each worker pays 0.1-1.1 s of CPU to load the engine,
 * zod, Node compatibility and Polars again before its first test
 * (docs/benchmarks.md, "The test suite": 34 s of CPU for the 162 files
 * loaded one a worker, 5 s for the same files in eight modules). A batch
 * (`tests/_batches/<name>.ts`) imports every test file of its folders (not
 * their subfolders), in name order, so that their `Deno.test` calls register
 * in that one module; the tests then run one after the other in its worker,
 * and a failure still names its file and line.
 *
 * What a batch gives up is one worker per file: a file's module state (a
 * game registered, a cache filled at first use, `console.warn` or an
 * environment variable replaced for a test) is seen by the files after it
 * in its batch, so a test file puts back what it changes, in a `finally`
 * (the files that change such state do: registry, unknown_game, workers,
 * launch, shard_set and live_folder tests). `deno test <file>` still runs
 * one file alone, in its own worker; `test:long` runs the long group one
 * worker a file.
 *
 * Each test file (`*_test.ts` under tests/, not `*_long_test.ts`) is in
 * exactly one batch or in {@link ALONE}; tests/batches_test.ts checks it,
 * and that the task names every batch and every file of `ALONE`.
 *
 * @module
 */

/**
 * Test files the task runs one a worker, first: reproduce_test.ts, the
 * longest file (its launcher runs are most of its time), so that it starts
 * first and the run does not end on it. `deno test` starts the modules it is
 * given deepest path first (in the given order among paths of one depth;
 * Deno 2.9.6, seen with `DENO_JOBS=1`), so a file of `ALONE`, deeper than
 * tests/_batches/, starts before every batch wherever the task names it.
 */
export const ALONE: readonly string[] = [
  "tests/engine/cli/reproduce_test.ts",
];

/** One batch: the folders whose test files it imports, and which share of them. */
export interface Batch {
  /** Folders from the repository's root (their test files only, not their subfolders'). */
  folders: readonly string[];
  /**
   * `[k, n]`: the k-th (from 1) of n shares of the folders' files, in name
   * order, file i going to share `i % n + 1`; all of them when absent.
   */
  part?: readonly [number, number];
}

/**
 * The batches by name (`tests/_batches/<name>.ts` imports batch `<name>`), in
 * the order the task runs them after the files of {@link ALONE}: the ones
 * that take longest first and two short ones last, so that both test workers
 * stay busy to the end and finish within a few seconds of each other.
 */
export const BATCHES: Readonly<Record<string, Batch>> = {
  engine: { folders: ["tests/engine", "tests/engine/core", "tests/engine/cli"] },
  games: {
    folders: [
      "tests/engine/games",
      "tests/engine/games/bank_run",
      "tests/engine/games/crowdfunding",
      "tests/engine/games/debt_rollover",
      "tests/engine/games/min_effort",
      "tests/engine/games/staghunt",
      "tests/engine/frail/mechanisms",
    ],
  },
  analysis_views: {
    folders: [
      "tests/analysis/viewer",
      "tests/analysis/charts",
      "tests/analysis/frail",
      "tests/analysis/staghunt",
    ],
  },
  llm_2: { folders: ["tests/engine/agents/llm"], part: [2, 2] },
  grid_2: { folders: ["tests/engine/grid"], part: [2, 2] },
  grid_1: { folders: ["tests/engine/grid"], part: [1, 2] },
  analysis_load: { folders: ["tests/analysis/load"] },
  analysis: { folders: ["tests/analysis", "tests/analysis/report", "tests/analysis/games"] },
  root: { folders: ["tests", "tests/bench"] },
  llm_1: { folders: ["tests/engine/agents/llm"], part: [1, 2] },
};

const ROOT = new URL("../", import.meta.url);

/**
 * Every test file of the default task, from the repository's root, in name
 * order: `*_test.ts` under tests/, not `*_long_test.ts` (the long group's).
 */
export async function testFiles(): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (
        entry.isFile && entry.name.endsWith("_test.ts") && !entry.name.endsWith("_long_test.ts")
      ) found.push(path);
    }
  };
  await walk("tests");
  return found.sort();
}

/** The folder of a file from the repository's root (`tests/a/b_test.ts` is in `tests/a`). */
export function folderOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/"));
}

/** The files of batch `name` among `files` (as {@link testFiles} lists them), in name order. */
export function batchFiles(name: string, files: readonly string[]): string[] {
  const batch = BATCHES[name];
  if (batch === undefined) {
    throw new RangeError(
      `Unknown test batch "${name}": tests/_batches.ts has ${Object.keys(BATCHES).join(", ")}`,
    );
  }
  const mine = files.filter((f) => !ALONE.includes(f) && batch.folders.includes(folderOf(f)));
  if (batch.part === undefined) return mine;
  const [k, n] = batch.part;
  return mine.filter((_, i) => i % n === k - 1);
}

/**
 * Imports the test files of the batch a module in tests/_batches/ names by
 * its file name (`tests/_batches/grid_1.ts` imports batch `grid_1`).
 */
export async function importBatch(batchModule: string): Promise<void> {
  const name = new URL(batchModule).pathname.split("/").at(-1)!.replace(/\.ts$/, "");
  for (const file of batchFiles(name, await testFiles())) await import(new URL(file, ROOT).href);
}

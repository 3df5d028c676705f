// The set-up the grid tests share: the repository's paths, the small spec
// most of them play, the quiet in-process options, and the grid command as
// a child process.

/** The repository's root folder (the child processes' working folder). */
export const ROOT = new URL("../../../", import.meta.url).pathname;
/** The grid command (`deno task grid`). */
export const GRID_CLI = new URL("../../../engine/cli/grid.ts", import.meta.url).pathname;
/** The compaction command (`deno task compact`). */
export const COMPACT_CLI = new URL("../../../engine/cli/compact.ts", import.meta.url).pathname;

/** A child's output bytes as text. */
export const text = (b: Uint8Array): string => new TextDecoder().decode(b);

/** Six mock episodes: bank run M0 and M3, and one Stag Hunt cell, two episodes each. */
export const SMALL = {
  name: "small",
  seed: 3,
  episodes: 2,
  blocks: [
    { game: "frail", envs: ["bank_run"], mechanisms: ["M0", "M3"] },
    { game: "staghunt", N: [3], M: [2], T: [2], F: [1] },
  ],
};

/** Forty mock bank-run M0 episodes: enough for a worker to hold, report and be stopped mid-batch. */
export const HELD = {
  name: "held",
  seed: 3,
  episodes: 40,
  blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0"] }],
};

/** In-process episodes, no progress display. */
export const quiet = { workers: 0, progress: false } as const;

/** Options of {@linkcode gridCommand}. */
export interface GridCommandOptions {
  /** `--workers`. Default 0 (in-process). */
  workers?: number;
  /** Show the progress (else `--no-progress`). Default `false`. */
  progress?: boolean;
  /** A module the child imports first (`--preload`). Default none. */
  preload?: string;
  /** Environment variables added for the child. Default none. */
  env?: Record<string, string>;
  /** Further arguments, after the others. Default none. */
  extra?: string[];
}

/**
 * The grid command on a spec and folder, as a child process with piped
 * output: `deno run -A [--preload m] grid.ts --spec s --out o --workers n
 * [--no-progress] ...extra`, from the repository's root.
 */
export function gridCommand(
  specPath: string,
  out: string,
  options: GridCommandOptions = {},
): Deno.Command {
  const preload = options.preload ? ["--preload", options.preload] : [];
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      ...preload,
      GRID_CLI,
      "--spec",
      specPath,
      "--out",
      out,
      "--workers",
      String(options.workers ?? 0),
      ...(options.progress ? [] : ["--no-progress"]),
      ...(options.extra ?? []),
    ],
    cwd: ROOT,
    env: options.env ?? {},
    stdout: "piped",
    stderr: "piped",
  });
}

/** {@linkcode gridCommand} run to its end: its exit code and output as text. */
export async function gridOutput(
  specPath: string,
  out: string,
  options: GridCommandOptions = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await gridCommand(specPath, out, options).output();
  return { code: r.code, stdout: text(r.stdout), stderr: text(r.stderr) };
}

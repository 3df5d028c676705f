/**
 * What the benchmarks share: episodes per second with logging off and on
 * (after a JIT warm-up), a description of the machine, medians, and the
 * Markdown tables they print for the README.
 *
 * @module
 */

/** Plays one episode; `outDir` set means full logging into that folder. */
export type PlayEpisode = (seed: number, outDir?: string) => Promise<unknown>;

/** Options of {@linkcode loggingRates}. */
export interface LoggingRateOptions {
  /** Episodes timed per setting (seeds 1000, 1001, ...). */
  episodes: number;
  /** Episodes played before each timing to warm up the JIT (seeds 0, 1, ...), not timed. */
  warmup: number;
  /** Prefix of the temporary log folder, removed at the end. @default {"coordlab-bench-"} */
  prefix?: string;
}

/** Episodes per second with logging off and with full logging. */
export interface LoggingRates {
  /** Logging off: events kept in memory only. */
  off: number;
  /** Full logging: events, checkpoints and hashes written to a temporary folder. */
  on: number;
}

/**
 * Times `episodes` episodes with logging off, then with full logging, each
 * after a warm-up without logging.
 *
 * @param play Plays one episode.
 * @param options Episode counts and the temporary folder's prefix.
 * @returns The two rates, in episodes per second.
 *
 * @example
 * ```ts
 * import { loggingRates } from "./_measure.ts";
 * const logged: (string | undefined)[] = [];
 * const rates = await loggingRates((_seed, outDir) => {
 *   logged.push(outDir);
 *   return Promise.resolve();
 * }, { episodes: 2, warmup: 1 });
 * if (logged.length !== 6 || logged.filter((d) => d !== undefined).length !== 2) throw new Error();
 * if (!(rates.off > 0 && rates.on > 0)) throw new Error();
 * ```
 */
export async function loggingRates(
  play: PlayEpisode,
  options: LoggingRateOptions,
): Promise<LoggingRates> {
  const { episodes, warmup, prefix = "coordlab-bench-" } = options;
  const dir = await Deno.makeTempDir({ prefix });
  const measure = async (write: boolean): Promise<number> => {
    for (let s = 0; s < warmup; s++) await play(s);
    const t0 = performance.now();
    for (let s = 0; s < episodes; s++) await play(1000 + s, write ? dir : undefined);
    return episodes / ((performance.now() - t0) / 1000);
  };
  try {
    const off = await measure(false);
    const on = await measure(true);
    return { off, on };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Options of {@linkcode ratePerSecond}. */
export interface RateOptions {
  /** Wall-clock budget of the timing, in seconds. */
  seconds: number;
  /** Seed of the first episode; the next ones follow. @default {0} */
  firstSeed?: number;
}

/**
 * Episodes per second: plays episodes one after another (seeds `firstSeed`,
 * `firstSeed + 1`, ...) until the budget is spent, then divides the count by
 * the time taken.
 *
 * @param play Plays one episode.
 * @param options The budget and the first seed.
 * @returns Episodes per second.
 *
 * @example
 * ```ts
 * import { ratePerSecond } from "./_measure.ts";
 * const seeds: number[] = [];
 * const rate = await ratePerSecond((s) => Promise.resolve(seeds.push(s)), { seconds: 0.01, firstSeed: 5 });
 * if (!(rate > 0) || seeds[0] !== 5 || seeds[1] !== 6) throw new Error();
 * ```
 */
export async function ratePerSecond(
  play: (seed: number) => Promise<unknown>,
  options: RateOptions,
): Promise<number> {
  const budget = options.seconds * 1000;
  let seed = options.firstSeed ?? 0;
  let n = 0;
  const t0 = performance.now();
  let elapsed = 0;
  while (elapsed < budget) {
    await play(seed++);
    n++;
    elapsed = performance.now() - t0;
  }
  return n / (elapsed / 1000);
}

/**
 * The 1, 5 and 15 minute load averages, or `"n/a"` where the system has none.
 *
 * @returns E.g. `"0.52 0.61 0.70"`.
 *
 * @example
 * ```ts
 * import { loadAverage } from "./_measure.ts";
 * if (!/^(n\/a|[\d.]+ [\d.]+ [\d.]+)$/.test(loadAverage())) throw new Error(loadAverage());
 * ```
 */
export function loadAverage(): string {
  try {
    return Deno.loadavg().map((x) => x.toFixed(2)).join(" ");
  } catch {
    return "n/a";
  }
}

/** Options of {@linkcode machine}. */
export interface MachineOptions {
  /** Name the CPU model (read from `/proc/cpuinfo`, else from `lscpu`; left out when neither answers). @default {false} */
  cpuModel?: boolean;
}

/**
 * The machine a benchmark ran on: OS, architecture, (CPU model,) cores and Deno version.
 *
 * @param options Whether to name the CPU model.
 * @returns E.g. `"linux x86_64, 2 cores, Deno 2.9.6"`.
 *
 * @example
 * ```ts
 * import { machine } from "./_measure.ts";
 * if (!machine().endsWith(`cores, Deno ${Deno.version.deno}`)) throw new Error();
 * ```
 */
export function machine(options: MachineOptions = {}): string {
  let cpu = "";
  if (options.cpuModel) {
    try {
      cpu = Deno.readTextFileSync("/proc/cpuinfo").match(/model name\s*:\s*(.+)/)?.[1] ?? "";
    } catch {
      // Not Linux, or /proc not readable with these permissions: ask lscpu if allowed.
      try {
        const out = new Deno.Command("lscpu", { stdout: "piped", stderr: "null" }).outputSync();
        cpu = new TextDecoder().decode(out.stdout).match(/Model name:\s*(.+)/)?.[1]?.trim() ?? "";
      } catch {
        // Leave the CPU model out.
      }
    }
  }
  return `${Deno.build.os} ${Deno.build.arch}${cpu ? `, ${cpu}` : ""}, ` +
    `${navigator.hardwareConcurrency} cores, Deno ${Deno.version.deno}`;
}

/**
 * The middle value (the upper one of the two middle values for an even count).
 *
 * @param values Numbers, in any order (not changed).
 * @returns The median.
 *
 * @example
 * ```ts
 * import { median } from "./_measure.ts";
 * if (median([3, 1, 2]) !== 2 || median([4, 1, 3, 2]) !== 3) throw new Error();
 * ```
 */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Options of {@linkcode markdownTable}. */
export interface MarkdownTableOptions {
  /** Right-align every column but the first. @default {false} */
  alignRight?: boolean;
}

/**
 * A Markdown table: the header row, the separator row, then one row per entry.
 *
 * @param header The column titles.
 * @param rows The cells, row by row.
 * @param options Alignment.
 * @returns The table's lines, joined by newlines.
 *
 * @example
 * ```ts
 * import { markdownTable } from "./_measure.ts";
 * const table = markdownTable(["run", "s"], [["a", "1.0"]], { alignRight: true });
 * if (table !== "| run | s |\n| --- | ---: |\n| a | 1.0 |") throw new Error(table);
 * ```
 */
export function markdownTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  options: MarkdownTableOptions = {},
): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  const rule = header.map((_, i) => i > 0 && options.alignRight ? "---:" : "---");
  return [line(header), line(rule), ...rows.map(line)].join("\n");
}

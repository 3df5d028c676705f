/**
 * What the benchmarks share: episodes per second with logging off and on
 * (after a JIT warm-up), steady-state timing (warm up until two consecutive
 * windows agree, then time a longer window, wall and CPU time), a description
 * of the machine, medians, and the Markdown tables they print for the README.
 *
 * @module
 */
import { cpuUsage } from "node:process";

/** Plays one episode; `outDir` set means full logging into that folder. */
export type PlayEpisode = (seed: number, outDir?: string) => Promise<unknown>;

/** Options of {@linkcode loggingRates}: the steady-state meter's (see {@linkcode SteadyMeter}). */
export interface LoggingRateOptions extends SteadyMeterOptions {
  /** Prefix of the temporary log folder, removed at the end. @default {"coordlab-bench-"} */
  prefix?: string;
}

/** Episodes per second with logging off and with full logging, in steady state. */
export interface LoggingRates {
  /** Logging off: events kept in memory only. */
  off: SteadyTiming;
  /** Full logging: events, checkpoints and hashes written to a temporary folder. */
  on: SteadyTiming;
}

/**
 * Times episodes with logging off (seeds from 0), then with full logging
 * (seeds from 1,000,000), each in steady state: warm-up windows until two
 * agree, then one timed window (see {@linkcode SteadyMeter}).
 *
 * @param play Plays one episode.
 * @param options The meter's windows and the temporary folder's prefix.
 * @returns The two timings.
 *
 * @example
 * ```ts
 * import { loggingRates } from "./_measure.ts";
 * const logged = new Set<string | undefined>();
 * const rates = await loggingRates((_seed, outDir) => {
 *   logged.add(outDir);
 *   return Promise.resolve();
 * }, { seconds: 0.01, window: 0.005, maxWarmup: 0.02 });
 * if (logged.size !== 2 || !logged.has(undefined)) throw new Error();
 * if (!(rates.off.rate > 0 && rates.on.rate > 0)) throw new Error();
 * ```
 */
export async function loggingRates(
  play: PlayEpisode,
  options: LoggingRateOptions,
): Promise<LoggingRates> {
  const { prefix = "coordlab-bench-", ...meter } = options;
  const dir = await Deno.makeTempDir({ prefix });
  try {
    const off = await steadyRate((s) => play(s), { ...meter, firstSeed: 0 });
    const on = await steadyRate((s) => play(s, dir), { ...meter, firstSeed: 1_000_000 });
    return { off, on };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Options of {@linkcode steadyIndex}. */
export interface SteadyIndexOptions {
  /** Largest relative difference of two windows that agree (over the larger rate). @default {0.05} */
  tolerance?: number;
}

/**
 * The steady-state rule: the index of the first window whose rate agrees with
 * the window before it within `tolerance` (their difference at most
 * `tolerance` times the larger of the two), or -1 when no two consecutive
 * windows agree yet. A rate that is not a positive finite number never agrees.
 *
 * @param rates The rates of consecutive windows, in order.
 * @param options The tolerance.
 * @returns The index of the window the rate is steady from, or -1.
 *
 * @example
 * ```ts
 * import { steadyIndex } from "./_measure.ts";
 * if (steadyIndex([100, 150, 190, 198, 200]) !== 3) throw new Error("190 and 198 agree within 5%");
 * if (steadyIndex([100, 150, 190]) !== -1) throw new Error("still rising");
 * ```
 */
export function steadyIndex(rates: readonly number[], options: SteadyIndexOptions = {}): number {
  const tolerance = options.tolerance ?? 0.05;
  if (!(tolerance >= 0 && tolerance < 1)) {
    throw new RangeError(`tolerance must be in [0, 1), got ${tolerance}`);
  }
  const usable = (x: number) => Number.isFinite(x) && x > 0;
  for (let i = 1; i < rates.length; i++) {
    const a = rates[i - 1];
    const b = rates[i];
    if (usable(a) && usable(b) && Math.abs(a - b) <= tolerance * Math.max(a, b)) return i;
  }
  return -1;
}

/** CPU time used by this process so far (all its threads), in seconds. */
export type CpuClock = () => number;

/** The process's user and system CPU time, in seconds (`process.cpuUsage`, all threads). */
export const processCpuSeconds: CpuClock = () => {
  const { user, system } = cpuUsage();
  return (user + system) / 1e6;
};

/** Options of {@linkcode SteadyMeter}. */
export interface SteadyMeterOptions {
  /** Length of each warm-up window, in seconds. @default {1} */
  window?: number;
  /** Agreement of two consecutive warm-up windows (see {@linkcode steadyIndex}). @default {0.05} */
  tolerance?: number;
  /** Longest warm-up, in seconds: the timing starts then even if no two windows agreed. @default {20} */
  maxWarmup?: number;
  /** Length of the timed window that follows the warm-up, in seconds. */
  seconds: number;
  /** Wall clock in milliseconds. @default {performance.now} */
  now?: () => number;
  /** CPU clock in seconds. @default {processCpuSeconds} */
  cpu?: CpuClock;
}

/** What a {@linkcode SteadyMeter} measured. */
export interface SteadyTiming {
  /** Whether two consecutive warm-up windows agreed (false: the warm-up hit its cap). */
  steady: boolean;
  /** Wall time of the warm-up, in seconds. */
  warmupSeconds: number;
  /** Episodes per second of each warm-up window, in order. */
  warmupRates: number[];
  /** Episodes finished in the timed window. */
  episodes: number;
  /** Agent reports of those episodes (0 when not counted). */
  reports: number;
  /** Wall time of the timed window, in seconds. */
  seconds: number;
  /** CPU time of the process during the timed window, in seconds. */
  cpuSeconds: number;
  /** Episodes per wall-clock second. */
  rate: number;
  /** Episodes per CPU second. */
  cpuRate: number;
  /** Wall-clock microseconds per agent report, or `null` without reports. */
  usPerReport: number | null;
}

/**
 * Times episodes in steady state. Call {@linkcode SteadyMeter.tick} after
 * each finished episode: the meter first counts warm-up windows of `window`
 * seconds until two consecutive ones agree within `tolerance` (or `maxWarmup`
 * is spent), then times the episodes of one window of `seconds` (wall clock
 * and the process's CPU time), and `tick` returns `true` once that is done.
 *
 * @example
 * ```ts
 * import { SteadyMeter } from "./_measure.ts";
 * let t = 0; // a synthetic clock: 10 ms per episode, 1 ms of CPU
 * const meter = new SteadyMeter({ seconds: 1, window: 0.5, now: () => t, cpu: () => t / 10_000 });
 * let n = 0;
 * do t += 10, n++; while (!meter.tick(4));
 * const r = meter.result();
 * if (!r.steady || r.warmupSeconds !== 1 || r.rate !== 100 || r.episodes !== 100) throw new Error();
 * if (r.cpuRate !== 1000 || r.usPerReport !== 2500 || n !== 200) throw new Error(JSON.stringify(r));
 * ```
 */
export class SteadyMeter {
  #window: number;
  #tolerance: number;
  #maxWarmup: number;
  #seconds: number;
  #now: () => number;
  #cpu: CpuClock;
  #start: number;
  #windowStart: number;
  #windowEpisodes = 0;
  #rates: number[] = [];
  #steady = false;
  #timing = false;
  #done = false;
  #timedStart = 0;
  #cpuStart = 0;
  #warmupSeconds = 0;
  #episodes = 0;
  #reports = 0;
  #end = 0;
  #cpuEnd = 0;

  /**
   * @param options The windows, the tolerance, the cap and the clocks.
   */
  constructor(options: SteadyMeterOptions) {
    this.#window = options.window ?? 1;
    this.#tolerance = options.tolerance ?? 0.05;
    this.#maxWarmup = options.maxWarmup ?? 20;
    this.#seconds = options.seconds;
    for (
      const [name, v] of [["window", this.#window], ["maxWarmup", this.#maxWarmup], [
        "seconds",
        this.#seconds,
      ]] as const
    ) {
      if (!(Number.isFinite(v) && v > 0)) {
        throw new RangeError(`${name} must be a positive number of seconds, got ${v}`);
      }
    }
    steadyIndex([], { tolerance: this.#tolerance });
    this.#now = options.now ?? (() => performance.now());
    this.#cpu = options.cpu ?? processCpuSeconds;
    this.#start = this.#now();
    this.#windowStart = this.#start;
  }

  /**
   * Counts one finished episode.
   *
   * @param reports Its agent reports (for the cost per report). @default {0}
   * @returns `true` once the timed window is complete (later ticks are ignored).
   */
  tick(reports = 0): boolean {
    if (this.#done) return true;
    const t = this.#now();
    if (this.#timing) {
      this.#episodes++;
      this.#reports += reports;
      if (t - this.#timedStart >= this.#seconds * 1000) {
        this.#end = t;
        this.#cpuEnd = this.#cpu();
        this.#done = true;
      }
      return this.#done;
    }
    this.#windowEpisodes++;
    if (t - this.#windowStart < this.#window * 1000) return false;
    this.#rates.push(this.#windowEpisodes / ((t - this.#windowStart) / 1000));
    this.#windowStart = t;
    this.#windowEpisodes = 0;
    this.#steady = steadyIndex(this.#rates, { tolerance: this.#tolerance }) >= 0;
    if (this.#steady || t - this.#start >= this.#maxWarmup * 1000) {
      this.#timing = true;
      this.#warmupSeconds = (t - this.#start) / 1000;
      this.#timedStart = t;
      this.#cpuStart = this.#cpu();
    }
    return false;
  }

  /**
   * What was measured.
   *
   * @returns The warm-up and the timed window.
   * @throws {Error} When the timed window is not complete yet.
   */
  result(): SteadyTiming {
    if (!this.#done) {
      throw new Error(
        `The timing is not complete: ${this.#timing ? "timing" : "warming up"} after ${
          ((this.#now() - this.#start) / 1000).toFixed(1)
        } s (play more episodes)`,
      );
    }
    const seconds = (this.#end - this.#timedStart) / 1000;
    const cpuSeconds = this.#cpuEnd - this.#cpuStart;
    return {
      steady: this.#steady,
      warmupSeconds: this.#warmupSeconds,
      warmupRates: [...this.#rates],
      episodes: this.#episodes,
      reports: this.#reports,
      seconds,
      cpuSeconds,
      rate: this.#episodes / seconds,
      cpuRate: this.#episodes / cpuSeconds,
      usPerReport: this.#reports > 0 ? seconds * 1e6 / this.#reports : null,
    };
  }
}

/** Options of {@linkcode steadyRate}. */
export interface SteadyRateOptions extends SteadyMeterOptions {
  /** Seed of the first episode; the next ones follow. @default {0} */
  firstSeed?: number;
  /** The agent reports of an episode, from what `play` returned. @default {() => 0} */
  reports?: (result: unknown) => number;
}

/**
 * Plays episodes one after another (seeds `firstSeed`, `firstSeed + 1`, ...)
 * through a {@linkcode SteadyMeter}: warm-up until steady, then one timed window.
 *
 * @param play Plays one episode.
 * @param options The meter's options, the first seed and how to count reports.
 * @returns The timing, and the next unused seed.
 *
 * @example
 * ```ts
 * import { steadyRate } from "./_measure.ts";
 * const r = await steadyRate((s) => Promise.resolve(s), { seconds: 0.02, window: 0.01, reports: () => 3 });
 * if (!(r.rate > 0 && r.reports === 3 * r.episodes && r.nextSeed > r.episodes)) throw new Error();
 * ```
 */
export async function steadyRate(
  play: (seed: number) => Promise<unknown>,
  options: SteadyRateOptions,
): Promise<SteadyTiming & { nextSeed: number }> {
  const meter = new SteadyMeter(options);
  const reports = options.reports ?? (() => 0);
  let seed = options.firstSeed ?? 0;
  while (!meter.tick(reports(await play(seed++))));
  return { ...meter.result(), nextSeed: seed };
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

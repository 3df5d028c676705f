/**
 * Benchmark: mock Stag Hunt episodes per second in the paper's focal setting
 * (N = 5, M = 3, T = 4), with F = 2 corrupted players (base inversion, so
 * every round makes two rejustify calls), noiseless naive threshold players,
 * with full logging (events + checkpoints + hashes, NDJSON written atomically
 * to a temporary folder) and with logging off (events kept in memory only).
 *
 * Each setting warms up until two consecutive 1-s windows agree within 5%
 * (at most 20 s), then one window of `seconds` is timed.
 *
 * Usage: `deno run --allow-read --allow-write --allow-env --allow-sys bench/staghunt.ts [seconds]`
 * (default 3; prints a Markdown table for the README).
 *
 * @module
 */
import { runStagHuntEpisode } from "../engine/run_staghunt_episode.ts";
import { loggingRates, machine, markdownTable } from "./_measure.ts";

const seconds = Number(Deno.args[0] ?? 3);
if (!(seconds > 0)) {
  console.error(`The timed window must be a positive number of seconds, got ${Deno.args[0]}`);
  Deno.exit(2);
}
const { off, on } = await loggingRates(
  (seed, outDir) => runStagHuntEpisode({ N: 5, M: 3, T: 4, F: 2, seed, run: "bench", outDir }),
  { seconds, prefix: "coordlab-bench-staghunt-" },
);
const cell = (t: typeof off) =>
  `${t.rate.toFixed(0)} (${t.cpuRate.toFixed(0)} per CPU s, warm-up ${
    t.warmupSeconds.toFixed(1)
  } s` +
  `${t.steady ? "" : ", not steady"})`;
console.log(markdownTable(
  [
    `Stag Hunt mock episodes/s (N=5, M=3, T=4, F=2, ${seconds} s in steady state)`,
    "logging off",
    "full logging",
  ],
  [[machine({ cpuModel: true }), cell(off), cell(on)]],
));

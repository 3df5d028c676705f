/**
 * Benchmark: mock Stag Hunt episodes per second in the paper's focal setting
 * (N = 5, M = 3, T = 4), with F = 2 corrupted players (base inversion, so
 * every round makes two rejustify calls), noiseless naive threshold players,
 * with full logging (events + checkpoints + hashes, NDJSON written atomically
 * to a temporary folder) and with logging off (events kept in memory only).
 *
 * Usage: `deno run --allow-read --allow-write --allow-env --allow-sys bench/staghunt.ts [episodes]`
 * (prints a Markdown table for the README).
 *
 * @module
 */
import { runStagHuntEpisode } from "../engine/staghunt/run.ts";
import { loggingRates, machine, markdownTable } from "./_measure.ts";

const episodes = Number(Deno.args[0] ?? 1000);
const { off, on } = await loggingRates(
  (seed, outDir) => runStagHuntEpisode({ N: 5, M: 3, T: 4, F: 2, seed, run: "bench", outDir }),
  { episodes, warmup: 50, prefix: "coordlab-bench-staghunt-" },
);
console.log(markdownTable(
  [
    `Stag Hunt mock episodes/s (N=5, M=3, T=4, F=2, ${episodes} episodes)`,
    "logging off",
    "full logging",
  ],
  [[machine({ cpuModel: true }), off.toFixed(0), on.toFixed(0)]],
));

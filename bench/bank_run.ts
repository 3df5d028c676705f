/**
 * Benchmark: mock-agent bank-run episodes per second, with full logging
 * (events + checkpoints + hashes, NDJSON written to a temporary folder) and
 * with logging off (events kept in memory only, nothing written).
 *
 * Usage: `deno task bench` (prints a Markdown table for the README).
 *
 * @module
 */
import { runEpisode } from "../engine/run_episode.ts";
import { MECHANISMS } from "../engine/frail/types.ts";
import { loggingRates, machine, markdownTable } from "./_measure.ts";

const episodes = Number(Deno.args[0] ?? 400);
const { off, on } = await loggingRates(
  (seed, outDir) =>
    runEpisode({ env: "bank_run", mechanism: MECHANISMS[seed % 4], seed, run: "bench", outDir }),
  { episodes, warmup: 20 },
);
console.log(markdownTable(
  [`bank-run mock episodes/s (M0-M3 mix, ${episodes} episodes)`, "logging off", "full logging"],
  [[machine(), off.toFixed(0), on.toFixed(0)]],
));

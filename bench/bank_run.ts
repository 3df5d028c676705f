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

const episodes = Number(Deno.args[0] ?? 400);
const dir = await Deno.makeTempDir({ prefix: "coordlab-bench-" });

async function measure(write: boolean): Promise<number> {
  // Warm up the JIT on a few episodes first.
  for (let s = 0; s < 20; s++) {
    await runEpisode({ env: "bank_run", mechanism: MECHANISMS[s % 4], seed: s });
  }
  const t0 = performance.now();
  for (let s = 0; s < episodes; s++) {
    await runEpisode({
      env: "bank_run",
      mechanism: MECHANISMS[s % 4],
      seed: 1000 + s,
      run: "bench",
      outDir: write ? dir : undefined,
    });
  }
  return episodes / ((performance.now() - t0) / 1000);
}

const off = await measure(false);
const on = await measure(true);
await Deno.remove(dir, { recursive: true });
console.log(
  `| bank-run mock episodes/s (M0-M3 mix, ${episodes} episodes) | logging off | full logging |`,
);
console.log(`| --- | --- | --- |`);
console.log(
  `| ${Deno.build.os} ${Deno.build.arch}, ${navigator.hardwareConcurrency} cores, Deno ${Deno.version.deno} | ${
    off.toFixed(0)
  } | ${on.toFixed(0)} |`,
);

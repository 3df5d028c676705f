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

const episodes = Number(Deno.args[0] ?? 1000);
const dir = await Deno.makeTempDir({ prefix: "coordlab-bench-staghunt-" });

async function measure(write: boolean): Promise<number> {
  // Warm up the JIT first.
  for (let s = 0; s < 50; s++) {
    await runStagHuntEpisode({ N: 5, M: 3, T: 4, F: 2, seed: s, run: "warm" });
  }
  const t0 = performance.now();
  for (let s = 0; s < episodes; s++) {
    await runStagHuntEpisode({
      N: 5,
      M: 3,
      T: 4,
      F: 2,
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
let cpu = "";
try {
  cpu = (await Deno.readTextFile("/proc/cpuinfo")).match(/model name\s*:\s*(.+)/)?.[1] ?? "";
} catch {
  // Not Linux: leave the CPU model out.
}
console.log(
  `| Stag Hunt mock episodes/s (N=5, M=3, T=4, F=2, ${episodes} episodes) | logging off | full logging |`,
);
console.log(`| --- | --- | --- |`);
console.log(
  `| ${Deno.build.os} ${Deno.build.arch}${
    cpu ? `, ${cpu}` : ""
  }, ${navigator.hardwareConcurrency} cores, Deno ${Deno.version.deno} | ${off.toFixed(0)} | ${
    on.toFixed(0)
  } |`,
);

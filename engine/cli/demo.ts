/**
 * The demo: a small grid of the three FRAIL environments under M0-M3 with
 * rule-based mock agents, no API key and no network. Prints a table of
 * success and welfare realization side by side, and writes every episode's
 * event log under `runs/demo/`.
 *
 * Usage: `deno task demo [--episodes N] [--out DIR]`
 *
 * @module
 */
import { runEpisode } from "../run_episode.ts";
import { type EnvId, MECHANISMS } from "../frail/types.ts";
import { formatTable } from "./format_table.ts";

function flag(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] ? Deno.args[i + 1] : fallback;
}

const episodes = Number(flag("episodes", "20"));
if (!Number.isInteger(episodes) || episodes < 1) {
  console.error(`--episodes must be a positive integer, got "${flag("episodes", "")}"`);
  Deno.exit(2);
}
const out = flag("out", "runs");
const ENVS: EnvId[] = ["bank_run", "debt_rollover", "crowdfunding"];
const rows: string[][] = [];
for (const mechanism of MECHANISMS) {
  const row: string[] = [mechanism];
  for (const env of ENVS) {
    let successes = 0;
    let realization = 0;
    for (let seed = 0; seed < episodes; seed++) {
      const r = await runEpisode({ env, mechanism, seed, run: "demo", outDir: out });
      successes += r.outcome.success ? 1 : 0;
      realization += r.outcome.welfareRealization;
    }
    row.push(
      `${String(successes).padStart(2)}/${episodes}  ${(realization / episodes).toFixed(3)}`,
    );
  }
  rows.push(row);
}
console.log(
  `FRAIL, stable regime, rule-based mock agents, ${episodes} episodes per cell (successes, mean W~)`,
);
console.log(formatTable(["mechanism", "bank run", "debt rollover", "crowdfunding"], rows));
console.log(`Event logs: ${out}/demo/*.ndjson`);

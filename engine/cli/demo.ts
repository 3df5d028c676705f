/**
 * The demo: a small bank-run grid over M0-M3 with defensive mock agents, no
 * API key and no network. Prints a welfare/success table and writes every
 * episode's event log under `runs/demo/`.
 *
 * Usage: `deno task demo [--episodes N] [--out DIR]`
 *
 * @module
 */
import { runEpisode } from "../run_episode.ts";
import { MECHANISMS } from "../frail/types.ts";
import { formatTable } from "./format_table.ts";

function flag(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] ? Deno.args[i + 1] : fallback;
}

const episodes = Number(flag("episodes", "20"));
if (!Number.isInteger(episodes) || episodes < 1) {
  console.error(`--episodes must be a positive integer, got ${flag("episodes", "")}`);
  Deno.exit(2);
}
const out = flag("out", "runs");
const rows: string[][] = [];
for (const mechanism of MECHANISMS) {
  let successes = 0;
  let realization = 0;
  let withdrawn = 0;
  for (let seed = 0; seed < episodes; seed++) {
    const r = await runEpisode({
      env: "bank_run",
      mechanism,
      seed,
      run: "demo",
      outDir: out,
    });
    successes += r.outcome.success ? 1 : 0;
    realization += r.outcome.welfareRealization;
    const paid = r.events.filter((e) => e.type === "transition" && e.kind === "withdrawal_paid");
    withdrawn += paid.reduce((s, e) => s + (e as unknown as { amount: number }).amount, 0);
  }
  rows.push([
    mechanism,
    `${successes}/${episodes}`,
    (realization / episodes).toFixed(3),
    (withdrawn / episodes / 15).toFixed(3),
  ]);
}
console.log(
  `Bank run, stable regime, defensive mock depositors, ${episodes} episodes per mechanism`,
);
console.log(formatTable(["mechanism", "success", "mean W~", "withdrawal rate"], rows));
console.log(`Event logs: ${out}/demo/*.ndjson`);

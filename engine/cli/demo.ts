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
import { parseArgs } from "node:util";
import { FRAIL_GAMES } from "../frail/registry.ts";
import { MECHANISMS } from "../frail/types.ts";
import { runEpisode } from "../run_episode.ts";
import { formatTable } from "../grid/format_table.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    episodes: { type: "string", default: "20" },
    out: { type: "string", default: "runs" },
  },
});
const episodes = Number(values.episodes);
if (!Number.isInteger(episodes) || episodes < 1) {
  console.error(`--episodes must be a positive integer, got "${values.episodes}"`);
  Deno.exit(2);
}
const out = values.out;
const rows: string[][] = [];
for (const mechanism of MECHANISMS) {
  const row: string[] = [mechanism];
  for (const game of FRAIL_GAMES) {
    let successes = 0;
    let realization = 0;
    for (let seed = 0; seed < episodes; seed++) {
      const r = await runEpisode({ env: game.id, mechanism, seed, run: "demo", outDir: out });
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
console.log(
  formatTable(["mechanism", ...FRAIL_GAMES.map((g) => g.label.toLowerCase())], rows),
);
console.log(`Event logs: ${out}/demo/*.ndjson`);

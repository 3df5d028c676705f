/**
 * Analysis benchmark: load 1,000,000 decision rows and compute FRAIL Table 2
 * and the Figure 4 trajectories, from NDJSON event logs and from a Parquet
 * frame set. Goals on the 2-core reference machine: under 3 s from NDJSON,
 * under 0.5 s from Parquet.
 *
 * The logs are synthetic but shaped exactly like the engine's: bank-run
 * episodes of every mechanism are played by the real engine with mock
 * agents, then replicated under seven model names (and fresh episode ids)
 * until the decision count is reached. Nothing is written inside the
 * repository: the data goes to a temporary folder, removed at the end, or to
 * `--dir DIR`, which is kept and reused by later runs (delete it yourself).
 *
 * Usage: `deno run -A bench/analysis.ts [--decisions N] [--dir DIR] [--lean]
 * [--repeat K]`. `--lean` drops the checkpoint, report and message lines
 * (most of a log's bytes) to show how loading scales with log size.
 *
 * Each measurement is repeated K times (default 3); the table shows the
 * best time of each phase and the median total, with the machine's load
 * average, since other processes on a shared machine slow the NDJSON path
 * (two worker threads) most. "Parquet (lazy)" scans the compacted set with
 * `loadRunsLazy()`, so only the columns Table 2 and Figure 4 use are read.
 *
 * @module
 */

import { MECHANISMS } from "../engine/frail/types.ts";
import pl from "npm:nodejs-polars@0.25.2";
import {
  loadRuns,
  loadRunsLazy,
  trajectories,
  welfareAverage,
  welfareTable,
  writeRunsParquet,
} from "../analysis/mod.ts";
import { median } from "./_measure.ts";

function flag(name: string): string | undefined {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}

const target = Number(flag("decisions") ?? 1_000_000);
const repeat = Number(flag("repeat") ?? 3);
const keep = flag("dir") !== undefined;
const lean = Deno.args.includes("--lean");
if (!Number.isInteger(target) || target < 1) {
  throw new RangeError(`--decisions must be a positive integer`);
}
if (!Number.isInteger(repeat) || repeat < 1) {
  throw new RangeError(`--repeat must be a positive integer`);
}
const dir = flag("dir") ?? await Deno.makeTempDir({ prefix: "coordlab_bench_analysis_" });

const MODELS = ["gpt-sol", "gpt-terra", "sonnet", "glm", "qwen", "deepseek", "minimax"];
const SKIPPED = lean ? ['"type":"checkpoint"', '"type":"report"', '"type":"message"'] : [];

async function generate(): Promise<{ episodes: number; decisions: number; bytes: number }> {
  // Imported here so that a rerun on kept data does not load the engine.
  const { runEpisode } = await import("../engine/run_episode.ts");
  const templates: { lines: string[]; episode: string; decisions: number }[] = [];
  for (const mechanism of MECHANISMS) {
    for (let seed = 0; seed < 5; seed++) {
      const result = await runEpisode({
        env: "bank_run",
        mechanism,
        seed,
        run: "template",
        hashes: true,
      });
      templates.push({
        lines: result.events.map((event) => JSON.stringify(event))
          .filter((line) => !SKIPPED.some((type) => line.includes(type))),
        episode: result.events[0].episode,
        decisions: result.events.filter((event) => event.type === "decision").length,
      });
    }
  }
  let decisions = 0;
  let bytes = 0;
  let episodes = 0;
  const encoder = new TextEncoder();
  while (decisions < target) {
    const template = templates[episodes % templates.length];
    const model = MODELS[Math.floor(episodes / templates.length) % MODELS.length];
    const run = `bench_${model}`;
    const episode = `${template.episode}_${episodes}`;
    const text = template.lines.join("\n")
      .replaceAll(
        `"run":"template","episode":"${template.episode}"`,
        `"run":"${run}","episode":"${episode}"`,
      )
      .replaceAll(/"policy":"mock:[a-z_]+"/g, `"policy":"${model}"`)
      // episode_start's participants' model, which the tables group by.
      .replaceAll(/"model":"mock:[a-z_]+"/g, `"model":"${model}"`) + "\n";
    await Deno.mkdir(`${dir}/ndjson/${run}`, { recursive: true });
    const data = encoder.encode(text);
    await Deno.writeFile(`${dir}/ndjson/${run}/${episode}.ndjson`, data);
    decisions += template.decisions;
    bytes += data.length;
    episodes++;
  }
  return { episodes, decisions, bytes };
}

interface Timing {
  load: number;
  table2: number;
  figure4: number;
  total: number;
}

async function measure(source: string, lazy: boolean): Promise<Timing & { rows: number }> {
  const t0 = performance.now();
  let episodes: pl.DataFrame;
  let rounds: pl.DataFrame | pl.LazyDataFrame;
  let decisions: pl.DataFrame | pl.LazyDataFrame;
  let rows: number;
  if (lazy) {
    const frames = await loadRunsLazy(source, { frames: ["rounds", "decisions"] });
    episodes = frames.episodes.collectSync();
    rounds = frames.rounds!;
    decisions = frames.decisions!;
    rows = -1;
  } else {
    const frames = await loadRuns(source, { frames: ["rounds", "decisions"] });
    episodes = frames.episodes;
    rounds = frames.rounds!;
    decisions = frames.decisions!;
    rows = frames.decisions!.height;
  }
  const t1 = performance.now();
  const table2 = welfareAverage(welfareTable(episodes));
  const t2 = performance.now();
  const figure4 = trajectories(episodes, rounds, decisions);
  const t3 = performance.now();
  if (table2.height === 0 || figure4.height === 0) throw new Error("empty results");
  if (rows < 0) {
    rows = Number((decisions as pl.LazyDataFrame).select(pl.len()).collectSync().row(0)[0]);
  }
  return { load: t1 - t0, table2: t2 - t1, figure4: t3 - t2, total: t3 - t0, rows };
}

async function report(label: string, source: string, goal: number, lazy = false): Promise<void> {
  const runs: (Timing & { rows: number })[] = [];
  for (let i = 0; i < repeat; i++) runs.push(await measure(source, lazy));
  const stat = (key: keyof Timing, f: (v: number[]) => number) =>
    (f(runs.map((r) => r[key])) / 1000).toFixed(3);
  const total = Math.min(...runs.map((r) => r.total)) / 1000;
  console.log(
    `${label.padEnd(15)} ${String(runs[0].rows).padStart(8)}  ${stat("load", min)}  ` +
      `${stat("table2", min)}  ${stat("figure4", min)}  ${total.toFixed(3)}  ` +
      `${stat("total", median)}  ${goal.toFixed(1)}  ${total < goal ? "met" : "missed"}`,
  );
}

function min(values: number[]): number {
  return Math.min(...values);
}

try {
  const haveData = await Deno.stat(`${dir}/ndjson`).then(() => true, () => false);
  const generatedAt = performance.now();
  const data = haveData ? undefined : await generate();
  if (data) {
    console.log(
      `Generated ${data.episodes} episodes, ${data.decisions} decision rows, ` +
        `${(data.bytes / 1e6).toFixed(0)} MB of NDJSON${lean ? " (lean)" : ""} in ` +
        `${((performance.now() - generatedAt) / 1000).toFixed(1)} s under ${dir}`,
    );
  }
  await writeRunsParquet(await loadRuns(`${dir}/ndjson`), `${dir}/parquet`);
  const [load1] = Deno.loadavg();
  console.log(
    `Machine: ${navigator.hardwareConcurrency} cores, load average ${load1.toFixed(2)}; ` +
      `best (and median total) of ${repeat} runs, seconds`,
  );
  console.log("source              rows   load  table2  fig4   best  median  goal");
  await report("NDJSON", `${dir}/ndjson`, 3);
  await report("Parquet", `${dir}/parquet`, 0.5);
  await report("Parquet (lazy)", `${dir}/parquet`, 0.5, true);
} finally {
  if (!keep) await Deno.remove(dir, { recursive: true });
}

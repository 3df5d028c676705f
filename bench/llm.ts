/**
 * Benchmark of the LLM machinery's overhead: bank-run episodes played through
 * the `openai` SDK against the local server (in its own process, so it does
 * not share the client's thread) with 100 ms injected latency per call, and a
 * concurrency cap (512) that is never the bottleneck. Reports the wall time
 * over the critical path, where the critical path of an episode is the sum
 * over its sequential steps with calls of one call latency, and a grid's is
 * that of its longest episode (its episodes run concurrently). One call
 * latency is taken two ways: the nominal injected latency, and the measured
 * median of single isolated calls (injected latency plus the HTTP round trip
 * and timer overshoot of this machine). The goal is a ratio of at most 1.15.
 *
 * Usage: `deno run --allow-net=127.0.0.1 --allow-run --allow-read bench/llm.ts [--latency MS] [--seeds N] [--repeats N]`
 * (each row is the median wall time of `--repeats` runs, default 3).
 *
 * @module
 */
import { LlmRuntime } from "../engine/agents/llm/runtime.ts";
import { llmPopulation } from "../engine/agents/llm/llm_agent.ts";
import type { EngineEvent } from "../engine/core/events.ts";
import { type MechanismId, MECHANISMS } from "../engine/frail/types.ts";
import { runEpisode } from "../engine/run_episode.ts";
import { cpuUsage } from "node:process";
import { markdownTable, median } from "./_measure.ts";

function flag(name: string, fallback: number): number {
  const i = Deno.args.indexOf(`--${name}`);
  const v = i >= 0 ? Number(Deno.args[i + 1]) : fallback;
  if (!Number.isFinite(v) || v <= 0) {
    console.error(`--${name} must be a positive number`);
    Deno.exit(2);
  }
  return v;
}

const latency = flag("latency", 100);
const seeds = flag("seeds", 2);
const repeats = flag("repeats", 3);

/** Sequential steps with at least one call. */
function steps(events: readonly EngineEvent[]): number {
  return new Set(events.filter((e) => e.type === "llm_call").map((e) => `${e.round}|${e.step}`))
    .size;
}

/** Starts the local server in its own process; resolves to its URL and a stop function. */
async function startServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const main = new URL("../engine/agents/llm/server/main.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net=127.0.0.1", main, "--latency", String(latency)],
    stdout: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the local server exited before printing its URL");
    text += value;
  }
  reader.releaseLock();
  return {
    url: text.trim(),
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

const server = await startServer();
const runtime = new LlmRuntime({
  models: [{
    id: "local",
    baseURL: server.url,
    model: "coordlab-defensive",
    testDouble: true,
    concurrency: 512,
  }],
});

/** Median latency of single isolated calls, in ms. */
async function singleCallLatency(n: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const messages = [{ role: "user" as const, content: `probe ${i} ${"x".repeat(4000)}` }];
    const t0 = performance.now();
    await runtime.complete("local", messages, { episode: "probe" });
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** One bank-run episode of the benchmark. */
interface BenchEpisode {
  mechanism: MechanismId;
  seed: number;
  params?: Record<string, unknown>;
}

/** Plays episodes concurrently with LLM agents; resolves to their event logs. */
async function playAll(grid: readonly BenchEpisode[]): Promise<EngineEvent[][]> {
  const results = await Promise.all(grid.map((g) =>
    runEpisode({
      env: "bank_run",
      mechanism: g.mechanism,
      seed: g.seed,
      params: g.params,
      agents: llmPopulation({ runtime, env: "bank_run", models: "local", sample: g.seed }),
    })
  ));
  return results.map((r) => r.events);
}

/** Runs a grid `repeats` times; reports the median wall time. */
async function measure(label: string, grid: BenchEpisode[], single: number) {
  const walls: number[] = [];
  const cpu0 = cpuUsage();
  let logs!: EngineEvent[][];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    logs = await playAll(grid);
    walls.push(performance.now() - t0);
  }
  const cpu = cpuUsage(cpu0);
  const wall = median(walls);
  const longest = Math.max(...logs.map(steps));
  const callEvents = logs.flat().filter((e) => e.type === "llm_call");
  const calls = callEvents.length;
  const meanLatency = callEvents
    .reduce((s, e) => s + (e.type === "llm_call" ? e.latency_ms : 0), 0) / calls;
  return {
    label,
    episodes: grid.length,
    calls,
    steps: longest,
    wall: wall / 1000,
    nominal: wall / (longest * latency),
    measured: wall / (longest * single),
    meanLatency,
    cpuPerCall: (cpu.user + cpu.system) / 1000 / (calls * repeats),
  };
}

// Warm-up (module loading and JIT), not reported.
for (const mechanism of MECHANISMS) {
  await playAll([{ mechanism, seed: 9, params: { horizon: 3 } }]);
}
const single = await singleCallLatency(15);

const rows = [];
for (const mechanism of MECHANISMS) {
  rows.push(
    await measure(`${mechanism}, 1 episode`, [{ mechanism, seed: 0 }], single),
  );
}
const grid: BenchEpisode[] = MECHANISMS.flatMap((mechanism) =>
  Array.from({ length: seeds }, (_, seed) => ({ mechanism, seed }))
);
rows.push(await measure(`M0-M3 x ${seeds} seeds, concurrent`, grid, single));
await server.stop();

console.log(
  `Bank run through the openai SDK; local server in its own process with ${latency} ms injected latency; ` +
    `concurrency cap 512; a single isolated call takes ${single.toFixed(1)} ms (median of 15); ` +
    `each row is the median of ${repeats} runs\n`,
);
console.log(markdownTable(
  [
    "run",
    "episodes",
    "calls",
    "sequential steps",
    "wall (s)",
    `wall / (steps x ${latency} ms)`,
    "wall / (steps x single call)",
    "mean call latency (ms)",
    "client CPU per call (ms)",
  ],
  rows.map((r) => [
    r.label,
    String(r.episodes),
    String(r.calls),
    String(r.steps),
    r.wall.toFixed(2),
    r.nominal.toFixed(3),
    r.measured.toFixed(3),
    r.meanLatency.toFixed(1),
    r.cpuPerCall.toFixed(2),
  ]),
  { alignRight: true },
));
const worst = Math.max(...rows.map((r) => r.nominal));
console.log(`\nWorst wall / critical path (nominal latency): ${worst.toFixed(3)} (goal <= 1.15)`);

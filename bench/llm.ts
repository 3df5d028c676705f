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
import { type GridEpisodeSpec, runLlmGrid } from "../engine/agents/llm/run_grid.ts";
import type { EngineEvent } from "../engine/core/events.ts";
import { MECHANISMS } from "../engine/frail/types.ts";
import { cpuUsage } from "node:process";

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
  models: [{ id: "local", baseURL: server.url, model: "coordlab-defensive", concurrency: 512 }],
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
  times.sort((a, b) => a - b);
  return times[Math.floor(n / 2)];
}

/** Runs a grid `repeats` times; reports the median wall time. */
async function measure(label: string, grid: GridEpisodeSpec[], single: number) {
  const walls: number[] = [];
  const cpu0 = cpuUsage();
  let r!: Awaited<ReturnType<typeof runLlmGrid>>;
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    r = await runLlmGrid(grid, {
      runtime,
      models: "local",
      episodeConcurrency: grid.length,
      preflight: false,
    });
    walls.push(performance.now() - t0);
  }
  const cpu = cpuUsage(cpu0);
  const wall = walls.sort((a, b) => a - b)[Math.floor(repeats / 2)];
  const longest = Math.max(...r.episodes.map((e) => steps(e.events!)));
  const calls = r.usage.calls;
  const meanLatency = r.episodes.flatMap((e) => e.events!)
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
  await runLlmGrid([{ env: "bank_run", mechanism, seed: 9, params: { horizon: 3 } }], {
    runtime,
    models: "local",
    preflight: false,
  });
}
const single = await singleCallLatency(15);

const rows = [];
for (const mechanism of MECHANISMS) {
  rows.push(
    await measure(`${mechanism}, 1 episode`, [{ env: "bank_run", mechanism, seed: 0 }], single),
  );
}
const grid: GridEpisodeSpec[] = MECHANISMS.flatMap((mechanism) =>
  Array.from({ length: seeds }, (_, seed) => ({ env: "bank_run" as const, mechanism, seed }))
);
rows.push(await measure(`M0-M3 x ${seeds} seeds, concurrent`, grid, single));
await server.stop();

console.log(
  `Bank run through the openai SDK; local server in its own process with ${latency} ms injected latency; ` +
    `concurrency cap 512; a single isolated call takes ${single.toFixed(1)} ms (median of 15); ` +
    `each row is the median of ${repeats} runs\n`,
);
console.log(
  "| run | episodes | calls | sequential steps | wall (s) | wall / (steps x " + latency +
    " ms) | wall / (steps x single call) | mean call latency (ms) | client CPU per call (ms) |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const r of rows) {
  console.log(
    `| ${r.label} | ${r.episodes} | ${r.calls} | ${r.steps} | ${r.wall.toFixed(2)} | ${
      r.nominal.toFixed(3)
    } | ${r.measured.toFixed(3)} | ${r.meanLatency.toFixed(1)} | ${r.cpuPerCall.toFixed(2)} |`,
  );
}
const worst = Math.max(...rows.map((r) => r.nominal));
console.log(`\nWorst wall / critical path (nominal latency): ${worst.toFixed(3)} (goal <= 1.15)`);

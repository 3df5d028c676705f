/**
 * Benchmark: mock-agent grid throughput with 1 and 2 Web Workers (and
 * in-process, for reference), and episode logs written per second.
 *
 * Each configuration runs the same bank-run grid (M0-M3, defensive mock
 * agents) into a fresh temporary folder with `runGrid`, progress off. Two
 * rates are reported: over the whole run (worker start-up included) and in
 * steady state (between the first and the last finished episode). The load
 * average is printed before and after, since other processes on the machine
 * change the figures; so does the CPU this process got, printed as "cores
 * used" (CPU seconds over wall seconds) with episodes per CPU-second: when
 * 2 workers get less than 2 cores, the ratio measures the machine, not the
 * runner. A pure-compute control (2 workers over 1) run before and after shows
 * how many cores the machine could give at the time.
 *
 * Then, for how the grid stores logs: the fully logged bank-run M0 grid with
 * one worker against the Python peer (`../shared/peers/bank_run.py bench`,
 * run in the same process, interleaved, median of 3), and where the time of
 * writing and resuming goes, per episode (see `_storage.ts`).
 *
 * Usage: `deno task bench:grid [episodes per cell] [logged M0 episodes]`
 * (defaults 150, i.e. 600 episodes, and 2000).
 *
 * @module
 */
import { cpuUsage } from "node:process";
import { runGrid } from "../engine/grid/run_grid.ts";
import { loadAverage, machine, markdownTable, median } from "./_measure.ts";
import { loggedGridRate, peerPath, peerRate, storageCosts } from "./_storage.ts";

const perCell = Number(Deno.args[0] ?? 150);
const loggedEpisodes = Number(Deno.args[1] ?? 2000);
if (!Number.isInteger(perCell) || perCell < 2) {
  console.error(`Episodes per cell must be an integer >= 2, got ${Deno.args[0]}`);
  Deno.exit(2);
}
if (!Number.isInteger(loggedEpisodes) || loggedEpisodes < 10) {
  console.error(`Logged M0 episodes must be an integer >= 10, got ${Deno.args[1]}`);
  Deno.exit(2);
}
const spec = {
  name: "bench",
  seed: 1,
  episodes: perCell,
  blocks: [{ game: "frail", envs: ["bank_run"] }],
};
const root = await Deno.makeTempDir({ prefix: "coordlab-bench-grid-" });

interface Measured {
  label: string;
  episodes: number;
  wallRate: number;
  steadyRate: number;
  megabytesPerSecond: number;
  coresUsed: number;
}

async function measure(label: string, workers: number): Promise<Measured> {
  const out = `${root}/${label.replace(/\W+/g, "_")}`;
  const cpu0 = cpuUsage();
  const t0 = performance.now();
  const finished: number[] = [];
  const r = await runGrid(spec, {
    out,
    workers,
    progress: false,
    onEpisode: () => finished.push(performance.now()),
  });
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuUsage(cpu0);
  let bytes = 0;
  for await (const e of Deno.readDir(out)) {
    if (e.name.endsWith(".ndjson")) bytes += (await Deno.stat(`${out}/${e.name}`)).size;
  }
  const steady = (finished.at(-1)! - finished[0]) / 1000;
  return {
    label,
    episodes: r.played,
    wallRate: r.played / wall,
    steadyRate: (finished.length - 1) / steady,
    megabytesPerSecond: bytes / 1e6 / wall,
    coresUsed: (cpu.user + cpu.system) / 1e6 / wall,
  };
}

/**
 * Machine control: the throughput ratio of a pure-compute loop in 2 workers
 * over 1 worker. Near 2 on an idle 2-core machine; lower when other
 * processes hold the cores, which caps the grid's ratio the same way.
 */
async function computeControl(): Promise<number> {
  const code = `self.onmessage = () => { let x = 0;
    for (let i = 0; i < 2e8; i++) x = (x + i * 7) % 1000003; self.postMessage(x); };`;
  const url = URL.createObjectURL(new Blob([code], { type: "application/javascript" }));
  const run = async (n: number) => {
    const t0 = performance.now();
    await Promise.all(Array.from({ length: n }, () =>
      new Promise<void>((resolve) => {
        const w = new Worker(url, { type: "module" });
        w.onmessage = () => {
          w.terminate();
          resolve();
        };
        w.postMessage(0);
      })));
    return performance.now() - t0;
  };
  const one = await run(1);
  const two = await run(2);
  URL.revokeObjectURL(url);
  return (2 * one) / two;
}

// Warm up: compile the worker's modules once.
await runGrid({ ...spec, name: "warm", episodes: 2 }, {
  out: `${root}/warm`,
  workers: 2,
  progress: false,
});

const before = loadAverage();
const controlBefore = await computeControl();
const rows = [
  await measure("in-process", 0),
  await measure("1 worker", 1),
  await measure("2 workers", 2),
];
const controlAfter = await computeControl();
const after = loadAverage();

console.log(
  `Mock bank-run grid, ${rows[0].episodes} episodes (M0-M3 x ${perCell}), ${machine()}; ` +
    `load average ${before} before, ${after} after`,
);
console.log("");
console.log(markdownTable(
  [
    "run",
    "episodes/s (wall)",
    "episodes/s (steady)",
    "logs written/s",
    "MB/s of logs",
    "cores used",
    "episodes per CPU-second",
  ],
  rows.map((m) => [
    m.label,
    m.wallRate.toFixed(0),
    m.steadyRate.toFixed(0),
    m.wallRate.toFixed(0),
    m.megabytesPerSecond.toFixed(1),
    m.coresUsed.toFixed(2),
    (m.wallRate / m.coresUsed).toFixed(0),
  ]),
));
const ratio = (a: Measured, b: Measured) => (b.wallRate / a.wallRate).toFixed(2);
console.log("");
console.log(
  `2 workers / 1 worker: ${ratio(rows[1], rows[2])} (wall), ${
    (rows[2].steadyRate / rows[1].steadyRate).toFixed(2)
  } (steady); goal >= 1.7 on 2 cores`,
);
console.log(
  `Machine control, pure compute in 2 workers / 1 worker: ${controlBefore.toFixed(2)} before, ${
    controlAfter.toFixed(2)
  } after (about 2 when the machine has 2 free cores)`,
);

// How the grid stores logs: logged M0 with one worker against the peer, interleaved.
const peer: number[] = [];
const logged: number[] = [];
for (let rep = 0; rep < 3; rep++) {
  const p = await peerRate(20000);
  if (p !== null) peer.push(p);
  logged.push(await loggedGridRate(root, loggedEpisodes));
}
const peerMedian = peer.length ? median(peer) : null;
console.log("");
console.log(markdownTable(
  ["bank run M0, mock agents", "episodes/s (median of 3)", "ratio to the peer"],
  [
    [
      "Python peer, no logging",
      peerMedian === null
        ? `n/a (no peer at ${peerPath()}; set COORDLAB_PEER)`
        : peerMedian.toFixed(0),
      "1",
    ],
    [
      `grid, 1 worker, full logging (${loggedEpisodes} episodes)`,
      median(logged).toFixed(0),
      peerMedian === null ? "n/a" : (median(logged) / peerMedian).toFixed(3),
    ],
  ],
  { alignRight: true },
));
const c = await storageCosts(root, 300);
const us = (x: number) => x.toFixed(1);
console.log("");
console.log(
  `Where writing and resuming go, per episode (${
    (c.bytes / 1024).toFixed(1)
  } KB logs, 300 episodes, ` +
    `median of 5):`,
);
console.log("");
console.log(markdownTable(["part", "µs per episode"], [
  ["serialise (JSON.stringify of each event)", us(c.serialize)],
  ["encode to UTF-8 (reused buffer)", us(c.encode)],
  ["write block + index line (synchronous)", us(c.write)],
  ["SegmentWriter.append, all of the above", us(c.append)],
  ["SegmentWriter.append given the lines already built", us(c.appendText)],
  ["instead: one file per episode (create, write, rename)", us(c.filePerEpisode)],
  ["resume scan, segments with their index", us(c.resumeIndexed)],
  ["resume scan, index missing (every block parsed)", us(c.resumeFullScan)],
], { alignRight: true }));
await Deno.remove(root, { recursive: true });

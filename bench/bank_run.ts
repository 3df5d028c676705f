/**
 * Benchmark, side by side with a plain CPython engine of the same bank-run M0
 * rules (`../shared/peers/bank_run.py` from the repository root, a defensive
 * policy, no logging): coordlab's mock episodes per second on every workload,
 * and the ratio to the peer measured in the same run.
 *
 * Each repetition runs every workload once, in order, and each workload is
 * timed right after a run of the peer, so that both see the same machine; the
 * table gives the median over the repetitions of coordlab's rate, of the
 * peer's rate and of their ratio (the ratio of each repetition's adjacent pair).
 * A workload is timed over a fixed wall-clock budget after a warm-up that is
 * not timed. Logged workloads write into a temporary folder, removed after
 * each timing.
 *
 * Usage: `deno task bench [--reps 3] [--seconds 1] [--peer path/to/bank_run.py]`
 * (the peer path also from `COORDLAB_PEER`). Without the peer the table is
 * printed without ratios, after a message saying where the peer was looked for.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { runEpisode } from "../engine/run_episode.ts";
import { runStagHuntEpisode } from "../engine/staghunt/run.ts";
import { runGrid } from "../engine/grid/run_grid.ts";
import { MECHANISMS } from "../engine/frail/types.ts";
import { loadAverage, machine, markdownTable, median, ratePerSecond } from "./_measure.ts";
import { peerPath as defaultPeerPath } from "./_storage.ts";

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    reps: { type: "string", default: "3" },
    seconds: { type: "string", default: "1" },
    peer: { type: "string" },
  },
});
const reps = Number(args.reps);
const seconds = Number(args.seconds);
if (!Number.isInteger(reps) || reps < 1) {
  throw new RangeError(`--reps must be >= 1, got ${args.reps}`);
}
if (!(seconds > 0)) throw new RangeError(`--seconds must be positive, got ${args.seconds}`);

const peerPath = args.peer ?? defaultPeerPath();
const peerFound = (() => {
  try {
    return Deno.statSync(peerPath).isFile;
  } catch {
    return false;
  }
})();
if (!peerFound) {
  console.error(
    `The peer engine was not found at ${peerPath} (../shared/peers/bank_run.py from the ` +
      `repository root); pass --peer <path> or set COORDLAB_PEER. Printing coordlab's rates without ratios.`,
  );
}

/** The peer's episodes per second over `episodes` episodes. */
function peerRate(episodes: number): number {
  const out = new Deno.Command("python3", {
    args: [peerPath, "bench", String(episodes)],
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  if (!out.success) {
    throw new Error(`The peer failed: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
  return JSON.parse(new TextDecoder().decode(out.stdout)).per_second;
}

/** One workload: plays episode `seed`, writing its log under `dir` when logged. */
interface Workload {
  label: string;
  goal?: string;
  play(seed: number, dir: string): Promise<unknown>;
  /** Times the workload itself (the grid) instead of `ratePerSecond`. */
  time?(dir: string): Promise<number>;
}

const mix = (env: "bank_run" | "debt_rollover" | "crowdfunding", label: string): Workload => ({
  label: `${label} M0-M3 mix, logging off`,
  play: (seed) => runEpisode({ env, mechanism: MECHANISMS[seed % 4], seed }),
});
const stagHunt = { N: 5, M: 3, T: 4, F: 2 };

const WORKLOADS: Workload[] = [
  {
    label: "bank run M0, logging off (`runEpisode`, events kept in memory)",
    goal: ">= 1.0x the peer",
    play: (seed) => runEpisode({ env: "bank_run", mechanism: "M0", seed }),
  },
  {
    label: "bank run M0, logging off, outcome only (`events: false`)",
    play: (seed) => runEpisode({ env: "bank_run", mechanism: "M0", seed, events: false }),
  },
  {
    label: "bank run M0, full logging (`runEpisode` with `outDir`, one file per episode)",
    play: (seed, dir) =>
      runEpisode({ env: "bank_run", mechanism: "M0", seed, outDir: dir, events: false }),
  },
  {
    label: "bank run M0, full logging through the grid runner, 1 worker",
    goal: ">= 0.1x the peer",
    play: () => Promise.resolve(),
    time: (dir) => gridRate(dir, { game: "frail", envs: ["bank_run"], mechanisms: ["M0"] }, 800),
  },
  mix("bank_run", "bank run"),
  mix("debt_rollover", "debt rollover"),
  mix("crowdfunding", "crowdfunding"),
  {
    label: "Stag Hunt N5/M3/T4/F2, mock players, logging off",
    goal: ">= 20,000 episodes/s",
    play: (seed) => runStagHuntEpisode({ ...stagHunt, seed }),
  },
  {
    label: "Stag Hunt N5/M3/T4/F2, mock players, full logging (`outDir`, one file per episode)",
    play: (seed, dir) => runStagHuntEpisode({ ...stagHunt, seed, outDir: dir, events: false }),
  },
  {
    label: "Stag Hunt N5/M3/T4/F2, mock players, full logging through the grid runner, 1 worker",
    goal: ">= 5,000 episodes/s",
    play: () => Promise.resolve(),
    time: (dir) =>
      gridRate(dir, {
        game: "staghunt",
        N: [stagHunt.N],
        M: [stagHunt.M],
        T: [stagHunt.T],
        F: [stagHunt.F],
      }, 3000),
  },
];

/**
 * Steady-state episodes/s of the grid runner with one worker on a grid of one
 * block (`perSecond` episodes per second of timing budget): from the first to
 * the last finished episode, so the worker's start-up is left out.
 */
async function gridRate(
  dir: string,
  block: Record<string, unknown>,
  perSecond: number,
): Promise<number> {
  const finished: number[] = [];
  const episodes = Math.max(50, Math.round(perSecond * seconds));
  await runGrid(
    { name: "bench", seed: 1, episodes, blocks: [block] },
    {
      out: `${dir}/grid`,
      workers: 1,
      progress: false,
      onEpisode: () => finished.push(performance.now()),
    },
  );
  return (finished.length - 1) / ((finished.at(-1)! - finished[0]) / 1000);
}

let seedBase = 0;
async function measure(w: Workload): Promise<number> {
  const dir = await Deno.makeTempDir({ prefix: "coordlab-bench-" });
  try {
    if (w.time) return await w.time(dir);
    for (let i = 0; i < 30; i++) await w.play(seedBase++, dir);
    return await ratePerSecond((seed) => w.play(seed, dir), { seconds, firstSeed: seedBase });
  } finally {
    seedBase += 100_000;
    await Deno.remove(dir, { recursive: true });
  }
}

const peerEpisodes = Math.max(2000, Math.round(10_000 * seconds));
const loadBefore = loadAverage();
const ours: number[][] = WORKLOADS.map(() => []);
const peers: number[][] = WORKLOADS.map(() => []);
const ratios: number[][] = WORKLOADS.map(() => []);
for (let rep = 0; rep < reps; rep++) {
  for (let i = 0; i < WORKLOADS.length; i++) {
    const peer = peerFound ? peerRate(peerEpisodes) : NaN;
    const rate = await measure(WORKLOADS[i]);
    ours[i].push(rate);
    peers[i].push(peer);
    ratios[i].push(rate / peer);
  }
}
const loadAfter = loadAverage();

const fmt = (x: number) => Number.isFinite(x) ? Math.round(x).toLocaleString("en-US") : "n/a";
console.log(
  `coordlab against the CPython peer (${
    peerFound ? peerPath : "not found"
  }), median of ${reps} interleaved repetitions, ${seconds} s per timing; ` +
    `${
      machine({ cpuModel: true })
    }, ${pythonVersion()}; load average ${loadBefore} before, ${loadAfter} after`,
);
console.log("");
console.log(markdownTable(
  ["workload", "coordlab episodes/s", "peer episodes/s", "ratio to the peer", "goal"],
  WORKLOADS.map((w, i) => [
    w.label,
    fmt(median(ours[i])),
    fmt(median(peers[i])),
    peerFound ? `${median(ratios[i]).toFixed(3)}x` : "n/a",
    w.goal ?? "",
  ]),
  { alignRight: true },
));
console.log("");
console.log(
  "The ratio is the median of each repetition's ratio (coordlab's rate over the peer's, measured " +
    "just before it), so it need not equal the quotient of the two median rates.",
);

function pythonVersion(): string {
  try {
    const out = new Deno.Command("python3", { args: ["--version"], stdout: "piped" }).outputSync();
    return new TextDecoder().decode(out.stdout).trim();
  } catch {
    return "no python3";
  }
}

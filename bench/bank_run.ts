/**
 * Benchmark, side by side with a plain CPython engine of the same bank-run M0
 * rules (`../shared/peers/bank_run.py` from the repository root, a defensive
 * policy, no logging): coordlab's mock episodes per second on every workload,
 * in steady state, and the ratio to the peer measured in the same run.
 *
 * Each repetition runs every workload once, in order, and each workload is
 * timed right after a run of the peer, so that both see the same machine; the
 * table gives the median over the repetitions of coordlab's rate, of the
 * peer's rate and of their ratio (the ratio of each repetition's adjacent pair).
 * A workload warms up in windows of `--window` seconds until two consecutive
 * windows agree within 5% (at most `--max-warmup` seconds), then one window of
 * `--seconds` is timed, by the wall clock and by this process's CPU time (all
 * threads: `process.cpuUsage`); the peer's CPU time is its process time over
 * its own loop. The grid workloads meter the episodes as the grid runner
 * reports them and stop the grid once timed. The cost per agent report is the
 * timed wall time over the reports of the timed episodes. The load average is
 * read before and after every timing. Logged workloads write into a temporary
 * folder, removed after each timing. Each row names the path its episodes
 * play (`EpisodeResult.path`, checked on every `runEpisode` and
 * `runStagHuntEpisode` result): the outcome-only rows of the bank run (M0
 * and the M0-M3 mix) and the Stag Hunt play the batched path, every other
 * row the general one.
 *
 * Usage: `deno task bench [--reps 3] [--seconds 3] [--window 1] [--max-warmup 20]
 * [--peer path/to/bank_run.py] [--only text]` (the peer path also from `COORDLAB_PEER`;
 * `--only` keeps the workloads whose label holds the text, e.g. `"through the grid"`).
 * Without the peer the table is printed without ratios, after a message saying
 * where the peer was looked for.
 *
 * @module
 */
import { parseArgs } from "node:util";
import { runEpisode } from "../engine/run_episode.ts";
import type { EpisodePath } from "../engine/core/batched.ts";
import { runStagHuntEpisode } from "../engine/run_staghunt_episode.ts";
import { runGrid } from "../engine/grid/run_grid.ts";
import { MECHANISMS } from "../engine/frail/types.ts";
import {
  loadAverage,
  machine,
  markdownTable,
  median,
  SteadyMeter,
  type SteadyMeterOptions,
  steadyRate,
  type SteadyTiming,
} from "./_measure.ts";
import { peerPath as defaultPeerPath } from "./_storage.ts";

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    reps: { type: "string", default: "3" },
    seconds: { type: "string", default: "3" },
    window: { type: "string", default: "1" },
    "max-warmup": { type: "string", default: "20" },
    peer: { type: "string" },
    only: { type: "string" },
  },
});
const reps = Number(args.reps);
const seconds = Number(args.seconds);
if (!Number.isInteger(reps) || reps < 1) {
  throw new RangeError(`--reps must be >= 1, got ${args.reps}`);
}
if (!(seconds > 0)) throw new RangeError(`--seconds must be positive, got ${args.seconds}`);
const meterOptions: SteadyMeterOptions = {
  seconds,
  window: Number(args.window),
  maxWarmup: Number(args["max-warmup"]),
};
if (!(meterOptions.window! > 0)) {
  throw new RangeError(`--window must be positive, got ${args.window}`);
}
if (!(meterOptions.maxWarmup! > 0)) {
  throw new RangeError(`--max-warmup must be positive, got ${args["max-warmup"]}`);
}

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

/** The peer's rates: episodes per wall-clock second of its loop, and per CPU second. */
interface PeerRate {
  rate: number;
  cpuRate: number;
}

/**
 * Runs the peer's own benchmark (`bank_run.py bench <episodes>`, unchanged, as
 * `__main__`) inside a few lines of Python that also take its process time
 * around it, written to stderr as the last line.
 */
function peerRate(episodes: number): PeerRate {
  const wrapper = "import json, runpy, sys, time\n" +
    "sys.argv = [sys.argv[1], 'bench', sys.argv[2]]\n" +
    "c = time.process_time()\n" +
    "runpy.run_path(sys.argv[0], run_name='__main__')\n" +
    "print(json.dumps({'cpu_seconds': time.process_time() - c}), file=sys.stderr)\n";
  const out = new Deno.Command("python3", {
    args: ["-c", wrapper, peerPath, String(episodes)],
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  const stderr = new TextDecoder().decode(out.stderr).trim();
  if (!out.success) throw new Error(`The peer failed: ${stderr}`);
  const own = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    episodes: number;
    per_second: number;
  };
  const { cpu_seconds } = JSON.parse(stderr.split("\n").at(-1)!) as { cpu_seconds: number };
  return { rate: own.per_second, cpuRate: own.episodes / cpu_seconds };
}

/** One workload: plays episode `seed`, writing its log under `dir` when logged. */
interface Workload {
  label: string;
  /**
   * The path its episodes play (`EpisodeResult.path`): `"batched"`, the
   * game's batched path, or `"general"`, the round loop; a `runEpisode`
   * workload checks every result against it.
   */
  path: EpisodePath;
  goal?: string;
  play(seed: number, dir: string): Promise<{ tally: { reports: number } } | void>;
  /** Times the workload itself (the grid) instead of `steadyRate`. */
  time?(dir: string): Promise<SteadyTiming>;
}

/** A result, checked to have played on `path` (a workload's label says which path it times). */
function on<R extends { path: EpisodePath }>(path: EpisodePath, label: string): (r: R) => R {
  return (r) => {
    if (r.path !== path) {
      throw new Error(`The workload "${label}" played on the ${r.path} path, not the ${path} one`);
    }
    return r;
  };
}

const mix = (
  env: "bank_run" | "debt_rollover" | "crowdfunding",
  label: string,
  goal?: string,
): Workload => ({
  label: `${label} M0-M3 mix, logging off`,
  path: "general",
  goal,
  play: (seed) =>
    runEpisode({ env, mechanism: MECHANISMS[seed % 4], seed }).then(on("general", label)),
});
/**
 * The bank-run mix keeping only the outcome (`events: false`, as a grid's
 * outcome-only runs would): every mechanism's episodes play the batched
 * path, each result checked. Beside the mix with events kept.
 */
const mixOutcomeOnly = (label: string, goal?: string): Workload => ({
  label: `${label} M0-M3 mix, logging off, outcome only (\`events: false\`)`,
  path: "batched",
  goal,
  play: (seed) => {
    const mechanism = MECHANISMS[seed % 4];
    return runEpisode({ env: "bank_run", mechanism, seed, events: false })
      .then(on("batched", `${label} ${mechanism}`));
  },
});
const stagHunt = { N: 5, M: 3, T: 4, F: 2 };

const ALL_WORKLOADS: Workload[] = [
  {
    label: "bank run M0, logging off (`runEpisode`, events kept in memory)",
    path: "general",
    goal: ">= 1.0x the peer",
    play: (seed) =>
      runEpisode({ env: "bank_run", mechanism: "M0", seed }).then(on("general", "M0 events")),
  },
  {
    label: "bank run M0, logging off, outcome only (`events: false`)",
    path: "batched",
    goal: ">= 1.0x the peer",
    play: (seed) =>
      runEpisode({ env: "bank_run", mechanism: "M0", seed, events: false })
        .then(on("batched", "M0 outcome only")),
  },
  {
    label: "bank run M0, full logging (`runEpisode` with `outDir`, one file per episode)",
    path: "general",
    play: (seed, dir) =>
      runEpisode({ env: "bank_run", mechanism: "M0", seed, outDir: dir, events: false })
        .then(on("general", "M0 logged")),
  },
  {
    label: "bank run M0, full logging through the grid runner, 1 worker",
    path: "general",
    goal: ">= 0.1x the peer",
    play: () => Promise.resolve(),
    time: (dir) => gridRate(dir, { game: "frail", envs: ["bank_run"], mechanisms: ["M0"] }, 4000),
  },
  mix("bank_run", "bank run", ">= 0.25x the peer"),
  mixOutcomeOnly("bank run", ">= 0.25x the peer"),
  mix("debt_rollover", "debt rollover"),
  mix("crowdfunding", "crowdfunding"),
  {
    label: "Stag Hunt N5/M3/T4/F2, mock players, logging off",
    path: "general",
    play: (seed) =>
      runStagHuntEpisode({ ...stagHunt, seed }).then(on("general", "Stag Hunt events")),
  },
  {
    label: "Stag Hunt N5/M3/T4/F2, mock players, logging off, outcome only (`events: false`)",
    path: "batched",
    goal: ">= 25,000 episodes/s",
    play: (seed) =>
      runStagHuntEpisode({ ...stagHunt, seed, events: false })
        .then(on("batched", "Stag Hunt outcome only")),
  },
  {
    label: "Stag Hunt N5/M3/T4/F2, mock players, full logging (`outDir`, one file per episode)",
    path: "general",
    play: (seed, dir) =>
      runStagHuntEpisode({ ...stagHunt, seed, outDir: dir, events: false })
        .then(on("general", "Stag Hunt logged")),
  },
  {
    label: "Stag Hunt N5/M3/T4/F2, mock players, full logging through the grid runner, 1 worker",
    path: "general",
    goal: ">= 5,000 episodes/s",
    play: () => Promise.resolve(),
    time: (dir) =>
      gridRate(dir, {
        game: "staghunt",
        N: [stagHunt.N],
        M: [stagHunt.M],
        T: [stagHunt.T],
        F: [stagHunt.F],
      }, 8000),
  },
];
const WORKLOADS = args.only === undefined
  ? ALL_WORKLOADS
  : ALL_WORKLOADS.filter((w) => w.label.includes(args.only!));
if (WORKLOADS.length === 0) {
  throw new RangeError(`--only ${JSON.stringify(args.only)} names no workload`);
}

/**
 * Steady-state timing of the grid runner with one worker on a grid of one
 * block: the episodes are metered as the runner reports them (the worker's
 * start-up and warm-up go to the warm-up windows), and the grid is stopped
 * once the timed window is complete. `perSecond` sizes the grid (an upper
 * bound on the episodes per second); a grid that ends first is an error.
 */
async function gridRate(
  dir: string,
  block: Record<string, unknown>,
  perSecond: number,
): Promise<SteadyTiming> {
  const episodes = Math.ceil(perSecond * (meterOptions.maxWarmup! + seconds + 5));
  const stop = new AbortController();
  let meter: SteadyMeter | undefined;
  await runGrid(
    { name: "bench", seed: 1, episodes, blocks: [block] },
    {
      out: `${dir}/grid`,
      workers: 1,
      progress: false,
      signal: stop.signal,
      onEpisode: (summary) => {
        // The meter starts with the first finished episode (not with the plan and the worker).
        if (meter === undefined) meter = new SteadyMeter(meterOptions);
        else if (meter.tick(summary.calls)) stop.abort("timed");
      },
    },
  );
  if (!meter) throw new Error(`The grid of ${episodes} episodes finished none`);
  return meter.result();
}

interface Measured extends SteadyTiming {
  loadBefore: string;
  loadAfter: string;
}

let seedBase = 0;
async function measure(w: Workload): Promise<Measured> {
  const dir = await Deno.makeTempDir({ prefix: "coordlab-bench-" });
  const loadBefore = loadAverage();
  try {
    const timing = w.time ? await w.time(dir) : await steadyRate((seed) => w.play(seed, dir), {
      ...meterOptions,
      firstSeed: seedBase,
      reports: (r) => (r as { tally?: { reports: number } } | undefined)?.tally?.reports ?? 0,
    });
    return { ...timing, loadBefore, loadAfter: loadAverage() };
  } finally {
    seedBase += 1_000_000;
    await Deno.remove(dir, { recursive: true });
  }
}

const loadBefore = loadAverage();
const ours: Measured[][] = WORKLOADS.map(() => []);
const peers: PeerRate[][] = WORKLOADS.map(() => []);
let peerEpisodes = 10_000;
for (let rep = 0; rep < reps; rep++) {
  for (let i = 0; i < WORKLOADS.length; i++) {
    // The peer runs about as long as the timed window (sized by its last rate).
    const peer = peerFound ? peerRate(peerEpisodes) : { rate: NaN, cpuRate: NaN };
    if (peerFound) peerEpisodes = Math.max(2000, Math.round(peer.rate * seconds));
    ours[i].push(await measure(WORKLOADS[i]));
    peers[i].push(peer);
  }
}
const loadAfter = loadAverage();

const oneMinute = ours.flat().flatMap((m) => [m.loadBefore, m.loadAfter])
  .map((l) => Number(l.split(" ")[0])).filter(Number.isFinite);
console.log(
  `coordlab against the CPython peer (${
    peerFound ? peerPath : "not found"
  }), median of ${reps} interleaved repetitions; each timing ${seconds} s after a warm-up in ` +
    `${meterOptions.window} s windows until two agree within 5% (at most ${meterOptions.maxWarmup} s); ` +
    `${machine({ cpuModel: true })}, ${pythonVersion()}; load average ${loadBefore} before, ` +
    `${loadAfter} after` +
    (oneMinute.length
      ? `, 1-minute load ${Math.min(...oneMinute).toFixed(2)}-${
        Math.max(...oneMinute).toFixed(2)
      } around the timings`
      : ""),
);
console.log("");
const fmt = (x: number) => Number.isFinite(x) ? Math.round(x).toLocaleString("en-US") : "n/a";
const med = (xs: readonly number[]) => median(xs.filter((x) => !Number.isNaN(x)));
console.log(markdownTable(
  [
    "workload",
    "path",
    "coordlab episodes/s",
    "per CPU s",
    "us per report",
    "peer episodes/s",
    "peer per CPU s",
    "ratio to the peer",
    "CPU ratio",
    "warm-up s",
    "goal",
  ],
  WORKLOADS.map((w, i) => {
    const m = ours[i];
    const p = peers[i];
    const usPerReport = med(m.map((x) => x.usPerReport ?? NaN));
    const notSteady = m.filter((x) => !x.steady).length;
    return [
      w.label,
      w.path,
      fmt(med(m.map((x) => x.rate))),
      fmt(med(m.map((x) => x.cpuRate))),
      Number.isFinite(usPerReport) ? usPerReport.toFixed(2) : "n/a",
      fmt(med(p.map((x) => x.rate))),
      fmt(med(p.map((x) => x.cpuRate))),
      peerFound ? `${med(m.map((x, r) => x.rate / p[r].rate)).toFixed(3)}x` : "n/a",
      peerFound ? `${med(m.map((x, r) => x.cpuRate / p[r].cpuRate)).toFixed(3)}x` : "n/a",
      m.map((x) => x.warmupSeconds.toFixed(1)).join(" / ") +
      (notSteady ? ` (${notSteady} not steady)` : ""),
      w.goal ?? "",
    ];
  }),
  { alignRight: true },
));
console.log("");
console.log(
  "Ratios are the median of each repetition's ratio (coordlab's rate over the peer's, measured " +
    "just before it), so they need not equal the quotient of the two median rates. Per CPU s: " +
    "episodes per second of the process's CPU time (all threads, the grid's worker included). " +
    "Warm-up s: each repetition's warm-up; not steady means it stopped at the cap. Path: " +
    "the path every episode of the row played (checked on each result of runEpisode and " +
    "runStagHuntEpisode): batched, " +
    "the game's batched path (outcome only, the game's mock agents), or general, the round loop.",
);

function pythonVersion(): string {
  try {
    const out = new Deno.Command("python3", { args: ["--version"], stdout: "piped" }).outputSync();
    return new TextDecoder().decode(out.stdout).trim();
  } catch {
    return "no python3";
  }
}

/**
 * Benchmark: two checkouts' fully logged grids side by side in one process,
 * as `deno task bench` times the grid ("through the grid runner, 1
 * worker"), so that a change to the logged path is timed against its base
 * on the same machine state. Each checkout's `runGrid` plays grids of one
 * block with one worker, in alternated windows (old, new, new, old, ...);
 * each window meters its episodes from the 1,500th on (the worker's start
 * and warm-up left out), and the medians are printed: wall time and the
 * process's CPU time (every thread) per episode, and their ratios.
 *
 * Usage (from a checkout; the old one e.g. `git worktree add /tmp/old <rev>`):
 * `npx -y deno@2.9.6 run -A bench/compare_grids.ts /tmp/old [bank|staghunt] [windows] [episodes]`
 * (defaults `bank`, 10 windows of 6,000 episodes per checkout).
 *
 * @module
 */
import { resolve } from "node:path";
import { loadAverage, median } from "./_measure.ts";

type RunGrid = (spec: unknown, options: unknown) => Promise<unknown>;

const [oldRoot, game = "bank", windowsArg = "10", episodesArg = "6000"] = Deno.args;
const windows = Number(windowsArg);
const episodes = Number(episodesArg);
const SKIP = 1500;
const BLOCKS: Record<string, unknown> = {
  bank: { game: "frail", envs: ["bank_run"], mechanisms: ["M0"] },
  staghunt: { game: "staghunt", N: [5], M: [3], T: [4], F: [2] },
};
if (
  !oldRoot || !(game in BLOCKS) || !Number.isInteger(windows) || windows < 1 ||
  !Number.isInteger(episodes) || episodes <= SKIP
) {
  console.error(
    `Usage: bench/compare_grids.ts <old checkout> [bank|staghunt] [windows >= 1] [episodes > ${SKIP}]`,
  );
  Deno.exit(2);
}
const load = async (root: string) =>
  (await import(new URL(`file://${resolve(root)}/engine/grid/mod.ts`).href)).runGrid as RunGrid;
const older = await load(oldRoot);
const newer = await load(new URL("..", import.meta.url).pathname);
const scratch = await Deno.makeTempDir({ prefix: "coordlab-compare-grids-" });

let grids = 0;
/** One window: a grid of `episodes`, its episodes from the SKIP-th on metered. */
async function window(runGrid: RunGrid): Promise<{ wall: number; cpu: number }> {
  const out = `${scratch}/g${grids++}`;
  let seen = 0;
  let t0 = 0;
  let c0 = process.cpuUsage();
  let wall = NaN;
  let cpu = NaN;
  await runGrid({ name: "compare", seed: grids, episodes, blocks: [BLOCKS[game]] }, {
    out,
    workers: 1,
    progress: false,
    onEpisode: () => {
      seen++;
      if (seen === SKIP) {
        t0 = performance.now();
        c0 = process.cpuUsage();
      } else if (seen === episodes) {
        const c = process.cpuUsage(c0);
        wall = (performance.now() - t0) * 1000 / (episodes - SKIP);
        cpu = (c.user + c.system) / (episodes - SKIP);
      }
    },
  });
  await Deno.remove(out, { recursive: true });
  if (Number.isNaN(wall)) throw new Error(`A grid of ${episodes} episodes reported ${seen}`);
  return { wall, cpu };
}

console.log(`load average before: ${loadAverage()}`);
const old: { wall: number; cpu: number }[] = [];
const now: { wall: number; cpu: number }[] = [];
for (let i = 0; i < windows; i++) {
  if (i % 2 === 0) {
    old.push(await window(older));
    now.push(await window(newer));
  } else {
    now.push(await window(newer));
    old.push(await window(older));
  }
}
await Deno.remove(scratch, { recursive: true });
const show = (label: string, x: { wall: number; cpu: number }[]) =>
  `  ${label}: ${median(x.map((w) => w.wall)).toFixed(1)} us wall, ` +
  `${median(x.map((w) => w.cpu)).toFixed(1)} us CPU an episode`;
console.log(
  `${game}, logged through the grid, 1 worker, ${windows} windows of ${episodes} episodes:`,
);
console.log(show(`old ${oldRoot}`, old));
console.log(show("new", now));
const ratio = (k: "wall" | "cpu") =>
  (median(now.map((w) => w[k])) / median(old.map((w) => w[k]))).toFixed(3);
console.log(`  new / old: wall ${ratio("wall")}, CPU ${ratio("cpu")}`);
console.log(`load average after: ${loadAverage()}`);

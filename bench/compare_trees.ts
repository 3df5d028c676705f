/**
 * Benchmark: two checkouts of coordlab side by side in one process, so that
 * a change is timed against its base on the same machine state. Each
 * checkout's `mod.ts` is imported, both warm up, then windows alternate
 * (old, new, old, new, ...) of unlogged mock bank-run M0 episodes, and the
 * medians are printed with their ratio (neither checkout has played another
 * game in this process: one that has runs slower, see below). A second part,
 * in a fresh process of its own, times the Stag Hunt unlogged (N5/M3/T4/F2,
 * mock players) of this checkout before and after mock bank-run episodes in
 * that process: the engine's round loop, shared by the games, gets slower for
 * one game once another has run.
 *
 * Usage (from a checkout; the old one e.g. `git worktree add /tmp/old <rev>`):
 * `npx -y deno@2.9.6 run -A bench/compare_trees.ts /tmp/old [windows] [seconds]`
 * (defaults 6 windows of 2 s each per checkout).
 *
 * @module
 */
import { resolve } from "node:path";

type Mod = {
  runEpisode(c: Record<string, unknown>): Promise<unknown>;
  runStagHuntEpisode(c: Record<string, unknown>): Promise<unknown>;
};

const interference = Deno.args[0] === "--interference";
const [oldRoot, windowsArg = "6", secondsArg = "2"] = interference
  ? ["", "1", Deno.args[1]]
  : Deno.args;
const windows = Number(windowsArg);
const seconds = Number(secondsArg);
if ((!interference && !oldRoot) || !Number.isInteger(windows) || windows < 1 || !(seconds > 0)) {
  console.error("Usage: bench/compare_trees.ts <old checkout> [windows >= 1] [seconds > 0]");
  Deno.exit(2);
}
const load = async (root: string) =>
  (await import(new URL(`file://${resolve(root)}/mod.ts`).href)) as Mod;
const newer = await load(new URL("..", import.meta.url).pathname);

/** Episodes per second of `play` over one window of `s` seconds (seeds from `from`). */
async function rate(play: (seed: number) => Promise<unknown>, s: number, from = 0) {
  let seed = from;
  const t0 = performance.now();
  while (performance.now() - t0 < s * 1000) await play(seed++);
  return (seed - from) / ((performance.now() - t0) / 1000);
}
const median = (x: number[]) => [...x].sort((a, b) => a - b)[x.length >> 1];
const bank = (m: Mod) => (seed: number) => m.runEpisode({ env: "bank_run", seed, events: false });
const stag = (m: Mod) => (seed: number) =>
  m.runStagHuntEpisode({ N: 5, M: 3, T: 4, F: 2, seed, events: false });

const loadavg = () => Deno.loadavg().map((x) => x.toFixed(2)).join(" ");

if (interference) {
  // A fresh process: the Stag Hunt alone first, then after bank-run episodes.
  const stagAlone = await rate(stag(newer), 2).then(() => rate(stag(newer), seconds * 2));
  await rate(bank(newer), seconds * 2);
  const stagAfter = await rate(stag(newer), 2).then(() => rate(stag(newer), seconds * 2));
  console.log(
    `Stag Hunt unlogged (new): ${stagAlone.toFixed(0)}/s alone, ${
      stagAfter.toFixed(0)
    }/s after bank-run episodes in the same process`,
  );
  Deno.exit(0);
}

console.log(`load average before: ${loadavg()}`);
const older = await load(oldRoot);
await rate(bank(older), 3);
await rate(bank(newer), 3);
const olds: number[] = [];
const news: number[] = [];
for (let i = 0; i < windows; i++) {
  olds.push(await rate(bank(older), seconds));
  news.push(await rate(bank(newer), seconds));
}
const show = (x: number[]) => x.map((r) => r.toFixed(0)).join(" ");
console.log(`bank run M0 unlogged, episodes/s, ${windows} windows of ${seconds} s:`);
console.log(`  old ${oldRoot}: ${show(olds)} (median ${median(olds).toFixed(0)})`);
console.log(`  new: ${show(news)} (median ${median(news).toFixed(0)})`);
console.log(`  new / old: ${(median(news) / median(olds)).toFixed(3)}`);
const child = new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", new URL(import.meta.url).pathname, "--interference", String(seconds)],
  stdout: "inherit",
  stderr: "inherit",
});
await child.output();
console.log(`load average after: ${loadavg()}`);

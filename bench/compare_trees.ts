/**
 * Benchmark: two checkouts of coordlab side by side in one process, so that
 * a change is timed against its base on the same machine state. Each
 * checkout's `mod.ts` is imported, both warm up, then windows alternate
 * (old, new, old, new, ...) of unlogged mock bank-run M0 episodes, and the
 * medians are printed with their ratio (neither checkout has played another
 * game in this process: one that has runs slower, see below). A second part,
 * in a fresh process of its own for each checkout (the old one first), times
 * the Stag Hunt unlogged (N5/M3/T4/F2, mock players; events kept, as
 * `deno task bench` times it, and `events: false`) before and after mock
 * bank-run episodes in that process: code shared by the games could get
 * slower for one game once another had run (docs/benchmarks.md).
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
  ? [Deno.args[2], "1", Deno.args[1]]
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
const stag = (m: Mod, events = false) => (seed: number) =>
  m.runStagHuntEpisode({ N: 5, M: 3, T: 4, F: 2, seed, events });

const loadavg = () => Deno.loadavg().map((x) => x.toFixed(2)).join(" ");

if (interference) {
  // A fresh process: the Stag Hunt alone first, then after bank-run episodes.
  const tree = oldRoot === "" ? newer : await load(oldRoot);
  const stagRates = async () => {
    const out: string[] = [];
    for (const events of [true, false]) {
      const r = await rate(stag(tree, events), 2).then(() => rate(stag(tree, events), seconds * 2));
      out.push(`${r.toFixed(0)}/s ${events ? "events kept" : "events: false"}`);
    }
    return out.join(", ");
  };
  const alone = await stagRates();
  await rate(bank(tree), seconds * 2);
  const after = await stagRates();
  console.log(`Stag Hunt unlogged (${oldRoot === "" ? "new" : `old ${oldRoot}`}):`);
  console.log(`  alone: ${alone}`);
  console.log(`  after bank-run episodes in the same process: ${after}`);
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
for (const root of [oldRoot, ""]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(import.meta.url).pathname, "--interference", String(seconds), root],
    stdout: "inherit",
    stderr: "inherit",
  });
  await child.output();
}
console.log(`load average after: ${loadavg()}`);

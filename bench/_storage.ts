/**
 * Benchmark parts for how a grid stores its logs: the fully logged bank-run
 * M0 grid with one worker against the Python peer, and where the writing
 * and resume time goes (per episode).
 *
 * @module
 */
import { playGridEpisode } from "../engine/grid/runners.ts";
import { planGrid } from "../engine/grid/plan.ts";
import { scanRunFolder } from "../engine/grid/resume.ts";
import { runGrid } from "../engine/grid/run_grid.ts";
import { recoverSegment, SegmentWriter } from "../engine/grid/segments.ts";
import type { EngineEvent } from "../engine/core/events.ts";
import { median } from "./_measure.ts";

/**
 * The Python peer: `$COORDLAB_PEER`, else `../shared/peers/bank_run.py` beside
 * the repository (where the issue names it).
 */
export function peerPath(): string {
  return Deno.env.get("COORDLAB_PEER") ??
    new URL("../../shared/peers/bank_run.py", import.meta.url).pathname;
}

/** A spec of `episodes` bank-run M0 episodes with the default (defensive) mock agents. */
export function m0Spec(name: string, episodes: number): Record<string, unknown> {
  return {
    name,
    seed: 1,
    episodes,
    blocks: [{ game: "frail", envs: ["bank_run"], mechanisms: ["M0"] }],
  };
}

/** Episodes/s of the Python peer (`bank_run.py bench n`), or `null` when it cannot run. */
export async function peerRate(episodes: number): Promise<number | null> {
  try {
    const out = await new Deno.Command("python3", {
      args: [peerPath(), "bench", String(episodes)],
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!out.success) return null;
    return (JSON.parse(new TextDecoder().decode(out.stdout)) as { per_second: number }).per_second;
  } catch {
    return null;
  }
}

/** Episodes/s of a fully logged M0 grid with one worker, into a fresh folder under `root`. */
export async function loggedGridRate(root: string, episodes: number): Promise<number> {
  const out = await Deno.makeTempDir({ dir: root });
  const t0 = performance.now();
  const r = await runGrid(m0Spec("logged", episodes), { out, workers: 1, progress: false });
  const rate = r.played / ((performance.now() - t0) / 1000);
  await Deno.remove(out, { recursive: true });
  return rate;
}

/** Microseconds per episode of each part of writing and resuming. */
export interface StorageCosts {
  /** Bytes per episode log. */
  bytes: number;
  /** `JSON.stringify` of every event, joined into one text. */
  serialize: number;
  /** UTF-8 encoding of that text into the reused buffer. */
  encode: number;
  /** The synchronous writes of a block and its index line. */
  write: number;
  /** `SegmentWriter.append` as a whole (the three above). */
  append: number;
  /** `SegmentWriter.append` given the lines already built (`text`): encode and write only. */
  appendText: number;
  /** What one file per episode cost instead: create, write, rename (no mkdir). */
  filePerEpisode: number;
  /** Resume's scan of a folder of segments with their index. */
  resumeIndexed: number;
  /** Resume's scan when an index is missing (every block parsed). */
  resumeFullScan: number;
}

/** Median time of `reps` runs of `f` in microseconds, divided by `per`. */
function timed(reps: number, per: number, f: () => void): number {
  const times: number[] = [];
  for (let k = 0; k < reps; k++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
  }
  return (median(times) * 1000) / per;
}

/**
 * Plays `episodes` M0 episodes in memory, then times each part of writing
 * them (median of 5) and of resuming a folder holding them.
 */
export async function storageCosts(root: string, episodes: number): Promise<StorageCosts> {
  const plan = planGrid(m0Spec("costs", episodes));
  const logs: EngineEvent[][] = [];
  for (const ep of plan.episodes) logs.push(await playGridEpisode(ep));
  const encoder = new TextEncoder();
  const texts = logs.map((events) => events.map((e) => JSON.stringify(e) + "\n").join(""));
  const bytes = texts.reduce((n, t) => n + t.length, 0) / episodes;
  const buffer = new Uint8Array(Math.max(...texts.map((t) => t.length)) * 3);
  const serialize = timed(5, episodes, () => {
    for (const events of logs) {
      let text = "";
      for (const e of events) text += JSON.stringify(e) + "\n";
    }
  });
  const encode = timed(5, episodes, () => {
    for (const t of texts) encoder.encodeInto(t, buffer);
  });
  const encoded = texts.map((t) => encoder.encode(t));
  let k = 0;
  const write = timed(5, episodes, () => {
    using data = Deno.openSync(`${root}/raw-${k}.ndjson`, { createNew: true, append: true });
    using index = Deno.openSync(`${root}/raw-${k++}.idx`, { createNew: true, append: true });
    for (const b of encoded) {
      data.writeSync(b);
      index.writeSync(encoder.encode(`{"run":"costs","episode":"x","offset":0,"bytes":1}\n`));
    }
  });
  const dirs: string[] = [];
  const append = timed(5, episodes, () => {
    const dir = Deno.makeTempDirSync({ dir: root });
    dirs.push(dir);
    const w = SegmentWriter.create(dir, "bench-w0");
    for (const events of logs) w.append(events);
    w.close();
  });
  const appendText = timed(5, episodes, () => {
    const dir = Deno.makeTempDirSync({ dir: root });
    const w = SegmentWriter.create(dir, "bench-w0");
    logs.forEach((events, i) => w.append(events, { text: texts[i] }));
    w.close();
  });
  const filePerEpisode = timed(5, episodes, () => {
    const dir = Deno.makeTempDirSync({ dir: root });
    encoded.forEach((b, i) => {
      const tmp = `${dir}/${i}.ndjson.${crypto.randomUUID()}.tmp`;
      Deno.writeFileSync(tmp, b);
      Deno.renameSync(tmp, `${dir}/${i}.ndjson`);
    });
  });
  // Resume: a real folder, scanned as resume scans it.
  const folder = dirs[0];
  const ids = new Set(plan.episodes.map((e) => e.id));
  const indexed: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    await scanRunFolder(folder, ids, "costs");
    indexed.push(performance.now() - t0);
  }
  const full: number[] = [];
  for (let r = 0; r < 5; r++) {
    const segment = `${folder}/segment-bench-w0.ndjson`;
    await Deno.remove(`${folder}/segment-bench-w0.idx`);
    const t0 = performance.now();
    await recoverSegment(segment);
    full.push(performance.now() - t0);
  }
  return {
    bytes,
    serialize,
    encode,
    write,
    append,
    appendText,
    filePerEpisode,
    resumeIndexed: (median(indexed) * 1000) / episodes,
    resumeFullScan: (median(full) * 1000) / episodes,
  };
}

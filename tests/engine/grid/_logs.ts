// Test helpers: what identifies an episode log regardless of wall-clock
// times, and the files of a run folder.
import { readEpisodeLog } from "../../../engine/core/log_file.ts";

/** The time-free fingerprint of one episode log. */
export interface LogDigest {
  /** (state hash, events hash) of every checkpoint. */
  checkpoints: [string, string][];
  /** The final `episode_end` without its time. */
  end: unknown;
  /** Number of `episode_start` and `episode_end` events. */
  starts: number;
  ends: number;
  /** Whether `seq` runs 0..n-1. */
  contiguous: boolean;
  /** Seed from `episode_start`. */
  seed: number;
}

/** Digests of every `.ndjson` log in a folder, by file name. */
export async function digestFolder(dir: string): Promise<Map<string, LogDigest>> {
  const out = new Map<string, LogDigest>();
  const names = (await Array.fromAsync(Deno.readDir(dir)))
    .filter((e) => e.isFile && e.name.endsWith(".ndjson"))
    .map((e) => e.name)
    .sort();
  for (const name of names) {
    const events = await readEpisodeLog(`${dir}/${name}`);
    const start = events.find((e) => e.type === "episode_start") as { seed: number } | undefined;
    const { time: _t, ...end } = events.at(-1)!;
    out.set(name, {
      checkpoints: events.filter((e) => e.type === "checkpoint").map((e) => {
        const c = e as unknown as { state_hash: string; events_hash: string };
        return [c.state_hash, c.events_hash];
      }),
      end,
      starts: events.filter((e) => e.type === "episode_start").length,
      ends: events.filter((e) => e.type === "episode_end").length,
      contiguous: events.every((e, i) => e.seq === i),
      seed: start?.seed ?? -1,
    });
  }
  return out;
}

/** Names of every file in a folder (not recursive), sorted. */
export async function fileNames(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

// Test helpers: what identifies an episode log regardless of wall-clock
// times and of how the run folder stores it, and the files of a run folder.
import type { EngineEvent } from "../../../engine/core/events.ts";
import type { GridEpisode } from "../../../engine/grid/cells.ts";
import { readRunEpisodes } from "../../../engine/grid/segments.ts";

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

/** The digest of one episode's events. */
export function digestEvents(events: readonly EngineEvent[]): LogDigest {
  const start = events.find((e) => e.type === "episode_start") as { seed: number } | undefined;
  const { time: _t, ...end } = events.at(-1)!;
  return {
    checkpoints: events.filter((e) => e.type === "checkpoint").map((e) => {
      const c = e as unknown as { state_hash: string; events_hash: string };
      return [c.state_hash, c.events_hash];
    }),
    end,
    starts: events.filter((e) => e.type === "episode_start").length,
    ends: events.filter((e) => e.type === "episode_end").length,
    contiguous: events.every((e, i) => e.seq === i),
    seed: start?.seed ?? -1,
  };
}

/** Digests of every episode logged in a folder (segments or per-episode files), by episode id. */
export async function digestFolder(dir: string): Promise<Map<string, LogDigest>> {
  const out = new Map<string, LogDigest>();
  for (const [id, events] of await readRunEpisodes(dir)) out.set(id, digestEvents(events));
  return out;
}

/** The events of one episode of a run folder. */
export async function episodeLog(dir: string, id: string): Promise<EngineEvent[]> {
  const events = (await readRunEpisodes(dir)).get(id);
  if (!events) throw new Error(`No log of episode "${id}" in ${dir}`);
  return events;
}

/** Names of every file in a folder (not recursive), sorted. */
export async function fileNames(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
}

/** The segment files (data and index) of a folder. */
export async function segmentFiles(dir: string): Promise<string[]> {
  return (await fileNames(dir)).filter((n) => n.startsWith("segment-"));
}

/** A grid episode of the bank run's mock agents under `mechanism`, stable regime, run "t". */
export const frailEpisode = (mechanism: string, seed: number): GridEpisode => ({
  id: `bank_run_${mechanism}_s${seed}`,
  index: 0,
  run: "t",
  cell: "c",
  replicate: 0,
  seed,
  condition: { game: "frail", env: "bank_run", mechanism, regime: "stable", params: {} },
  agents: { kind: "mock", mock: {} },
} as GridEpisode);

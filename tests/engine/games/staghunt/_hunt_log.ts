// A logged Stag Hunt episode as the committed fixtures were written, and what
// the layout tests compare of its events.
import { playEpisode } from "../../../../engine/core/episode.ts";
import type { EngineEvent } from "../../../../engine/core/events.ts";
import type { HashingVersion } from "../../../../engine/core/events_hash.ts";
import { stagHuntGame, stagHuntSetup } from "../../../../engine/games/staghunt/descriptor.ts";
import { stagHunt } from "../../../../engine/games/staghunt/environment.ts";
import { writeEpisodeLogText } from "../../../../engine/core/log_file.ts";
import { assertEquals } from "../../../_assert.ts";
import { makeTempDir } from "../../../_temp.ts";
import { assertSameFrames, perReadClock } from "../../core/_log_layouts.ts";

/** The committed log of the N5/M3/T4/F2 episode of seed 22 under `layout` (`"lines_v6"`, `"lines_v7"`). */
export function huntFixture(layout: "lines_v6" | "lines_v7"): string {
  return new URL(
    `../../../fixtures/${layout}/fixture/staghunt_N5_M3_T4_F2_base_h1_s22.ndjson`,
    import.meta.url,
  ).pathname;
}

/** A logged N5/M3/T4/F2 episode of the game's default mock players, as the fixtures were written. */
export async function hunt(seed: number, hashing?: HashingVersion) {
  const played = await playEpisode(stagHunt, {
    ...stagHuntSetup({ N: 5, M: 3, T: 4, F: 2, corruption: "base" }, "h1"),
    seed,
    agents: stagHuntGame.mockAgents({ seed }),
    run: "fixture",
    episode: `staghunt_N5_M3_T4_F2_base_h1_s${seed}`,
    ndjson: true,
    clock: perReadClock(),
    ...(hashing ? { hashing } : {}),
  });
  return { ...played, text: played.ndjson! };
}

/** The checkpoint events of a log, each with its state (decoded from its delta). */
export function checkpoints(events: readonly EngineEvent[]) {
  return events.filter((e) => e.type === "checkpoint") as unknown as {
    state: Record<string, unknown>;
    state_hash: string;
    events_hash: string;
  }[];
}

/** Each event's JSON text, `episode_start`'s `hashing` and the checkpoints left out. */
export function gameTexts(events: readonly EngineEvent[]): string[] {
  return events.filter((e) => e.type !== "checkpoint").map((e) => {
    if (e.type !== "episode_start") return JSON.stringify(e);
    const { hashing: _h, ...rest } = e as unknown as Record<string, unknown>;
    return JSON.stringify(rest);
  });
}

/**
 * Writes the episodes of seeds 22-24 under each of two definitions into two
 * folders and checks that they load to the same frames (rounds, turns,
 * corrections, calls; each alone and all together).
 */
export async function assertHuntFramesAlike(before: HashingVersion, after: HashingVersion) {
  const dir = await makeTempDir();
  try {
    for (const seed of [22, 23, 24]) {
      writeEpisodeLogText(`${dir}/old/fixture/s${seed}.ndjson`, (await hunt(seed, before)).text);
      writeEpisodeLogText(`${dir}/new/fixture/s${seed}.ndjson`, (await hunt(seed, after)).text);
    }
    const frames = ["rounds", "turns", "corrections", "calls"] as const;
    for (const asked of [...frames.map((f) => [f]), [...frames]]) {
      const b = await assertSameFrames(`${dir}/old`, `${dir}/new`, asked);
      if (asked.includes("turns")) assertEquals(b.turns.height, 60); // 3 episodes of 20 turns
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// The loader's episodes and rounds frames of minimum-effort episodes, built
// from their events as loadRuns() builds them (key columns from the
// condition and the participants' model, one rounds row per disclosure with
// its metrics), for tests that run before the game is in GAMES, which
// loadRuns() reads.
import pl from "npm:nodejs-polars@0.25.2";
import type { EngineEvent } from "../../../engine/core/events.ts";
import { MIN_EFFORT_CONDITION_KEYS } from "../../../engine/games/min_effort/descriptor.ts";

export function minEffortFrames(
  logs: readonly (readonly EngineEvent[])[],
): { episodes: pl.DataFrame; rounds: pl.DataFrame } {
  const episodes: Record<string, unknown>[] = [];
  const rounds: Record<string, unknown>[] = [];
  for (const events of logs) {
    const start = events.find((e) => e.type === "episode_start");
    const end = events.find((e) => e.type === "episode_end");
    if (start?.type !== "episode_start") throw new Error("no episode_start");
    const key: Record<string, unknown> = { run: start.run, episode: start.episode };
    for (const k of MIN_EFFORT_CONDITION_KEYS) key[k] = start.condition[k];
    key.model = start.model;
    episodes.push({
      run: start.run,
      episode: start.episode,
      env: start.env,
      status: end?.type === "episode_end" ? end.status : "incomplete",
    });
    for (const e of events) {
      if (e.type === "disclosure") rounds.push({ ...key, round: e.round, ...e.metrics });
    }
  }
  return { episodes: pl.DataFrame(episodes), rounds: pl.DataFrame(rounds) };
}

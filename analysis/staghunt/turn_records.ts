/**
 * Stag Hunt turn records from the loader's frames: the `turns` frame joined
 * with each episode's game parameters and each speaker's model, in the shape
 * the engine's pure metric functions take (`StagHuntTurn`), so the same
 * metrics run on NDJSON logs and on compacted Parquet sets alike. Each
 * record carries its episode's full condition: the game parameters (N, M,
 * T, F, corruption, payoffs) and how models were assigned (heterogeneity).
 *
 * Only episodes with status `ok` (and `degraded` when asked) give records:
 * an errored or incomplete episode has no complete rounds.
 *
 * @module
 */

import type pl from "npm:nodejs-polars@0.25.2";
import type { StagHuntParams } from "../../engine/games/staghunt/params.ts";
import { type StagHuntTurn, turnRecord } from "../../engine/games/staghunt/turns.ts";
import { countedEpisodes, type EpisodeStatusOptions } from "../conditions.ts";
import { requireColumns } from "../stats.ts";

/** A turn record with the speaker's model (its policy in `episode_start`) and the episode's heterogeneity. */
export interface ModelTurn extends StagHuntTurn {
  /** The speaker's model or mock policy. */
  model: string;
  /** How models were assigned to the episode's players (`"h1"`, `"h2"` or `"h3"`). */
  heterogeneity: string;
}

/** Options for {@linkcode stagHuntTurnRecords}. */
export type StagHuntTurnRecordsOptions = EpisodeStatusOptions;

/**
 * Turn records of the Stag Hunt episodes in the frames, in log order.
 *
 * @param turns The `turns` frame of `loadRuns()`.
 * @param episodes The `episodes` frame of `loadRuns()` (with `status`,
 * `heterogeneity`, `params` and `agents`).
 * @param options Whether degraded episodes count.
 * @returns One record per turn of a counted `staghunt` episode; turns of
 * other episodes are left out.
 * @throws {RangeError} If a needed column is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "npm:nodejs-polars@0.25.2";
 * import { stagHuntTurnRecords } from "./turn_records.ts";
 *
 * const episodes = pl.DataFrame({
 *   run: ["r"], episode: ["e"], env: ["staghunt"], status: ["ok"], heterogeneity: ["h1"],
 *   params: [JSON.stringify({ N: 1, M: 1, T: 1, F: 0, corruption: "base",
 *     payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 } })],
 *   agents: [JSON.stringify([{ id: "p01", role: "player", policy: "model-a" }])],
 * });
 * const turns = pl.DataFrame({
 *   run: ["r"], episode: ["e"], round: [1], seq: [3], position: [1], agent: ["p01"],
 *   corrupted: [false], original_action: ["Stag"], public_action: ["Stag"], confidence: [0.9],
 * });
 * const [turn] = stagHuntTurnRecords(turns, episodes);
 * assert.equal(turn.model, "model-a");
 * assert.equal(turn.M, 1);
 * assert.equal(turn.publicAction, "Stag");
 * assert.equal(turn.heterogeneity, "h1");
 * ```
 */
export function stagHuntTurnRecords(
  turns: pl.DataFrame,
  episodes: pl.DataFrame,
  options: StagHuntTurnRecordsOptions = {},
): ModelTurn[] {
  requireColumns(
    turns,
    [
      "run",
      "episode",
      "round",
      "position",
      "agent",
      "corrupted",
      "original_action",
      "public_action",
      "confidence",
    ],
    "stagHuntTurnRecords()",
  );
  requireColumns(
    episodes,
    ["run", "episode", "env", "status", "heterogeneity", "params", "agents"],
    "stagHuntTurnRecords()",
  );
  const games = new Map<
    string,
    { params: StagHuntParams; heterogeneity: string; models: Map<string, string> }
  >();
  for (const row of countedEpisodes(episodes, { ...options, game: "staghunt" }).toRecords()) {
    const agents = JSON.parse(String(row.agents ?? "[]")) as { id: string; policy: string }[];
    games.set(`${row.run}\u0000${row.episode}`, {
      params: JSON.parse(String(row.params)) as StagHuntParams,
      heterogeneity: String(row.heterogeneity),
      models: new Map(agents.map((agent) => [agent.id, String(agent.policy)])),
    });
  }
  const sorted = turns.columns.includes("seq")
    ? turns.sort(["run", "episode", "seq"])
    : turns.sort(["run", "episode", "round", "position"]);
  const out: ModelTurn[] = [];
  for (const row of sorted.toRecords()) {
    const game = games.get(`${row.run}\u0000${row.episode}`);
    if (game === undefined) continue;
    const agent = String(row.agent);
    out.push({
      ...turnRecord(game.params, {
        run: String(row.run),
        episode: String(row.episode),
        round: Number(row.round),
        position: Number(row.position),
        agent,
        corrupted: Boolean(row.corrupted),
        original_action: row.original_action as string,
        public_action: row.public_action as string,
        executed_action: row.executed_action,
        confidence: Number(row.confidence),
        original_justification: String(row.original_justification ?? ""),
        public_justification: String(row.public_justification ?? ""),
      }),
      model: game.models.get(agent) ?? "unknown",
      heterogeneity: game.heterogeneity,
    });
  }
  return out;
}

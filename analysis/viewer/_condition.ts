// What the viewer reads from an episode's `episode_start` event: the game,
// the full condition, derived quantities, the model, the seed, the agents
// and the welfare bounds.
//
// Logs state the condition explicitly (event schema 2: `game`, `condition`,
// `condition_id`, `derived`, `model`) and the viewer shows whatever
// `condition` and `derived` hold, key by key. Logs of another schema version
// are refused by name, as every other reader of logs does.

import { EVENT_SCHEMA_VERSION } from "../../engine/core/events.ts";
import { unsupportedSchemaMessage } from "../../engine/core/log_file.ts";
import type { LogEvent } from "./_log_source.ts";

/** A player of the episode, as logged. */
export interface PlayerInfo {
  /** Agent id. */
  id: string;
  /** Role. */
  role: string;
  /** Policy or model. */
  policy: string;
}

/** The description of an episode, from its `episode_start`. */
export interface EpisodeHeader {
  /** Schema version of the `episode_start` event. */
  schema: number;
  /** `"frail"`, `"staghunt"`, or another game family a newer log names. */
  game: string;
  /** Game id (`"bank_run"`, ..., `"staghunt"`). */
  env: string | null;
  /** The full condition, key by key, in logged order. */
  condition: Record<string, unknown>;
  /** A short stable label of the condition, when the log has one. */
  conditionId: string | null;
  /** Derived quantities (bounds, boundaries, funding, goal, q*, ...), when logged. */
  derived: Record<string, unknown>;
  /** The model (or policy) of the episode's participants, if known. */
  model: string | null;
  /** The episode seed, if logged. */
  seed: number | null;
  /** How the random streams were set up, when logged. */
  rng: unknown;
  /** The players. */
  agents: PlayerInfo[];
  /** Welfare bounds logged at the start, if any. */
  bounds: { worst: number; best: number } | null;
  /** Raw parameters, if logged. */
  params: unknown;
  /** Toolkit version string, if logged. */
  toolkit: string | null;
}

/**
 * Reads the header of an episode from its `episode_start` event.
 *
 * @throws {RangeError} For a log of another event schema version, naming it.
 * @throws {TypeError} If the event has no `condition` object or no `game`.
 */
export function episodeHeader(start: LogEvent): EpisodeHeader {
  const schema = start.schema as number;
  if (schema !== EVENT_SCHEMA_VERSION) {
    throw new RangeError(`Episode "${start.episode}": ${unsupportedSchemaMessage(schema)}`);
  }
  const condition = start.condition;
  if (!isRecord(condition)) {
    throw new TypeError(
      `The episode_start of episode "${start.episode}" (schema ${schema}) has no "condition" object`,
    );
  }
  if (typeof start.game !== "string") {
    throw new TypeError(
      `The episode_start of episode "${start.episode}" (schema ${schema}) has no "game" string`,
    );
  }
  const derived = isRecord(start.derived) ? start.derived : {};
  const agents = Array.isArray(start.agents)
    ? start.agents.filter(isRecord).map((a) => ({
      id: String(a.id),
      role: String(a.role),
      policy: String(a.policy),
    }))
    : [];
  return {
    schema,
    seed: typeof start.seed === "number" ? start.seed : null,
    agents,
    params: start.params ?? null,
    toolkit: typeof start.toolkit === "string" ? start.toolkit : null,
    game: start.game,
    env: typeof start.env === "string" ? start.env : null,
    condition,
    conditionId: typeof start.condition_id === "string" ? start.condition_id : null,
    derived,
    model: typeof start.model === "string" ? start.model : null,
    rng: start.rng ?? null,
    bounds: boundsOf(derived.bounds) ?? boundsOf(start.bounds),
  };
}

/** The `{ worst, best }` welfare bounds in a logged value, or `null` when it holds none. */
export function boundsOf(value: unknown): { worst: number; best: number } | null {
  if (!isRecord(value)) return null;
  const { worst, best } = value;
  return typeof worst === "number" && typeof best === "number" ? { worst, best } : null;
}

/** Whether a value is a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

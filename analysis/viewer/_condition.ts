// What the viewer reads from an episode's `episode_start` event: the game,
// the full condition, derived quantities, the model, the seed, the agents
// and the welfare bounds.
//
// Schema 2 logs state the condition explicitly (`game`, `condition`,
// `condition_id`, `derived`, `model`, `rng`) and the viewer shows whatever
// `condition` and `derived` hold, key by key. Schema 1 logs are read through
// `v1Header` alone, the one place that knows where schema 1 kept things:
// FRAIL's condition is `env`, `mechanism` and `regime`; the Stag Hunt
// (env `stag_hunt`) kept the corruption mode in `mechanism`, the
// heterogeneity id in `regime`, and N, M, T, F and the payoffs in `params`.
// A schema 1 episode's model is the distinct policies (sorted, joined with
// `+`) of its participants, i.e. every player but the FRAIL central player,
// as the loaders define it.

import { centralRoleOf } from "../frail/env_profiles.ts";
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

/** The description of an episode, whatever the schema version of its log. */
export interface EpisodeHeader {
  /** Schema version of the `episode_start` event. */
  schema: number;
  /** `"frail"`, `"staghunt"`, or another game id a newer log names. */
  game: string;
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
 * @throws {TypeError} If a schema 2 event has no `condition` object or no `game`.
 */
export function episodeHeader(start: LogEvent): EpisodeHeader {
  const schema = start.schema as number;
  if (schema === 1) return v1Header(start);
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
  return {
    ...common(start),
    game: start.game,
    condition,
    conditionId: typeof start.condition_id === "string" ? start.condition_id : null,
    derived,
    model: typeof start.model === "string" ? start.model : null,
    rng: start.rng ?? null,
    bounds: boundsOf(derived.bounds) ?? boundsOf(start.bounds),
  };
}

/** The schema 1 adapter: the only code that reads schema 1's condition fields. */
function v1Header(start: LogEvent): EpisodeHeader {
  const base = common(start);
  const env = String(start.env);
  const params = isRecord(start.params) ? start.params : {};
  const stagHunt = env === "stag_hunt";
  const condition: Record<string, unknown> = stagHunt
    ? {
      N: params.N,
      M: params.M,
      T: params.T,
      F: params.F,
      corruption: start.mechanism,
      heterogeneity: start.regime,
      payoffs: params.payoffs,
    }
    : { env, mechanism: start.mechanism, regime: start.regime };
  const central = stagHunt ? undefined : centralRoleOf(env);
  const policies = [
    ...new Set(base.agents.filter((a) => a.role !== central).map((a) => a.policy)),
  ].sort();
  return {
    ...base,
    game: stagHunt ? "staghunt" : "frail",
    condition,
    conditionId: null,
    derived: {},
    model: policies.length === 0 ? null : policies.join("+"),
    rng: null,
    bounds: boundsOf(start.bounds),
  };
}

function common(start: LogEvent) {
  const agents = Array.isArray(start.agents)
    ? start.agents.filter(isRecord).map((a) => ({
      id: String(a.id),
      role: String(a.role),
      policy: String(a.policy),
    }))
    : [];
  return {
    schema: start.schema as number,
    seed: typeof start.seed === "number" ? start.seed : null,
    agents,
    params: start.params ?? null,
    toolkit: typeof start.toolkit === "string" ? start.toolkit : null,
  };
}

function boundsOf(value: unknown): { worst: number; best: number } | null {
  if (!isRecord(value)) return null;
  const { worst, best } = value;
  return typeof worst === "number" && typeof best === "number" ? { worst, best } : null;
}

/** Whether a value is a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

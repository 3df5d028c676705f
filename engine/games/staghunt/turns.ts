/**
 * Turn records: one row per published turn with both action layers and the
 * episode's game parameters, read from event logs. Every Stag Hunt metric is
 * a pure function of these records, so metrics work on any log.
 *
 * @module
 */
import type { EngineEvent } from "../../core/events.ts";
import type { CorruptionMode, StagHuntParams } from "./params.ts";
import type { StagHuntAction, StagHuntPayoffs } from "./payoffs.ts";

/** One published turn. */
export interface StagHuntTurn {
  /** Run id. */
  run: string;
  /** Episode id. */
  episode: string;
  /** Players N. */
  N: number;
  /** Threshold M. */
  M: number;
  /** Rounds T. */
  T: number;
  /** Corrupted players F. */
  F: number;
  /** Corruption mode. */
  corruption: CorruptionMode;
  /** Payoffs. */
  payoffs: StagHuntPayoffs;
  /** Round, from 1. */
  round: number;
  /** Speaking position, from 1. */
  position: number;
  /** Speaker id. */
  agent: string;
  /** Whether the speaker is a designated corrupted player. */
  corrupted: boolean;
  /** Original (pre-flip) action r. */
  originalAction: StagHuntAction;
  /** Public (post-flip) action r-tilde. */
  publicAction: StagHuntAction;
  /** The executed (scored) action: the public one, the original one under `communication_only`. */
  executedAction: StagHuntAction;
  /** Reported confidence in [0, 1]. */
  confidence: number;
  /** The agent's own justification. */
  originalJustification: string;
  /** The public justification. */
  publicJustification: string;
}

/** Which action layer a history or metric reads. */
export type ActionLayer = "public" | "original";

/**
 * The action of a turn on a layer.
 *
 * @example
 * ```ts
 * import { actionOn } from "./turns.ts";
 * const t = { originalAction: "Stag", publicAction: "Hare" } as const;
 * if (actionOn(t, "original") !== "Stag" || actionOn(t, "public") !== "Hare") throw new Error();
 * ```
 */
export function actionOn(
  turn: Pick<StagHuntTurn, "originalAction" | "publicAction">,
  layer: ActionLayer,
): StagHuntAction {
  return layer === "public" ? turn.publicAction : turn.originalAction;
}

/**
 * The turn records of one or more episode logs (events concatenated in any
 * episode order; within an episode, in log order). Episodes without an
 * `episode_start` of the `staghunt` environment are skipped.
 *
 * @example
 * ```ts
 * import { runStagHuntEpisode } from "./run.ts";
 * import { turnsFromEvents } from "./turns.ts";
 * const r = await runStagHuntEpisode({ N: 3, M: 2, T: 2, F: 1, seed: 4, agents: { players: "always_stag" } });
 * const turns = turnsFromEvents(r.events);
 * if (turns.length !== 6 || turns.filter((t) => t.publicAction === "Hare").length !== 2) throw new Error();
 * if (turns.some((t) => t.executedAction !== t.publicAction)) throw new Error("base executes the public action");
 * ```
 */
export function turnsFromEvents(events: readonly EngineEvent[]): StagHuntTurn[] {
  const games = new Map<string, StagHuntParams>();
  const out: StagHuntTurn[] = [];
  for (const e of events) {
    const key = `${e.run}\u0000${e.episode}`;
    if (e.type === "episode_start") {
      if (e.env === "staghunt") games.set(key, e.params as StagHuntParams);
      else games.delete(key);
      continue;
    }
    if (e.type !== "turn") continue;
    const p = games.get(key);
    if (!p) continue;
    out.push({
      run: e.run,
      episode: e.episode,
      N: p.N,
      M: p.M,
      T: p.T,
      F: p.F,
      corruption: p.corruption,
      payoffs: { ...p.payoffs },
      round: e.round,
      position: e.position,
      agent: e.agent,
      corrupted: e.corrupted,
      originalAction: e.original_action as StagHuntAction,
      publicAction: e.public_action as StagHuntAction,
      executedAction: executedOf(e, p.corruption),
      confidence: e.confidence,
      originalJustification: e.original_justification,
      publicJustification: e.public_justification,
    });
  }
  return out;
}

/**
 * A turn event's executed action: its `executed_action`, or, in a log written
 * before the field (whose modes, `base` and `b3`, executed the public action),
 * the public action.
 */
function executedOf(
  e: { executed_action?: string; public_action: string; episode: string; round: number },
  mode: CorruptionMode,
): StagHuntAction {
  if (e.executed_action !== undefined) return e.executed_action as StagHuntAction;
  if (mode === "base" || mode === "b3") return e.public_action as StagHuntAction;
  throw new TypeError(
    `The turn of episode "${e.episode}" round ${e.round} has no executed_action under ${mode}`,
  );
}

/**
 * Key of a turn's episode.
 *
 * @example
 * ```ts
 * import { episodeKey } from "./turns.ts";
 * if (episodeKey({ run: "r", episode: "a" }) === episodeKey({ run: "r", episode: "b" })) throw new Error();
 * ```
 */
export function episodeKey(t: Pick<StagHuntTurn, "run" | "episode">): string {
  return `${t.run}\u0000${t.episode}`;
}

/**
 * Key of a turn's round.
 *
 * @example
 * ```ts
 * import { roundKey } from "./turns.ts";
 * if (roundKey({ run: "r", episode: "a", round: 1 }) === roundKey({ run: "r", episode: "a", round: 2 })) {
 *   throw new Error();
 * }
 * ```
 */
export function roundKey(t: Pick<StagHuntTurn, "run" | "episode" | "round">): string {
  return `${t.run}\u0000${t.episode}\u0000${t.round}`;
}

/**
 * Turns grouped by round (episodes in first-seen order, rounds ascending,
 * turns by speaking position).
 *
 * @example
 * ```ts
 * import { groupRounds } from "./turns.ts";
 * const t = (round: number, position: number) => ({ run: "r", episode: "e", round, position });
 * const g = groupRounds([t(2, 1), t(1, 2), t(1, 1)]);
 * if (g.length !== 2 || g[0][0].position !== 1 || g[1][0].round !== 2) throw new Error();
 * ```
 */
export function groupRounds<T extends Pick<StagHuntTurn, "run" | "episode" | "round" | "position">>(
  turns: readonly T[],
): T[][] {
  const episodes = new Map<string, Map<number, T[]>>();
  for (const t of turns) {
    const ek = episodeKey(t);
    let rounds = episodes.get(ek);
    if (!rounds) episodes.set(ek, rounds = new Map());
    let list = rounds.get(t.round);
    if (!list) rounds.set(t.round, list = []);
    list.push(t);
  }
  const out: T[][] = [];
  for (const rounds of episodes.values()) {
    for (const r of [...rounds.keys()].sort((a, b) => a - b)) {
      out.push(rounds.get(r)!.sort((a, b) => a.position - b.position));
    }
  }
  return out;
}

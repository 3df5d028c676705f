/**
 * Turn records: one row per published turn with both action layers and the
 * episode's game parameters, read from event logs. Every Stag Hunt metric is
 * a pure function of these records, so metrics work on any log.
 *
 * @module
 */
import type { EngineEvent } from "../../core/events.ts";
import type { CorruptionMode, StagHuntParams } from "./params.ts";
import type { StagHuntAction } from "./payoffs.ts";
import type { TurnEntry } from "./state.ts";

/**
 * One published turn: the state's turn entry (`TurnEntry`: both action
 * layers), where it stands (run, episode, round), its executed action, and
 * the episode's game parameters.
 */
export interface StagHuntTurn
  extends TurnEntry, Pick<StagHuntParams, "N" | "M" | "T" | "F" | "corruption" | "payoffs"> {
  /** Run id. */
  run: string;
  /** Episode id. */
  episode: string;
  /** Round, from 1. */
  round: number;
  /** The executed (scored) action: the public one, the original one under `communication_only`. */
  executedAction: StagHuntAction;
}

/**
 * A turn as logged: the fields of its `turn` event, as the loader's `turns`
 * frame holds them too. `executed_action` is absent (or not a string) in a
 * log written before the field.
 */
export interface LoggedTurn {
  /** Run id. */
  run: string;
  /** Episode id. */
  episode: string;
  /** Round, from 1. */
  round: number;
  /** Speaking position, from 1. */
  position: number;
  /** Speaker id. */
  agent: string;
  /** Whether the speaker is a designated corrupted player. */
  corrupted: boolean;
  /** The agent's own action. */
  original_action: string;
  /** The public action. */
  public_action: string;
  /** The executed action. */
  executed_action?: unknown;
  /** Reported confidence. */
  confidence: number;
  /** The agent's own justification. */
  original_justification: string;
  /** The public justification. */
  public_justification: string;
}

/**
 * The turn record of a logged turn of an episode played with `params`.
 *
 * @example
 * ```ts
 * import { parseStagHuntParams } from "./params.ts";
 * import { turnRecord } from "./turns.ts";
 * const t = turnRecord(parseStagHuntParams({ N: 3, M: 2 }), {
 *   run: "r", episode: "e", round: 1, position: 2, agent: "p02", corrupted: true,
 *   original_action: "Stag", public_action: "Hare", confidence: 0.8,
 *   original_justification: "go", public_justification: "stay",
 * });
 * if (t.executedAction !== "Hare" || t.M !== 2 || t.originalAction !== "Stag") throw new Error();
 * ```
 * @throws {TypeError} When the turn has no executed action and its mode does not execute the public one.
 */
export function turnRecord(p: StagHuntParams, t: LoggedTurn): StagHuntTurn {
  return {
    run: t.run,
    episode: t.episode,
    N: p.N,
    M: p.M,
    T: p.T,
    F: p.F,
    corruption: p.corruption,
    payoffs: { ...p.payoffs },
    round: t.round,
    position: t.position,
    agent: t.agent,
    corrupted: t.corrupted,
    originalAction: t.original_action as StagHuntAction,
    publicAction: t.public_action as StagHuntAction,
    executedAction: executedOf(t, p.corruption),
    confidence: t.confidence,
    originalJustification: t.original_justification,
    publicJustification: t.public_justification,
  };
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
 * import { runStagHuntEpisode } from "../../run_staghunt_episode.ts";
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
    out.push(turnRecord(p, e));
  }
  return out;
}

/**
 * A turn's executed action: its `executed_action`, or, in a log written
 * before the field (whose modes, `base` and `b3`, executed the public action),
 * the public action.
 */
function executedOf(t: LoggedTurn, mode: CorruptionMode): StagHuntAction {
  if (typeof t.executed_action === "string") return t.executed_action as StagHuntAction;
  if (mode === "base" || mode === "b3") return t.public_action as StagHuntAction;
  throw new TypeError(
    `The turn of episode "${t.episode}" round ${t.round} has no executed_action under ${mode}`,
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

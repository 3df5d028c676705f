/**
 * Stag Hunt state: both action layers of every turn, the round outcomes and
 * the running payoffs. Plain JSON data, so it hashes and checkpoints as is.
 * The corrupted set and the original actions live here and never in a view.
 *
 * @module
 */
import type { Stream } from "../../core/rng.ts";
import { drawCorrupted } from "./corruption.ts";
import type { StagHuntParams } from "./params.ts";
import type { StagHuntAction } from "./payoffs.ts";
import { playerIds } from "./players.ts";

/** One turn, with both action layers. */
export interface TurnEntry {
  /** Speaker id. */
  agent: string;
  /** Speaking position in the round, from 1. */
  position: number;
  /** Whether the speaker is a designated corrupted player. */
  corrupted: boolean;
  /** The agent's own (pre-flip) action. */
  originalAction: StagHuntAction;
  /** The action shown publicly and executed. */
  publicAction: StagHuntAction;
  /** The reported confidence in [0, 1] (kept on both layers). */
  confidence: number;
  /** The agent's own justification. */
  originalJustification: string;
  /** The justification shown publicly (a new one when the action was changed). */
  publicJustification: string;
}

/** What a round produced on each action layer. */
export interface RoundOutcome {
  /** Public Stag actions. */
  publicStag: number;
  /** Original (pre-flip) Stag actions. */
  preflipStag: number;
  /** S_pub: whether public Stag actions reached M. */
  publicSuccess: boolean;
  /** S_int: whether original Stag actions reached M. */
  preflipSuccess: boolean;
}

/** One round of the episode. */
export interface RoundRecord {
  /** Round number, from 1. */
  round: number;
  /** Published turns, in speaking order. */
  turns: TurnEntry[];
  /** Set when the round is settled. */
  outcome: RoundOutcome | null;
}

/** The Stag Hunt state. */
export interface StagHuntState {
  /** Parameters. */
  params: StagHuntParams;
  /** Current round (0 before round 1). */
  round: number;
  /** Player ids in speaking order. */
  players: string[];
  /** Corrupted player ids, in speaking order. */
  corrupted: string[];
  /** Rounds so far. */
  rounds: RoundRecord[];
  /** A changed turn awaiting its new public justification. */
  pending: Omit<TurnEntry, "publicJustification"> | null;
  /** Realized (public) payoffs summed over rounds, by player. */
  payoffs: Record<string, number>;
  /** Whether the episode is settled. */
  done: boolean;
}

/**
 * The state before round 1, with the corrupted players drawn from `stream`.
 *
 * @example
 * ```ts
 * import { openStream } from "../../core/rng.ts";
 * import { parseStagHuntParams } from "./params.ts";
 * import { initialStagHuntState } from "./state.ts";
 * const s = initialStagHuntState(
 *   parseStagHuntParams({ N: 3, M: 2, F: 1 }),
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "corrupted" }),
 * );
 * if (s.corrupted.length !== 1 || s.players.length !== 3) throw new Error();
 * ```
 */
export function initialStagHuntState(params: StagHuntParams, stream: Stream): StagHuntState {
  const players = playerIds(params.N);
  return {
    params,
    round: 0,
    players,
    corrupted: drawCorrupted(stream, players, params.F),
    rounds: [],
    pending: null,
    payoffs: Object.fromEntries(players.map((p) => [p, 0])),
    done: false,
  };
}

/**
 * The round being played (the last one started).
 *
 * @example
 * ```ts
 * import { currentRound } from "./state.ts";
 * const s = { rounds: [{ round: 1, turns: [], outcome: null }] };
 * if (currentRound(s as never).round !== 1) throw new Error();
 * ```
 * @throws {RangeError} Before round 1.
 */
export function currentRound(state: StagHuntState): RoundRecord {
  const r = state.rounds[state.rounds.length - 1];
  if (!r) throw new RangeError("No round has started yet");
  return r;
}

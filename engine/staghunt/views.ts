/**
 * Authorized views (Section 4.2). A player sees the game parameters it is
 * told (its id, N, M and the payoffs; not T, not F, as the paper's system
 * prompt lists only N, M and the payoff matrix), the round number, the
 * speaking order, and the full public transcript so far: every public report
 * (action, confidence, justification) of all earlier rounds with each round's
 * public outcome (Stag count and whether M was met, which anyone can compute
 * from the public actions), and the reports of the earlier speakers of this
 * round. It never sees an original action of a corrupted player, nor who is
 * corrupted.
 *
 * The rejustify view adds the changed public action and the kept confidence
 * that the new justification must fit.
 *
 * @module
 */
import type { StagHuntAction, StagHuntPayoffs } from "./payoffs.ts";
import type { StagHuntState } from "./state.ts";

/** One public report as shown in the transcript. */
export interface PublicReport {
  /** Speaker id. */
  agent: string;
  /** Speaking position, from 1. */
  position: number;
  /** Public action. */
  action: StagHuntAction;
  /** Reported confidence in [0, 1]. */
  confidence: number;
  /** Public justification. */
  justification: string;
}

/** One round of the public transcript. */
export interface PublicRound {
  /** Round number. */
  round: number;
  /** Reports in speaking order (for the current round, those made so far). */
  reports: PublicReport[];
  /** Public outcome; `null` for the round in progress. */
  outcome: { stag: number; success: boolean } | null;
}

/** What a player sees at its turn. */
export interface StagHuntView {
  /** The player's id. */
  you: string;
  /** The player's speaking position, from 1. */
  position: number;
  /** Current round, from 1. */
  round: number;
  /** Number of players N. */
  N: number;
  /** Threshold M. */
  M: number;
  /** Payoffs. */
  payoffs: StagHuntPayoffs;
  /** Player ids in the fixed speaking order. */
  order: string[];
  /** The public transcript: rounds 1 to the current one. */
  transcript: PublicRound[];
}

/** What a corrupted player sees in the rejustify call. */
export interface RejustifyView extends StagHuntView {
  /** The public action to justify and the confidence kept from the original reply. */
  justify: { action: StagHuntAction; confidence: number };
}

/**
 * The view of a player at its turn.
 *
 * @example
 * ```ts
 * import { openStream } from "../core/rng.ts";
 * import { parseStagHuntParams } from "./params.ts";
 * import { initialStagHuntState } from "./state.ts";
 * import { playerView } from "./views.ts";
 * const s = initialStagHuntState(parseStagHuntParams({ N: 2, M: 2 }),
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "corrupted" }));
 * s.round = 1;
 * s.rounds.push({ round: 1, turns: [], outcome: null });
 * const v = playerView(s, "p02");
 * if (v.position !== 2 || v.transcript[0].reports.length !== 0) throw new Error();
 * ```
 */
export function playerView(state: StagHuntState, agent: string): StagHuntView {
  const p = state.params;
  return {
    you: agent,
    position: state.players.indexOf(agent) + 1,
    round: state.round,
    N: p.N,
    M: p.M,
    payoffs: { ...p.payoffs },
    order: [...state.players],
    transcript: state.rounds.map((r) => ({
      round: r.round,
      reports: r.turns.map((t) => ({
        agent: t.agent,
        position: t.position,
        action: t.publicAction,
        confidence: t.confidence,
        justification: t.publicJustification,
      })),
      outcome: r.outcome ? { stag: r.outcome.publicStag, success: r.outcome.publicSuccess } : null,
    })),
  };
}

/**
 * The view of the rejustify call: the turn view plus the action to justify.
 *
 * @example
 * ```ts
 * import { rejustifyView } from "./views.ts";
 * const s = { params: { N: 1, M: 1, payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 } }, round: 1,
 *   players: ["p01"], rounds: [{ round: 1, turns: [], outcome: null }] };
 * const v = rejustifyView(s as never, { agent: "p01", action: "Hare", confidence: 0.7 });
 * if (v.justify.action !== "Hare") throw new Error();
 * ```
 */
export function rejustifyView(
  state: StagHuntState,
  change: { agent: string; action: StagHuntAction; confidence: number },
): RejustifyView {
  return {
    ...playerView(state, change.agent),
    justify: { action: change.action, confidence: change.confidence },
  };
}

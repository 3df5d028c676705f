/**
 * Honest-agent choice metrics (Section 4.5 and the definitions at the
 * paper's end): the honest original Stag rate, outcome alignment (the
 * original action matches the realised public outcome: Stag when public
 * coordination succeeded, Hare when it failed), and payoffs per honest turn:
 * realised (public action, S_pub) and truthful-implementation (original
 * action, S_int).
 *
 * @module
 */
import { executedAction } from "../corruption.ts";
import { payoffOf } from "../payoffs.ts";
import { roundKey, type StagHuntTurn } from "../turns.ts";
import { outcomesByRound } from "./rounds.ts";

const mean = (xs: number[]): number =>
  xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN;

/** A rate with its denominator. */
export interface Rate {
  /** Turns counted. */
  turns: number;
  /** The rate (NaN without turns). */
  rate: number;
}

/**
 * Share of honest turns whose original action is Stag.
 *
 * @example
 * ```ts
 * import { honestStagRate } from "./choices.ts";
 * const t = (corrupted: boolean, originalAction: string) => ({ corrupted, originalAction });
 * const r = honestStagRate([t(false, "Stag"), t(false, "Hare"), t(true, "Stag")] as never[]);
 * if (r.turns !== 2 || r.rate !== 0.5) throw new Error();
 * ```
 */
export function honestStagRate(turns: readonly StagHuntTurn[]): Rate {
  const honest = turns.filter((t) => !t.corrupted);
  return {
    turns: honest.length,
    rate: mean(honest.map((t) => t.originalAction === "Stag" ? 1 : 0)),
  };
}

/**
 * Whether each turn's original action matches its round's public outcome, for
 * honest turns, in the order of `turns`. Needs all turns of each episode.
 *
 * @example
 * ```ts
 * import { alignmentByTurn } from "./choices.ts";
 * const t = (position: number, corrupted: boolean, originalAction: string, publicAction: string) => ({
 *   run: "r", episode: "e", N: 2, M: 2, F: 1, round: 1, position, corrupted, originalAction, publicAction });
 * const rows = alignmentByTurn([t(1, true, "Stag", "Hare"), t(2, false, "Stag", "Stag")] as never[]);
 * if (rows.length !== 1 || rows[0].aligned) throw new Error("public failure: Stag is misaligned");
 * ```
 */
export function alignmentByTurn(
  turns: readonly StagHuntTurn[],
): { turn: StagHuntTurn; aligned: boolean }[] {
  const outcomes = outcomesByRound(turns);
  return turns.filter((t) => !t.corrupted).map((t) => ({
    turn: t,
    aligned: (t.originalAction === "Stag") === outcomes.get(roundKey(t))!.publicSuccess,
  }));
}

/**
 * Honest-agent outcome alignment: the share of honest turns whose original
 * action matches the realised public outcome.
 *
 * @example
 * ```ts
 * import { outcomeAlignment } from "./choices.ts";
 * const t = (position: number, originalAction: string) => ({ run: "r", episode: "e", N: 2, M: 2,
 *   F: 0, round: 1, position, corrupted: false, originalAction, publicAction: originalAction });
 * // Stag + Hare fails: the Hare player is aligned, the Stag player is not.
 * if (outcomeAlignment([t(1, "Stag"), t(2, "Hare")] as never[]).rate !== 0.5) throw new Error();
 * ```
 */
export function outcomeAlignment(turns: readonly StagHuntTurn[]): Rate {
  const rows = alignmentByTurn(turns);
  return { turns: rows.length, rate: mean(rows.map((r) => r.aligned ? 1 : 0)) };
}

/** Options of {@linkcode payoffPerTurn}. */
export interface PayoffPerTurnOptions {
  /** Which turns to average over: `"honest"` or `"all"`. Default `"honest"`. */
  who?: "honest" | "all";
}

/** Mean payoffs per turn. */
export interface PayoffPerTurn {
  /** Turns counted. */
  turns: number;
  /** Mean realised payoff: executed action with its success (public action with S_pub but under `communication_only`). */
  realised: number;
  /** Mean truthful-implementation payoff: original action with S_int. */
  truthful: number;
}

/**
 * Mean realised and truthful-implementation payoff per (honest) turn.
 *
 * @example
 * ```ts
 * import { payoffPerTurn } from "./choices.ts";
 * const payoffs = { RS: 4, HS: 2, RF: 0, HF: 2 };
 * const t = (position: number, corrupted: boolean, publicAction: string) => ({ run: "r", episode: "e",
 *   N: 2, M: 2, F: 1, payoffs, round: 1, position, corrupted, originalAction: "Stag", publicAction });
 * const p = payoffPerTurn([t(1, true, "Hare"), t(2, false, "Stag")] as never[]);
 * // The honest Stag player gets R_F = 0 publicly but R_S = 4 under truthful implementation.
 * if (p.turns !== 1 || p.realised !== 0 || p.truthful !== 4) throw new Error();
 * ```
 */
export function payoffPerTurn(
  turns: readonly StagHuntTurn[],
  options: PayoffPerTurnOptions = {},
): PayoffPerTurn {
  const who = options.who ?? "honest";
  if (who !== "honest" && who !== "all") {
    throw new RangeError(`Option "who" must be "honest" or "all", got "${who}"`);
  }
  const outcomes = outcomesByRound(turns);
  const chosen = turns.filter((t) => who === "all" || !t.corrupted);
  const realised: number[] = [];
  const truthful: number[] = [];
  for (const t of chosen) {
    const o = outcomes.get(roundKey(t))!;
    realised.push(payoffOf(executedAction(t.corruption, t), o.executedSuccess, t.payoffs));
    truthful.push(payoffOf(t.originalAction, o.preflipSuccess, t.payoffs));
  }
  return { turns: chosen.length, realised: mean(realised), truthful: mean(truthful) };
}

/**
 * Round outcomes on both action layers (Section 4.3, 4.5): pre-flip success
 * S_int (original actions reach M), public success S_pub (public actions
 * reach M), and their joint categories: shared success (1, 1), flip-induced
 * loss (S_int = 1, S_pub = 0), flip-induced rescue (0, 1), shared failure (0, 0).
 * Rates are over rounds (each round of each episode counts once).
 *
 * @module
 */
import { executedSuccess } from "../corruption.ts";
import { groupRounds, roundKey, type StagHuntTurn } from "../turns.ts";

/** Joint category of (S_int, S_pub). */
export type JointOutcome = "shared_success" | "flip_loss" | "flip_rescue" | "shared_failure";

/** One round's outcome. */
export interface RoundOutcomeRow {
  /** Run id. */
  run: string;
  /** Episode id. */
  episode: string;
  /** Round. */
  round: number;
  /** Players N. */
  N: number;
  /** Threshold M. */
  M: number;
  /** Corrupted players F. */
  F: number;
  /** Original Stag actions. */
  preflipStag: number;
  /** Public Stag actions. */
  publicStag: number;
  /** S_int. */
  preflipSuccess: boolean;
  /** S_pub. */
  publicSuccess: boolean;
  /** Success of the executed actions: S_pub, but S_int under `communication_only`. */
  executedSuccess: boolean;
  /** Joint category. */
  joint: JointOutcome;
}

/**
 * The joint category of (S_int, S_pub).
 *
 * @example
 * ```ts
 * import { jointOutcome } from "./rounds.ts";
 * if (jointOutcome(true, false) !== "flip_loss" || jointOutcome(false, true) !== "flip_rescue") throw new Error();
 * ```
 */
export function jointOutcome(preflip: boolean, pub: boolean): JointOutcome {
  if (preflip) return pub ? "shared_success" : "flip_loss";
  return pub ? "flip_rescue" : "shared_failure";
}

/**
 * One row per round. Every round must hold all N turns.
 *
 * @example
 * ```ts
 * import { roundOutcomes } from "./rounds.ts";
 * const t = (position: number, originalAction: string, publicAction: string) => ({
 *   run: "r", episode: "e", N: 2, M: 2, F: 1, round: 1, position, originalAction, publicAction });
 * const [row] = roundOutcomes([t(1, "Stag", "Hare"), t(2, "Stag", "Stag")] as never[]);
 * if (row.joint !== "flip_loss" || row.preflipStag !== 2 || row.publicStag !== 1) throw new Error();
 * ```
 * @throws {RangeError} When a round has fewer or more than N turns.
 */
export function roundOutcomes(turns: readonly StagHuntTurn[]): RoundOutcomeRow[] {
  return groupRounds(turns).map((round) => {
    const t = round[0];
    if (round.length !== t.N) {
      throw new RangeError(
        `Round ${t.round} of episode "${t.episode}" has ${round.length} of ${t.N} turns; pass all turns of each episode`,
      );
    }
    const preflipStag = round.filter((x) => x.originalAction === "Stag").length;
    const publicStag = round.filter((x) => x.publicAction === "Stag").length;
    const preflipSuccess = preflipStag >= t.M;
    const publicSuccess = publicStag >= t.M;
    return {
      run: t.run,
      episode: t.episode,
      round: t.round,
      N: t.N,
      M: t.M,
      F: t.F,
      preflipStag,
      publicStag,
      preflipSuccess,
      publicSuccess,
      executedSuccess: executedSuccess(t.corruption, { preflipSuccess, publicSuccess }),
      joint: jointOutcome(preflipSuccess, publicSuccess),
    };
  });
}

/**
 * Round outcomes by round key (see `roundKey` in `turns.ts`).
 *
 * @example
 * ```ts
 * import { outcomesByRound } from "./rounds.ts";
 * import { roundKey } from "../turns.ts";
 * const t = { run: "r", episode: "e", N: 1, M: 1, F: 0, round: 1, position: 1,
 *   originalAction: "Stag", publicAction: "Stag" };
 * if (!outcomesByRound([t] as never[]).get(roundKey(t))?.publicSuccess) throw new Error();
 * ```
 */
export function outcomesByRound(turns: readonly StagHuntTurn[]): Map<string, RoundOutcomeRow> {
  return new Map(roundOutcomes(turns).map((r) => [roundKey(r), r]));
}

/** Success rates over rounds. */
export interface SuccessRates {
  /** Rounds counted. */
  rounds: number;
  /** Mean S_int. */
  preflip: number;
  /** Mean S_pub. */
  public: number;
  /** Mean success of the executed actions (S_pub, S_int under `communication_only`). */
  executed: number;
  /** Share of rounds with (1, 1). */
  sharedSuccess: number;
  /** Share of rounds with S_int = 1, S_pub = 0. */
  flipLoss: number;
  /** Share of rounds with S_int = 0, S_pub = 1. */
  flipRescue: number;
  /** Share of rounds with (0, 0). */
  sharedFailure: number;
}

/**
 * Pre-flip and public success rates and the joint categories (NaN without rounds).
 *
 * @example
 * ```ts
 * import { successRates } from "./rounds.ts";
 * const t = (round: number, originalAction: string, publicAction: string) => ({
 *   run: "r", episode: "e", N: 1, M: 1, F: 1, round, position: 1, originalAction, publicAction });
 * const s = successRates([t(1, "Stag", "Hare"), t(2, "Hare", "Stag")] as never[]);
 * if (s.preflip !== 0.5 || s.flipLoss !== 0.5 || s.flipRescue !== 0.5) throw new Error();
 * ```
 */
export function successRates(turns: readonly StagHuntTurn[]): SuccessRates {
  const rows = roundOutcomes(turns);
  const n = rows.length;
  const share = (f: (r: RoundOutcomeRow) => boolean) => n ? rows.filter(f).length / n : Number.NaN;
  return {
    rounds: n,
    preflip: share((r) => r.preflipSuccess),
    public: share((r) => r.publicSuccess),
    executed: share((r) => r.executedSuccess),
    sharedSuccess: share((r) => r.joint === "shared_success"),
    flipLoss: share((r) => r.joint === "flip_loss"),
    flipRescue: share((r) => r.joint === "flip_rescue"),
    sharedFailure: share((r) => r.joint === "shared_failure"),
  };
}

/**
 * The minimum-effort game's state and each player's authorized view.
 *
 * Information condition (the paper's): after every round the minimum effort
 * is announced to everyone; each player also knows its own effort and its
 * own payoff, and nothing about the others' choices (not their efforts, not
 * how many chose what). A player's view is exactly that: the game's
 * parameters, the round, and for every round played its own effort, the
 * announced minimum and its own payoff. Choice where the paper is open to
 * us: the view also says how many rounds the game has (T).
 *
 * @module
 */
import type { MinEffortParams } from "./params.ts";

/** One settled round. */
export interface MinEffortRound {
  /** Round number, from 1. */
  round: number;
  /** Efforts played, in player order (after any override). */
  efforts: number[];
  /** The announced minimum. */
  minimum: number;
  /** Payoffs of the round, in player order. */
  payoffs: number[];
}

/** The state of a minimum-effort episode. */
export interface MinEffortState {
  /** Parameters. */
  params: MinEffortParams;
  /** Current round (0 before round 1). */
  round: number;
  /** Player ids, `p01`, `p02`, ... */
  players: string[];
  /** This round's efforts once chosen, in player order; `null` before. */
  chosen: number[] | null;
  /** Settled rounds, in order. */
  rounds: MinEffortRound[];
  /** Payoffs summed over rounds, by player. */
  payoffs: Record<string, number>;
  /** Whether the episode is settled. */
  done: boolean;
}

/**
 * The ids of N players: `p01` ... (two digits at least, more from 100 players on).
 *
 * @example
 * ```ts
 * import { minEffortPlayerIds } from "./state.ts";
 * if (minEffortPlayerIds(3).join() !== "p01,p02,p03" || minEffortPlayerIds(100)[0] !== "p001") throw new Error();
 * ```
 */
export function minEffortPlayerIds(N: number): string[] {
  const width = Math.max(2, String(N).length);
  return Array.from({ length: N }, (_, i) => `p${String(i + 1).padStart(width, "0")}`);
}

/**
 * The state before round 1.
 *
 * @example
 * ```ts
 * import { initialMinEffortState } from "./state.ts";
 * import { parseMinEffortParams } from "./params.ts";
 * const s = initialMinEffortState(parseMinEffortParams({ N: 2 }));
 * if (s.players.length !== 2 || s.payoffs.p02 !== 0 || s.round !== 0) throw new Error();
 * ```
 */
export function initialMinEffortState(params: MinEffortParams): MinEffortState {
  const players = minEffortPlayerIds(params.N);
  return {
    params,
    round: 0,
    players,
    chosen: null,
    rounds: [],
    payoffs: Object.fromEntries(players.map((p) => [p, 0])),
    done: false,
  };
}

/** What a player saw of one settled round. */
export interface OwnRound {
  /** Round number. */
  round: number;
  /** The player's own effort. */
  effort: number;
  /** The announced minimum effort. */
  minimum: number;
  /** The player's own payoff. */
  payoff: number;
}

/** A player's authorized view of an effort call. */
export interface MinEffortView {
  /** The player's id. */
  you: string;
  /** The round to choose for, from 1. */
  round: number;
  /** Rounds in the game. */
  T: number;
  /** Players in the group. */
  N: number;
  /** Highest effort E: the choices are 1..E. */
  efforts: number;
  /** Payoff per unit of the minimum effort (dollars). */
  a: number;
  /** Cost per unit of one's own effort (dollars). */
  b: number;
  /** Constant payoff per round (dollars). */
  c: number;
  /** The rounds played so far, as the player saw them, oldest first. */
  history: OwnRound[];
}

/**
 * The view of one player: the parameters, the round, and its own past rounds.
 *
 * @example
 * ```ts
 * import { initialMinEffortState, minEffortView } from "./state.ts";
 * import { parseMinEffortParams } from "./params.ts";
 * const s = initialMinEffortState(parseMinEffortParams({ N: 2 }));
 * s.round = 2;
 * s.rounds.push({ round: 1, efforts: [7, 3], minimum: 3, payoffs: [0.5, 0.9] });
 * const v = minEffortView(s, "p01");
 * if (v.history[0].effort !== 7 || v.history[0].minimum !== 3 || "efforts" in v.history[0]) throw new Error();
 * ```
 * @throws {RangeError} For an id that is not a player of the episode.
 */
export function minEffortView(s: MinEffortState, agent: string): MinEffortView {
  const i = s.players.indexOf(agent);
  if (i < 0) {
    throw new RangeError(`Unknown player "${agent}": the players are p01..${s.players.at(-1)}`);
  }
  const { N, T, efforts, a, b, c } = s.params;
  return {
    you: agent,
    round: s.round,
    T,
    N,
    efforts,
    a,
    b,
    c,
    history: s.rounds.map((r) => ({
      round: r.round,
      effort: r.efforts[i],
      minimum: r.minimum,
      payoff: r.payoffs[i],
    })),
  };
}

/**
 * The history available at a turn: what a belief rule reads. Built the same
 * way from a player's view (the public transcript it is shown) and from turn
 * records on either action layer, so a rule gives a threshold player and the
 * analysis the same estimate.
 *
 * The hidden original-action history (analyst-only) replaces every action by
 * the original one and every past round's success by the pre-flip success
 * S_int, so a rule reads the original layer exactly as it reads the public one.
 *
 * A history built from a view shares the settled rounds of its transcript
 * (frozen: a rule must not change a history, and cannot change these).
 *
 * @module
 */
import type { StagHuntAction, StagHuntPayoffs } from "./payoffs.ts";
import { type ActionLayer, actionOn, groupRounds, type StagHuntTurn } from "./turns.ts";
import type { PublicRound, StagHuntView } from "./views.ts";

/** One report in a history. */
export interface HistoryReport {
  /** Speaker id. */
  agent: string;
  /** Speaking position, from 1. */
  position: number;
  /** The action on the history's layer. */
  action: StagHuntAction;
  /** Reported confidence in [0, 1]. */
  confidence: number;
}

/** A completed round in a history. */
export interface HistoryRound {
  /** Round number. */
  round: number;
  /** All N reports, in speaking order. */
  reports: HistoryReport[];
  /** Whether at least M of the reports were Stag. */
  success: boolean;
}

/** Everything a belief rule may read at one turn. */
export interface TurnHistory {
  /** Players N. */
  N: number;
  /** Threshold M. */
  M: number;
  /** Payoffs. */
  payoffs: StagHuntPayoffs;
  /** The turn's round. */
  round: number;
  /** The turn's speaking position. */
  position: number;
  /** The speaker. */
  agent: string;
  /** Completed rounds, oldest first. */
  past: HistoryRound[];
  /** Reports of the earlier speakers of this round, in speaking order. */
  current: HistoryReport[];
}

/**
 * The public history a player has at its turn, from its view.
 *
 * @example
 * ```ts
 * import { historyFromView } from "./history.ts";
 * const view = {
 *   you: "p02", position: 2, round: 1, N: 2, M: 2,
 *   payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 }, order: ["p01", "p02"],
 *   transcript: [{ round: 1, outcome: null, reports: [
 *     { agent: "p01", position: 1, action: "Stag", confidence: 1, justification: "" },
 *   ] }],
 * } as const;
 * const h = historyFromView(view as never);
 * if (h.current.length !== 1 || h.past.length !== 0) throw new Error();
 * ```
 */
export function historyFromView(view: StagHuntView): TurnHistory {
  const past: HistoryRound[] = [];
  const transcript = view.transcript;
  for (let i = 0; i < transcript.length; i++) {
    const r = transcript[i];
    if (r.outcome) past.push(pastRound(r, i));
  }
  const live = viewRoundInProgress(view);
  const current = live === undefined ? [] : historyReports(live);
  return turnHistory(view, view.round, view.position, view.you, past, current);
}

/**
 * The round of a view's transcript whose reports are the current ones of
 * its history (`historyFromView`): the last one in progress (no outcome) of
 * the view's round; `undefined` when there is none.
 *
 * @example
 * ```ts
 * import { viewRoundInProgress } from "./history.ts";
 * const transcript = [
 *   { round: 1, outcome: { stag: 0, success: false }, reports: [] },
 *   { round: 2, outcome: null, reports: [] },
 * ];
 * if (viewRoundInProgress({ round: 2, transcript } as never) !== transcript[1]) throw new Error();
 * if (viewRoundInProgress({ round: 1, transcript } as never) !== undefined) throw new Error();
 * ```
 */
export function viewRoundInProgress(
  view: Pick<StagHuntView, "round" | "transcript">,
): PublicRound | undefined {
  let live: PublicRound | undefined;
  const transcript = view.transcript;
  for (let i = 0; i < transcript.length; i++) {
    const r = transcript[i];
    if (!r.outcome && r.round === view.round) live = r;
  }
  return live;
}

/**
 * The history of a turn from its parts, as a player's view gives it (a
 * copy of the payoffs, the past and current lists as given): what
 * `historyFromView` builds, and the Stag Hunt's batched path too.
 *
 * @example
 * ```ts
 * import { turnHistory } from "./history.ts";
 * const game = { N: 3, M: 2, payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 } };
 * const h = turnHistory(game, 1, 2, "p02", [], [{ agent: "p01", position: 1, action: "Stag", confidence: 1 }]);
 * if (h.payoffs === game.payoffs || h.current.length !== 1 || h.agent !== "p02") throw new Error();
 * ```
 */
export function turnHistory(
  game: { N: number; M: number; payoffs: StagHuntPayoffs },
  round: number,
  position: number,
  agent: string,
  past: HistoryRound[],
  current: HistoryReport[],
): TurnHistory {
  const p = game.payoffs;
  return {
    N: game.N,
    M: game.M,
    payoffs: { RS: p.RS, HS: p.HS, RF: p.RF, HF: p.HF },
    round,
    position,
    agent,
    past,
    current,
  };
}

/**
 * A settled round of a public history, frozen with its reports (a rule
 * cannot change it for the next reader): how a history built from a view
 * holds the rounds of its transcript, and the batched path's too.
 *
 * @example
 * ```ts
 * import { settledHistoryRound } from "./history.ts";
 * const r = settledHistoryRound(1, [{ agent: "p01", position: 1, action: "Hare", confidence: 1 }], false);
 * if (!Object.isFrozen(r) || !Object.isFrozen(r.reports[0]) || r.success) throw new Error();
 * ```
 */
export function settledHistoryRound(
  round: number,
  reports: HistoryReport[],
  success: boolean,
): HistoryRound {
  for (const x of reports) Object.freeze(x);
  Object.freeze(reports);
  return Object.freeze({ round, reports, success });
}

function historyReports(r: PublicRound): HistoryReport[] {
  const reports: HistoryReport[] = [];
  for (const x of r.reports) {
    reports.push({
      agent: x.agent,
      position: x.position,
      action: x.action,
      confidence: x.confidence,
    });
  }
  return reports;
}

// The history of a settled round, once per shared (frozen) transcript round:
// frozen in turn, so a rule cannot change it for the next reader. A frozen
// round cannot change, so an entry stays valid while its round is the one at
// that index of the transcript; only the last ones seen are kept (a map of
// every round ever seen kept them alive, and the garbage collector busy).
const seenRounds: PublicRound[] = [];
const seenHistories: HistoryRound[] = [];

function pastRound(r: PublicRound, i: number): HistoryRound {
  if (seenRounds[i] === r) return seenHistories[i];
  const reports = historyReports(r);
  if (!isFrozenRound(r)) return { round: r.round, reports, success: r.outcome!.success };
  const made = settledHistoryRound(r.round, reports, r.outcome!.success);
  // Past the cache, as before: its reports frozen, the round itself not.
  if (i >= 1024) return { round: made.round, reports: made.reports, success: made.success };
  seenRounds[i] = r;
  seenHistories[i] = made;
  return made;
}

/** Whether a transcript round cannot change: it, its outcome, its reports and each report frozen. */
function isFrozenRound(r: PublicRound): boolean {
  if (!Object.isFrozen(r) || !Object.isFrozen(r.reports) || !Object.isFrozen(r.outcome)) {
    return false;
  }
  for (const x of r.reports) if (!Object.isFrozen(x)) return false;
  return true;
}

/** Options of {@linkcode historiesOf}. */
export interface HistoriesOptions {
  /** Which action layer the histories hold. Default `"public"`. */
  layer?: ActionLayer;
}

/**
 * The history at every turn of the given records (all turns of each episode
 * are needed), in episode, round and position order.
 *
 * @example
 * ```ts
 * import { historiesOf } from "./history.ts";
 * const base = { run: "r", episode: "e", N: 2, M: 2, T: 1, F: 1, corruption: "base",
 *   payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 }, round: 1, confidence: 1,
 *   originalJustification: "", publicJustification: "" } as const;
 * const turns = [
 *   { ...base, position: 1, agent: "p01", corrupted: true, originalAction: "Stag", publicAction: "Hare",
 *     executedAction: "Hare" },
 *   { ...base, position: 2, agent: "p02", corrupted: false, originalAction: "Stag", publicAction: "Stag",
 *     executedAction: "Stag" },
 * ] as const;
 * const [, second] = historiesOf([...turns], { layer: "original" });
 * if (second.history.current[0].action !== "Stag") throw new Error();
 * ```
 */
export function historiesOf(
  turns: readonly StagHuntTurn[],
  options: HistoriesOptions = {},
): { turn: StagHuntTurn; history: TurnHistory }[] {
  const layer = options.layer ?? "public";
  const out: { turn: StagHuntTurn; history: TurnHistory }[] = [];
  let episode: string | undefined;
  let past: HistoryRound[] = [];
  for (const round of groupRounds(turns)) {
    const first = round[0];
    const ek = `${first.run}\u0000${first.episode}`;
    if (ek !== episode) {
      episode = ek;
      past = [];
    }
    const reports: HistoryReport[] = [];
    for (const t of round) {
      out.push({
        turn: t,
        history: {
          N: t.N,
          M: t.M,
          payoffs: t.payoffs,
          round: t.round,
          position: t.position,
          agent: t.agent,
          past,
          current: [...reports],
        },
      });
      reports.push({
        agent: t.agent,
        position: t.position,
        action: actionOn(t, layer),
        confidence: t.confidence,
      });
    }
    const stag = reports.filter((r) => r.action === "Stag").length;
    // A new array each round: earlier histories keep the past they had.
    past = [...past, { round: first.round, reports, success: stag >= first.M }];
  }
  return out;
}

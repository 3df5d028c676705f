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
 * The payoffs, the speaking order and every settled round of the transcript
 * are shared by the views of an episode, frozen (no agent can change what
 * another is shown), and checked against the state whenever they are handed
 * out.
 *
 * @module
 */
import { SharedPart } from "../../core/view_parts.ts";
import type { StagHuntAction, StagHuntPayoffs } from "./payoffs.ts";
import type { StagHuntParams } from "./params.ts";
import type { RoundRecord, StagHuntState, TurnEntry } from "./state.ts";

/** One public report as shown in the transcript: a turn's public layer. */
export interface PublicReport extends Pick<TurnEntry, "agent" | "position" | "confidence"> {
  /** Public action. */
  action: StagHuntAction;
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

/** What a player sees at its turn: N, M and the payoffs of the parameters (not T, not F). */
export interface StagHuntView extends Pick<StagHuntParams, "N" | "M" | "payoffs"> {
  /** The player's id. */
  you: string;
  /** The player's speaking position, from 1. */
  position: number;
  /** Current round, from 1. */
  round: number;
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
 * import { openStream } from "../../core/rng.ts";
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
    payoffs: PAYOFFS.of(p.payoffs),
    order: ORDER.of(state.players),
    transcript: transcriptOf(state.rounds),
  };
}

function transcriptOf(rounds: RoundRecord[]): PublicRound[] {
  const transcript: PublicRound[] = [];
  for (let i = 0; i < rounds.length; i++) transcript.push(publicRound(rounds, i));
  return transcript;
}

// What every view of an episode shows alike is shared, frozen
// (`../core/view_parts.ts`): the payoffs, the speaking order, and each settled
// round of the transcript (checked against its record on every use, so an
// edited record is shown as it is now).
const PAYOFFS = new SharedPart<StagHuntPayoffs, StagHuntPayoffs>(
  (p) => ({ RS: p.RS, HS: p.HS, RF: p.RF, HF: p.HF }),
  (v, p) => v.RS === p.RS && v.HS === p.HS && v.RF === p.RF && v.HF === p.HF,
);
const ORDER = new SharedPart<string[], string[]>(
  (ids) => [...ids],
  (v, ids) => {
    if (v.length !== ids.length) return false;
    for (let i = 0; i < ids.length; i++) if (v[i] !== ids[i]) return false;
    return true;
  },
);
// The settled rounds of the last episode asked about, by index (a WeakMap per
// round cost more in garbage collection than it saved).
let lastRounds: RoundRecord[] | undefined;
let shared: (PublicRound | undefined)[] = [];

/**
 * A round of the transcript: shared and frozen once settled. The round in
 * progress is a new object with a new list for each view, of reports made
 * once per turn, frozen, and checked against the turn on every use (a
 * corrupted turn's justification changes after it is first shown).
 */
function publicRound(rounds: RoundRecord[], i: number): PublicRound {
  const r = rounds[i];
  if (rounds !== lastRounds) {
    lastRounds = rounds;
    shared = [];
    live = [];
  }
  if (r.outcome !== null) {
    const hit = shared[i];
    if (hit !== undefined && shows(hit, r)) return hit;
  } else return { round: r.round, reports: reportsOf(r.turns, live[i] ??= []), outcome: null };
  // The reports shown while the round was in progress, where they still show its turns.
  const reports = reportsOf(r.turns, live[i] ??= []);
  const made: PublicRound = Object.freeze({
    round: r.round,
    reports: Object.freeze(reports) as PublicReport[],
    outcome: Object.freeze({ stag: r.outcome.publicStag, success: r.outcome.publicSuccess }),
  });
  shared[i] = made;
  return made;
}

// The reports of the rounds in progress of the last episode asked about, by round and turn.
let live: (PublicReport | undefined)[][] = [];

/**
 * A round's reports: for each turn the report `made` holds for it while it
 * still shows the turn, else one made now, frozen, and kept in `made`.
 */
function reportsOf(turns: readonly Turn[], made: (PublicReport | undefined)[]): PublicReport[] {
  const reports: PublicReport[] = new Array(turns.length);
  for (let k = 0; k < turns.length; k++) {
    const t = turns[k];
    let x = made[k];
    if (x === undefined || !showsTurn(x, t)) x = made[k] = Object.freeze(publicReport(t));
    reports[k] = x;
  }
  return reports;
}

type Turn = RoundRecord["turns"][number];

function publicReport(t: Turn): PublicReport {
  return {
    agent: t.agent,
    position: t.position,
    action: t.publicAction,
    confidence: t.confidence,
    justification: t.publicJustification,
  };
}

function showsTurn(x: PublicReport, t: Turn): boolean {
  return x.agent === t.agent && x.position === t.position && x.action === t.publicAction &&
    x.confidence === t.confidence && x.justification === t.publicJustification;
}

/** Whether a shared round still shows what its record holds. */
function shows(v: PublicRound, r: RoundRecord): boolean {
  const o = r.outcome!;
  if (
    v.round !== r.round || v.outcome!.stag !== o.publicStag ||
    v.outcome!.success !== o.publicSuccess || v.reports.length !== r.turns.length
  ) {
    return false;
  }
  for (let i = 0; i < r.turns.length; i++) {
    if (!showsTurn(v.reports[i], r.turns[i])) return false;
  }
  return true;
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
  // The turn view, then `justify` added as its last member (the same members in the same
  // order as a spread, without copying the view).
  return Object.assign(playerView(state, change.agent), {
    justify: { action: change.action, confidence: change.confidence },
  });
}

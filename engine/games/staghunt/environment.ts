/**
 * The iterated N-player Stag Hunt under corrupted public reports (Sections
 * 4.1-4.3) as a pure state machine. A round is one step per speaker in the
 * fixed order (`turn_1` ... `turn_N`), a `rejustify_k` step after each
 * corrupted speaker, and a `settle` step:
 *
 * - `turn_k`: the k-th speaker replies from the public transcript so far.
 *   An honest reply is published as is. A corrupted reply gets its public
 *   action from the corruption mode; if that differs from the original, the
 *   entry waits for `rejustify_k`, otherwise it is published as is (b3 can
 *   draw the original action back).
 * - `rejustify_k`: when the public action was changed, a separate call to
 *   the same agent asks for a justification of the public action (the
 *   original confidence is kept); then the patched entry is published, before
 *   the next speaker's call. Under b3 the call is made exactly when the drawn
 *   action differs from the original, so every public justification argues
 *   for the public action.
 * - `settle`: success and payoffs from the executed actions (the public ones,
 *   S_pub; under `communication_only` the original ones, S_int), with both
 *   the public and the pre-flip success kept for analysis.
 *
 * Every published turn emits a `turn` event with both layers; every settled
 * round a `transition` event of kind `round_outcome`. The game has no
 * mechanism (the runner passes `"none"`); its condition is recorded by
 * `stagHuntSetup` in `descriptor.ts`.
 *
 * Every `turn` event carries `executed_action` (`executedAction`).
 *
 * Episode outcome: `success` is coordination of the executed actions in
 * every round (public coordination but under `communication_only`; failure
 * kind `"coordination"` otherwise); welfare is the sum of realized payoffs;
 * bounds as in {@linkcode stagHuntBounds}.
 *
 * @module
 */
import type { Environment, Step } from "../../core/environment.ts";
import type { EpisodeOutcome, EventBody } from "../../core/events.ts";
import {
  B3_PURPOSE,
  CORRUPTED_PURPOSE,
  corruptedAction,
  drawCorrupted,
  executedAction,
  executedSuccess,
} from "./corruption.ts";
import {
  REJUSTIFY_CALL,
  rejustifyContract,
  TURN_CALL,
  turnContract,
  type TurnReply,
} from "./contracts.ts";
import {
  type CorruptionMode,
  parseStagHuntParams,
  stagHuntBounds,
  type StagHuntParams,
} from "./params.ts";
import { payoffOf } from "./payoffs.ts";
import {
  currentRound,
  initialStagHuntState,
  type RoundOutcome,
  type StagHuntState,
  type TurnEntry,
} from "./state.ts";
import { stagHuntCheckpointJson, stagHuntStateJson } from "./state_json.ts";
import { playerView, rejustifyView } from "./views.ts";

/** Role of every player. */
export const PLAYER_ROLE = "player";

function publish(s: StagHuntState, entry: TurnEntry): EventBody {
  currentRound(s).turns.push(entry);
  return {
    type: "turn",
    agent: entry.agent,
    position: entry.position,
    corrupted: entry.corrupted,
    original_action: entry.originalAction,
    public_action: entry.publicAction,
    executed_action: executedAction(s.params.corruption, entry),
    confidence: entry.confidence,
    original_justification: entry.originalJustification,
    public_justification: entry.publicJustification,
  };
}

function turnStep(position: number): Step<StagHuntState> {
  const id = `turn_${position}`;
  return {
    id,
    requests(s) {
      const agent = s.players[position - 1];
      return [{
        agent,
        role: PLAYER_ROLE,
        call: TURN_CALL,
        round: s.round,
        step: id,
        view: playerView(s, agent),
      }];
    },
    apply(s, reports, ctx) {
      const agent = s.players[position - 1];
      const r = reports.get(agent) as TurnReply | undefined;
      if (!r) return { state: s, events: [] };
      const corrupted = s.corrupted.includes(agent);
      const publicAction = corrupted
        ? corruptedAction(s.params.corruption, r.action, () => ctx.stream(agent, B3_PURPOSE))
        : r.action;
      if (publicAction !== r.action) {
        s.pending = {
          agent,
          position,
          corrupted,
          originalAction: r.action,
          publicAction,
          confidence: r.confidence,
          originalJustification: r.justification,
        };
        return { state: s, events: [] };
      }
      return {
        state: s,
        events: [publish(s, {
          agent,
          position,
          corrupted,
          originalAction: r.action,
          publicAction,
          confidence: r.confidence,
          originalJustification: r.justification,
          publicJustification: r.justification,
        })],
      };
    },
  };
}

function rejustifyStep(position: number): Step<StagHuntState> {
  const id = `rejustify_${position}`;
  return {
    id,
    requests(s) {
      const agent = s.players[position - 1];
      if (s.pending?.agent !== agent) return [];
      return [{
        agent,
        role: PLAYER_ROLE,
        call: REJUSTIFY_CALL,
        round: s.round,
        step: id,
        view: rejustifyView(s, {
          agent,
          action: s.pending.publicAction,
          confidence: s.pending.confidence,
        }),
      }];
    },
    apply(s, reports) {
      const pending = s.pending;
      if (!pending || pending.agent !== s.players[position - 1]) return { state: s, events: [] };
      const r = reports.get(pending.agent) as { justification: string } | undefined;
      s.pending = null;
      // The entry as one literal of the turn step's shape (a spread gave it a map of its own).
      return {
        state: s,
        events: [publish(s, {
          agent: pending.agent,
          position: pending.position,
          corrupted: pending.corrupted,
          originalAction: pending.originalAction,
          publicAction: pending.publicAction,
          confidence: pending.confidence,
          originalJustification: pending.originalJustification,
          publicJustification: r?.justification ?? "",
        })],
      };
    },
  };
}

const settleStep: Step<StagHuntState> = {
  id: "settle",
  requests: () => [],
  apply(s) {
    const { M, payoffs, corruption } = s.params;
    const round = currentRound(s);
    let publicStag = 0;
    let preflipStag = 0;
    for (const t of round.turns) {
      if (t.publicAction === "Stag") publicStag++;
      if (t.originalAction === "Stag") preflipStag++;
    }
    const outcome = roundOutcome(publicStag, preflipStag, M);
    round.outcome = outcome;
    // Scored on the executed actions: the public ones, the original ones under
    // communication_only (executedAction).
    const executed = executedSuccess(corruption, outcome);
    const realized: Record<string, number> = {};
    for (const t of round.turns) {
      realized[t.agent] = payoffOf(executedAction(corruption, t), executed, payoffs);
      s.payoffs[t.agent] += realized[t.agent];
    }
    return {
      state: s,
      events: [{
        type: "transition",
        kind: "round_outcome",
        public_stag: publicStag,
        preflip_stag: preflipStag,
        public_success: outcome.publicSuccess,
        preflip_success: outcome.preflipSuccess,
        payoffs: realized,
      }],
    };
  },
};

/**
 * What a round produced from its Stag counts on both layers (what `settle`
 * records, and the batched path too).
 *
 * @example
 * ```ts
 * import { roundOutcome } from "./environment.ts";
 * const o = roundOutcome(2, 3, 3);
 * if (o.publicSuccess || !o.preflipSuccess || o.publicStag !== 2) throw new Error();
 * ```
 */
export function roundOutcome(publicStag: number, preflipStag: number, M: number): RoundOutcome {
  return {
    publicStag,
    preflipStag,
    publicSuccess: publicStag >= M,
    preflipSuccess: preflipStag >= M,
  };
}

/**
 * The episode's outcome from its rounds' outcomes (`null`: not settled), the
 * last round played and the payoffs summed by player (what `finish` returns,
 * and the batched path too): success is coordination of the executed actions
 * in every round (`executedSuccess`), failure kind `"coordination"`
 * otherwise, welfare the sum of the payoffs (a copy of them is returned).
 *
 * @example
 * ```ts
 * import { roundOutcome, settledOutcome } from "./environment.ts";
 * const o = settledOutcome("base", [roundOutcome(3, 3, 3), roundOutcome(1, 3, 3)], 2, { p01: 6, p02: 4 });
 * if (o.success || o.failure !== "coordination" || o.welfare !== 10 || o.rounds !== 2) throw new Error();
 * ```
 */
export function settledOutcome(
  mode: CorruptionMode,
  outcomes: readonly (RoundOutcome | null)[],
  round: number,
  payoffs: Readonly<Record<string, number>>,
): Omit<EpisodeOutcome, "bounds" | "welfareRealization"> {
  const success = outcomes.length > 0 &&
    outcomes.every((o) => o !== null && executedSuccess(mode, o));
  const paid = { ...payoffs };
  const welfare = Object.values(paid).reduce((a, b) => a + b, 0);
  // The outcome (and the bounds, params.ts) are built field by field, not
  // as literals: the FRAIL games' have the same fields with fractional
  // values, and once they have run, V8 gave every object of a literal made
  // here with integers an outdated layout, which the engine's reads of it
  // (episode.ts) missed their cache on, every episode.
  const outcome = {} as Omit<EpisodeOutcome, "bounds" | "welfareRealization">;
  outcome.success = success;
  outcome.failure = success ? null : "coordination";
  outcome.rounds = round;
  outcome.payoffs = paid;
  outcome.welfare = welfare;
  return outcome;
}

const stepCache = new Map<string | number, readonly Step<StagHuntState>[]>();

/**
 * What a round's steps are made of: the number of players and the positions
 * of the corrupted ones, as a number (their bits, then N) for up to 30
 * players, as text beyond.
 */
function stepsKey(players: readonly string[], corrupted: readonly string[]): string | number {
  const n = players.length;
  if (n > 30) return `${n}|${corrupted.join(",")}`;
  let mask = 0;
  for (let i = 0; i < n; i++) if (corrupted.includes(players[i])) mask |= 1 << i;
  return mask * 32 + n;
}

// The last round's steps and what they were made for (the rounds of an
// episode, and mostly the episodes of a condition, play the same steps):
// compared id by id rather than through the cache's key text.
let lastSteps: readonly Step<StagHuntState>[] | undefined;
let lastPlayers: readonly string[] = [];
let lastCorrupted: readonly string[] = [];

function roundSteps(s: StagHuntState): readonly Step<StagHuntState>[] {
  if (
    lastSteps !== undefined && sameIds(s.players, lastPlayers) &&
    sameIds(s.corrupted, lastCorrupted)
  ) {
    return lastSteps;
  }
  const steps = cachedSteps(s);
  lastSteps = steps;
  lastPlayers = [...s.players];
  lastCorrupted = [...s.corrupted];
  return steps;
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function cachedSteps(s: StagHuntState): readonly Step<StagHuntState>[] {
  const key = stepsKey(s.players, s.corrupted);
  let steps = stepCache.get(key);
  if (!steps) {
    const list: Step<StagHuntState>[] = [];
    s.players.forEach((p, i) => {
      list.push(turnStep(i + 1));
      if (s.corrupted.includes(p)) list.push(rejustifyStep(i + 1));
    });
    list.push(settleStep);
    steps = list;
    if (stepCache.size > 10_000) stepCache.clear();
    stepCache.set(key, steps);
  }
  return steps;
}

/**
 * The Stag Hunt environment.
 *
 * @example
 * ```ts
 * import { playEpisode } from "../../core/episode.ts";
 * import { stagHuntSetup } from "./descriptor.ts";
 * import { stagHunt } from "./environment.ts";
 * const played = await playEpisode(stagHunt, {
 *   ...stagHuntSetup({ N: 3, M: 2, T: 2, F: 1 }, "h1"), seed: 1,
 *   agents: () => ({
 *     policy: "test:stag",
 *     decide: (req) => Promise.resolve(req.call === "rejustify"
 *       ? { justification: "Hare is safer." }
 *       : { action: "Stag", confidence: 0.9, justification: "Stag pays more." }),
 *   }),
 * });
 * // Two honest Stag actions meet M = 2 despite the inverted one.
 * if (!played.outcome.success || played.outcome.welfare !== 2 * (4 + 4 + 2)) throw new Error();
 * ```
 */
export const stagHunt: Environment<StagHuntParams, StagHuntState> = {
  id: "staghunt",
  parseParams: parseStagHuntParams,
  init(params, { stream }) {
    return initialStagHuntState(params, stream("engine", CORRUPTED_PURPOSE));
  },
  roster: (s) => s.players.map((id) => ({ id, role: PLAYER_ROLE })),
  horizon: (s) => s.params.T,
  startRound(s, round) {
    s.round = round;
    s.pending = null;
    s.rounds.push({ round, turns: [], outcome: null });
    const events: EventBody[] = round === 1
      ? [{
        type: "transition",
        kind: "corruption_assigned",
        mode: s.params.corruption,
        corrupted: [...s.corrupted],
      }]
      : [];
    return { state: s, events };
  },
  steps: roundSteps,
  contracts: { [TURN_CALL]: turnContract, [REJUSTIFY_CALL]: rejustifyContract },
  isDone: (s) => s.done,
  finish(s) {
    s.done = true;
    const outcomes = s.rounds.map((r) => r.outcome);
    const publicRounds = s.rounds.filter((r) => r.outcome?.publicSuccess).length;
    const preflipRounds = s.rounds.filter((r) => r.outcome?.preflipSuccess).length;
    return {
      state: s,
      events: [{
        type: "transition",
        kind: "episode_summary",
        public_success_rounds: publicRounds,
        preflip_success_rounds: preflipRounds,
        rounds: s.rounds.length,
      }],
      outcome: settledOutcome(s.params.corruption, outcomes, s.round, s.payoffs),
    };
  },
  bounds: stagHuntBounds,
  stateJson: stagHuntStateJson,
  // The state without its rounds, which the turn and round_outcome events hold.
  checkpointState: { since: "lines-v7", json: stagHuntCheckpointJson },
  rebase(s, params, { stream }) {
    // A branch keeps the players and redraws the corrupted ones from the same
    // stream with the new F: the shuffled order is the parent's, so the new
    // corrupted set is the first F of it (F 2 -> 1 keeps the first of the two;
    // F -> 0 clears it). Payoffs, M, T and the mode apply from the branch round.
    if (params.N !== s.params.N) {
      throw new RangeError(
        `Cannot branch a Stag Hunt episode into N ${params.N}: it has ${s.params.N} players`,
      );
    }
    if (params.T <= s.round) {
      throw new RangeError(
        `Cannot branch into T ${params.T} at round ${s.round + 1}: no round would be left to play`,
      );
    }
    s.corrupted = drawCorrupted(stream("engine", CORRUPTED_PURPOSE), s.players, params.F);
    s.params = params;
    return s;
  },
};

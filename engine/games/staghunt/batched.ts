/**
 * The Stag Hunt's batched path (`BatchedPlay`, `engine/core/game.ts`): an
 * episode of the game's mock players played on arrays, with no request,
 * view, reply, report, pending entry or event per turn. Each turn takes the
 * player's action and confidence from the players' own rules (`mock.ts`:
 * the always players' fixed action and confidence; the threshold players'
 * belief rule called on the public history its view would give,
 * `turnHistory`, the noise draw from the stream (mock seed, round, player,
 * `"mock_noise"`), `thresholdAction` and `thresholdConfidence` at the
 * cutoff `stagHuntCutoff`), a corrupted player's public action from
 * `corruptedAction` (the b3 draw from the episode's stream (seed, round,
 * player, `"b3_public_action"`)), the corrupted players from
 * `corruptedPlayers`, and each round's outcome, payoffs and the episode's
 * outcome from the environment's own `roundOutcome`, `executedAction`,
 * `executedSuccess`, `payoffOf` and `settledOutcome`. The draws are the
 * general path's, and so are the outcome and the final state, to the bit
 * (tests/engine/games/staghunt/batched_test.ts compares the two paths). The
 * justifications are written only when the final state is read.
 *
 * It takes every mock option `mockAgents` accepts (the policies
 * `"threshold"`, `"always_stag"`, `"always_hare"` or a function of index and
 * id naming them; any belief rule, the paper's or a rule object, noise,
 * first-speaker prior, q* comparison, seed, the always players'
 * confidence), every N, M, T, F, payoffs, corruption mode (`base`, `b3`,
 * `communication_only`) and heterogeneity of the condition. It declines (the
 * general path plays, and reports what happens) an episode whose players the
 * general path would fail or repair: a policy function that throws or names
 * another policy, an option out of range, a noise seed that is not a
 * non-negative safe integer (with noise), a rule whose estimate throws or is
 * neither a number nor `undefined`, or whose confidence would not be a
 * number in [0, 1] (NaN). The general path then calls the policy function
 * and the rule again.
 *
 * The picker (`playGame`) sends it no episode with a model policy (h2 / h3
 * models assigned: the general path plays, and gives the models).
 *
 * @module
 */
import type { BatchedPlay, GameSetup } from "../../core/game.ts";
import { type BatchedEpisode, batchedEpisode } from "../../core/batched.ts";
import { firstUniform, type RoundStreams, roundStreams } from "../../core/rng.ts";
import {
  B3_PURPOSE,
  corruptedAction,
  corruptedPlayers,
  executedAction,
  executedSuccess,
} from "./corruption.ts";
import { naiveEstimate } from "./beliefs/_naive.ts";
import { roundOutcome, settledOutcome } from "./environment.ts";
import {
  type HistoryReport,
  type HistoryRound,
  settledHistoryRound,
  turnHistory,
} from "./history.ts";
import {
  alwaysConfidence,
  alwaysJustification,
  type MockStagHuntOptions,
  NOISE_PURPOSE,
  PLAYER_POLICIES,
  PRIOR_SOURCE,
  rejustification,
  type StagHuntCutoff,
  stagHuntCutoff,
  stagHuntPolicyOf,
  thresholdAction,
  thresholdConfidence,
  thresholdJustification,
  type ThresholdSettings,
  thresholdSettings,
} from "./mock.ts";
import { stagHuntMockOf } from "./mock_options.ts";
import { stagHuntBounds, type StagHuntParams } from "./params.ts";
import { payoffOf, type StagHuntAction } from "./payoffs.ts";
import { playerIds } from "./players.ts";
import type { RoundOutcome, RoundRecord, StagHuntState, TurnEntry } from "./state.ts";

const THRESHOLD = 0;
const ALWAYS_STAG = 1;

// How a turn's justification is written: an always player's, or a threshold
// player's from its prior or from its rule's estimate.
const ALWAYS = 0;
const PRIOR = 1;
const ESTIMATE = 2;

/**
 * The Stag Hunt's batched path, for its descriptor: plays episodes of its
 * mock players (see the module doc), declines what the general path would
 * fail or repair.
 *
 * @example
 * ```ts
 * import { stagHuntBatched } from "./batched.ts";
 * import { stagHuntGame } from "./descriptor.ts";
 * const setup = stagHuntGame.setup({ N: 5, M: 3, T: 4, F: 2 });
 * const played = stagHuntBatched.play(setup, 7, { seed: 7, players: "always_stag" })!;
 * // Three honest Stag actions meet M = 3 every round; the two inverted ones are rejustified.
 * if (!played.outcome.success || played.tally.reports !== 20 + 8 || played.events.length !== 0) {
 *   throw new Error();
 * }
 * if (stagHuntBatched.play(setup, 7, { players: () => "nervous" }) !== undefined) {
 *   throw new Error("an unknown policy plays on the general path");
 * }
 * ```
 */
export const stagHuntBatched: BatchedPlay<StagHuntParams> = {
  play(setup, seed, mock) {
    try {
      return playMock(setup, seed, stagHuntMockOf(mock));
    } catch {
      // A player's option, policy function or rule the general path fails on.
      return undefined;
    }
  },
};

/** What each turn of the episode did, by turn index ((round - 1) * N + position - 1). */
interface Turns {
  original: StagHuntAction[];
  public: StagHuntAction[];
  confidence: number[];
  /** The q-hat of a threshold turn. */
  qHat: number[];
  /** How its justification is written (ALWAYS, PRIOR, ESTIMATE). */
  source: number[];
  /** Whether a threshold turn's noise flipped it. */
  flip: boolean[];
}

/** The episode, or `undefined` where a player would fail or be repaired; throws what a player throws. */
function playMock(
  setup: GameSetup<StagHuntParams>,
  seed: number,
  o: MockStagHuntOptions,
): BatchedEpisode<StagHuntState> | undefined {
  const p = setup.params;
  const { N, M, T, corruption: mode, payoffs } = p;
  const ids = playerIds(N);
  // Each player's policy, in speaking order (as the factory is called).
  const policy: number[] = [];
  let thresholds = false;
  let always = false;
  for (let i = 0; i < N; i++) {
    const code = PLAYER_POLICIES.indexOf(stagHuntPolicyOf(o.players, i, ids[i]) as never);
    if (code < 0) return undefined;
    policy.push(code);
    if (code === THRESHOLD) thresholds = true;
    else always = true;
  }
  // Each kind of player's options, checked as building one checks them.
  const t: ThresholdSettings | undefined = thresholds
    ? thresholdSettings({ seed: o.seed ?? 0, ...o.threshold })
    : undefined;
  const cut: StagHuntCutoff | undefined = t
    ? stagHuntCutoff(p, t.hare, o.threshold?.qStar)
    : undefined;
  const fixedConfidence = always ? alwaysConfidence(o.always) : 0;
  const noise = t ? t.noise : 0;
  const corrupted = corruptedPlayers(p, seed);
  const isCorrupted: boolean[] = ids.map((id) => corrupted.includes(id));
  const turns: Turns = {
    original: [],
    public: [],
    confidence: [],
    qHat: [],
    source: [],
    flip: [],
  };
  const outcomes: RoundOutcome[] = [];
  const paid: number[] = ids.map(() => 0);
  // The public history's settled rounds (as the threshold players' views show them), for a
  // rule that reads them: the naive rule reads only the round's earlier reports, counted here.
  const naive = t !== undefined && t.rule.estimate === naiveEstimate;
  const past: HistoryRound[] = [];
  let reports = 0;
  for (let r = 1; r <= T; r++) {
    const open = roundStreams(seed, r);
    const noisy: RoundStreams | undefined = noise > 0 ? roundStreams(t!.seed, r) : undefined;
    const first = (r - 1) * N;
    let publicStag = 0;
    let preflipStag = 0;
    for (let i = 0; i < N; i++) {
      const k = first + i;
      const agent = ids[i];
      if (policy[i] === THRESHOLD) {
        let estimate: number | undefined;
        if (naive) {
          // The naive rule's estimate (_naive.ts): the earlier speakers' public Stag share,
          // which publicStag counts so far this round.
          estimate = i === 0 ? undefined : publicStag / i;
        } else {
          const current: HistoryReport[] = [];
          for (let j = 0; j < i; j++) {
            current.push({
              agent: ids[j],
              position: j + 1,
              action: turns.public[first + j],
              confidence: turns.confidence[first + j],
            });
          }
          estimate = t!.rule.estimate(turnHistory(p, r, i + 1, agent, past.slice(), current));
        }
        const flip = noisy !== undefined && firstUniform(noisy, agent, NOISE_PURPOSE) < noise;
        // Two calls, not one on a merged q-hat (see thresholdPlayer in mock.ts).
        if (estimate === undefined) thresholdTurn(turns, k, t!.prior, PRIOR, cut!, flip);
        else if (typeof estimate === "number") {
          thresholdTurn(turns, k, estimate, ESTIMATE, cut!, flip);
        } else return undefined;
        // A confidence the contract would repair (NaN from a NaN estimate).
        if (!(turns.confidence[k] >= 0 && turns.confidence[k] <= 1)) return undefined;
      } else {
        turns.original[k] = policy[i] === ALWAYS_STAG ? "Stag" : "Hare";
        turns.confidence[k] = fixedConfidence;
        turns.qHat[k] = 0;
        turns.source[k] = ALWAYS;
        turns.flip[k] = false;
      }
      reports++;
      const action = turns.original[k];
      let shown = action;
      if (isCorrupted[i]) {
        shown = corruptedAction(mode, action, () => open(agent, B3_PURPOSE));
        // The rejustify call.
        if (shown !== action) reports++;
      }
      turns.public[k] = shown;
      if (shown === "Stag") publicStag++;
      if (action === "Stag") preflipStag++;
    }
    // Settlement (settle in environment.ts).
    const outcome = roundOutcome(publicStag, preflipStag, M);
    outcomes.push(outcome);
    const executed = executedSuccess(mode, outcome);
    for (let i = 0; i < N; i++) {
      const k = first + i;
      const turn = { originalAction: turns.original[k], publicAction: turns.public[k] };
      paid[i] += payoffOf(executedAction(mode, turn), executed, payoffs);
    }
    if (thresholds && !naive) {
      const shown: HistoryReport[] = [];
      for (let i = 0; i < N; i++) {
        const k = first + i;
        shown.push({
          agent: ids[i],
          position: i + 1,
          action: turns.public[k],
          confidence: turns.confidence[k],
        });
      }
      past.push(settledHistoryRound(r, shown, outcome.publicSuccess));
    }
  }
  const statePayoffs: Record<string, number> = {};
  for (let i = 0; i < N; i++) statePayoffs[ids[i]] = paid[i];
  return batchedEpisode(settledOutcome(mode, outcomes, T, statePayoffs), stagHuntBounds(p), {
    reports,
    state: () => finalState(p, ids, corrupted, isCorrupted, turns, outcomes, statePayoffs, t, cut),
  });
}

/** A threshold turn at q-hat: its action, confidence and what its justification is written from. */
function thresholdTurn(
  turns: Turns,
  k: number,
  qHat: number,
  source: number,
  cut: StagHuntCutoff,
  flip: boolean,
): void {
  turns.original[k] = thresholdAction(qHat, cut.q, flip);
  turns.confidence[k] = thresholdConfidence(qHat, cut.q);
  turns.qHat[k] = qHat;
  turns.source[k] = source;
  turns.flip[k] = flip;
}

/** The general path's final state: every turn's entry with both justifications, the rounds, the payoffs. */
function finalState(
  p: StagHuntParams,
  ids: string[],
  corrupted: string[],
  isCorrupted: readonly boolean[],
  turns: Turns,
  outcomes: readonly RoundOutcome[],
  payoffs: Record<string, number>,
  t: ThresholdSettings | undefined,
  cut: StagHuntCutoff | undefined,
): StagHuntState {
  const N = ids.length;
  const rounds: RoundRecord[] = [];
  for (let r = 1; r <= outcomes.length; r++) {
    const entries: TurnEntry[] = [];
    for (let i = 0; i < N; i++) {
      const k = (r - 1) * N + i;
      const source = turns.source[k];
      const said = source === ALWAYS
        ? alwaysJustification(turns.original[k])
        : thresholdJustification(
          turns.qHat[k],
          source === PRIOR ? PRIOR_SOURCE : t!.estimated,
          cut!,
          turns.flip[k],
        );
      const shown = turns.public[k];
      entries.push({
        agent: ids[i],
        position: i + 1,
        corrupted: isCorrupted[i],
        originalAction: turns.original[k],
        publicAction: shown,
        confidence: turns.confidence[k],
        originalJustification: said,
        publicJustification: shown !== turns.original[k] ? rejustification(shown) : said,
      });
    }
    rounds.push({ round: r, turns: entries, outcome: outcomes[r - 1] });
  }
  return {
    params: p,
    round: outcomes.length,
    players: ids,
    corrupted,
    rounds,
    pending: null,
    payoffs,
    done: true,
  };
}

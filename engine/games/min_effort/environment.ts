/**
 * The minimum-effort coordination game (Van Huyck, Battalio and Beil 1990)
 * as a pure state machine. A round has two steps:
 *
 * - `choose`: every player is asked at once (the choices are simultaneous),
 *   from its own view (`state.ts`: the parameters, and its own effort, the
 *   announced minimum and its own payoff of every round so far), and
 *   replies `{ effort, reasoning }` (`contracts.ts`: a direct choice, not a
 *   probability). An effort above the game's highest is replaced by the
 *   secure effort 1, with an `override` event.
 * - `settle`: the minimum, every player's payoff `a * min - b * own + c`,
 *   a `transition` event of kind `round_outcome` (`minimum`, `efforts` and
 *   `payoffs` by player, for analysis: the players never see the others'
 *   efforts), and a `disclosure` event whose `public` part is what every
 *   player is told (`{ minimum }`) and whose `metrics` are the round
 *   measures of `measures.ts` (so the loader's `rounds` frame has them).
 *
 * The environment draws nothing: every choice is the players', so it opens
 * no stream. A branch (`rebase`) keeps the players and their history and
 * plays on under the new payoffs, highest effort and T; it refuses another N
 * and a T already reached. The game has no mechanism (the runner passes `"none"`) and no
 * central player; its condition is recorded by `minEffortSetup` in
 * `descriptor.ts`.
 *
 * Episode outcome: `success` when every round's minimum is the highest
 * effort (the payoff-dominant equilibrium, so W equals the best bound),
 * else failure `"coordination"`; welfare is the sum of the payoffs; bounds
 * as in `bounds.ts`. The last event before `episode_end` is a `transition`
 * of kind `episode_summary` (`rounds`, `efficient_rounds`: rounds whose
 * minimum was the highest effort, `final_minimum`).
 *
 * @module
 */
import type { Environment, Step } from "../../core/environment.ts";
import type { EventBody } from "../../core/events.ts";
import { minEffortBounds } from "./bounds.ts";
import { DEFAULT_EFFORT, EFFORT_CALL, effortContract, type EffortReply } from "./contracts.ts";
import { roundMeasures } from "./measures.ts";
import { MIN_EFFORT_ID, type MinEffortParams, parseMinEffortParams, payoffOf } from "./params.ts";
import { initialMinEffortState, type MinEffortState, minEffortView } from "./state.ts";

/** Role of every player. */
export const PLAYER_ROLE = "player";

const chooseStep: Step<MinEffortState> = {
  id: "choose",
  requests(s) {
    return s.players.map((agent) => ({
      agent,
      role: PLAYER_ROLE,
      call: EFFORT_CALL,
      round: s.round,
      step: "choose",
      view: minEffortView(s, agent),
    }));
  },
  apply(s, reports) {
    const highest = s.params.efforts;
    const events: EventBody[] = [];
    s.chosen = s.players.map((agent) => {
      const r = reports.get(agent) as EffortReply | undefined;
      if (r === undefined) {
        throw new Error(`No effort report from ${agent} in round ${s.round}`);
      }
      if (r.effort <= highest) return r.effort;
      events.push({
        type: "override",
        agent,
        call: EFFORT_CALL,
        field: "effort",
        from: r.effort,
        to: DEFAULT_EFFORT,
        reason: `Effort ${r.effort} is above the highest effort ${highest}; ` +
          `the secure effort ${DEFAULT_EFFORT} is used`,
      });
      return DEFAULT_EFFORT;
    });
    return { state: s, events };
  },
};

const settleStep: Step<MinEffortState> = {
  id: "settle",
  requests: () => [],
  apply(s) {
    const efforts = s.chosen;
    if (efforts === null) {
      throw new Error(`Round ${s.round} is settled before its efforts are chosen`);
    }
    const minimum = Math.min(...efforts);
    const payoffs = efforts.map((e) => payoffOf(s.params, e, minimum));
    s.rounds.push({ round: s.round, efforts: [...efforts], minimum, payoffs: [...payoffs] });
    s.chosen = null;
    const byPlayer = (values: readonly number[]) =>
      Object.fromEntries(s.players.map((p, i) => [p, values[i]]));
    s.players.forEach((p, i) => {
      s.payoffs[p] += payoffs[i];
    });
    return {
      state: s,
      events: [
        {
          type: "transition",
          kind: "round_outcome",
          minimum,
          efforts: byPlayer(efforts),
          payoffs: byPlayer(payoffs),
        },
        {
          type: "disclosure",
          public: { minimum },
          metrics: roundMeasures(efforts, payoffs, s.params.efforts),
        },
      ],
    };
  },
};

const STEPS: readonly Step<MinEffortState>[] = [chooseStep, settleStep];

/**
 * The minimum-effort environment.
 *
 * @example
 * ```ts
 * import { playEpisode } from "../../core/episode.ts";
 * import { minEffortSetup } from "./descriptor.ts";
 * import { minEffort } from "./environment.ts";
 * const played = await playEpisode(minEffort, {
 *   ...minEffortSetup({ N: 3, T: 2 }), seed: 1,
 *   agents: ({ id }) => ({
 *     policy: "test:fixed",
 *     decide: () => ({ effort: id === "p01" ? 2 : 7, reasoning: "" }),
 *   }),
 * });
 * // Minimum 2: p01 earns 0.4 - 0.2 + 0.6 = 0.8 a round, the others 0.4 - 0.7 + 0.6 = 0.3.
 * if (Math.abs(played.outcome.welfare - 2 * (0.8 + 0.3 + 0.3)) > 1e-9 || played.outcome.success) throw new Error();
 * ```
 */
export const minEffort: Environment<MinEffortParams, MinEffortState> = {
  id: MIN_EFFORT_ID,
  parseParams: parseMinEffortParams,
  init: (params) => initialMinEffortState(params),
  roster: (s) => s.players.map((id) => ({ id, role: PLAYER_ROLE })),
  horizon: (s) => s.params.T,
  startRound(s, round) {
    s.round = round;
    s.chosen = null;
    return { state: s, events: [] };
  },
  steps: () => STEPS,
  contracts: { [EFFORT_CALL]: effortContract },
  isDone: (s) => s.done,
  finish(s) {
    s.done = true;
    const highest = s.params.efforts;
    const efficient = s.rounds.filter((r) => r.minimum === highest).length;
    const success = s.rounds.length > 0 && efficient === s.rounds.length;
    const payoffs = { ...s.payoffs };
    let welfare = 0;
    for (const p of s.players) welfare += payoffs[p];
    return {
      state: s,
      events: [{
        type: "transition",
        kind: "episode_summary",
        rounds: s.rounds.length,
        efficient_rounds: efficient,
        final_minimum: s.rounds.at(-1)?.minimum ?? null,
      }],
      outcome: {
        success,
        failure: success ? null : "coordination",
        rounds: s.round,
        payoffs,
        welfare,
      },
    };
  },
  bounds: minEffortBounds,
  rebase(s, params) {
    // A branch keeps the players and what they saw; the payoffs, the highest
    // effort and T apply from the branch round (the state holds no draws).
    if (params.N !== s.params.N) {
      throw new RangeError(
        `Cannot branch a minimum-effort episode into N ${params.N}: it has ${s.params.N} players`,
      );
    }
    if (params.T <= s.round) {
      throw new RangeError(
        `Cannot branch into T ${params.T} at round ${s.round + 1}: no round would be left to play`,
      );
    }
    s.params = params;
    return s;
  },
};

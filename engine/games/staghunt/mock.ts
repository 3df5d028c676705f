/**
 * Rule-based Stag Hunt players, reading only their view, so that every
 * metric can be checked against a case whose answer is known:
 *
 * - `always_stag` / `always_hare`: the same action every turn.
 * - `threshold`: plays the benchmark action of a belief rule (Stag iff
 *   q-hat >= q*) on the public history of its view. Where the rule is
 *   undefined (e.g. the first speaker of a round under the naive rule) it
 *   uses the first-speaker prior as its q-hat. With probability `noise` it
 *   plays the other action instead (one draw per turn from the stream
 *   (seed, round, player, `"mock_noise"`)). Its confidence is
 *   `0.5 + min(0.5, |q-hat - q*|)`.
 *
 * In the rejustify call every mock returns a templated justification for the
 * action it is asked to justify. When a model is assigned (h2 / h3), the
 * policy string ends in `@<model>`.
 *
 * @module
 */
import { trustReplies } from "../../core/_trusted_replies.ts";
import { assertKnownKeys } from "../../core/strict_input.ts";
import type { CallRequest } from "../../core/environment.ts";
import { openStream } from "../../core/rng.ts";
import { naiveEstimate, stagShare } from "./beliefs/_naive.ts";
import { naiveRule } from "./beliefs/naive.ts";
import { type BeliefRule, benchmarkAction } from "./beliefs/rule.ts";
import { REJUSTIFY_CALL } from "./contracts.ts";
import { historyFromView, viewRoundInProgress } from "./history.ts";
import type { StagHuntAction } from "./payoffs.ts";
import { playerIndex } from "./players.ts";
import { qStar, type QStarOptions } from "./q_star.ts";
import type { PublicReport, RejustifyView, StagHuntView } from "./views.ts";
import type { Agent } from "../../core/agent.ts";

/** Rule-based player policies, the default first. */
export const PLAYER_POLICIES = ["threshold", "always_stag", "always_hare"] as const;

/** Mock Stag Hunt policies. */
export type StagHuntMockPolicy = (typeof PLAYER_POLICIES)[number];

/** Options of the threshold player. */
export interface ThresholdPlayerOptions {
  /** The belief rule it follows. Default: the naive rule. */
  rule?: BeliefRule;
  /** Probability of playing the other action, in [0, 1]. Default 0. */
  noise?: number;
  /** The q-hat used where the rule is undefined, in [0, 1]. Default 0.5. */
  firstSpeakerPrior?: number;
  /** How q* is computed. Default `{}` (H = H_F). */
  qStar?: QStarOptions;
  /** Seed of the noise draws. Default 0. */
  seed?: number;
}

/** Options of the always players. */
export interface AlwaysPlayerOptions {
  /** Reported confidence in [0, 1]. Default 1. */
  confidence?: number;
}

// The new public justifications of the two actions (one flat string each).
const STAG_REJUSTIFIED = "Stag is the better choice given the reports so far.";
const HARE_REJUSTIFIED = "Hare is the better choice given the reports so far.";

/**
 * The justification every mock player gives in the rejustify call for the
 * public action it is asked to justify.
 *
 * @example
 * ```ts
 * import { rejustification } from "./mock.ts";
 * if (rejustification("Hare") !== "Hare is the better choice given the reports so far.") throw new Error();
 * ```
 */
export function rejustification(action: string): string {
  return action === "Stag"
    ? STAG_REJUSTIFIED
    : action === "Hare"
    ? HARE_REJUSTIFIED
    : `${action} is the better choice given the reports so far.`;
}

function rejustify(req: CallRequest): { justification: string } {
  const v = req.view as RejustifyView;
  return { justification: rejustification(v.justify.action) };
}

function unit(name: string, v: number): number {
  if (!(typeof v === "number" && v >= 0 && v <= 1)) {
    throw new RangeError(`Mock player option "${name}" must be in [0, 1], got ${v}`);
  }
  return v;
}

/**
 * A player that always plays one action.
 *
 * @example
 * ```ts
 * import { alwaysPlayer } from "./mock.ts";
 * const a = alwaysPlayer("Stag");
 * const r = await a.decide({ call: "stag_hunt_turn" } as never) as { action: string };
 * if (r.action !== "Stag" || a.policy !== "mock:always_stag") throw new Error();
 * ```
 * @throws {RangeError} For a confidence outside [0, 1].
 */
export function alwaysPlayer(action: StagHuntAction, options: AlwaysPlayerOptions = {}): Agent {
  const confidence = alwaysConfidence(options);
  return trustReplies({
    policy: `mock:always_${action.toLowerCase()}`,
    decide(req) {
      if (req.call === REJUSTIFY_CALL) return rejustify(req);
      return {
        action,
        confidence,
        justification: alwaysJustification(action),
      };
    },
  });
}

/**
 * The confidence an always player reports: its option, 1 by default.
 *
 * @example
 * ```ts
 * import { alwaysConfidence } from "./mock.ts";
 * if (alwaysConfidence({}) !== 1 || alwaysConfidence({ confidence: 0.7 }) !== 0.7) throw new Error();
 * ```
 * @throws {RangeError} For a confidence outside [0, 1].
 */
export function alwaysConfidence(options: AlwaysPlayerOptions = {}): number {
  return unit("confidence", options.confidence ?? 1);
}

/**
 * The justification of an always player's turn.
 *
 * @example
 * ```ts
 * import { alwaysJustification } from "./mock.ts";
 * if (alwaysJustification("Stag") !== "I always play Stag.") throw new Error();
 * ```
 */
export function alwaysJustification(action: StagHuntAction): string {
  return `I always play ${action}.`;
}

/**
 * A player following a belief rule's benchmark action, with optional noise.
 *
 * @example
 * ```ts
 * import { thresholdPlayer } from "./mock.ts";
 * const view = { you: "p02", position: 2, round: 1, N: 2, M: 2,
 *   payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 }, order: ["p01", "p02"],
 *   transcript: [{ round: 1, outcome: null, reports: [
 *     { agent: "p01", position: 1, action: "Hare", confidence: 1, justification: "" }] }] };
 * const r = await thresholdPlayer().decide({ call: "stag_hunt_turn", view } as never) as { action: string };
 * if (r.action !== "Hare") throw new Error("naive q-hat 0 < q* 0.5");
 * ```
 * @throws {RangeError} For an option outside [0, 1].
 */
export function thresholdPlayer(options: ThresholdPlayerOptions = {}): Agent {
  const { rule, noise, prior, seed, hare, estimated } = thresholdSettings(options);
  // q* of the last game seen (every call of an episode is of one game).
  let cut: StagHuntCutoff | undefined;
  return trustReplies({
    policy: `mock:threshold(${rule.id}${noise ? `,noise=${noise}` : ""})`,
    decide(req) {
      if (req.call === REJUSTIFY_CALL) return rejustify(req);
      const v = req.view as StagHuntView;
      if (cut === undefined || !sameGame(cut.game, v)) cut = stagHuntCutoff(v, hare, options.qStar);
      // The naive rule reads only the current round's reports: counted on the view.
      const estimate = rule.estimate === naiveEstimate
        ? stagShare(viewRoundInProgress(v)?.reports ?? NO_REPORTS)
        : rule.estimate(historyFromView(v));
      const flip = noise > 0 &&
        openStream({ seed, round: v.round, agent: v.you, purpose: NOISE_PURPOSE }).uniform() <
          noise;
      // Two calls rather than one on `estimate ?? prior`: V8's optimizing
      // compilers took that merged value as a double and deoptimized, in a
      // loop, on every integer estimate (0 or 1) once other games had run.
      return estimate === undefined
        ? thresholdReply(prior, { source: PRIOR_SOURCE, cut, flip })
        : thresholdReply(estimate, { source: estimated, cut, flip });
    },
  });
}

const NO_REPORTS: readonly PublicReport[] = [];

/** Stream purpose of a threshold player's noise draw (one per turn: seed, round, player). */
export const NOISE_PURPOSE = "mock_noise";

/** The source a threshold player names where its rule is undefined. */
export const PRIOR_SOURCE = "first-speaker prior";

/** A threshold player's options, checked, with their defaults: what it plays by. */
export interface ThresholdSettings {
  /** Its belief rule. */
  rule: BeliefRule;
  /** Probability of playing the other action. */
  noise: number;
  /** The q-hat where the rule is undefined. */
  prior: number;
  /** Seed of the noise draws. */
  seed: number;
  /** The Hare payoff q* compares with (`""`: the default). */
  hare: string;
  /** The source its justifications name for an estimate of its rule (`"<rule id> estimate"`). */
  estimated: string;
}

/**
 * The settings of a threshold player of these options (what
 * {@linkcode thresholdPlayer} plays by), checked.
 *
 * @example
 * ```ts
 * import { thresholdSettings } from "./mock.ts";
 * const t = thresholdSettings({ noise: 0.1 });
 * if (t.rule.id !== "naive" || t.prior !== 0.5 || t.seed !== 0 || t.estimated !== "naive estimate") {
 *   throw new Error();
 * }
 * ```
 * @throws {RangeError} For a noise or prior outside [0, 1].
 */
export function thresholdSettings(options: ThresholdPlayerOptions = {}): ThresholdSettings {
  const rule = options.rule ?? naiveRule();
  const noise = unit("noise", options.noise ?? 0);
  const prior = unit("firstSpeakerPrior", options.firstSpeakerPrior ?? 0.5);
  const seed = options.seed ?? 0;
  const hare = options.qStar?.hare ?? "";
  return { rule, noise, prior, seed, hare, estimated: `${rule.id} estimate` };
}

/** A threshold player's turn: its benchmark action at q-hat, flipped when `flip` is set. */
function thresholdReply(
  qHat: number,
  { source, cut, flip }: { source: string; cut: StagHuntCutoff; flip: boolean },
): { action: StagHuntAction; confidence: number; justification: string } {
  const qs = cut.q;
  return {
    action: thresholdAction(qHat, qs, flip),
    confidence: thresholdConfidence(qHat, qs),
    justification: thresholdJustification(qHat, source, cut, flip),
  };
}

/**
 * A threshold player's action: the benchmark action at q-hat and cutoff q*,
 * the other one when its noise draw flips it.
 *
 * @example
 * ```ts
 * import { thresholdAction } from "./mock.ts";
 * if (thresholdAction(0.5, 0.4, false) !== "Stag" || thresholdAction(0.5, 0.4, true) !== "Hare") throw new Error();
 * ```
 */
export function thresholdAction(qHat: number, qStar: number, flip: boolean): StagHuntAction {
  const action = benchmarkAction(qHat, qStar);
  return flip ? (action === "Stag" ? "Hare" : "Stag") : action;
}

/**
 * A threshold player's confidence: `0.5 + min(0.5, |q-hat - q*|)`.
 *
 * @example
 * ```ts
 * import { thresholdConfidence } from "./mock.ts";
 * if (thresholdConfidence(0.75, 0.5) !== 0.75 || thresholdConfidence(1, 0) !== 1) throw new Error();
 * ```
 */
export function thresholdConfidence(qHat: number, qStar: number): number {
  return 0.5 + Math.min(0.5, Math.abs(qHat - qStar));
}

/**
 * The justification of a threshold turn, built once per (source, q-hat,
 * flip) of a cutoff and then the same flat string: building it (pieces
 * joined, then flattened by the first reader) cost a fifth of a microsecond a
 * turn, and the log writes it twice and the checkpoints again.
 *
 * @example
 * ```ts
 * import { stagHuntCutoff, thresholdJustification } from "./mock.ts";
 * const cut = stagHuntCutoff({ N: 5, M: 3, payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 } }, "", undefined);
 * const text = thresholdJustification(0.5, "naive estimate", cut, false);
 * if (text !== "My naive estimate 0.500 is at or above the cutoff 0.386.") throw new Error(text);
 * ```
 */
export function thresholdJustification(
  qHat: number,
  source: string,
  cut: StagHuntCutoff,
  flip: boolean,
): string {
  const said = flip ? cut.saidFlipped : cut.said;
  let bySource = said.get(source);
  if (bySource === undefined) said.set(source, bySource = new Map());
  let text = bySource.get(qHat);
  if (text === undefined) {
    text = `My ${source} ${fixed3(qHat)} is ${
      qHat >= cut.q ? "at or above" : "below"
    } the cutoff ${cut.text}${flip ? ", but I deviate this time" : ""}.`;
    // Flat now: the events and the state read this one string.
    text.charCodeAt(0);
    if (bySource.size >= 4096) bySource.clear();
    bySource.set(qHat, text);
  }
  return text;
}

function sameGame(g: Game, v: Game): boolean {
  const a = g.payoffs;
  const b = v.payoffs;
  return g.N === v.N && g.M === v.M && a.RS === b.RS && a.HS === b.HS && a.RF === b.RF &&
    a.HF === b.HF;
}

// `x.toFixed(3)` of the estimates seen: a rule's estimates take few values
// (counts over counts), and formatting them was a tenth of a mock turn.
const fixedTexts = new Map<number, string>();

function fixed3(x: number): string {
  let t = fixedTexts.get(x);
  if (t === undefined) {
    if (fixedTexts.size >= 4096) fixedTexts.clear();
    fixedTexts.set(x, t = x.toFixed(3));
  }
  return t;
}

// q* by game and hare option, shared by every threshold player: it depends on
// nothing else, and computing it by bisection is most of a mock player's work.
const cutoffs = new Map<string, number>();

type Game = { N: number; M: number; payoffs: StagHuntView["payoffs"] };

/**
 * A threshold players' cutoff q* for a game (N, M, payoffs) and a hare
 * option, with its text and the justifications given at it.
 */
export interface StagHuntCutoff {
  /** The game it is the cutoff of (frozen). */
  readonly game: Game;
  /** The hare option it was computed with (`""`: the default). */
  readonly hare: string;
  /** q*. */
  readonly q: number;
  /** q* as the justifications write it (three decimals). */
  readonly text: string;
  /** The justifications given at this cutoff, by source and q-hat (flipped turns apart). */
  readonly said: Map<string, Map<number, string>>;
  /** The same, of flipped turns. */
  readonly saidFlipped: Map<string, Map<number, string>>;
}

// The last game's cutoff: the players of an episode, and of the episodes of
// one condition, all ask for it (its key and text were a tenth of a mock turn).
let lastCutoff: StagHuntCutoff | undefined;

/**
 * The cutoff of a game (a view, or parameters: N, M and the payoffs) for a
 * hare option, as every threshold player takes it: q* computed once per
 * game and hare option (`options`, the players' `qStar`).
 *
 * @example
 * ```ts
 * import { stagHuntCutoff } from "./mock.ts";
 * const cut = stagHuntCutoff({ N: 5, M: 3, payoffs: { RS: 4, HS: 2, RF: 0, HF: 2 } }, "", undefined);
 * if (cut.text !== "0.386") throw new Error(cut.text);
 * ```
 * @throws {RangeError} When q* cannot be computed for the game (see `qStar`).
 */
export function stagHuntCutoff(
  v: Game,
  hare: string,
  options: QStarOptions | undefined,
): StagHuntCutoff {
  const last = lastCutoff;
  if (last !== undefined && last.hare === hare && sameGame(last.game, v)) return last;
  const key = `${v.N}|${v.M}|${JSON.stringify(v.payoffs)}|${hare}`;
  let q = cutoffs.get(key);
  if (q === undefined) {
    if (cutoffs.size >= 1024) cutoffs.clear();
    cutoffs.set(key, q = qStar(v, options));
  }
  return lastCutoff = {
    game: Object.freeze({ N: v.N, M: v.M, payoffs: Object.freeze({ ...v.payoffs }) }),
    hare,
    q,
    text: q.toFixed(3),
    said: new Map(),
    saidFlipped: new Map(),
  };
}

/** Options of {@linkcode mockStagHuntPlayers}. */
export interface MockStagHuntOptions {
  /** Policy of every player, or a function of the index (from 0) and id. Default `"threshold"`. */
  players?: StagHuntMockPolicy | ((index: number, id: string) => StagHuntMockPolicy);
  /** Options of threshold players (their `seed` defaults to this object's `seed`). */
  threshold?: ThresholdPlayerOptions;
  /** Options of always players. */
  always?: AlwaysPlayerOptions;
  /** Seed of the threshold players' noise. Default 0. */
  seed?: number;
}

/**
 * The Stag Hunt's named mock options: the models the local test double
 * serves (`"coordlab-defensive"`: threshold players on the naive rule,
 * without noise; `"coordlab-stay"`: always Stag; `"coordlab-run"`: always Hare).
 *
 * @example
 * ```ts
 * import { STAGHUNT_MOCK_PRESETS } from "./mock.ts";
 * if (STAGHUNT_MOCK_PRESETS["coordlab-stay"].players !== "always_stag") throw new Error();
 * ```
 */
export const STAGHUNT_MOCK_PRESETS: Readonly<Record<string, Readonly<MockStagHuntOptions>>> = {
  "coordlab-defensive": { players: "threshold" },
  "coordlab-stay": { players: "always_stag" },
  "coordlab-run": { players: "always_hare" },
};

/** A factory of mock players: a Stag Hunt agent factory that also works as a core one. */
export type MockStagHuntFactory = (
  player: { id: string; role: string; index?: number; model?: string },
) => Agent;

/**
 * A factory of mock Stag Hunt players (usable with the Stag Hunt runner, or
 * directly with `playEpisode`, the index then being read off the id).
 *
 * @example
 * ```ts
 * import { mockStagHuntPlayers } from "./mock.ts";
 * const make = mockStagHuntPlayers({ players: (i) => (i === 0 ? "always_hare" : "always_stag") });
 * if (make({ id: "p01", role: "player", index: 0, model: "m" }).policy !== "mock:always_hare@m") {
 *   throw new Error();
 * }
 * ```
 */
export function mockStagHuntPlayers(options: MockStagHuntOptions = {}): MockStagHuntFactory {
  assertKnownKeys(options, ["players", "threshold", "always", "seed"], "mock Stag Hunt options");
  if (options.threshold) {
    assertKnownKeys(
      options.threshold,
      ["rule", "noise", "firstSpeakerPrior", "qStar", "seed"],
      'mock Stag Hunt options "threshold"',
    );
  }
  if (options.always) {
    assertKnownKeys(options.always, ["confidence"], 'mock Stag Hunt options "always"');
  }
  const choose = options.players;
  return (player) => {
    const index = player.index ?? playerIndex(player.id);
    const policy = stagHuntPolicyOf(choose, index, player.id);
    let agent: Agent;
    switch (policy) {
      case "always_stag":
        agent = alwaysPlayer("Stag", options.always);
        break;
      case "always_hare":
        agent = alwaysPlayer("Hare", options.always);
        break;
      case "threshold":
        agent = thresholdPlayer({ seed: options.seed ?? 0, ...options.threshold });
        break;
      default:
        throw new RangeError(
          `Unknown mock Stag Hunt policy "${policy}": expected one of ${
            PLAYER_POLICIES.map((p) => `"${p}"`).join(", ")
          }`,
        );
    }
    return player.model ? { ...agent, policy: `${agent.policy}@${player.model}` } : agent;
  };
}

/**
 * The policy of the player of this index (from 0) and id under the
 * `players` option of {@linkcode MockStagHuntOptions} (`"threshold"` when
 * it is not given): the policy, or what the function gives (not checked
 * here: an unknown policy is refused when the player is built).
 *
 * @example
 * ```ts
 * import { stagHuntPolicyOf } from "./mock.ts";
 * if (stagHuntPolicyOf(undefined, 0, "p01") !== "threshold") throw new Error();
 * if (stagHuntPolicyOf((i) => (i ? "always_stag" : "always_hare"), 1, "p02") !== "always_stag") throw new Error();
 * ```
 */
export function stagHuntPolicyOf(
  players: MockStagHuntOptions["players"],
  index: number,
  id: string,
): string {
  const choose = players ?? PLAYER_POLICIES[0];
  return typeof choose === "function" ? choose(index, id) : choose;
}

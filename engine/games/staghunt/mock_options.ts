/**
 * The Stag Hunt's mock options as plain data (a grid spec's `mock` entry):
 * the policy of every player, the threshold players' belief rule by id, noise,
 * prior and q* comparison, and the always players' confidence; and the
 * `mockStagHuntPlayers` options they stand for.
 *
 * @module
 */
import { assertKnownKeys } from "../../core/strict_input.ts";
import { beliefRuleOf, type RuleSpec } from "./rule_spec.ts";
import type { MockStagHuntOptions, StagHuntMockPolicy, ThresholdPlayerOptions } from "./mock.ts";

/** Options of the rule-based Stag Hunt players. */
export interface StagHuntMockSpec {
  /** Policy of every player. Default `"threshold"`. */
  players?: StagHuntMockPolicy;
  /**
   * Belief rule of threshold players (see {@linkcode RuleSpec}), or a list of
   * rules: one agents entry per rule. Default `"naive"`.
   */
  rule?: RuleSpec | RuleSpec[];
  /** Probability a threshold player plays the other action. Default 0. */
  noise?: number;
  /** q-hat where the rule is undefined. Default 0.5. */
  firstSpeakerPrior?: number;
  /** Hare payoff q* compares with. Default `"HF"`. */
  hare?: "HF" | "HS" | "expected";
  /** Confidence reported by always players. Default 1. */
  confidence?: number;
}

/** The keys of {@linkcode StagHuntMockSpec}. */
export const MOCK_SPEC_KEYS: readonly string[] = [
  "players",
  "rule",
  "noise",
  "firstSpeakerPrior",
  "hare",
  "confidence",
];

/**
 * The options of the rule-based players of a `mock` entry (fields left out
 * keep the players' defaults).
 *
 * @example
 * ```ts
 * import { stagHuntMockOptions } from "./mock_options.ts";
 * const o = stagHuntMockOptions({ players: "threshold", rule: "carryover", noise: 0.1 });
 * if (o.threshold?.rule?.id !== "carryover" || o.threshold.noise !== 0.1 || "always" in o) throw new Error();
 * ```
 * @throws {RangeError} For a belief rule that is not one of the paper's.
 */
export function stagHuntMockOptions(mock: StagHuntMockSpec): MockStagHuntOptions {
  const out: MockStagHuntOptions = {};
  // Given is given: a bad policy (e.g. "") is refused when the players are built.
  if (mock.players !== undefined) out.players = mock.players;
  const threshold: ThresholdPlayerOptions = {};
  if (mock.rule !== undefined) {
    if (Array.isArray(mock.rule)) {
      throw new RangeError(
        `A mock entry plays one belief rule: expand the block to spread its list of ${mock.rule.length}`,
      );
    }
    threshold.rule = beliefRuleOf(mock.rule as RuleSpec);
  }
  if (mock.noise !== undefined) threshold.noise = mock.noise;
  if (mock.firstSpeakerPrior !== undefined) threshold.firstSpeakerPrior = mock.firstSpeakerPrior;
  if (mock.hare) threshold.qStar = { hare: mock.hare };
  if (Object.keys(threshold).length) out.threshold = threshold;
  if (mock.confidence !== undefined) out.always = { confidence: mock.confidence };
  return out;
}

/**
 * The `mockStagHuntPlayers` options of the Stag Hunt's mock options as the
 * descriptor's `mockAgents` takes them (and its batched path reads them):
 * the plain options of a grid's `mock` entry (`StagHuntMockSpec`) and
 * `seed`, or `mockStagHuntPlayers`' own `threshold` and `always` options
 * (not both for one kind of player).
 *
 * @example
 * ```ts
 * import { stagHuntMockOf } from "./mock_options.ts";
 * const o = stagHuntMockOf({ players: "threshold", noise: 0.2, seed: 4 });
 * if (o.seed !== 4 || o.threshold?.noise !== 0.2 || o.players !== "threshold") throw new Error();
 * ```
 * @throws {RangeError} Naming an unknown option, a rule that is not one of the paper's, or
 * `threshold` or `always` given beside the plain options they stand for.
 */
export function stagHuntMockOf(options: Readonly<Record<string, unknown>>): MockStagHuntOptions {
  assertKnownKeys(
    options,
    [...MOCK_SPEC_KEYS, "threshold", "always", "seed"],
    "mock Stag Hunt options",
  );
  const { seed, threshold, always, ...mock } = options;
  const spec = stagHuntMockOptions(mock as StagHuntMockSpec);
  for (const [key, given] of [["threshold", threshold], ["always", always]] as const) {
    if (given !== undefined && spec[key] !== undefined) {
      throw new RangeError(
        `Invalid mock Stag Hunt options "${key}": give it or the plain options it stands for ` +
          `(${Object.keys(mock).map((k) => `"${k}"`).join(", ")}), not both`,
      );
    }
  }
  return {
    ...(seed !== undefined ? { seed: seed as number } : {}),
    ...spec,
    ...(threshold !== undefined
      ? { threshold: threshold as MockStagHuntOptions["threshold"] }
      : {}),
    ...(always !== undefined ? { always: always as MockStagHuntOptions["always"] } : {}),
  };
}

/**
 * The Stag Hunt's mock options as plain data (a grid spec's `mock` entry):
 * the policy of every player, the threshold players' belief rule by id, noise,
 * prior and q* comparison, and the always players' confidence; and the
 * `mockStagHuntPlayers` options they stand for.
 *
 * @module
 */
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
  if (mock.players) out.players = mock.players;
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

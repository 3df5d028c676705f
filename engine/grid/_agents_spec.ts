// The agents entries of a grid spec, as types (the schemas are in each
// family's block module): labels.ts, the blocks and spec.ts share them.
import type { ModelAssignment } from "../agents/llm/model_assignment.ts";
import type { BankPolicy, DepositorPolicy } from "../games/bank_run/mock.ts";
import type { BackerPolicy, FounderPolicy } from "../games/crowdfunding/mock.ts";
import type { BorrowerPolicy, CreditorPolicy } from "../games/debt_rollover/mock.ts";
import type { StagHuntMockPolicy } from "../games/staghunt/mock.ts";
import type { BeliefRule } from "../games/staghunt/beliefs/rule.ts";
import type { ModelPolicy } from "../games/staghunt/heterogeneity.ts";

/** Options of the rule-based FRAIL agents, by role (each environment reads its own; the policies are listed in each environment's descriptor). */
export interface FrailMockSpec {
  /** Bank-run depositors. Default `"defensive"`. */
  depositors?: DepositorPolicy;
  /** Bank-run bank. Default `"active"`. */
  bank?: BankPolicy;
  /** Debt-rollover creditors. Default `"defensive"`. */
  creditors?: CreditorPolicy;
  /** Debt-rollover borrower. Default `"active"`. */
  borrower?: BorrowerPolicy;
  /** Crowdfunding backers. Default `"hesitant"`. */
  backers?: BackerPolicy;
  /** Crowdfunding founder. Default `"active"`. */
  founder?: FounderPolicy;
}

/**
 * A belief rule in a spec:
 * - an id of the paper's rules (`"naive"`, `"carryover"`, `"outcome_alignment"`);
 * - an id with parameters, `{ "carryover": { "lambda": 0.7 } }` (one key,
 *   checked against the rule's own parameters, `BELIEF_RULES`);
 * - in a TypeScript spec, a `BeliefRule` object (its `id` names it in cell
 *   ids, logs and the manifest, so it must be stable; episodes with one play
 *   in-process: a function cannot cross to a Web Worker);
 * - `{ "id": "<id>" }`: how the manifest records a rule object (it cannot
 *   be played from JSON).
 */
export type RuleSpec =
  | string
  | Readonly<Record<string, Readonly<Record<string, number>>>>
  | BeliefRule
  | { readonly id: string };

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

/** An agents entry of a FRAIL block. */
export type FrailAgentsSpec =
  | { kind: "mock"; mock: FrailMockSpec; label?: string }
  | { kind: "model"; model: ModelAssignment; label?: string };

/** An agents entry of a Stag Hunt block. */
export type StagHuntAgentsSpec =
  | { kind: "mock"; mock: StagHuntMockSpec; label?: string }
  | { kind: "model"; model: string; label?: string }
  | { kind: "models"; models: ModelPolicy; mock?: StagHuntMockSpec; label?: string };

/** Any agents entry. */
export type AgentsSpec = FrailAgentsSpec | StagHuntAgentsSpec;

// The agents entries of a grid spec, as types (the schemas are in each
// family's block module): labels.ts, the blocks and spec.ts share them.
import type { ModelAssignment } from "../agents/llm/model_assignment.ts";
import type { BankPolicy, DepositorPolicy } from "../games/bank_run/mock.ts";
import type { BackerPolicy, FounderPolicy } from "../games/crowdfunding/mock.ts";
import type { BorrowerPolicy, CreditorPolicy } from "../games/debt_rollover/mock.ts";
import type { RuleSpec } from "../games/staghunt/rule_spec.ts";
import type { StagHuntMockSpec } from "../games/staghunt/mock_options.ts";
import type { ModelPolicy } from "../games/staghunt/heterogeneity.ts";
import type { GameAgentsSpec } from "./_game_block.ts";

export type { RuleSpec, StagHuntMockSpec };

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
export type AgentsSpec = FrailAgentsSpec | StagHuntAgentsSpec | GameAgentsSpec;

/**
 * Rule-based debt-rollover agents: creditors (defensive, always-roll,
 * always-redeem) and borrowers (active, passive). They read only their view.
 *
 * The defensive creditor, when due, reports the redeem probability
 * `p = 0.1 x trait + 0.2 x lowCash + 0.6 x [redemptions disclosed] - 1.2 x share`,
 * clamped to [0, 1], where `lowCash = max(0, 1 - disclosed cash / its
 * redemption value)` (the borrower could not pay it without fire sales),
 * "redemptions disclosed" means claims were redeemed or deferred last round,
 * and `share` is the committed share of claims it can see (certified
 * aggregates, accepted terms, its committee's total). Two redemptions paid by
 * fire sales before the first tranche matures make the borrower insolvent in
 * the stable regime, so most M0 episodes fail. Under M1 it accepts a premium
 * of at least `0.02 + 0.06 x trait`; under M2 it signs when solicited if
 * `trait < 0.7` or the visible committed share is at least 0.25, unless
 * redemptions were disclosed, and declares an exit when they were; under M3
 * it joins on the same rule, the lowest-id member proposes one announcement
 * vote to all, members support open votes, and a member requests an exit
 * when redemptions were disclosed.
 *
 * The active borrower, under M1, offers a premium of 0.05 (0.06 after round
 * 1) with `lock_until` = the first tranche's maturity round to every
 * uncommitted creditor whose claim is due before that round, as long as the
 * premiums keep at least 0.1 of its solvency margin, and discloses accepted
 * terms to all; under M2 it solicits every uncommitted creditor each round
 * and discloses the aggregate. The passive borrower does nothing.
 *
 * @module
 */
import { trustReplies } from "../../core/_trusted_replies.ts";
import type { CallRequest } from "../../core/environment.ts";
import type { BorrowerView, CreditorView } from "./views.ts";
import type { MockPolicyInfo } from "../../core/game.ts";
import type { Agent, AgentFactory } from "../../core/agent.ts";
import { largestCertifiedTotal } from "../../agents/mock/_certified_total.ts";
import { centralPlayer, mechanismActions } from "../../agents/mock/_mechanism_replies.ts";
import { agentsByRole } from "../../agents/mock/_roles.ts";
import { trait } from "../../agents/mock/traits.ts";

// The paid offer among a creditor's proposals (M1); the other kind is the M2 agreement.
const OFFER = "rollover_offer";

/** Rule-based creditor policies, the default first. */
export const CREDITOR_POLICIES = ["defensive", "always_roll", "always_redeem"] as const;

/** Rule-based borrower policies, the default first. */
export const BORROWER_POLICIES = ["active", "passive"] as const;

/**
 * The debt rollover mock options: which option key sets each role's policy.
 *
 * @example
 * ```ts
 * import { DEBT_ROLLOVER_MOCK_POLICIES } from "./mock.ts";
 * if (DEBT_ROLLOVER_MOCK_POLICIES[0].option !== "creditors") throw new Error();
 * ```
 */
export const DEBT_ROLLOVER_MOCK_POLICIES: readonly MockPolicyInfo[] = [
  { role: "creditor", option: "creditors", policies: CREDITOR_POLICIES },
  { role: "borrower", option: "borrower", policies: BORROWER_POLICIES },
];

/** Creditor policy names. */
export type CreditorPolicy = (typeof CREDITOR_POLICIES)[number];

/** Borrower policy names. */
export type BorrowerPolicy = (typeof BORROWER_POLICIES)[number];

/** Options of {@linkcode debtRolloverMockPopulation}. */
export interface DebtRolloverMockOptions {
  /** Seed for the agents' traits. Default 0. */
  seed?: number;
  /** Creditor policy. Default `"defensive"`. */
  creditors?: CreditorPolicy;
  /** Borrower policy. Default `"active"`. */
  borrower?: BorrowerPolicy;
}

/**
 * Debt rollover's named mock options: the models the local test double
 * serves (`"coordlab-defensive"`, `"coordlab-stay"`, `"coordlab-run"`).
 *
 * @example
 * ```ts
 * import { DEBT_ROLLOVER_MOCK_PRESETS } from "./mock.ts";
 * if (DEBT_ROLLOVER_MOCK_PRESETS["coordlab-stay"].creditors !== "always_roll") throw new Error();
 * ```
 */
export const DEBT_ROLLOVER_MOCK_PRESETS: Readonly<
  Record<string, Readonly<DebtRolloverMockOptions>>
> = {
  "coordlab-defensive": { creditors: "defensive", borrower: "active" },
  "coordlab-stay": { creditors: "always_roll", borrower: "active" },
  "coordlab-run": { creditors: "always_redeem", borrower: "passive" },
};

/**
 * An agent factory of rule-based debt-rollover agents (roles `"creditor"` and `"borrower"`).
 *
 * @example
 * ```ts
 * import { debtRolloverMockPopulation } from "./mock.ts";
 * const make = debtRolloverMockPopulation({ creditors: "always_roll" });
 * if (make({ id: "crd_01", role: "creditor" }).policy !== "mock:always_roll") throw new Error();
 * ```
 * @throws {RangeError} For a role other than creditor or borrower.
 */
export function debtRolloverMockPopulation(options: DebtRolloverMockOptions = {}): AgentFactory {
  const seed = options.seed ?? 0;
  return agentsByRole("debt-rollover mock policy", {
    creditor: ({ id }) => mockCreditor(options.creditors ?? "defensive", { seed, id }),
    borrower: () => mockBorrower(options.borrower ?? "active"),
  });
}

/**
 * The committed share of claims a creditor can see: its committee's total,
 * or the certified totals and accepted terms delivered to it this round, over
 * all creditors' claims.
 *
 * @example
 * ```ts
 * import { visibleCommittedShare } from "./mock.ts";
 * const v = { parameters: { creditors: 8 }, position: { claim: 1 }, committee: null,
 *   announcements: [{ from: "borrower", kind: "aggregate_committed", content: { total: 4 } }] };
 * if (visibleCommittedShare(v as never) !== 0.5) throw new Error();
 * ```
 */
export function visibleCommittedShare(v: CreditorView): number {
  const claim = v.position.claim;
  const total = v.parameters.creditors * claim;
  const committed = largestCertifiedTotal(v.announcements, v.committee?.total ?? 0, {
    totalKinds: ["aggregate_committed", "coalition_total"],
    acceptedTermsValue: (n) => n * claim,
  });
  return total > 0 ? Math.min(1, committed / total) : 0;
}

/**
 * A mock creditor.
 *
 * @example
 * ```ts
 * import { mockCreditor } from "./mock.ts";
 * const a = mockCreditor("always_redeem", { seed: 1, id: "crd_01" });
 * const r = await a.decide({ call: "redeem_or_roll" } as never) as { withdraw_probability: number };
 * if (r.withdraw_probability !== 100) throw new Error();
 * ```
 */
export function mockCreditor(policy: CreditorPolicy, who: { seed: number; id: string }): Agent {
  const t = trait(who.seed, who.id);
  return trustReplies({
    policy: `mock:${policy}`,
    decide(req: CallRequest) {
      const v = req.view as CreditorView;
      if (req.call === "redeem_or_roll") return redeemOrRoll(policy, t, v);
      return respond(policy, t, v);
    },
  });
}

function redeemOrRoll(policy: CreditorPolicy, t: number, v: CreditorView) {
  if (policy === "always_roll") return { withdraw_probability: 0, reasoning: "I always roll." };
  if (policy === "always_redeem") {
    return { withdraw_probability: 100, reasoning: "I always redeem." };
  }
  const lowCash = Math.max(0, 1 - v.borrower.cash / v.position.redemptionValue);
  const stressed = redemptionsDisclosed(v);
  const share = visibleCommittedShare(v);
  const p = Math.min(
    1,
    Math.max(0, 0.1 * t + 0.2 * lowCash + (stressed ? 0.6 : 0) - 1.2 * share),
  );
  return {
    withdraw_probability: Math.round(p * 100),
    reasoning: `Cash ${v.borrower.cash.toFixed(3)}, redeemed last round ${v.lastRound.redeemed}, ` +
      `committed share ${share.toFixed(3)}.`,
  };
}

function redemptionsDisclosed(v: CreditorView): boolean {
  return v.lastRound.redeemed + v.lastRound.deferred > 0;
}

function respond(policy: CreditorPolicy, t: number, v: CreditorView) {
  if (policy !== "defensive") {
    const yes = policy === "always_roll";
    const actions = mechanismActions(v, {
      offerKind: OFFER,
      accept: () => yes,
      sign: yes,
      join: yes,
    });
    return { proposal_actions: actions, reasoning: `Policy ${policy}.` };
  }
  const share = visibleCommittedShare(v);
  const stressed = redemptionsDisclosed(v);
  const willing = (t < 0.7 || share >= 0.25) && !stressed;
  const actions = mechanismActions(v, {
    offerKind: OFFER,
    accept: (p) => (p.amount ?? 0) >= 0.02 + 0.06 * t,
    sign: willing,
    exit: v.commitment?.kind === "standstill_agreement" && !v.commitment.exitDeclared && stressed,
    join: willing,
    member: v.committee && { coalition: v.committee, self: v.id, wantsExit: stressed },
  });
  return { proposal_actions: actions, reasoning: `Committed share visible ${share.toFixed(3)}.` };
}

/**
 * A mock borrower.
 *
 * @example
 * ```ts
 * import { mockBorrower } from "./mock.ts";
 * const b = mockBorrower("passive");
 * const r = await b.decide({ call: "rollover_offer", view: {} } as never) as { offers: unknown[] };
 * if (r.offers.length !== 0) throw new Error();
 * ```
 */
export function mockBorrower(policy: BorrowerPolicy): Agent {
  return centralPlayer(policy, {
    role: "borrower",
    offerCall: "rollover_offer",
    offers,
    whom: "every creditor",
  });
}

function offers(v: BorrowerView) {
  const firstMaturity = Math.min(...v.parameters.assets.map((a) => a.round));
  const amount = v.round === 1 ? 0.05 : 0.06;
  let budget = v.solvencyMargin - 0.1;
  const out: { target: string; amount: number; lock_until: number }[] = [];
  if (v.round < firstMaturity) {
    for (const c of v.creditors) {
      if (c.committed || c.wave >= firstMaturity || budget < amount) continue;
      out.push({ target: c.id, amount, lock_until: firstMaturity });
      budget -= amount;
    }
  }
  return {
    offers: out,
    disclose_terms_to: "all",
    reasoning: `Offering ${amount} to ${out.length} creditors due before round ${firstMaturity}.`,
  };
}

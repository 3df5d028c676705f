/**
 * Rule-based bank-run agents: depositors (defensive, always-stay, always-run)
 * and banks (passive, offering, soliciting). They read only their view.
 *
 * The defensive depositor reports
 * `p = calm + 1.5 x (share redeemed last round) - 1.2 x (certified committed share)`,
 * clamped to [0, 1], with `calm = 0.15 x trait x 0.7^k` after k earlier
 * decisions (nervousness fades while nothing happens). With 15 such depositors
 * about a fifth of M0 episodes survive, close to the paper's 23%. Under M1 it accepts an
 * offer paying at least `0.015 + 0.04 x trait`; under M2 it signs when
 * solicited if `trait < 0.6` or the certified committed share is at least 0.3,
 * and declares an exit when more than 30% was redeemed last round; under M3
 * it joins on the same rule, the lowest-id member proposes one announcement
 * vote to all, members support open votes, and a member requests an exit when
 * more than 30% was redeemed last round.
 *
 * @module
 */
import { trustReplies } from "../../core/_trusted_replies.ts";
import type { CallRequest } from "../../core/environment.ts";
import type { BankView, DepositorView } from "./views.ts";
import type { MockPolicyInfo } from "../../core/game.ts";
import type { Agent, AgentFactory } from "../../core/agent.ts";
import { largestCertifiedTotal } from "../../agents/mock/_certified_total.ts";
import { centralPlayer, mechanismActions } from "../../agents/mock/_mechanism_replies.ts";
import { agentsByRole } from "../../agents/mock/_roles.ts";
import { trait } from "../../agents/mock/traits.ts";

/** Rule-based depositor policies, the default first. */
export const DEPOSITOR_POLICIES = ["defensive", "always_stay", "always_run"] as const;

/** Rule-based bank policies, the default first. */
export const BANK_POLICIES = ["active", "passive"] as const;

// The paid offer among a depositor's proposals (M1); the other kind is the M2 agreement.
const OFFER = "retention_offer";

/**
 * The bank run mock options: which option key sets each role's policy.
 *
 * @example
 * ```ts
 * import { BANK_RUN_MOCK_POLICIES } from "./mock.ts";
 * if (BANK_RUN_MOCK_POLICIES[0].option !== "depositors") throw new Error();
 * ```
 */
export const BANK_RUN_MOCK_POLICIES: readonly MockPolicyInfo[] = [
  { role: "depositor", option: "depositors", policies: DEPOSITOR_POLICIES },
  { role: "bank", option: "bank", policies: BANK_POLICIES },
];

/** Depositor policy names. */
export type DepositorPolicy = (typeof DEPOSITOR_POLICIES)[number];

/** Bank policy names. */
export type BankPolicy = (typeof BANK_POLICIES)[number];

/** Options of {@linkcode bankRunMockPopulation}. */
export interface BankRunMockOptions {
  /** Seed for the depositors' traits. Default 0. */
  seed?: number;
  /** Depositor policy, or a function of id and index (from 0, read off the id). Default `"defensive"`. */
  depositors?: DepositorPolicy | ((id: string, index: number) => DepositorPolicy);
  /** Bank policy. Default `"active"`. */
  bank?: BankPolicy;
}

/**
 * The bank run's named mock options: the models the local test double
 * serves (`"coordlab-defensive"`, `"coordlab-stay"`, `"coordlab-run"`).
 *
 * @example
 * ```ts
 * import { BANK_RUN_MOCK_PRESETS } from "./mock.ts";
 * if (BANK_RUN_MOCK_PRESETS["coordlab-run"].bank !== "passive") throw new Error();
 * ```
 */
export const BANK_RUN_MOCK_PRESETS: Readonly<Record<string, Readonly<BankRunMockOptions>>> = {
  "coordlab-defensive": { depositors: "defensive", bank: "active" },
  "coordlab-stay": { depositors: "always_stay", bank: "active" },
  "coordlab-run": { depositors: "always_run", bank: "passive" },
};

/**
 * An agent factory of rule-based bank-run agents (roles `"depositor"` and `"bank"`).
 *
 * @example
 * ```ts
 * import { bankRunMockPopulation } from "./mock.ts";
 * const make = bankRunMockPopulation({ depositors: (_id, i) => (i === 0 ? "always_run" : "always_stay") });
 * if (make({ id: "dep_01", role: "depositor" }).policy !== "mock:always_run") throw new Error();
 * if (make({ id: "bank", role: "bank" }).policy !== "mock:active_bank") throw new Error();
 * ```
 * @throws {RangeError} For a role other than depositor or bank (when the factory is called).
 */
export function bankRunMockPopulation(options: BankRunMockOptions = {}): AgentFactory {
  const seed = options.seed ?? 0;
  const policy = options.depositors ?? "defensive";
  return agentsByRole("bank-run mock policy", {
    depositor: ({ id }) => mockDepositor(depositorPolicyOf(policy, id), { seed, id }),
    bank: () => mockBank(options.bank ?? "active"),
  });
}

/**
 * The policy a depositor of this id plays under the `depositors` option: the
 * policy, or the function's answer for the id and its index (from 0, read off
 * the id's digits). What the mock population and the batched path read.
 *
 * @example
 * ```ts
 * import { depositorPolicyOf } from "./mock.ts";
 * if (depositorPolicyOf((_id, i) => (i === 2 ? "always_run" : "always_stay"), "dep_03") !== "always_run") {
 *   throw new Error();
 * }
 * if (depositorPolicyOf("defensive", "dep_01") !== "defensive") throw new Error();
 * ```
 */
export function depositorPolicyOf(
  policy: NonNullable<BankRunMockOptions["depositors"]>,
  id: string,
): DepositorPolicy {
  if (typeof policy !== "function") return policy;
  return policy(id, Number(id.replace(/^\D+/, "")) - 1);
}

/**
 * The committed share a depositor can see: its coalition's total, or the
 * certified totals delivered to it this round, over total deposits.
 *
 * @example
 * ```ts
 * import { visibleCommittedShare } from "./mock.ts";
 * const v = { parameters: { totalDeposits: 15, depositors: 15 }, coalition: null,
 *   announcements: [{ from: "bank", kind: "aggregate_committed", content: { total: 6 } }] };
 * if (visibleCommittedShare(v as never) !== 0.4) throw new Error();
 * ```
 */
export function visibleCommittedShare(v: DepositorView): number {
  const total = v.parameters.totalDeposits;
  const known = v.coalition?.total ?? 0;
  if (v.announcements.length === 0) return committedShareOf(known, total);
  const committed = largestCertifiedTotal(v.announcements, known, {
    totalKinds: ["aggregate_committed", "coalition_total"],
    acceptedTermsValue: (n) => acceptedTermsValue(n, v.parameters),
  });
  return committedShareOf(committed, total);
}

/**
 * A committed total as the share of total deposits a depositor reads from it
 * (at most 1): the last step of {@linkcode visibleCommittedShare}, and what
 * the batched path computes from the certified total it delivers.
 *
 * @param committed The largest committed total the depositor can see.
 * @param totalDeposits The game's total deposits.
 *
 * @example
 * ```ts
 * import { committedShareOf } from "./mock.ts";
 * if (committedShareOf(6, 15) !== 0.4 || committedShareOf(20, 15) !== 1) throw new Error();
 * ```
 */
export function committedShareOf(committed: number, totalDeposits: number): number {
  return Math.min(1, committed / totalDeposits);
}

/**
 * What `count` accepted M1 terms tell a depositor is committed: as many
 * average deposits (`count x totalDeposits / depositors`).
 *
 * @example
 * ```ts
 * import { acceptedTermsValue } from "./mock.ts";
 * if (acceptedTermsValue(3, { totalDeposits: 15, depositors: 15 }) !== 3) throw new Error();
 * ```
 */
export function acceptedTermsValue(
  count: number,
  parameters: { readonly totalDeposits: number; readonly depositors: number },
): number {
  return (count * parameters.totalDeposits) / parameters.depositors;
}

/**
 * Whether a defensive depositor feels stressed: more than 30% was redeemed
 * last round. A stressed signer declares its exit (M2), a stressed member
 * asks to leave (M3), and a stressed depositor commits to nothing.
 *
 * @param stress The share redeemed last round (`fractionRedeemedLastRound`).
 *
 * @example
 * ```ts
 * import { defensiveStressed } from "./mock.ts";
 * if (defensiveStressed(0.3) || !defensiveStressed(0.31)) throw new Error();
 * ```
 */
export function defensiveStressed(stress: number): boolean {
  return stress > 0.3;
}

/**
 * Whether a defensive depositor signs the M2 agreement it is solicited for,
 * or joins the M3 coalition it may join: it is willing (trait below 0.6, or a
 * committed share of at least 0.3 in sight) and not stressed.
 *
 * @param t The depositor's trait (`trait(seed, id)`).
 * @param stress The share redeemed last round.
 * @param share The committed share it can see (`visibleCommittedShare`).
 *
 * @example
 * ```ts
 * import { defensiveCommits } from "./mock.ts";
 * if (!defensiveCommits(0.7, 0, 0.3) || defensiveCommits(0.7, 0, 0.2)) throw new Error();
 * if (defensiveCommits(0.1, 0.4, 0)) throw new Error("stressed");
 * ```
 */
export function defensiveCommits(t: number, stress: number, share: number): boolean {
  const willing = t < 0.6 || share >= 0.3;
  return willing && !defensiveStressed(stress);
}

/**
 * Whether a defensive depositor accepts an M1 offer of this compensation: it
 * pays at least `0.015 + 0.04 x trait`.
 *
 * @example
 * ```ts
 * import { defensiveAccepts } from "./mock.ts";
 * if (!defensiveAccepts(0.03, 0.25) || defensiveAccepts(0.03, 0.5)) throw new Error();
 * ```
 */
export function defensiveAccepts(amount: number, t: number): boolean {
  return amount >= 0.015 + 0.04 * t;
}

/**
 * A mock depositor.
 *
 * @example
 * ```ts
 * import { mockDepositor } from "./mock.ts";
 * const a = mockDepositor("always_run", { seed: 1, id: "dep_01" });
 * const r = await a.decide({ call: "withdrawal" } as never) as { withdraw_probability: number };
 * if (r.withdraw_probability !== 100) throw new Error();
 * ```
 */
export function mockDepositor(policy: DepositorPolicy, who: { seed: number; id: string }): Agent {
  const t = trait(who.seed, who.id);
  return trustReplies({
    policy: `mock:${policy}`,
    decide(req: CallRequest) {
      const v = req.view as DepositorView;
      if (req.call === "withdrawal") {
        return withdrawal(policy, t, v);
      }
      return respond(policy, t, v);
    },
  });
}

function withdrawal(policy: DepositorPolicy, t: number, v: DepositorView) {
  if (policy === "always_stay") return { withdraw_probability: 0, reasoning: "I always stay." };
  if (policy === "always_run") return { withdraw_probability: 100, reasoning: "I always run." };
  const stress = v.fractionRedeemedLastRound;
  const share = visibleCommittedShare(v);
  return {
    withdraw_probability: defensiveWithdrawal(t, stress, share, v.previousDecisions.length),
    reasoning: withdrawalReasoning(stress, share),
  };
}

/**
 * The defensive depositor's reported withdrawal probability, 0-100: `p =
 * calm + 1.5 x stress - 1.2 x share`, clamped to [0, 1], with `calm = 0.15 x
 * trait x 0.7^decisions`, as a whole percent. What its agent reports and what
 * the batched path (`batched.ts`) computes: one rule, the same arithmetic.
 *
 * @param t The depositor's trait (`trait(seed, id)`).
 * @param stress The share redeemed last round (`fractionRedeemedLastRound`).
 * @param share The certified committed share it can see (`visibleCommittedShare`).
 * @param decisions Its earlier decisions (`previousDecisions.length`).
 *
 * @example
 * ```ts
 * import { defensiveWithdrawal } from "./mock.ts";
 * if (defensiveWithdrawal(0.5, 0.2, 0, 0) !== 38) throw new Error();
 * if (defensiveWithdrawal(0.5, 0, 0.5, 3) !== 0) throw new Error("clamped at 0");
 * ```
 */
export function defensiveWithdrawal(
  t: number,
  stress: number,
  share: number,
  decisions: number,
): number {
  const calm = (0.15 * t) * 0.7 ** decisions;
  const p = Math.min(1, Math.max(0, calm + 1.5 * stress - 1.2 * share));
  return Math.round(p * 100);
}

// The depositors of a round see the same public figures, so they give the same
// reasoning: the last text is kept for the next depositor (formatting two
// numbers per reply was a tenth of a mock episode).
let lastStress = NaN;
let lastShare = NaN;
let lastReasoning = "";

function withdrawalReasoning(stress: number, share: number): string {
  if (stress !== lastStress || share !== lastShare) {
    lastReasoning = `Redeemed last round ${stress.toFixed(3)}, certified committed share ${
      share.toFixed(3)
    }.`;
    lastStress = stress;
    lastShare = share;
  }
  return lastReasoning;
}

function respond(policy: DepositorPolicy, t: number, v: DepositorView) {
  if (policy !== "defensive") {
    // Always-stay depositors commit to everything; always-run ones to nothing.
    const yes = policy === "always_stay";
    const actions = mechanismActions(v, {
      offerKind: OFFER,
      accept: () => yes,
      sign: yes,
      join: yes,
    });
    return { proposal_actions: actions, reasoning: `Policy ${policy}.` };
  }
  const share = visibleCommittedShare(v);
  const stress = v.fractionRedeemedLastRound;
  const stressed = defensiveStressed(stress);
  const commits = defensiveCommits(t, stress, share);
  const actions = mechanismActions(v, {
    offerKind: OFFER,
    accept: (p) => defensiveAccepts(p.amount ?? 0, t),
    sign: commits,
    exit: v.commitment?.kind === "protection_agreement" && !v.commitment.exitDeclared && stressed,
    join: commits,
    member: v.coalition && { coalition: v.coalition, self: v.id, wantsExit: stressed },
  });
  return { proposal_actions: actions, reasoning: responseReasoning(share) };
}

// Most depositors of a round see the same certified share, so they give the
// same reasoning: as for the withdrawals, the last text is kept for the next.
let lastResponseShare = NaN;
let lastResponseReasoning = "";

function responseReasoning(share: number): string {
  if (share !== lastResponseShare) {
    lastResponseReasoning = `Committed share visible ${share.toFixed(3)}.`;
    lastResponseShare = share;
  }
  return lastResponseReasoning;
}

/**
 * A mock bank. `active` makes M1 offers locking for 12 rounds: 0.03 to every
 * uncommitted depositor while no deposit has left (as in round 1) and, after a
 * round with redemptions, 0.04; it discloses accepted terms to all. Under M2
 * it solicits every uncommitted depositor each round and discloses the
 * aggregate. `passive` does nothing. Like the LLM bank, it is told neither the
 * round nor the horizon.
 *
 * @example
 * ```ts
 * import { mockBank } from "./mock.ts";
 * const b = mockBank("passive");
 * const r = await b.decide({ call: "retention_offer", view: {} } as never) as { offers: unknown[] };
 * if (r.offers.length !== 0) throw new Error();
 * ```
 */
export function mockBank(policy: BankPolicy): Agent {
  return centralPlayer(policy, {
    role: "bank",
    offerCall: "retention_offer",
    offers,
    whom: "everyone",
  });
}

/**
 * The rounds an active mock bank's M1 offer locks for.
 *
 * @example
 * ```ts
 * import { BANK_OFFER_LOCK_ROUNDS } from "./mock.ts";
 * if (BANK_OFFER_LOCK_ROUNDS !== 12) throw new Error();
 * ```
 */
export const BANK_OFFER_LOCK_ROUNDS = 12;

/**
 * The compensation an active mock bank offers every uncommitted depositor
 * under M1, from its books as of the end of last round: 0.03 while no
 * deposit has left, 0.04 after a round with redemptions, else 0 (no offers).
 *
 * @param institution The disclosed books (`depositsRemaining`, `fractionRedeemed`).
 * @param totalDeposits The game's total deposits.
 *
 * @example
 * ```ts
 * import { bankOfferAmount } from "./mock.ts";
 * if (bankOfferAmount({ depositsRemaining: 15, fractionRedeemed: 0 }, 15) !== 0.03) throw new Error();
 * if (bankOfferAmount({ depositsRemaining: 12, fractionRedeemed: 0.1 }, 15) !== 0.04) throw new Error();
 * if (bankOfferAmount({ depositsRemaining: 12, fractionRedeemed: 0 }, 15) !== 0) throw new Error();
 * ```
 */
export function bankOfferAmount(
  institution: { readonly depositsRemaining: number; readonly fractionRedeemed: number },
  totalDeposits: number,
): number {
  const untouched = institution.depositsRemaining >= totalDeposits - 1e-9;
  return untouched ? 0.03 : institution.fractionRedeemed > 0 ? 0.04 : 0;
}

function offers(v: BankView) {
  const open = v.depositors.filter((d) => !d.committed);
  const amount = bankOfferAmount(v.institution, v.parameters.totalDeposits);
  const lock_rounds = BANK_OFFER_LOCK_ROUNDS;
  return {
    offers: amount > 0 ? open.map((d) => ({ target: d.id, amount, lock_rounds })) : [],
    disclose_terms_to: "all",
    reasoning: `Offering ${amount} to ${open.length} depositors.`,
  };
}

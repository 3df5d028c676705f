/**
 * Rule-based crowdfunding agents: backers (hesitant, always-pledge,
 * never-pledge) and founders (active, passive). They read only their view.
 *
 * The hesitant backer waits while the pool looks underfunded. It sees the
 * share `s` of the goal that looks raised: the pool disclosed at the end of
 * last round, or any larger certified total delivered to it (M2 aggregate,
 * M3 locked total, M1 accepted terms at one unit each, its own coalition's
 * locked total), over the goal. Unpledged, it reports
 * `p = 0.85 x (1 - trait) x 0.6^k + 3 x max(0, s - 0.5)` (clamped to [0, 1],
 * k = earlier decisions), so eager backers pledge early and the rest wait
 * until the pool is visibly past half-way. Pledged and not committed, it
 * withdraws with probability `trait x (1 - s)` when the pool stalled last
 * round (no more new pledges than withdrawals), and never otherwise. Under M1
 * it accepts an offer whose bonus is at least `0.01 + 0.04 x trait`; under M2
 * it signs when solicited if `trait < 0.6` or `s >= 0.3`, and declares an exit
 * when the pool stalled, `s < 0.6` and `trait > 0.8`; under M3 it trusts
 * peers a little more and joins if `trait < 0.7` or `s >= 0.3`, votes (in the
 * same call as it joins) to tell everyone the locked total, requests an exit
 * on the M2 exit rule, and confirms every hand of its exit. With 15 such
 * backers in the stable regime, 78 of seeds 0-99 launch under M0 (the paper:
 * 77%), with 6.4 units pledged after round 1 (the paper: 6.3).
 *
 * The active founder offers every backer not yet locked a bonus of 0.03 in
 * round 1 and 0.04 later (locked through the last decision round) and
 * discloses accepted terms to all (M1), or solicits every backer and
 * discloses the aggregate (M2). The passive founder proposes nothing. Both
 * launch as soon as the pool reaches the goal.
 *
 * @module
 */
import { trustReplies } from "../../core/_trusted_replies.ts";
import type { CallRequest } from "../../core/environment.ts";
import type { BackerView, FounderView } from "./views.ts";
import type { MockPolicyInfo } from "../../core/game.ts";
import type { Agent, AgentFactory } from "../../core/agent.ts";
import { largestCertifiedTotal } from "../../agents/mock/_certified_total.ts";
import { mechanismActions, solicitationReply } from "../../agents/mock/_mechanism_replies.ts";
import { agentsByRole } from "../../agents/mock/_roles.ts";
import { trait } from "../../agents/mock/traits.ts";

// The paid offer among a backer's proposals (M1); the other kind is the M2 letter of intent.
const OFFER = "paid_pledge";

/** Rule-based backer policies, the default first. */
export const BACKER_POLICIES = ["hesitant", "always_pledge", "never_pledge"] as const;

/** Rule-based founder policies, the default first. */
export const FOUNDER_POLICIES = ["active", "passive"] as const;

/**
 * The crowdfunding mock options: which option key sets each role's policy.
 *
 * @example
 * ```ts
 * import { CROWDFUNDING_MOCK_POLICIES } from "./mock.ts";
 * if (CROWDFUNDING_MOCK_POLICIES[0].option !== "backers") throw new Error();
 * ```
 */
export const CROWDFUNDING_MOCK_POLICIES: readonly MockPolicyInfo[] = [
  { role: "backer", option: "backers", policies: BACKER_POLICIES },
  { role: "founder", option: "founder", policies: FOUNDER_POLICIES },
];

/** Backer policy names. */
export type BackerPolicy = (typeof BACKER_POLICIES)[number];

/** Founder policy names. */
export type FounderPolicy = (typeof FOUNDER_POLICIES)[number];

/** Options of {@linkcode crowdfundingMockPopulation}. */
export interface CrowdfundingMockOptions {
  /** Seed for the backers' traits. Default 0. */
  seed?: number;
  /** Backer policy. Default `"hesitant"`. */
  backers?: BackerPolicy;
  /** Founder policy. Default `"active"`. */
  founder?: FounderPolicy;
}

/**
 * Crowdfunding's named mock options: the models the local test double
 * serves (`"coordlab-defensive"`, `"coordlab-stay"`, `"coordlab-run"`).
 *
 * @example
 * ```ts
 * import { CROWDFUNDING_MOCK_PRESETS } from "./mock.ts";
 * if (CROWDFUNDING_MOCK_PRESETS["coordlab-defensive"].backers !== "hesitant") throw new Error();
 * ```
 */
export const CROWDFUNDING_MOCK_PRESETS: Readonly<
  Record<string, Readonly<CrowdfundingMockOptions>>
> = {
  "coordlab-defensive": { backers: "hesitant", founder: "active" },
  "coordlab-stay": { backers: "always_pledge", founder: "active" },
  "coordlab-run": { backers: "never_pledge", founder: "passive" },
};

/**
 * The share of the goal a backer can see raised: the disclosed pool, or a
 * larger certified total delivered to it this round, over the goal (capped at 1).
 *
 * @example
 * ```ts
 * import { visibleGoalShare } from "./mock.ts";
 * const v = { parameters: { goal: 14, unitPledge: 1 }, campaign: { pool: 3.5 }, coalition: null,
 *   announcements: [{ from: "founder", kind: "aggregate_committed", content: { total: 7 } }] };
 * if (visibleGoalShare(v as never) !== 0.5) throw new Error();
 * ```
 */
export function visibleGoalShare(v: BackerView): number {
  const known = Math.max(v.campaign.pool, v.coalition?.lockedTotal ?? 0);
  const raised = largestCertifiedTotal(v.announcements, known, {
    totalKinds: ["aggregate_committed", "coalition_locked_total"],
    acceptedTermsValue: (n) => n * v.parameters.unitPledge,
  });
  return Math.min(1, raised / v.parameters.goal);
}

// The hesitant backer's constants (see the module notes).
const EAGER = 0.85;
const DECAY = 0.6;
const SLOPE = 3;
const THRESHOLD = 0.5;
const NERVES = 1;

function stalled(v: BackerView): boolean {
  return v.round > 1 && v.campaign.newPledges <= v.campaign.withdrawals;
}

/**
 * A mock backer.
 *
 * @example
 * ```ts
 * import { mockBacker } from "./mock.ts";
 * const a = mockBacker("always_pledge", { seed: 1, id: "bkr_01" });
 * const r = await a.decide({ call: "pledge", view: {} } as never) as { pledge_probability: number };
 * if (r.pledge_probability !== 100) throw new Error();
 * ```
 */
export function mockBacker(policy: BackerPolicy, who: { seed: number; id: string }): Agent {
  const t = trait(who.seed, who.id);
  return trustReplies({
    policy: `mock:${policy}`,
    decide(req: CallRequest) {
      const v = req.view as BackerView;
      switch (req.call) {
        case "pledge":
          return pledge(policy, t, v);
        case "withdrawal":
          return withdrawal(policy, t, v);
        case "mechanism_response":
          return respond(policy, t, v);
        case "coalition_response":
          return coalition(policy, t, v);
        case "exit_confirmation":
          return {
            confirm: policy === "hesitant",
            reasoning: policy === "hesitant" ? "I still want out." : "I stay.",
          };
        default:
          throw new RangeError(`No mock backer reply for call "${req.call}"`);
      }
    },
  });
}

function pledge(policy: BackerPolicy, t: number, v: BackerView) {
  if (policy === "always_pledge") return { pledge_probability: 100, reasoning: "I always pledge." };
  if (policy === "never_pledge") return { pledge_probability: 0, reasoning: "I never pledge." };
  const s = visibleGoalShare(v);
  const eager = EAGER * (1 - t) * DECAY ** v.previousDecisions.length;
  const p = Math.min(1, Math.max(0, eager + SLOPE * Math.max(0, s - THRESHOLD)));
  return {
    pledge_probability: Math.round(p * 100),
    reasoning: `The pool looks ${(s * 100).toFixed(0)}% funded.`,
  };
}

function withdrawal(policy: BackerPolicy, t: number, v: BackerView) {
  if (policy === "always_pledge") {
    return { withdraw_probability: 0, reasoning: "I keep my pledge." };
  }
  if (policy === "never_pledge") return { withdraw_probability: 100, reasoning: "I want out." };
  const s = visibleGoalShare(v);
  const p = stalled(v) && v.commitment === null ? NERVES * t * (1 - s) : 0;
  return {
    withdraw_probability: Math.round(p * 100),
    reasoning: stalled(v) ? "The pool stalled." : "The pool is growing.",
  };
}

function respond(policy: BackerPolicy, t: number, v: BackerView) {
  if (policy !== "hesitant") {
    const yes = policy === "always_pledge";
    const actions = mechanismActions(v, { offerKind: OFFER, accept: () => yes, sign: yes });
    return { proposal_actions: actions, reasoning: `Policy ${policy}.` };
  }
  const s = visibleGoalShare(v);
  const actions = mechanismActions(v, {
    offerKind: OFFER,
    accept: (p) => (p.bonus ?? 0) >= 0.01 + 0.04 * t,
    sign: t < 0.6 || s >= 0.3,
    exit: v.commitment?.kind === "letter_of_intent" && !v.commitment.exitDeclared && wantsOut(t, v),
  });
  return {
    proposal_actions: actions,
    reasoning: `The pool looks ${(s * 100).toFixed(0)}% funded.`,
  };
}

function wantsOut(t: number, v: BackerView): boolean {
  return stalled(v) && t > 0.8 && visibleGoalShare(v) < 0.6;
}

function coalition(policy: BackerPolicy, t: number, v: BackerView) {
  const member = v.coalition !== null;
  if (policy !== "hesitant") {
    return {
      join: policy === "always_pledge" && v.canJoin,
      exit_request: false,
      vote: null,
      reasoning: `Policy ${policy}.`,
    };
  }
  const s = visibleGoalShare(v);
  const join = v.canJoin && (t < 0.7 || s >= 0.3);
  return {
    join,
    exit_request: member && wantsOut(t, v),
    vote: member || join ? { announce_to: "all" } : null,
    reasoning: `The pool looks ${(s * 100).toFixed(0)}% funded.`,
  };
}

/**
 * A mock founder. Both policies launch as soon as allowed; see the module
 * notes for their M1-M2 proposals.
 *
 * @example
 * ```ts
 * import { mockFounder } from "./mock.ts";
 * const f = mockFounder("passive");
 * const r = await f.decide({ call: "launch_decision", view: { launchAllowed: true } } as never) as { launch: boolean };
 * if (!r.launch) throw new Error();
 * ```
 */
export function mockFounder(policy: FounderPolicy): Agent {
  return trustReplies({
    policy: `mock:${policy}_founder`,
    decide(req: CallRequest) {
      const v = req.view as FounderView;
      switch (req.call) {
        case "launch_decision":
          return {
            launch: v.launchAllowed,
            reasoning: v.launchAllowed ? "The goal is met; launching." : "Not allowed yet.",
          };
        case "pledge_offer": {
          if (policy === "passive") {
            return {
              offers: [],
              disclose_terms_to: "none",
              reasoning: "No offers.",
            };
          }
          const locked = new Set(
            v.acceptedOffers.filter((o) => o.lockUntil >= v.round).map((o) => o.target),
          );
          const open = v.backers.filter((id) => !locked.has(id));
          const bonus = v.round === 1 ? 0.03 : 0.04;
          return {
            offers: open.map((id) => ({
              target: id,
              amount: bonus,
              lock_until: v.parameters.lastDecisionRound,
            })),
            disclose_terms_to: "all",
            reasoning: `Offering ${bonus} to ${open.length} backers.`,
          };
        }
        case "intent_solicitation":
          return solicitationReply(policy, "everyone");
        default:
          throw new RangeError(`No mock founder reply for call "${req.call}"`);
      }
    },
  });
}

/**
 * An agent factory of rule-based crowdfunding agents (roles `"backer"` and `"founder"`).
 *
 * @example
 * ```ts
 * import { crowdfundingMockPopulation } from "./mock.ts";
 * const make = crowdfundingMockPopulation({ backers: "always_pledge" });
 * if (make({ id: "bkr_01", role: "backer" }).policy !== "mock:always_pledge") throw new Error();
 * if (make({ id: "founder", role: "founder" }).policy !== "mock:active_founder") throw new Error();
 * ```
 * @throws {RangeError} For a role other than `"backer"` or `"founder"` (when the factory is called).
 */
export function crowdfundingMockPopulation(options: CrowdfundingMockOptions = {}): AgentFactory {
  const seed = options.seed ?? 0;
  const backers = options.backers ?? "hesitant";
  const founder = options.founder ?? "active";
  return agentsByRole("crowdfunding mock policy", {
    backer: ({ id }) => mockBacker(backers, { seed, id }),
    founder: () => mockFounder(founder),
  });
}

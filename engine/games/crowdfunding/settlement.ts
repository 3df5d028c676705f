/**
 * Crowdfunding settlement: sampling realized pledges and withdrawals,
 * withdrawals against the per-round capacity, the founder's launch (with the
 * M1 over-promise rule), interest, refunds, and the closed-form accrual of
 * every balance up to the horizon once the campaign is decided.
 *
 * How money moves (choices where Table 4 leaves the detail open; also in the
 * docs/modelling-choices.md). Within a decision round t:
 * 1. Mechanism commitments (M1 acceptance, M2 signature, M3 joining) pledge
 *    one unit at once, before the financial decisions.
 * 2. Realized pledges move one unit from the bank into the pool (no capacity).
 *    Realized withdrawals are processed in a seeded random order (stream
 *    `engine` / `processing_order`) against 3.750 face per round. As Table 4
 *    says ("excess requests stay pledged"), a withdrawal that would take the
 *    round's withdrawn face above the capacity is not processed and the whole
 *    pledge stays pledged (`capacityRule: "expire"`, `../capacity.ts`); the
 *    non-default `capacityRule: "partial"` withdraws the crossing request in part.
 * 3. The founder may launch if P >= G (after step 2). Launching with promised
 *    bonuses B > (1 - m) P fails the campaign (`over_promise`); otherwise the
 *    pool leaves for the project and the episode ends.
 * 4. Interest r_f is credited on every idle bank balance as it stands after
 *    steps 1-3, so money pledged in round t misses round-t interest and money
 *    withdrawn in round t earns it.
 * 5. A campaign that failed this round (over-promise, or no launch by the end
 *    of the last decision round) refunds every pledge at face after step 4,
 *    which is why a round-9 pledge misses round-9 interest.
 *
 * After a launch in round L: in round L+1 idle balances earn interest first,
 * then each backer is paid the reward v per launched unit plus its M1 bonus
 * (every accepted bonus is paid on launch, as the bank run pays every accepted
 * compensation on success), and the founder the margin m per launched unit
 * less all bonuses; from round
 * L+2 to T every balance (the founder's included, even if negative) earns
 * r_f. After a failure in round t, balances earn r_f in rounds t+1..T. These
 * rounds have no decisions, so they are accrued in closed form by
 * {@linkcode accrueToHorizon} rather than played. All-pledge-in-round-1 with
 * an immediate launch gives n(v + m)(1 + r_f)^(T-2) exactly, and all-pledged
 * without a launch gives n(1 + r_f): the bounds of Appendix D.3.
 *
 * @module
 */
import type { StepContext } from "../../core/environment.ts";
import type { EventBody } from "../../core/events.ts";
import { shuffled } from "../../core/rng.ts";
import { roundCapacity } from "../../frail/capacity.ts";
import { drawDecision } from "../../frail/financial_decision.ts";
import { compensationByAgent } from "../../frail/mechanisms/paid_offers.ts";
import { promisedTotal } from "../../frail/mechanisms/profile.ts";
import { lastDecisionRound } from "./params.ts";
import { type CrowdfundingState, EPS, isPledged, pledgeUnit, pool } from "./state.ts";

/**
 * Samples the round's realized pledges and withdrawals and settles them.
 * Mutates the state and returns the events.
 *
 * @example
 * ```ts
 * import { settleDecisions } from "./settlement.ts";
 * import { initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M0");
 * s.round = 1;
 * s.pending = [{ agent: "bkr_01", call: "pledge", reported: 100, original: 100, committed: false }];
 * settleDecisions(s, { round: 1, stream: (a, p) => openStream({ seed: 1, round: 1, agent: a, purpose: p }) });
 * if (s.backers[0].pledged !== 1 || s.backers[0].bank !== 0) throw new Error();
 * ```
 */
export function settleDecisions(state: CrowdfundingState, ctx: StepContext): EventBody[] {
  const events: EventBody[] = [];
  const byId = new Map(state.backers.map((b) => [b.id, b]));
  const withdrawals: string[] = [];
  for (const pd of state.pending) {
    const b = byId.get(pd.agent)!;
    const pledging = pd.call === "pledge";
    const decision = drawDecision(ctx, pd, {
      call: pd.call,
      action: pledging ? "pledge" : "withdraw",
      alternative: pledging ? "wait" : "keep",
      amount: pledging ? state.params.unitPledge : b.pledged,
    });
    events.push(decision);
    const { realized } = decision;
    b.history.push({
      round: state.round,
      call: pd.call,
      reported: pd.original,
      realized,
      processed: 0,
    });
    if (!realized) continue;
    if (pledging) {
      const face = pledgeUnit(state, b);
      b.history[b.history.length - 1].processed = face;
      events.push({ type: "transition", kind: "pledge_processed", agent: b.id, amount: face });
    } else {
      withdrawals.push(b.id);
    }
  }
  state.pending = [];
  const capacity = roundCapacity({
    capacity: state.params.withdrawalCapacity,
    rule: state.params.capacityRule,
  });
  for (const id of shuffled(ctx.stream("engine", "processing_order"), withdrawals)) {
    const b = byId.get(id)!;
    const amount = capacity.take(b.pledged);
    const stays = b.pledged - amount;
    if (amount > EPS) {
      b.pledged = stays > EPS ? stays : 0;
      b.bank += amount;
      state.withdrawnThisRound[id] = amount;
      b.history[b.history.length - 1].processed = amount;
      events.push({ type: "transition", kind: "withdrawal_processed", agent: id, amount });
    }
    if (stays > EPS) {
      events.push({ type: "transition", kind: "request_stayed", agent: id, amount: stays });
    }
  }
  return events;
}

/**
 * Whether the founder may launch now: the campaign is open and P >= G.
 *
 * @example
 * ```ts
 * import { canLaunch } from "./settlement.ts";
 * import { initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * if (canLaunch(initialCrowdfundingState(parseCrowdfundingParams({}), "M0"))) throw new Error();
 * ```
 */
export function canLaunch(state: CrowdfundingState): boolean {
  return !state.done && state.failure === null && state.launch === null &&
    pool(state) + EPS >= state.params.goal;
}

/**
 * The M1 over-promise test: promised bonuses B exceed (1 - m) P.
 *
 * @example
 * ```ts
 * import { isOverPromised } from "./settlement.ts";
 * const s = { params: { margin: 0.05 }, backers: [{ pledged: 14 }],
 *   m1: { offers: [{ status: "accepted", amount: 13.31 }] } } as never;
 * if (!isOverPromised(s)) throw new Error("13.31 > 0.95 x 14 = 13.3");
 * ```
 */
export function isOverPromised(state: CrowdfundingState): boolean {
  return promisedTotal(state) > (1 - state.params.margin) * pool(state) + EPS;
}

/**
 * Launches the campaign (the founder chose to, and {@linkcode canLaunch}):
 * fails it under the over-promise rule, or hands the pool to the project.
 *
 * @example
 * ```ts
 * import { launchCampaign } from "./settlement.ts";
 * import { initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({ goal: 1 }), "M0");
 * s.round = 1;
 * s.backers[0].bank = 0;
 * s.backers[0].pledged = 1;
 * launchCampaign(s);
 * if (s.launch?.pool !== 1 || s.backers[0].pledged !== 0 || s.ledger.projectIn !== 1) throw new Error();
 * ```
 */
export function launchCampaign(state: CrowdfundingState): EventBody[] {
  const P = pool(state);
  if (isOverPromised(state)) {
    const bonuses = promisedTotal(state);
    state.failure = { kind: "over_promise", round: state.round };
    return [{
      type: "failure",
      kind: "over_promise",
      detail: `promised bonuses ${fmt(bonuses)} exceed (1 - ${state.params.margin}) x pool ${
        fmt(P)
      } = ${fmt((1 - state.params.margin) * P)}`,
    }];
  }
  const shares: Record<string, number> = {};
  for (const b of state.backers) {
    if (isPledged(b)) shares[b.id] = b.pledged;
    b.pledged = 0;
  }
  state.launch = { round: state.round, pool: P, shares };
  state.ledger.projectIn += P;
  return [{ type: "transition", kind: "launch", pool: P, backers: Object.keys(shares).length }];
}

/**
 * Ends a decision round's money: interest on idle balances, then the refund
 * of every pledge when the campaign failed this round or reached the end of
 * its last decision round without a launch. Marks the episode done once the
 * campaign is decided.
 *
 * @example
 * ```ts
 * import { closeRound } from "./settlement.ts";
 * import { initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M0");
 * s.round = 9;
 * s.backers[0].bank = 0;
 * s.backers[0].pledged = 1;
 * closeRound(s);
 * if (s.backers[0].bank !== 1 || s.failure?.kind !== "no_launch") throw new Error("refund after interest");
 * ```
 */
export function closeRound(state: CrowdfundingState): EventBody[] {
  const events: EventBody[] = [];
  const r = state.params.riskFree;
  let interest = 0;
  for (const b of state.backers) {
    const i = b.bank * r;
    b.bank += i;
    interest += i;
  }
  const fi = state.founder.bank * r;
  state.founder.bank += fi;
  interest += fi;
  state.ledger.interest += interest;
  events.push({ type: "transition", kind: "interest", rate: r, total: interest });
  if (
    state.launch === null && state.failure === null &&
    state.round >= lastDecisionRound(state.params)
  ) {
    state.failure = { kind: "no_launch", round: state.round };
    events.push({
      type: "failure",
      kind: "no_launch",
      detail: `not launched by the end of round ${state.round}; pool ${fmt(pool(state))} of goal ${
        fmt(state.params.goal)
      }`,
    });
  }
  if (state.failure !== null) {
    for (const b of state.backers) {
      if (!isPledged(b)) continue;
      const face = b.pledged;
      b.bank += face;
      b.pledged = 0;
      events.push({ type: "transition", kind: "refund", agent: b.id, amount: face });
    }
  }
  if (state.failure !== null || state.launch !== null) state.done = true;
  return events;
}

/**
 * Accrues every balance from the end of the deciding round to the horizon
 * (see the module notes): after a launch, the reward, bonuses and margin are
 * paid in the next round after its interest; after a failure, balances only
 * earn interest. Returns each player's final balance and the events.
 *
 * @example
 * ```ts
 * import { accrueToHorizon } from "./settlement.ts";
 * import { initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M0");
 * s.round = 9;
 * s.failure = { kind: "no_launch", round: 9 };
 * const { payoffs } = accrueToHorizon(s);
 * if (payoffs.bkr_01.toFixed(3) !== "1.030") throw new Error("one round of interest to round 10");
 * ```
 */
export function accrueToHorizon(
  state: CrowdfundingState,
): { payoffs: Record<string, number>; events: EventBody[] } {
  const p = state.params;
  const g = 1 + p.riskFree;
  const events: EventBody[] = [];
  const payoffs: Record<string, number> = {};
  const decided = state.launch?.round ?? state.failure?.round ?? state.round;
  const tail = Math.max(0, p.horizon - decided);
  const before = state.backers.reduce((s, b) => s + b.bank, 0) + state.founder.bank;
  let paid = 0;
  if (state.launch) {
    const L = state.launch;
    const bonuses = state.m1 ? compensationByAgent(state.m1) : new Map<string, number>();
    for (const b of state.backers) {
      const share = L.shares[b.id] ?? 0;
      const bonus = bonuses.get(b.id) ?? 0;
      const pay = p.reward * share + bonus;
      b.bank = b.bank * g + pay;
      if (pay > 0) {
        events.push({
          type: "transition",
          kind: "reward_paid",
          agent: b.id,
          round: L.round + 1,
          reward: p.reward * share,
          bonus,
        });
      }
    }
    const paidBonus = [...bonuses.values()].reduce((a, b) => a + b, 0);
    const margin = p.margin * L.pool;
    state.founder.bank = state.founder.bank * g + margin - paidBonus;
    paid = (p.reward + p.margin) * L.pool;
    state.ledger.projectOut += paid;
    events.push({
      type: "transition",
      kind: "margin_paid",
      agent: "founder",
      round: L.round + 1,
      margin,
      bonuses: paidBonus,
    });
    for (const b of state.backers) b.bank *= g ** Math.max(0, tail - 1);
    state.founder.bank *= g ** Math.max(0, tail - 1);
  } else {
    if (state.failure && state.m1 && promisedTotal(state) > 0) {
      events.push({ type: "transition", kind: "bonuses_void", total: promisedTotal(state) });
    }
    for (const b of state.backers) b.bank *= g ** tail;
    state.founder.bank *= g ** tail;
  }
  const after = state.backers.reduce((s, b) => s + b.bank, 0) + state.founder.bank;
  const interest = after - before - paid;
  state.ledger.interest += interest;
  events.push({
    type: "transition",
    kind: "interest_to_horizon",
    from_round: decided + 1,
    to_round: p.horizon,
    total: interest,
  });
  for (const b of state.backers) payoffs[b.id] = b.bank;
  payoffs.founder = state.founder.bank;
  return { payoffs, events };
}

function fmt(x: number): string {
  return x.toFixed(3);
}

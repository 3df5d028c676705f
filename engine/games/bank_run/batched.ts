/**
 * The bank run's batched path (`BatchedPlay`, `engine/core/game.ts`): an
 * episode of the bank run's mock depositors and mock bank played on arrays,
 * with no request, view, reply, report, pending decision, history entry or
 * event per depositor. Each round plays the mechanism's steps first (M1-M3:
 * `_batched_mechanisms.ts`, on the episode's mechanism profile with the
 * mechanisms' own functions), then computes every active depositor's
 * reported probability together (the mock rule, `defensiveWithdrawal`, from
 * what its view would show: last round's redeemed share, the certified
 * committed share, its number of earlier decisions), overrides a committed
 * depositor's to 0 (`isCommittedUnder`), draws each from its own stream
 * (round, depositor, `"withdraw"`) as the general path does
 * (`firstUniform`), shuffles the realized requests with the stream
 * (`engine`, `processing_order`), and settles them with the general path's
 * rules (`settlement.ts`: capacity, cash then early sales, liquidity
 * failure, the insolvency test with the outstanding compensation,
 * liquidation), the disclosure (after M3's exit ritual), then the final payouts of `environment.ts`'s `finish` (with
 * the M1 compensation). Every floating-point operation is the general
 * path's, in its order, so the outcome is the same to the bit
 * (tests/engine/games/bank_run/batched_test.ts compares the two paths).
 *
 * It takes episodes under every mechanism (M0-M3) whose depositors are the mock policies
 * (`"defensive"`, `"always_stay"`, `"always_run"`, or a function of id and
 * index naming one of them) and whose bank is a mock policy (`"active"`,
 * `"passive"`), under any regime and validated parameters (depositor counts,
 * horizons, capacity rules, deposit splits). It declines (the general path
 * plays) a function that throws or names another policy (the general
 * path then calls it again, and reports what it does), and a mock `seed`
 * that is not a non-negative safe integer.
 *
 * A draw whose result is certain is not made: a report of 0 is never
 * realized and one of 100 always is, whatever the uniform (in [0, 1)).
 *
 * @module
 */
import type { BatchedPlay, GameSetup } from "../../core/game.ts";
import { type BatchedEpisode, batchedEpisode } from "../../core/batched.ts";
import { firstUniform, roundStreams, shuffled } from "../../core/rng.ts";
import { roundCapacity } from "../../frail/capacity.ts";
import { trait } from "../../agents/mock/traits.ts";
import { compensationByAgent } from "../../frail/mechanisms/paid_offers.ts";
import { emptyProfile, isCommittedUnder, promisedTotal } from "../../frail/mechanisms/profile.ts";
import { type MechanismId, participantIds } from "../../frail/types.ts";
import {
  BANK_POLICIES,
  type BankRunMockOptions,
  defensiveWithdrawal,
  DEPOSITOR_POLICIES,
  depositorPolicyOf,
} from "./mock.ts";
import {
  type BatchedMechanism,
  type BatchedRoster,
  DEFENSIVE,
  m1Mechanism,
  m2Mechanism,
  m3Mechanism,
  RUN,
  STAY,
} from "./_batched_mechanisms.ts";
import { bankRunBounds, type BankRunParams } from "./params.ts";
import { BANK_ID, type BankRunState, EPS, splitDeposits } from "./state.ts";

/** The mechanisms the batched path plays, and their steps (none under M0). */
const MECHANISMS: Record<MechanismId, ((roster: BatchedRoster) => BatchedMechanism) | null> = {
  M0: null,
  M1: m1Mechanism,
  M2: m2Mechanism,
  M3: m3Mechanism,
};

/**
 * The bank run's batched path, for its descriptor: plays the episodes of its
 * mock agents under M0-M3 (see the module doc), declines the rest.
 *
 * @example
 * ```ts
 * import { bankRunBatched } from "./batched.ts";
 * import { bankRunGame } from "./descriptor.ts";
 * const setup = bankRunGame.setup({ mechanism: "M0" });
 * const played = bankRunBatched.play(setup, 3, { seed: 3, depositors: "always_stay" })!;
 * if (!played.outcome.success || played.outcome.welfareRealization !== 1) throw new Error();
 * if (played.tally.reports !== 15 * 12 || played.events.length !== 0) throw new Error();
 * const m2 = bankRunBatched.play(bankRunGame.setup({ mechanism: "M2" }), 3, { seed: 3 })!;
 * if (m2.tally.reports !== 12 * (1 + 2 * 15)) throw new Error("the bank and two calls a depositor");
 * const stay = { seed: 3, depositors: "always_stay" as const };
 * const m3 = bankRunBatched.play(bankRunGame.setup({ mechanism: "M3" }), 3, stay)!;
 * if (m3.tally.reports !== 12 * 2 * 15) throw new Error("two calls a depositor, no bank");
 * const nervous = { seed: 3, depositors: () => "nervous" };
 * if (bankRunBatched.play(setup, 3, nervous as never) !== undefined) {
 *   throw new Error("a policy the mocks do not have plays on the general path");
 * }
 * ```
 */
export const bankRunBatched: BatchedPlay<BankRunParams> = {
  play(setup, seed, mock) {
    const steps = MECHANISMS[setup.condition.mechanism as MechanismId];
    if (steps === undefined) return undefined;
    return playBatched(setup, seed, mock as BankRunMockOptions, steps);
  },
};

function playBatched(
  setup: GameSetup<BankRunParams>,
  seed: number,
  mock: BankRunMockOptions,
  steps: ((roster: BatchedRoster) => BatchedMechanism) | null,
): BatchedEpisode<BankRunState> | undefined {
  const traitSeed = mock.seed ?? 0;
  if (typeof traitSeed !== "number" || !Number.isSafeInteger(traitSeed) || traitSeed < 0) {
    return undefined;
  }
  const bank = mock.bank ?? "active";
  if (!BANK_POLICIES.includes(bank)) return undefined;
  const given = mock.depositors ?? "defensive";
  const mechanism = setup.condition.mechanism as MechanismId;
  const p = setup.params;
  const n = p.depositors;
  const ids = participantIds("dep", n);
  // Each depositor's policy and trait, in roster order (as the factory is called).
  const policy: number[] = [];
  const traits: number[] = [];
  for (let i = 0; i < n; i++) {
    let name: string;
    try {
      name = depositorPolicyOf(given, ids[i]);
    } catch {
      return undefined;
    }
    const code = DEPOSITOR_POLICIES.indexOf(name as never);
    if (code < 0) return undefined;
    policy.push(code);
    traits.push(code === DEFENSIVE ? trait(traitSeed, ids[i]) : 0);
  }
  const amounts = splitDeposits(
    n,
    p.totalDeposits,
    p.depositSplit,
    p.depositSplit === "equal" ? NO_STREAM : roundStreams(seed, 0)("engine", "deposit_split"),
  );
  const balance = amounts.slice();
  const withdrawn: number[] = [];
  const decided: number[] = [];
  for (let i = 0; i < n; i++) {
    withdrawn.push(0);
    decided.push(0);
  }
  const profile = emptyProfile(mechanism);
  const mech = steps === null
    ? null
    : steps({ ids, policy, traits, balance, params: p, profile, bank });
  const { earlySalePrice: h, assetReturn: R, depositYield: Y, capacity } = p;
  const horizon = p.horizon;
  let cash = p.initialCash;
  let assets = p.longTermAssets;
  let assetsSold = 0;
  let cumulative = 0;
  // The disclosed snapshot and what the last settlement did.
  let stress = 0;
  let disclosedCash = cash;
  let disclosedAssets = assets;
  let remaining = p.totalDeposits;
  let promised = 0;
  let requested = 0;
  let processed = 0;
  let expired = 0;
  let sold = 0;
  let depositsAtStart = p.totalDeposits;
  let failure: "liquidity" | "insolvency" | null = null;
  let done = false;
  let round = 0;
  // The mechanism steps' reports (the bank's proposal, the depositors' responses).
  let mechanismReports = 0;
  // One entry per decision, in order: depositor, report, realized, paid.
  const hDep: number[] = [];
  const hReported: number[] = [];
  const hRealized: boolean[] = [];
  const hPaid: number[] = [];
  const hRound: number[] = [];
  for (let r = 1; r <= horizon && !done; r++) {
    round = r;
    const open = roundStreams(seed, r);
    if (mech !== null) {
      // The depositors with money at the bank (activeDepositors), asked in both steps.
      const active: number[] = [];
      const activeIds: string[] = [];
      for (let i = 0; i < n; i++) {
        if (balance[i] > EPS) {
          active.push(i);
          activeIds.push(ids[i]);
        }
      }
      mech.round(r, { active, activeIds, remaining, stress });
      mechanismReports += mech.central + active.length;
    }
    // The financial step: every active depositor's report (overridden to 0
    // while committed) and draw; the realized requests of the round, as
    // decision indexes.
    const req: number[] = [];
    for (let i = 0; i < n; i++) {
      if (!(balance[i] > EPS)) continue;
      const code = policy[i];
      const original = code === STAY
        ? 0
        : code === RUN
        ? 100
        : defensiveWithdrawal(traits[i], stress, mech === null ? 0 : mech.share(i), decided[i]);
      decided[i]++;
      const reported = original > 0 && mech !== null && isCommittedUnder(profile, ids[i], r)
        ? 0
        : original;
      const realized = reported === 0
        ? false
        : reported === 100
        ? true
        : firstUniform(open, ids[i], "withdraw") < reported / 100;
      if (realized) req.push(hDep.length);
      hDep.push(i);
      hReported.push(original);
      hRealized.push(realized);
      hPaid.push(0);
      hRound.push(r);
    }
    // Settlement (settleWithdrawals).
    depositsAtStart = 0;
    for (let i = 0; i < n; i++) depositsAtStart += balance[i];
    // The same permutation as settleWithdrawals' (it depends only on the length and the stream).
    const order = req.length > 1 ? shuffled(open("engine", "processing_order"), req) : req;
    const cap = roundCapacity({ capacity, rule: p.capacityRule });
    processed = 0;
    expired = 0;
    sold = 0;
    requested = 0;
    for (let k = 0; k < order.length; k++) {
      const e = order[k];
      const i = hDep[e];
      const bal = balance[i];
      requested += bal;
      if (done) continue;
      const amount = cap.take(bal);
      const lost = bal - amount;
      if (amount > EPS) {
        // Cash first (early_sale.ts), then early sales.
        let paid = 0;
        if (cash + EPS >= amount) cash = Math.max(0, cash - amount);
        else {
          const units = (amount - cash) / h;
          if (units > assets + EPS) {
            failure = "liquidity";
            const proceeds = h * assets;
            assetsSold += assets;
            cash += proceeds;
            assets = 0;
            done = true;
            continue;
          }
          assets = Math.max(0, assets - units);
          assetsSold += units;
          cash = 0;
          paid = units;
        }
        sold += paid;
        processed += amount;
        let b = bal - amount;
        if (b < EPS) b = 0;
        balance[i] = b;
        withdrawn[i] += amount;
        cumulative += amount;
        hPaid[e] = amount;
      }
      if (lost > EPS) expired += lost;
    }
    // The promised compensation (none but under M1): the offers do not change
    // between the insolvency test and the disclosure, so one total serves both.
    promised = promisedTotal(profile);
    if (!done) {
      let deposits = 0;
      for (let i = 0; i < n; i++) deposits += balance[i];
      // isInsolvent: the promised compensation is owed too.
      if (cash + R * assets + 1e-9 < Y * deposits + promised) {
        failure = "insolvency";
        const proceeds = h * assets;
        assetsSold += assets;
        cash += proceeds;
        assets = 0;
        done = true;
      }
    }
    // Disclosure (M3's exit ritual first).
    mech?.disclose?.(r);
    remaining = 0;
    for (let i = 0; i < n; i++) remaining += balance[i];
    disclosedCash = cash;
    disclosedAssets = assets;
    stress = depositsAtStart > 0 ? processed / depositsAtStart : 0;
  }
  // The final settlement (bankRun.finish), payoffs in roster order then the bank.
  const payoffs: Record<string, number> = {};
  let welfare = 0;
  const success = failure === null;
  if (success) {
    const comp = profile.m1 ? compensationByAgent(profile.m1) : undefined;
    const maturity = R * assets;
    let paid = 0;
    for (let i = 0; i < n; i++) {
      const final = balance[i] * Y + (comp?.get(ids[i]) ?? 0);
      paid += final;
      welfare += payoffs[ids[i]] = withdrawn[i] + final;
    }
    welfare += payoffs[BANK_ID] = cash + maturity - paid;
  } else {
    let owed = 0;
    for (let i = 0; i < n; i++) owed += balance[i];
    for (let i = 0; i < n; i++) {
      const share = owed > 0 ? (cash * balance[i]) / owed : 0;
      welfare += payoffs[ids[i]] = withdrawn[i] + share;
    }
    welfare += payoffs[BANK_ID] = owed > 0 ? 0 : cash;
  }
  const reports = hDep.length + mechanismReports;
  const rounds = round;
  const soldTotal = assetsSold;
  const cumulativeWithdrawn = cumulative;
  const last = { requested, processed, expired, sold, depositsAtStart };
  const disclosed = {
    cash: disclosedCash,
    assets: disclosedAssets,
    depositsRemaining: remaining,
    fractionRedeemed: stress,
    outstandingCompensation: promised,
  };
  const failed = failure;
  return batchedEpisode(
    { success, failure: failed, rounds, payoffs, welfare },
    bankRunBounds(p),
    {
      reports,
      // The general path's final state: finish leaves no cash (nor assets).
      state: (): BankRunState => {
        const depositors = ids.map((id, i) => ({
          id,
          initial: amounts[i],
          balance: balance[i],
          withdrawn: withdrawn[i],
          history: [] as BankRunState["depositors"][number]["history"],
        }));
        for (let e = 0; e < hDep.length; e++) {
          depositors[hDep[e]].history.push({
            round: hRound[e],
            reported: hReported[e],
            realized: hRealized[e],
            processed: hPaid[e],
          });
        }
        return {
          params: p,
          mechanism,
          round: rounds,
          cash: 0,
          assets: 0,
          assetsSold: soldTotal,
          depositors,
          pending: [],
          cumulativeWithdrawn,
          last,
          disclosed,
          failure: failed === null ? null : { kind: failed, round: rounds },
          done: true,
          inbox: mech === null ? {} : mech.inbox(),
          m1: profile.m1,
          m2: profile.m2,
          m3: profile.m3,
        };
      },
    },
  );
}

/** The split stream of an equal split, which draws nothing. */
const NO_STREAM = {
  uniform(): number {
    throw new Error("An equal deposit split draws nothing");
  },
  int(): number {
    throw new Error("An equal deposit split draws nothing");
  },
};

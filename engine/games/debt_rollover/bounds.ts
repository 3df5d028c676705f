/**
 * Welfare bounds of Appendix D.3 for debt rollover, computed from the parameters:
 *
 * - worst = L0 (1 + r_L) + h x (total asset face): a run at the first maturity
 *   wave forces liquidation of all assets and the borrower gets nothing
 *   (6.851 in the stable regime);
 * - best = n F (1 + r_d)^T + pi*, with pi* the borrower's maximal profit over
 *   the repayment schedules that keep it alive (pi* = 0.710 and best = 9.899
 *   in the stable regime).
 *
 * pi* is found by exhaustive enumeration. A repayment schedule says in which
 * round each creditor redeems (any round from its wave's maturity to the
 * horizon) or that it holds to the end; creditors' claims are equal, so the
 * borrower's books depend only on how many claims are redeemed in each round,
 * and the enumeration runs over those counts (every schedule up to relabelling
 * creditors): at most as many as have matured and are outstanding, within the
 * round's processing capacity. A schedule keeps the borrower alive when no
 * payment fails and the insolvency test passes at the end of every round.
 * Among schedules within 1e-9 of the best, the one with the fewest
 * redemptions in the earliest round wins (then the next round, and so on).
 *
 * Order of events within a round (the paper leaves it open; this order is the
 * one under which the enumeration reproduces the printed 0.710 and 9.899, and
 * the worst bound's L0 (1 + r_L); settlement uses the same order):
 * 1. cash earns interest on what was carried from the last round;
 * 2. claims accrue to F (1 + r_d)^t;
 * 3. tranches maturing this round pay their face into cash;
 * 4. redemptions are paid, cash first, then by early sales of the
 *    nearest-maturity tranches;
 * 5. the insolvency test.
 * (Paying redemptions before this round's tranche matures gives pi* = 0.637
 * and best = 9.827; paying interest after redemptions gives 0.729 or 0.764.)
 *
 * @module
 */
import {
  type BalanceSheet,
  earnInterest,
  EPS,
  isInsolvent,
  matureTranches,
  payOut,
} from "./balance_sheet.ts";
import { claimAt, type DebtRolloverParams, waveAssignment } from "./params.ts";

/** The best repayment schedule found by the enumeration. */
export interface BestSchedule {
  /** The borrower's maximal profit pi* (0 when no schedule keeps it alive). */
  profit: number;
  /** Claims redeemed in each round; index 0 is round 1. */
  redemptionsByRound: number[];
  /**
   * Round in which each creditor (by index from 0) redeems, or `null` to hold
   * to the end; within a round the earliest-wave, lowest-id outstanding
   * creditors redeem first.
   */
  schedule: (number | null)[];
  /** Whether some schedule keeps the borrower alive. */
  feasible: boolean;
}

/**
 * The borrower's best repayment schedule and its profit pi* by exhaustive enumeration.
 *
 * @example
 * ```ts
 * import { bestRepaymentSchedule } from "./bounds.ts";
 * import { parseDebtRolloverParams } from "./params.ts";
 * const b = bestRepaymentSchedule(parseDebtRolloverParams({}));
 * if (b.profit.toFixed(3) !== "0.710" || b.redemptionsByRound.join() !== "0,0,0,2,1,2,0") throw new Error();
 * ```
 */
export function bestRepaymentSchedule(p: DebtRolloverParams): BestSchedule {
  const waves = waveAssignment(p);
  const maturedBy = (t: number) => waves.filter((w) => w <= t).length;
  const final = claimAt(p, p.horizon);
  let best = -Infinity;
  let bestCounts: number[] = [];
  const counts: number[] = [];
  const visit = (t: number, bs: BalanceSheet, redeemed: number) => {
    if (t > p.horizon) {
      const profit = bs.cash - (p.creditors - redeemed) * final;
      if (profit > best + EPS) {
        best = profit;
        bestCounts = [...counts];
      }
      return;
    }
    const base = structuredClone(bs);
    earnInterest(base, p.cashRate);
    matureTranches(base, t);
    const claim = claimAt(p, t);
    const available = maturedBy(t) - redeemed;
    for (let n = 0; n <= available && n * claim <= p.capacity + EPS; n++) {
      const next = structuredClone(base);
      let paid = true;
      for (let k = 0; k < n && paid; k++) {
        paid = payOut(next, claim, p.earlySalePrice) !== undefined;
      }
      if (!paid) break;
      if (isInsolvent(next, (p.creditors - redeemed - n) * final)) continue;
      counts.push(n);
      visit(t + 1, next, redeemed + n);
      counts.pop();
    }
  };
  visit(1, initialSheet(p), 0);
  const feasible = best > -Infinity;
  if (!feasible) bestCounts = Array.from({ length: p.horizon }, () => 0);
  return {
    profit: feasible ? best : 0,
    redemptionsByRound: bestCounts,
    schedule: assignSchedule(waves, bestCounts),
    feasible,
  };
}

function initialSheet(p: DebtRolloverParams): BalanceSheet {
  return {
    cash: p.initialCash,
    tranches: [...p.assets].sort((a, b) => a.round - b.round).map((a) => ({ ...a })),
  };
}

function assignSchedule(waves: number[], counts: number[]): (number | null)[] {
  const schedule: (number | null)[] = waves.map(() => null);
  const order = waves.map((w, i) => ({ w, i })).sort((a, b) => a.w - b.w || a.i - b.i);
  counts.forEach((n, k) => {
    const t = k + 1;
    for (const { w, i } of order) {
      if (n === 0) break;
      if (w <= t && schedule[i] === null) {
        schedule[i] = t;
        n--;
      }
    }
  });
  return schedule;
}

/**
 * The closed-form welfare bounds of Appendix D.3 (see the module doc).
 *
 * @example
 * ```ts
 * import { debtRolloverBounds } from "./bounds.ts";
 * import { parseDebtRolloverParams } from "./params.ts";
 * const b = debtRolloverBounds(parseDebtRolloverParams({}));
 * if (b.worst.toFixed(3) !== "6.851" || b.best.toFixed(3) !== "9.899") throw new Error();
 * ```
 */
export function debtRolloverBounds(p: DebtRolloverParams): { worst: number; best: number } {
  const key = JSON.stringify(p);
  const cached = cache.get(key);
  if (cached) return { ...cached };
  const face = p.assets.reduce((s, a) => s + a.face, 0);
  const bounds = {
    worst: p.initialCash * (1 + p.cashRate) + p.earlySalePrice * face,
    best: p.creditors * claimAt(p, p.horizon) + bestRepaymentSchedule(p).profit,
  };
  if (cache.size >= 64) cache.delete(cache.keys().next().value!);
  cache.set(key, bounds);
  return { ...bounds };
}

// The enumeration is pure; episodes of one grid cell share their parameters.
const cache = new Map<string, { worst: number; best: number }>();

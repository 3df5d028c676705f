/**
 * The borrower's balance sheet and the cash-flow primitives that settlement
 * and the welfare-bound enumeration share, so both apply the same arithmetic
 * in the same order: cash interest, tranche maturity, redemption payments
 * (cash first, then early sales of the nearest-maturity assets at h per unit of
 * remaining face), the insolvency test, and liquidation.
 *
 * @module
 */
import { payFromCash } from "../../frail/early_sale.ts";

/**
 * Amounts below this are treated as zero (float dust).
 *
 * @example
 * ```ts
 * import { EPS } from "./balance_sheet.ts";
 * if (!(EPS > 0 && EPS < 1e-6)) throw new Error();
 * ```
 */
export const EPS = 1e-9;

/** A tranche still held: remaining face maturing at a round. */
export interface HeldTranche {
  /** Maturity round. */
  round: number;
  /** Face still held (sold units are gone; a matured tranche holds 0). */
  face: number;
}

/** Cash and the tranches still held, nearest maturity first. */
export interface BalanceSheet {
  /** Cash. */
  cash: number;
  /** Tranches in maturity order. */
  tranches: HeldTranche[];
}

/** What an early sale did. */
export interface Sale {
  /** Face sold. */
  face: number;
  /** Cash raised (h x face). */
  proceeds: number;
}

/**
 * Adds a round of interest on the cash held; returns the interest.
 *
 * @example
 * ```ts
 * import { earnInterest } from "./balance_sheet.ts";
 * const bs = { cash: 0.2, tranches: [] };
 * const interest = earnInterest(bs, 0.005);
 * if (Math.abs(interest - 0.001) > 1e-15 || Math.abs(bs.cash - 0.201) > 1e-15) throw new Error();
 * ```
 */
export function earnInterest(bs: BalanceSheet, rate: number): number {
  const interest = bs.cash * rate;
  bs.cash += interest;
  return interest;
}

/**
 * Turns the face of the tranches maturing at `round` into cash; returns the face matured.
 *
 * @example
 * ```ts
 * import { matureTranches } from "./balance_sheet.ts";
 * const bs = { cash: 0, tranches: [{ round: 4, face: 2 }, { round: 5, face: 1 }] };
 * if (matureTranches(bs, 4) !== 2 || bs.cash !== 2 || bs.tranches[0].face !== 0) throw new Error();
 * ```
 */
export function matureTranches(bs: BalanceSheet, round: number): number {
  let matured = 0;
  for (const t of bs.tranches) {
    if (t.round === round && t.face > 0) {
      matured += t.face;
      bs.cash += t.face;
      t.face = 0;
    }
  }
  return matured;
}

/**
 * Face still held: the assets' value at maturity.
 *
 * @example
 * ```ts
 * import { remainingFace } from "./balance_sheet.ts";
 * if (remainingFace({ cash: 0, tranches: [{ round: 4, face: 2 }, { round: 7, face: 4 }] }) !== 6) throw new Error();
 * ```
 */
export function remainingFace(bs: BalanceSheet): number {
  return bs.tranches.reduce((s, t) => s + t.face, 0);
}

/**
 * Pays `amount`: from cash, then by selling the nearest-maturity tranches at
 * `price` per unit of face. Returns the sale, or `undefined` (changing nothing)
 * when cash plus every remaining asset at the sale price cannot cover it.
 *
 * @example
 * ```ts
 * import { payOut } from "./balance_sheet.ts";
 * const bs = { cash: 0.3, tranches: [{ round: 4, face: 1 }, { round: 5, face: 1 }] };
 * const sale = payOut(bs, 1.0, 0.7);
 * if (!sale || sale.face !== 1 || bs.cash !== 0 || bs.tranches[0].face !== 0) throw new Error();
 * if (payOut(bs, 1.0, 0.7) !== undefined) throw new Error("0.7 of face 1 cannot pay 1.0");
 * ```
 */
export function payOut(bs: BalanceSheet, amount: number, price: number): Sale | undefined {
  if (payFromCash(bs, amount)) return { face: 0, proceeds: 0 };
  let need = amount - bs.cash;
  if (price * remainingFace(bs) + EPS < need) return undefined;
  let face = 0;
  for (const t of bs.tranches) {
    if (need <= 0) break;
    if (t.face <= 0) continue;
    const take = Math.min(t.face, need / price);
    t.face -= take;
    if (t.face < EPS) t.face = 0;
    face += take;
    need -= take * price;
    if (need < EPS) need = 0;
  }
  bs.cash = 0;
  return { face, proceeds: price * face };
}

/**
 * Sells every remaining tranche at `price` (default resolution); returns the sale.
 *
 * @example
 * ```ts
 * import { liquidateAll } from "./balance_sheet.ts";
 * const bs = { cash: 0.5, tranches: [{ round: 7, face: 4 }] };
 * const sale = liquidateAll(bs, 0.7);
 * if (sale.face !== 4 || Math.abs(bs.cash - 3.3) > 1e-12) throw new Error();
 * ```
 */
export function liquidateAll(bs: BalanceSheet, price: number): Sale {
  const face = remainingFace(bs);
  const proceeds = price * face;
  bs.cash += proceeds;
  for (const t of bs.tranches) t.face = 0;
  return { face, proceeds };
}

/**
 * The insolvency test of Table 4: cash + maturity value of the remaining
 * assets < `liabilities` (claims compounded to the horizon plus outstanding
 * premiums), with a 1e-9 tolerance.
 *
 * @example
 * ```ts
 * import { isInsolvent } from "./balance_sheet.ts";
 * if (!isInsolvent({ cash: 0, tranches: [{ round: 7, face: 1 }] }, 1.149)) throw new Error();
 * ```
 */
export function isInsolvent(bs: BalanceSheet, liabilities: number): boolean {
  return bs.cash + remainingFace(bs) + EPS < liabilities;
}

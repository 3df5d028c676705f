/**
 * The first step of paying a claim in the FRAIL games whose institution
 * sells assets early (the bank run's withdrawals, the debt rollover's
 * redemptions): cash pays it when cash covers it; only the rest is raised by
 * early sales, which each game prices on its own asset book (the bank's
 * units, the borrower's tranches).
 *
 * @module
 */

/** Amounts below this are treated as zero (float dust), as both games' books do. */
const EPS = 1e-9;

/**
 * Pays `amount` from `book.cash` when the cash covers it (within 1e-9),
 * never leaving it below 0; says whether it did (else nothing changed and
 * the caller sells assets for the rest).
 *
 * @example
 * ```ts
 * import { payFromCash } from "./early_sale.ts";
 * const book = { cash: 1.5 };
 * if (!payFromCash(book, 1) || book.cash !== 0.5) throw new Error();
 * if (payFromCash(book, 1) || book.cash !== 0.5) throw new Error("0.5 in cash cannot pay 1");
 * ```
 */
export function payFromCash(book: { cash: number }, amount: number): boolean {
  if (!(book.cash + EPS >= amount)) return false;
  book.cash = Math.max(0, book.cash - amount);
  return true;
}

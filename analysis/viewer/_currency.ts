// The currency the viewer shows costs in. Prices are in a models file's
// `currency` (default USD); a grid records it in its manifest beside the
// spend (`spend.currency`). The viewer reads it from there and never guesses:
// a log without a manifest that records one shows bare numbers and says why,
// and a site over folders in different currencies does not sum their costs.

import { dirname } from "node:path";
import { folderCurrency } from "../load/_run_currency.ts";
import { fmtNumber } from "./_format.ts";

/** The currency of a set of costs, or why it is not known. */
export interface CostCurrency {
  /** ISO 4217 code of every cost shown, or `null` when not known or mixed. */
  code: string | null;
  /** Why `code` is `null`, in a sentence; `null` when it is known. */
  note: string | null;
  /** The codes of the folders, when they differ (costs are then not summed). */
  mixed: readonly string[];
}

/** Costs whose currency nobody recorded (a log outside a grid's folder). */
export const UNRECORDED_CURRENCY: CostCurrency = {
  code: null,
  note: "The costs' currency is not recorded here (no run manifest beside the log states one): " +
    "they are in the currency of the models file's prices.",
  mixed: [],
};

/** A currency stated by the caller or a manifest. */
export function knownCurrency(code: string): CostCurrency {
  return { code, note: null, mixed: [] };
}

/** The currency of the costs in a set of log files: their folders' manifests'. */
export function filesCurrency(files: readonly string[]): CostCurrency {
  const codes = new Set<string>();
  for (const folder of new Set(files.map((f) => dirname(f)))) {
    const code = folderCurrency(folder);
    if (code !== null) codes.add(code);
  }
  if (codes.size === 0) return UNRECORDED_CURRENCY;
  if (codes.size === 1) return knownCurrency([...codes][0]);
  const mixed = [...codes].sort();
  return {
    code: null,
    note: `The run folders' prices are in different currencies (${mixed.join(", ")}): each cost ` +
      "is shown as a number in its folder's currency, and costs are not summed across them.",
    mixed,
  };
}

/**
 * A cost as text in its currency: `$0.0017` in US dollars, `0.0017 CNY` in
 * another, the bare number when the currency is not known. Four decimals;
 * tiny values with two significant digits.
 *
 * @example
 * ```ts
 * import { money } from "./_currency.ts";
 * if (money(0.00171, "USD") !== "$0.0017" || money(2, "CNY") !== "2 CNY") throw new Error();
 * if (money(0.00001234, null) !== "0.000012" || money(0, "USD") !== "$0") throw new Error();
 * ```
 */
export function money(cost: number, code: string | null): string {
  const n = cost === 0 ? "0" : Math.abs(cost) < 0.0001 ? cost.toPrecision(2) : fmtNumber(cost, 4);
  return code === "USD" ? `$${n}` : code === null ? n : `${n} ${code}`;
}

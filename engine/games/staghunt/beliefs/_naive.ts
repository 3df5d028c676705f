/**
 * The naive rule's estimate as one function shared by every
 * {@linkcode naiveRule} (private to the game): a threshold player whose
 * rule's `estimate` is this function knows what its rule reads (the current
 * round's reports only), and counts them on its view without building the
 * whole history (`mock.ts`).
 *
 * @module
 */
import type { StagHuntAction } from "../payoffs.ts";

/**
 * The share of Stag among `current` (the reports of the current round made
 * before the turn); `undefined` when there are none.
 *
 * @example
 * ```ts
 * import { naiveEstimate } from "./_naive.ts";
 * const r = (action: "Stag" | "Hare") => ({ action });
 * if (naiveEstimate({ current: [r("Hare"), r("Stag")] }) !== 0.5) throw new Error();
 * if (naiveEstimate({ current: [] }) !== undefined) throw new Error();
 * ```
 */
export function naiveEstimate(
  h: { readonly current: readonly { readonly action: StagHuntAction }[] },
): number | undefined {
  return stagShare(h.current);
}

/**
 * The share of Stag among reports, `undefined` for none: the naive estimate
 * of a history whose current reports these are.
 *
 * @example
 * ```ts
 * import { stagShare } from "./_naive.ts";
 * if (stagShare([{ action: "Stag" }, { action: "Stag" }, { action: "Hare" }]) !== 2 / 3) throw new Error();
 * ```
 */
export function stagShare(
  reports: readonly { readonly action: StagHuntAction }[],
): number | undefined {
  const n = reports.length;
  if (n === 0) return undefined;
  let stag = 0;
  for (let i = 0; i < n; i++) if (reports[i].action === "Stag") stag++;
  return stag / n;
}

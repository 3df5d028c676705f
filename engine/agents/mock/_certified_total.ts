/**
 * What a FRAIL mock participant can see committed: the largest total that
 * the certified announcements delivered to it this round vouch for (M2
 * aggregates, M3 coalition totals, M1 accepted terms), shared by the
 * depositor, creditor and backer mocks.
 *
 * @module
 */
import type { Message } from "../../frail/types.ts";

/** Options of {@linkcode largestCertifiedTotal}. */
export interface CertifiedTotalOptions {
  /** Announcement kinds whose `content.total` certifies a committed total. */
  totalKinds: readonly string[];
  /**
   * The amount that `count` accepted terms commit (an `accepted_terms`
   * announcement lists them in `content.terms`).
   */
  acceptedTermsValue: (count: number) => number;
}

/**
 * The largest of `known` (what the participant sees anyway: its coalition's
 * total, or the disclosed pool) and every total its announcements certify.
 *
 * @param announcements Certified messages delivered to the participant.
 * @param known The total it sees without them.
 * @param options Which kinds certify a total, and what accepted terms are worth.
 * @returns The largest visible total.
 *
 * @example
 * ```ts
 * import { largestCertifiedTotal } from "./_certified_total.ts";
 * const total = largestCertifiedTotal([
 *   { from: "bank", kind: "aggregate_committed", content: { total: 4 } },
 *   { from: "bank", kind: "accepted_terms", content: { terms: [{}, {}, {}] } },
 * ], 1, { totalKinds: ["aggregate_committed"], acceptedTermsValue: (n) => 2 * n });
 * if (total !== 6) throw new Error();
 * ```
 */
export function largestCertifiedTotal(
  announcements: readonly Message[],
  known: number,
  options: CertifiedTotalOptions,
): number {
  let total = known;
  for (const m of announcements) {
    if (options.totalKinds.includes(m.kind)) {
      total = Math.max(total, m.content.total as number);
    }
    if (m.kind === "accepted_terms") {
      total = Math.max(total, options.acceptedTermsValue((m.content.terms as unknown[]).length));
    }
  }
  return total;
}

/**
 * A coalition disclosure decided by one in-round ballot (the backer
 * coalition's rule of Appendix G.3): each voting member names the outsiders it
 * wants told (`"all"` or a list of ids) or abstains (`null`); an outsider is
 * told when strictly more than half of the voting members named it. Unlike
 * the bank run's proposal-then-vote cycle in `coalition.ts`, nothing carries
 * over between rounds.
 *
 * @module
 */

/** One member's ballot: whom to tell, or `null` for no disclosure. */
export type DisclosureBallot = "all" | string[] | null;

/** Options of {@linkcode majorityRecipients}. */
export interface MajorityOptions {
  /** Members whose ballots count; the majority is of this list's length. */
  voters: readonly string[];
  /** Outsiders who could be told, in the order to return them. */
  outsiders: readonly string[];
}

/**
 * The outsiders named by a strict majority of the voters. A ballot from
 * someone not in `voters` is ignored; a missing ballot counts as no.
 *
 * @example
 * ```ts
 * import { type DisclosureBallot, majorityRecipients } from "./majority_disclosure.ts";
 * const ballots = new Map<string, DisclosureBallot>([["a", "all"], ["b", ["x"]], ["c", null]]);
 * const told = majorityRecipients(ballots, { voters: ["a", "b", "c"], outsiders: ["x", "y"] });
 * if (told.join() !== "x") throw new Error("x has 2 of 3 votes, y only 1");
 * ```
 */
export function majorityRecipients(
  ballots: ReadonlyMap<string, DisclosureBallot>,
  options: MajorityOptions,
): string[] {
  const { voters, outsiders } = options;
  if (voters.length === 0) return [];
  return outsiders.filter((o) => {
    const support = voters.filter((v) => {
      const b = ballots.get(v);
      return b === "all" || (Array.isArray(b) && b.includes(o));
    }).length;
    return support * 2 > voters.length;
  });
}

/**
 * Debt rollover's mechanism steps (Appendix F steps 1 and 2), built on the
 * shared machinery in `../mechanisms/`: the borrower's proposals (M1 paid
 * rollover agreements, M2 standstill solicitations), the creditors'
 * responses, and the delivery of certified messages.
 *
 * Table 1 contracts as implemented here:
 * - M1 paid rollover agreement: the borrower offers a creditor with an
 *   outstanding claim a premium for rolling until `lock_until` (inclusive);
 *   acceptance binds at once; the premium is an outstanding liability counted
 *   in the insolvency test, paid on success only and void on default.
 * - M2 standstill agreement: the borrower solicits uncommitted creditors; a
 *   signer is bound at once and may exit with one round's notice; signers see
 *   the certified committed claims, non-signers only if the borrower discloses them.
 * - M3 creditor committee: joining commits the creditor to roll; members see
 *   the members, their claims, the committed total and the exit ritual; an
 *   exit takes the bank run's 3-wave ritual (the paper gives debt rollover no
 *   other rule); no re-entry; strict-majority votes publish the committed
 *   total to outsiders. A member's committed amount is its current claim.
 *
 * Mechanism-response calls (Table 7) go to the targeted or committed
 * creditors: under M1 those with an offer this round or a binding agreement,
 * under M2 those solicited this round or signed, under M3 members and every
 * creditor who may still join.
 *
 * @module
 */
import type { EventBody } from "../../core/events.ts";
import { applyCentralProposal } from "../../frail/mechanisms/central_proposals.ts";
import { deliverCertified } from "../../frail/mechanisms/certified_delivery.ts";
import { isMember } from "../../frail/mechanisms/coalition.ts";
import { hasPendingOffer } from "../../frail/mechanisms/paid_offers.ts";
import { applyParticipantResponses } from "../../frail/mechanisms/participant_actions.ts";
import { isCommittedUnder } from "../../frail/mechanisms/profile.ts";
import { committedClaims } from "./commitments.ts";
import { BORROWER_ID, type DebtRolloverState, isActive } from "./state.ts";

function activeIds(s: DebtRolloverState): string[] {
  return s.creditors.filter((c) => isActive(s, c)).map((c) => c.id);
}

/**
 * Applies the borrower's M1 offers or M2 solicitation.
 *
 * @example
 * ```ts
 * import { applyProposal } from "./mechanism_steps.ts";
 * import { initialDebtRolloverState } from "./state.ts";
 * import { parseDebtRolloverParams } from "./params.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M1");
 * s.round = 1;
 * applyProposal(s, { offers: [{ target: "crd_01", amount: 0.05, lock_until: 4 }], disclose_terms_to: "all" });
 * if (s.m1!.offers[0].id !== "m1_t1_crd_01") throw new Error();
 * ```
 */
export function applyProposal(s: DebtRolloverState, report: Record<string, unknown>): EventBody[] {
  return applyCentralProposal(s, report, {
    round: s.round,
    central: BORROWER_ID,
    eligible: activeIds(s),
  });
}

/**
 * The creditors who get a mechanism-response call this round (Table 7).
 *
 * @example
 * ```ts
 * import { mechanismCallees } from "./mechanism_steps.ts";
 * import { initialDebtRolloverState } from "./state.ts";
 * import { parseDebtRolloverParams } from "./params.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M3");
 * s.round = 1;
 * if (mechanismCallees(s).length !== 8) throw new Error("everyone may join");
 * ```
 */
export function mechanismCallees(s: DebtRolloverState): string[] {
  const round = s.round;
  return activeIds(s).filter((id) => {
    if (s.m1) {
      return isCommittedUnder(s, id, round) || hasPendingOffer(s.m1, id);
    }
    if (s.m2) return isCommittedUnder(s, id, round) || s.m2.solicited.includes(id);
    if (s.m3) return isMember(s.m3, id) || !s.m3.exited.includes(id);
    return false;
  });
}

/**
 * Applies the creditors' mechanism actions in roster order, then closes the
 * round's mechanism business (unanswered offers expire, votes tally).
 *
 * @example
 * ```ts
 * import { applyResponses } from "./mechanism_steps.ts";
 * import { initialDebtRolloverState } from "./state.ts";
 * import { parseDebtRolloverParams } from "./params.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M3");
 * s.round = 1;
 * applyResponses(s, new Map([["crd_03", { proposal_actions: [{ action: "join" }] }]]));
 * if (s.m3!.members[0].amount !== 1) throw new Error("commits the claim as of the last settlement");
 * ```
 */
export function applyResponses(
  s: DebtRolloverState,
  reports: ReadonlyMap<string, Record<string, unknown>>,
): EventBody[] {
  const byId = new Map(s.creditors.map((c) => [c.id, c]));
  return applyParticipantResponses(s, reports, {
    round: s.round,
    order: s.creditors.map((c) => c.id),
    positionName: "claim",
    position: (id) => {
      const c = byId.get(id);
      return c && isActive(s, c) ? c.claim : 0;
    },
  });
}

/**
 * Delivers the round's certified messages to their authorized recipients
 * (M1: outstanding premiums to all and accepted terms as the borrower chose;
 * M2: committed claims to signers and, if disclosed, non-signers; M3: the
 * committee total after a passed vote).
 *
 * @example
 * ```ts
 * import { deliverMessages } from "./mechanism_steps.ts";
 * import { initialDebtRolloverState } from "./state.ts";
 * import { parseDebtRolloverParams } from "./params.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M1");
 * s.round = 1;
 * deliverMessages(s);
 * if (s.inbox["crd_05"][0].kind !== "outstanding_premiums") throw new Error();
 * ```
 */
export function deliverMessages(s: DebtRolloverState): EventBody[] {
  return deliverCertified(s, s.inbox, {
    round: s.round,
    central: BORROWER_ID,
    active: activeIds(s),
    committedTotal: () => committedClaims(s, s.round),
    participantKey: "creditor",
    compensationKind: "outstanding_premiums",
  });
}

/**
 * The central player's proposal step, shared by environments with a central
 * player: M1 offers (through `paid_offers.ts`) with the choice of who sees
 * the certified accepted terms, and M2 solicitations with the choice of
 * disclosing the certified aggregate to non-signers. Offer ids are
 * `m1_t<round>_<target>` and the solicitation id is `m2_t<round>`, or the
 * same without the round (`ids.ts`).
 *
 * @module
 */
import type { EventBody } from "../../core/events.ts";
import { type IdStyle, solicitationId } from "./ids.ts";
import { makeOffers, type OfferProposal } from "./paid_offers.ts";
import { isCommittedUnder, type MechanismProfile, type TermsRecipients } from "./profile.ts";

/** Options of {@linkcode applyCentralProposal}. */
export interface CentralProposalOptions {
  /** Current round. */
  round: number;
  /** The central player's id (the `agent` of the events). */
  central: string;
  /** Participants who may receive an offer or a solicitation, in roster order. */
  eligible: readonly string[];
  /** How offer and solicitation ids are written (`ids.ts`). Default `"round"`. */
  ids?: IdStyle;
}

/**
 * Applies the central player's report: under M1 `{offers, disclose_terms_to}`,
 * under M2 `{solicit, disclose_aggregate}` (`solicit` may hold `"all"`).
 * Committed participants are never solicited; refused offers are logged with
 * their reason.
 *
 * @example
 * ```ts
 * import { applyCentralProposal } from "./central_proposals.ts";
 * import { emptyProfile } from "./profile.ts";
 * const p = emptyProfile("M2");
 * applyCentralProposal(p, { solicit: ["all"], disclose_aggregate: true },
 *   { round: 1, central: "borrower", eligible: ["a", "b"] });
 * if (p.m2!.solicited.join() !== "a,b" || !p.m2!.discloseToNonSigners) throw new Error();
 * ```
 */
export function applyCentralProposal(
  profile: MechanismProfile,
  report: Record<string, unknown>,
  options: CentralProposalOptions,
): EventBody[] {
  const { round, central, eligible } = options;
  const ids = options.ids ?? "round";
  const events: EventBody[] = [];
  if (profile.m1) {
    const offers = (report.offers ?? []) as OfferProposal[];
    profile.m1.discloseTermsTo = (report.disclose_terms_to ?? "none") as TermsRecipients;
    // Who is eligible as a set: asked once per offer, of up to every participant.
    const may = new Set(eligible);
    makeOffers(profile.m1, offers, { round, eligible: (id) => may.has(id), ids }).forEach(
      (r, i) => {
        if (r.ok) {
          events.push({
            type: "mechanism",
            action: "offer",
            agent: central,
            target: r.offer.target,
            proposal_id: r.offer.id,
            amount: r.offer.amount,
            lock_until: r.offer.lockUntil,
          });
        } else {
          events.push({
            type: "mechanism",
            action: "refused",
            agent: central,
            requested: "offer",
            target: offers[i].target,
            reason: r.reason,
          });
        }
      },
    );
  }
  if (profile.m2) {
    const asked = (report.solicit ?? []) as string[];
    const all = asked.includes("all");
    const targets = eligible.filter((id) =>
      !isCommittedUnder(profile, id, round) && (all || asked.includes(id))
    );
    profile.m2.solicited = targets;
    profile.m2.discloseToNonSigners = report.disclose_aggregate === true;
    if (targets.length) {
      events.push({
        type: "mechanism",
        action: "solicit",
        agent: central,
        proposal_id: solicitationId(ids, round),
        targets,
      });
    }
  }
  return events;
}

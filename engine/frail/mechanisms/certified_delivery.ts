/**
 * Delivery of a round's certified mechanism messages (Appendix F step 2),
 * shared by environments with a central player and a coalition:
 * - M1: the outstanding compensation in aggregate to every active
 *   participant, and the accepted individual terms to whom the central player chose;
 * - M2: the certified committed aggregate to signers, and to non-signers when
 *   the central player chose to disclose it;
 * - M3: the coalition total to the outsiders named by a vote that passed this
 *   round (votes are tallied the round after they are proposed).
 *
 * @module
 */
import type { EventBody } from "../../core/events.ts";
import type { Message } from "../types.ts";
import { coalitionTotal } from "./coalition.ts";
import type { MechanismProfile } from "./profile.ts";
import { promisedTotal } from "./profile.ts";

/** Options of {@linkcode deliverCertified}. */
export interface DeliveryOptions {
  /** Current round. */
  round: number;
  /** The central player's id (sender of M1 and M2 messages). */
  central: string;
  /** Participants who can still receive messages, in roster order. */
  active: readonly string[];
  /**
   * The certified committed amount under M2 (e.g. signers' balances or
   * claims), called only under M2, the one mechanism that certifies it.
   */
  committedTotal: () => number;
  /** Key naming the participant in accepted terms, e.g. `"depositor"` or `"creditor"`. */
  participantKey: string;
  /** Message kind of the M1 aggregate, e.g. `"outstanding_compensation"`. */
  compensationKind: string;
}

/**
 * Delivers the round's certified messages into `inbox` (by recipient id) and
 * returns one `message` event per message sent.
 *
 * @example
 * ```ts
 * import { deliverCertified } from "./certified_delivery.ts";
 * import { emptyProfile } from "./profile.ts";
 * import type { Message } from "../types.ts";
 * const inbox: Record<string, Message[]> = {};
 * deliverCertified(emptyProfile("M1"), inbox, {
 *   round: 1, central: "borrower", active: ["a"], committedTotal: () => 0,
 *   participantKey: "creditor", compensationKind: "outstanding_premiums",
 * });
 * if (inbox["a"][0].kind !== "outstanding_premiums") throw new Error();
 * ```
 */
export function deliverCertified(
  profile: MechanismProfile,
  inbox: Record<string, Message[]>,
  options: DeliveryOptions,
): EventBody[] {
  const { round, central, active } = options;
  const events: EventBody[] = [];
  // Who is active, as a set (asked for every named recipient), made when first needed.
  let activeSet: Set<string> | undefined;
  const isActive = (x: string) => (activeSet ??= new Set(active)).has(x);
  const send = (to: readonly string[] | "all", m: Message) => {
    const ids = to === "all" ? [...active] : to.filter(isActive);
    if (!ids.length) return;
    for (const id of ids) (inbox[id] ??= []).push(m);
    events.push({
      type: "message",
      from: m.from,
      to: to === "all" ? "all" : ids,
      kind: m.kind,
      content: m.content,
    });
  };
  if (profile.m1) {
    send("all", {
      from: central,
      kind: options.compensationKind,
      content: { total: promisedTotal(profile) },
    });
    if (profile.m1.discloseTermsTo !== "none") {
      // Each term built field by field: a literal with a computed key (the
      // participant's) is made by a slow runtime call, once per accepted offer
      // per round. The same fields in the same order.
      const key = options.participantKey;
      const terms: Record<string, unknown>[] = [];
      for (const o of profile.m1.offers) {
        if (o.status !== "accepted") continue;
        const term: Record<string, unknown> = {};
        term[key] = o.target;
        term.amount = o.amount;
        term.lock_rounds_remaining = Math.max(0, o.lockUntil - round + 1);
        terms.push(term);
      }
      send(profile.m1.discloseTermsTo, {
        from: central,
        kind: "accepted_terms",
        content: { terms },
      });
    }
  }
  if (profile.m2) {
    const signers = profile.m2.signers.map((x) => x.id);
    const content = { total: options.committedTotal(), signers: signers.length };
    send(signers, { from: central, kind: "aggregate_committed", content });
    if (profile.m2.discloseToNonSigners) {
      const signed = new Set(signers);
      send(active.filter((x) => !signed.has(x)), {
        from: central,
        kind: "aggregate_committed",
        content,
      });
    }
  }
  if (profile.m3) {
    const m3 = profile.m3;
    for (const v of m3.votes.filter((x) => x.status === "passed" && x.round === round - 1)) {
      const members = m3.members.map((m) => m.id);
      const outsiders = v.announceTo === "all"
        ? active.filter((x) => !members.includes(x))
        : v.announceTo.filter((x) => !members.includes(x));
      send(outsiders, {
        from: "coalition",
        kind: "coalition_total",
        content: { total: coalitionTotal(m3), members: members.length, vote_id: v.id },
      });
    }
  }
  return events;
}

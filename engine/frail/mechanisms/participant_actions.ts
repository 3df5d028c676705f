/**
 * The participants' mechanism step, shared by every environment whose
 * mechanism response follows the shared `mechanismResponseContract` of
 * `contracts.ts` (accept / decline an M1 offer; sign, decline or exit an M2
 * agreement; join, request an exit, propose or cast an announcement vote in
 * an M3 coalition). Actions are applied in roster order; a refused action is
 * logged with its reason and changes nothing. The round's mechanism business
 * then closes: unanswered M1 offers expire and M3 votes proposed in an
 * earlier round are tallied.
 *
 * @module
 */
import type { EventBody } from "../../core/events.ts";
import type { ParticipantAction } from "./contracts.ts";
import { declareExit, sign } from "./agreement.ts";
import { castVote, isMember, join, proposeVote, tallyVotes } from "./coalition.ts";
import { requestExit } from "./exit_ritual.ts";
import { type IdStyle, solicitationId } from "./ids.ts";
import { answerOffer, expireOffers } from "./paid_offers.ts";
import type { MechanismProfile } from "./profile.ts";

/** Options of {@linkcode applyParticipantResponses}. */
export interface ParticipantResponseOptions {
  /** Current round. */
  round: number;
  /** Participant ids in roster order (reports are applied in this order). */
  order: readonly string[];
  /**
   * The position a participant commits on signing or joining (a deposit
   * balance, a current claim); a join with a position of 0 or less is refused.
   */
  position(id: string): number;
  /** What the position is called in refusals, e.g. `"deposit"` or `"claim"`. Default `"position"`. */
  positionName?: string;
  /** How agreement and vote ids are written (`ids.ts`). Default `"round"`. */
  ids?: IdStyle;
}

/**
 * Applies every participant's `proposal_actions`, then expires unanswered M1
 * offers and tallies M3 votes. Returns the events, in order.
 *
 * @example
 * ```ts
 * import { applyParticipantResponses } from "./participant_actions.ts";
 * import { emptyProfile } from "./profile.ts";
 * const p = emptyProfile("M3");
 * const events = applyParticipantResponses(p, new Map([["a", { proposal_actions: [{ action: "join" }] }]]),
 *   { round: 1, order: ["a", "b"], position: () => 1.02 });
 * if (p.m3!.members[0].amount !== 1.02 || events[0].type !== "mechanism") throw new Error();
 * ```
 */
export function applyParticipantResponses(
  profile: MechanismProfile,
  reports: ReadonlyMap<string, Record<string, unknown>>,
  options: ParticipantResponseOptions,
): EventBody[] {
  const events: EventBody[] = [];
  for (const id of options.order) {
    const r = reports.get(id);
    if (!r) continue;
    for (const a of (r.proposal_actions ?? []) as ParticipantAction[]) {
      const refused = applyAction(profile, id, a, options, events);
      if (refused) {
        events.push({
          type: "mechanism",
          action: "refused",
          agent: id,
          requested: a.action,
          reason: refused,
        });
      }
    }
  }
  if (profile.m1) {
    for (const o of expireOffers(profile.m1)) {
      events.push({
        type: "mechanism",
        action: "offer_expired",
        agent: o.target,
        proposal_id: o.id,
      });
    }
  }
  if (profile.m3) {
    for (const v of tallyVotes(profile.m3, options.round)) {
      events.push({
        type: "mechanism",
        action: "vote_result",
        agent: v.proposer,
        vote_id: v.id,
        passed: v.status === "passed",
        support: v.supporters.length,
        members: profile.m3.members.length,
      });
    }
  }
  return events;
}

function applyAction(
  profile: MechanismProfile,
  id: string,
  a: ParticipantAction,
  options: ParticipantResponseOptions,
  events: EventBody[],
): string | undefined {
  const { round } = options;
  const ok = (action: string, extra: Record<string, unknown> = {}) => {
    events.push({ type: "mechanism", action, agent: id, ...extra });
    return undefined;
  };
  switch (a.action) {
    case "accept":
    case "decline": {
      if (!profile.m1) {
        return a.action === "decline" && profile.m2
          ? ok("decline")
          : "no offers under this mechanism";
      }
      if (!a.proposal_id) return "decline needs a proposal_id";
      const o = answerOffer(profile.m1, id, a.proposal_id, a.action === "accept");
      if (!o) return `no pending offer ${a.proposal_id} to ${id}`;
      return ok(a.action, { proposal_id: o.id, amount: o.amount, lock_until: o.lockUntil });
    }
    case "sign": {
      if (!profile.m2) return "no agreement under this mechanism";
      const why = sign(profile.m2, id, round);
      return why ?? ok("sign", {
        proposal_id: solicitationId(options.ids ?? "round", round),
        amount: options.position(id),
      });
    }
    case "exit": {
      if (!profile.m2) return "exit with notice exists only under M2";
      return declareExit(profile.m2, id, round) ??
        ok("exit_declared", { effective_round: round + 1 });
    }
    case "join": {
      if (!profile.m3) return "no coalition under this mechanism";
      const amount = options.position(id);
      if (!(amount > 0)) return `${id} has no ${options.positionName ?? "position"} to commit`;
      return join(profile.m3, { id, since: round, amount }) ?? ok("join", { amount });
    }
    case "exit_request": {
      if (!profile.m3) return "exit requests exist only under M3";
      if (!isMember(profile.m3, id)) return `${id} is not a member`;
      const opened = profile.m3.ritual === null;
      profile.m3.ritual = requestExit(profile.m3.ritual, id, round);
      return ok(opened ? "exit_request" : "exit_list_join", { opened: profile.m3.ritual.opened });
    }
    case "propose_announcement_vote": {
      if (!profile.m3) return "votes exist only under M3";
      const v = proposeVote(profile.m3, {
        proposer: id,
        announceTo: a.announce_to,
        round,
        ids: options.ids,
      });
      return typeof v === "string"
        ? v
        : ok("vote_proposed", { vote_id: v.id, announce_to: v.announceTo });
    }
    case "vote": {
      if (!profile.m3) return "votes exist only under M3";
      const why = castVote(profile.m3, { voter: id, voteId: a.vote_id, support: a.support, round });
      return why ?? ok("vote_cast", { vote_id: a.vote_id, support: a.support });
    }
  }
}

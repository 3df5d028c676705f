/**
 * The crowdfunding mechanism steps (Appendix F steps 1 and 2): the founder's
 * proposals (M1 paid pledge offers, M2 letter-of-intent solicitations), the
 * backers' responses (M1-M2 accept, decline, sign, exit; M3 join, exit request
 * and disclosure ballot), the backer coalition's in-round exit confirmations,
 * and the delivery of certified messages. M1-M2 proposals, responses and
 * certified delivery reuse the shared `central_proposals.ts`,
 * `participant_actions.ts` and `certified_delivery.ts`; only the pledge a
 * commitment makes and the backer coalition live here.
 *
 * Choices where the paper leaves a detail open (also in docs/modelling-choices.md):
 * - Every commitment pledges one unit at once if the backer is not pledged
 *   (Appendix G.3 says so for the coalition; M1 and M2 follow the same rule).
 * - M1: a paid pledge agreement locks the pledge through `lock_until`; the
 *   bonus is the offer's `amount`. Offers go to backers not already locked.
 * - M2: a letter of intent binds at once; an exit declared in round t takes
 *   effect at the start of round t+1 (one-round notice).
 * - M3: an exit request is followed by three confirmation hands in the same
 *   round (`in_round_exit.ts`); a confirmed member stays locked through that
 *   round's financial step, leaves at the end of the round and may never
 *   rejoin. The disclosure ballot is cast in the same call; an outsider is told
 *   the locked total (and nothing else) when strictly more than half of the
 *   members remaining after this round's confirmed exits named it
 *   (`majority_disclosure.ts`). The founder is an outsider too: `"all"` names
 *   it, and a list may (its id is `founder`); it is told nothing else of the
 *   coalition. The bank run's proposal-then-vote cycle is not used.
 *
 * @module
 */
import type { EventBody } from "../../core/events.ts";
import { applyCentralProposal } from "../../frail/mechanisms/central_proposals.ts";
import { deliverCertified } from "../../frail/mechanisms/certified_delivery.ts";
import { isMember, join } from "../../frail/mechanisms/coalition.ts";
import { confirmedExits, confirmExit, openExit } from "../../frail/mechanisms/in_round_exit.ts";
import {
  type DisclosureBallot,
  majorityRecipients,
} from "../../frail/mechanisms/majority_disclosure.ts";
import { applyParticipantResponses } from "../../frail/mechanisms/participant_actions.ts";
import type { MechanismProfile } from "../../frail/mechanisms/profile.ts";
import type { Message } from "../../frail/types.ts";
import { committedAmount, lockedTotal } from "./commitments.ts";
import { type CrowdfundingState, FOUNDER_ID, pledgeUnit } from "./state.ts";

/** The central part of the profile (M1-M2); the backer coalition has its own rules. */
function central(s: CrowdfundingState): MechanismProfile {
  return { m1: s.m1, m2: s.m2, m3: null };
}

/**
 * Applies the founder's M1 offers or M2 solicitation (shared
 * `central_proposals.ts`; every backer is eligible, locked ones are refused).
 *
 * @example
 * ```ts
 * import { applyProposal } from "./mechanism_steps.ts";
 * import { initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M1");
 * s.round = 1;
 * applyProposal(s, { offers: [{ target: "bkr_01", amount: 0.03, lock_until: 9 }], disclose_terms_to: "all" });
 * if (s.m1!.offers.length !== 1) throw new Error();
 * ```
 */
export function applyProposal(s: CrowdfundingState, report: Record<string, unknown>): EventBody[] {
  return applyCentralProposal(central(s), report, {
    round: s.round,
    central: FOUNDER_ID,
    eligible: s.backers.map((b) => b.id),
  });
}

/**
 * Applies the backers' M1-M2 actions (shared `participant_actions.ts`: accept,
 * decline, sign, exit; unanswered offers expire), then pledges one unit for
 * every backer who accepted or signed this round and was not yet pledged.
 *
 * @example
 * ```ts
 * import { applyProposal, applyResponses } from "./mechanism_steps.ts";
 * import { initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M2");
 * s.round = 1;
 * applyProposal(s, { solicit: ["all"], disclose_aggregate: false });
 * applyResponses(s, new Map([["bkr_01", { proposal_actions: [{ action: "sign" }] }]]));
 * if (s.backers[0].pledged !== 1 || s.m2!.signers.length !== 1) throw new Error();
 * ```
 */
export function applyResponses(
  s: CrowdfundingState,
  reports: ReadonlyMap<string, Record<string, unknown>>,
): EventBody[] {
  const byId = new Map(s.backers.map((b) => [b.id, b]));
  const events = applyParticipantResponses(central(s), reports, {
    round: s.round,
    order: s.backers.map((b) => b.id),
    position: (id) => byId.get(id)!.pledged || s.params.unitPledge,
  });
  const committing = events.filter((e) =>
    e.type === "mechanism" && (e.action === "accept" || e.action === "sign")
  ).map((e) => (e as { agent: string }).agent);
  for (const id of committing) {
    const face = pledgeUnit(s, byId.get(id)!);
    if (face > 0) {
      events.push({ type: "transition", kind: "commitment_pledge", agent: id, amount: face });
    }
  }
  return events;
}

/**
 * Applies the M3 coalition responses in roster order: joins (pledging one
 * unit if needed), exit requests (opening an in-round exit) and disclosure
 * ballots (kept for {@linkcode deliverMessages}).
 *
 * @example
 * ```ts
 * import { applyCoalitionResponses } from "./mechanism_steps.ts";
 * import { initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M3");
 * s.round = 1;
 * applyCoalitionResponses(s, new Map([["bkr_01", { join: true, exit_request: false, vote: null }]]));
 * if (s.m3!.members.length !== 1 || s.backers[0].pledged !== 1) throw new Error();
 * ```
 */
export function applyCoalitionResponses(
  s: CrowdfundingState,
  reports: ReadonlyMap<string, Record<string, unknown>>,
): EventBody[] {
  const events: EventBody[] = [];
  const m3 = s.m3;
  if (!m3) return events;
  const refuse = (id: string, requested: string, reason: string) =>
    events.push({ type: "mechanism", action: "refused", agent: id, requested, reason });
  for (const b of s.backers) {
    const r = reports.get(b.id);
    if (!r) continue;
    const member = isMember(m3, b.id);
    if (r.join === true) {
      if (member) refuse(b.id, "join", `${b.id} is already a member`);
      else if (m3.exited.includes(b.id)) {
        refuse(b.id, "join", `${b.id} left the coalition and cannot rejoin`);
      } else {
        const pledged = pledgeUnit(s, b);
        join(m3, { id: b.id, since: s.round, amount: b.pledged });
        events.push({ type: "mechanism", action: "join", agent: b.id, pledged, face: b.pledged });
      }
    }
    if (r.exit_request === true) {
      if (!member) refuse(b.id, "exit_request", `${b.id} is not a member`);
      else {
        const why = openExit(m3.exits, { member: b.id, round: s.round });
        if (why) refuse(b.id, "exit_request", why);
        else events.push({ type: "mechanism", action: "exit_request", agent: b.id });
      }
    }
    const vote = r.vote as { announce_to: "all" | string[] } | null | undefined;
    if (vote) {
      if (!isMember(m3, b.id)) refuse(b.id, "vote", `${b.id} is not a member`);
      else {
        m3.ballots[b.id] = vote.announce_to;
        events.push({
          type: "mechanism",
          action: "ballot",
          agent: b.id,
          announce_to: vote.announce_to,
        });
      }
    }
  }
  return events;
}

/**
 * Applies one hand of exit confirmations.
 *
 * @example
 * ```ts
 * import { applyExitConfirmations } from "./mechanism_steps.ts";
 * import { initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M3");
 * s.round = 2;
 * s.m3!.exits.push({ member: "bkr_01", round: 2, confirmations: 2, status: "pending" });
 * applyExitConfirmations(s, new Map([["bkr_01", { confirm: true }]]), 3);
 * if (s.m3!.exits[0].status !== "confirmed") throw new Error();
 * ```
 */
export function applyExitConfirmations(
  s: CrowdfundingState,
  reports: ReadonlyMap<string, Record<string, unknown>>,
  hand: number,
): EventBody[] {
  const events: EventBody[] = [];
  if (!s.m3) return events;
  for (const [id, r] of reports) {
    const status = confirmExit(s.m3.exits, {
      member: id,
      round: s.round,
      confirm: r.confirm === true,
    });
    events.push({
      type: "mechanism",
      action: status === "cancelled" ? "exit_cancelled" : "exit_confirmation",
      agent: id,
      hand,
      status,
    });
  }
  return events;
}

/**
 * Delivers the round's certified messages to their authorized recipients
 * (Appendix F step 2) and records them in the inbox: M1 outstanding bonuses
 * (to all) and accepted terms (to whom the founder chose), M2 aggregate
 * committed (to signers, and to non-signers when the founder chose), M3 the
 * locked total (to the outsiders, the founder included, a strict majority of
 * members named).
 *
 * @example
 * ```ts
 * import { deliverMessages } from "./mechanism_steps.ts";
 * import { initialCrowdfundingState } from "./state.ts";
 * import { parseCrowdfundingParams } from "./params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M1");
 * s.round = 1;
 * deliverMessages(s);
 * if (s.inbox["bkr_01"][0].kind !== "outstanding_bonuses") throw new Error();
 * ```
 */
export function deliverMessages(s: CrowdfundingState): EventBody[] {
  const everyone = s.backers.map((b) => b.id);
  const events = deliverCertified(central(s), s.inbox, {
    round: s.round,
    central: FOUNDER_ID,
    active: everyone,
    committedTotal: () => committedAmount(s, s.round),
    participantKey: "backer",
    compensationKind: "outstanding_bonuses",
  });
  if (s.m3) {
    const leaving = confirmedExits(s.m3.exits, s.round);
    const members = s.m3.members.map((m) => m.id);
    const voters = members.filter((x) => !leaving.includes(x));
    const ballots = new Map<string, DisclosureBallot>(Object.entries(s.m3.ballots));
    const told = majorityRecipients(ballots, {
      voters,
      outsiders: [...everyone.filter((x) => !members.includes(x)), FOUNDER_ID],
    });
    const cast = voters.filter((v) => ballots.get(v) != null).length;
    if (cast > 0) {
      events.push({
        type: "mechanism",
        action: "ballot_result",
        agent: "coalition",
        voters: voters.length,
        ballots: cast,
        recipients: told,
      });
    }
    if (told.length) {
      const m: Message = {
        from: "coalition",
        kind: "coalition_locked_total",
        content: { total: lockedTotal(s) },
      };
      for (const id of told) (s.inbox[id] ??= []).push(m);
      events.push({ type: "message", from: m.from, to: told, kind: m.kind, content: m.content });
    }
  }
  return events;
}

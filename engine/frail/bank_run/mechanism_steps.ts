/**
 * The bank run's mechanism steps (Appendix F steps 1 and 2): the bank's
 * proposals (M1 offers, M2 solicitations), the depositors' responses (accept,
 * sign, exit, join, exit request, votes), and the delivery of certified
 * messages to their authorized recipients.
 *
 * @module
 */
import type { EventBody } from "../../core/events.ts";
import { declareExit, sign } from "../mechanisms/agreement.ts";
import {
  castVote,
  coalitionTotal,
  isMember,
  join,
  proposeVote,
  tallyVotes,
} from "../mechanisms/coalition.ts";
import { requestExit } from "../mechanisms/exit_ritual.ts";
import { answerOffer, expireOffers, makeOffers } from "../mechanisms/paid_offers.ts";
import type { Message } from "../types.ts";
import { committedAmount, isCommitted, promisedCompensation } from "./commitments.ts";
import type { ParticipantAction } from "./contracts.ts";
import type { BankRunState } from "./state.ts";
import { isActive } from "./state.ts";

/** The bank's id. */
export const BANK_ID = "bank";

/**
 * Applies the bank's M1 offers or M2 solicitation.
 *
 * @example
 * ```ts
 * import { applyProposal } from "./mechanism_steps.ts";
 * import { initialBankRunState } from "./state.ts";
 * import { parseBankRunParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * const s = initialBankRunState(parseBankRunParams({}), "M1",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * s.round = 1;
 * applyProposal(s, { offers: [{ target: "dep_01", amount: 0.05, lock_until: 12 }], disclose_terms_to: "all" });
 * if (s.m1!.offers.length !== 1) throw new Error();
 * ```
 */
export function applyProposal(s: BankRunState, report: Record<string, unknown>): EventBody[] {
  const events: EventBody[] = [];
  const eligible = (id: string) => {
    const d = s.depositors.find((x) => x.id === id);
    return d !== undefined && isActive(s, d);
  };
  if (s.m1) {
    const offers = report.offers as { target: string; amount: number; lock_until: number }[];
    s.m1.discloseTermsTo = (report.disclose_terms_to ?? "none") as "none" | "all" | string[];
    makeOffers(s.m1, offers, { round: s.round, eligible }).forEach((r, i) => {
      if (r.ok) {
        events.push({
          type: "mechanism",
          action: "offer",
          agent: BANK_ID,
          target: r.offer.target,
          proposal_id: r.offer.id,
          amount: r.offer.amount,
          lock_until: r.offer.lockUntil,
        });
      } else {
        events.push({
          type: "mechanism",
          action: "refused",
          agent: BANK_ID,
          requested: "offer",
          target: offers[i].target,
          reason: r.reason,
        });
      }
    });
  }
  if (s.m2) {
    const asked = report.solicit as string[];
    const all = asked.includes("all");
    const targets = s.depositors.filter((d) =>
      isActive(s, d) && !isCommitted(s, d.id, s.round) && (all || asked.includes(d.id))
    ).map((d) => d.id);
    s.m2.solicited = targets;
    s.m2.discloseToNonSigners = report.disclose_aggregate === true;
    if (targets.length) {
      events.push({
        type: "mechanism",
        action: "solicit",
        agent: BANK_ID,
        proposal_id: `m2_t${s.round}`,
        targets,
      });
    }
  }
  return events;
}

/**
 * Applies the depositors' mechanism actions, in roster order, then closes the
 * round's mechanism business (M1 unanswered offers expire, M3 votes tally).
 *
 * @example
 * ```ts
 * import { applyResponses } from "./mechanism_steps.ts";
 * import { initialBankRunState } from "./state.ts";
 * import { parseBankRunParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * const s = initialBankRunState(parseBankRunParams({}), "M3",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * s.round = 1;
 * applyResponses(s, new Map([["dep_01", { proposal_actions: [{ action: "join" }] }]]));
 * if (s.m3!.members.length !== 1) throw new Error();
 * ```
 */
export function applyResponses(
  s: BankRunState,
  reports: ReadonlyMap<string, Record<string, unknown>>,
): EventBody[] {
  const events: EventBody[] = [];
  for (const d of s.depositors) {
    const r = reports.get(d.id);
    if (!r) continue;
    for (const a of r.proposal_actions as ParticipantAction[]) {
      const refused = applyAction(s, d.id, a, events);
      if (refused) {
        events.push({
          type: "mechanism",
          action: "refused",
          agent: d.id,
          requested: a.action,
          reason: refused,
        });
      }
    }
  }
  if (s.m1) {
    for (const o of expireOffers(s.m1)) {
      events.push({
        type: "mechanism",
        action: "offer_expired",
        agent: o.target,
        proposal_id: o.id,
      });
    }
  }
  if (s.m3) {
    for (const v of tallyVotes(s.m3, s.round)) {
      events.push({
        type: "mechanism",
        action: "vote_result",
        agent: v.proposer,
        vote_id: v.id,
        passed: v.status === "passed",
        support: v.supporters.length,
        members: s.m3.members.length,
      });
    }
  }
  return events;
}

function applyAction(
  s: BankRunState,
  id: string,
  a: ParticipantAction,
  events: EventBody[],
): string | undefined {
  const round = s.round;
  const d = s.depositors.find((x) => x.id === id)!;
  const ok = (action: string, extra: Record<string, unknown> = {}) => {
    events.push({ type: "mechanism", action, agent: id, ...extra });
    return undefined;
  };
  switch (a.action) {
    case "accept":
    case "decline": {
      if (!s.m1) {
        return a.action === "decline" && s.m2 ? ok("decline") : "no offers under this mechanism";
      }
      if (!a.proposal_id) return "decline needs a proposal_id";
      const o = answerOffer(s.m1, id, a.proposal_id, a.action === "accept");
      if (!o) return `no pending offer ${a.proposal_id} to ${id}`;
      return ok(a.action, { proposal_id: o.id, amount: o.amount, lock_until: o.lockUntil });
    }
    case "sign": {
      if (!s.m2) return "no agreement under this mechanism";
      const why = sign(s.m2, id, round);
      return why ?? ok("sign", { proposal_id: `m2_t${round}`, amount: d.balance });
    }
    case "exit": {
      if (!s.m2) return "exit with notice exists only under M2";
      return declareExit(s.m2, id, round) ?? ok("exit_declared", { effective_round: round + 1 });
    }
    case "join": {
      if (!s.m3) return "no coalition under this mechanism";
      if (d.balance <= 0) return `${id} has no deposit to commit`;
      return join(s.m3, { id, since: round, amount: d.balance }) ??
        ok("join", { amount: d.balance });
    }
    case "exit_request": {
      if (!s.m3) return "exit requests exist only under M3";
      if (!isMember(s.m3, id)) return `${id} is not a member`;
      const opened = s.m3.ritual === null;
      s.m3.ritual = requestExit(s.m3.ritual, id, round);
      return ok(opened ? "exit_request" : "exit_list_join", { opened: s.m3.ritual.opened });
    }
    case "propose_announcement_vote": {
      if (!s.m3) return "votes exist only under M3";
      const v = proposeVote(s.m3, { proposer: id, announceTo: a.announce_to, round });
      return typeof v === "string"
        ? v
        : ok("vote_proposed", { vote_id: v.id, announce_to: v.announceTo });
    }
    case "vote": {
      if (!s.m3) return "votes exist only under M3";
      const why = castVote(s.m3, { voter: id, voteId: a.vote_id, support: a.support, round });
      return why ?? ok("vote_cast", { vote_id: a.vote_id, support: a.support });
    }
  }
}

/**
 * Delivers the round's certified messages to their authorized recipients
 * (Appendix F step 2) and records them in the inbox.
 *
 * @example
 * ```ts
 * import { deliverMessages } from "./mechanism_steps.ts";
 * import { initialBankRunState } from "./state.ts";
 * import { parseBankRunParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * const s = initialBankRunState(parseBankRunParams({}), "M1",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * s.round = 1;
 * deliverMessages(s);
 * if (s.inbox["dep_01"][0].kind !== "outstanding_compensation") throw new Error();
 * ```
 */
export function deliverMessages(s: BankRunState): EventBody[] {
  const events: EventBody[] = [];
  const active = s.depositors.filter((d) => isActive(s, d)).map((d) => d.id);
  const send = (to: string[] | "all", m: Message) => {
    const ids = to === "all" ? active : to.filter((x) => active.includes(x));
    if (!ids.length) return;
    for (const id of ids) (s.inbox[id] ??= []).push(m);
    events.push({
      type: "message",
      from: m.from,
      to: to === "all" ? "all" : ids,
      kind: m.kind,
      content: m.content,
    });
  };
  if (s.m1) {
    send("all", {
      from: BANK_ID,
      kind: "outstanding_compensation",
      content: { total: promisedCompensation(s) },
    });
    if (s.m1.discloseTermsTo !== "none") {
      const terms = s.m1.offers.filter((o) => o.status === "accepted").map((o) => ({
        depositor: o.target,
        amount: o.amount,
        lock_rounds_remaining: Math.max(0, o.lockUntil - s.round + 1),
      }));
      send(s.m1.discloseTermsTo, { from: BANK_ID, kind: "accepted_terms", content: { terms } });
    }
  }
  if (s.m2) {
    const signers = s.m2.signers.map((x) => x.id);
    const content = { total: committedAmount(s, s.round), signers: signers.length };
    send(signers, { from: BANK_ID, kind: "aggregate_committed", content });
    if (s.m2.discloseToNonSigners) {
      send(active.filter((x) => !signers.includes(x)), {
        from: BANK_ID,
        kind: "aggregate_committed",
        content,
      });
    }
  }
  if (s.m3) {
    // Votes are tallied in the round after the proposal: announce those passed this round.
    for (const v of s.m3.votes.filter((x) => x.status === "passed" && x.round === s.round - 1)) {
      const members = s.m3.members.map((m) => m.id);
      const outsiders = v.announceTo === "all"
        ? active.filter((x) => !members.includes(x))
        : v.announceTo.filter((x) => !members.includes(x));
      send(outsiders, {
        from: "coalition",
        kind: "coalition_total",
        content: { total: coalitionTotal(s.m3), members: members.length, vote_id: v.id },
      });
    }
  }
  return events;
}

/**
 * The bank run's mechanism steps (Appendix F steps 1 and 2), on the shared
 * machinery of `../mechanisms/`: the bank's proposals (M1 offers, M2
 * solicitations) to the depositors with money at the bank, the depositors'
 * responses (accept, sign, exit, join, exit request, votes; a depositor
 * commits its whole balance), and the delivery of certified messages to the
 * depositors with money at the bank.
 *
 * Mechanism ids carry no round (`../mechanisms/ids.ts`), and an M1 offer's
 * `lock_rounds` becomes the last binding round `round + lock_rounds - 1`
 * here: bank-run agents are told neither the round nor the horizon.
 *
 * @module
 */
import type { EventBody } from "../../core/events.ts";
import { applyCentralProposal } from "../../frail/mechanisms/central_proposals.ts";
import { deliverCertified } from "../../frail/mechanisms/certified_delivery.ts";
import type { OfferProposal } from "../../frail/mechanisms/paid_offers.ts";
import { applyParticipantResponses } from "../../frail/mechanisms/participant_actions.ts";
import type { RetentionOffer } from "./contracts.ts";
import { committedAmount } from "./commitments.ts";
import { BANK_ID, type BankRunState, isActive } from "./state.ts";

/**
 * Ids of the depositors with money at the bank, in roster order (none once the episode is over).
 *
 * @example
 * ```ts
 * import { activeDepositors } from "./mechanism_steps.ts";
 * import { initialBankRunState } from "./state.ts";
 * import { parseBankRunParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * const s = initialBankRunState(parseBankRunParams({}), "M0",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * s.depositors[0].balance = 0;
 * if (activeDepositors(s).length !== 14) throw new Error();
 * ```
 */
export function activeDepositors(s: BankRunState): string[] {
  const ids: string[] = [];
  for (const d of s.depositors) if (isActive(s, d)) ids.push(d.id);
  return ids;
}

/**
 * Applies the bank's M1 offers (each lock converted from rounds to its last
 * binding round) or M2 solicitation.
 *
 * @example
 * ```ts
 * import { applyProposal } from "./mechanism_steps.ts";
 * import { initialBankRunState } from "./state.ts";
 * import { parseBankRunParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * const s = initialBankRunState(parseBankRunParams({}), "M1",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * s.round = 3;
 * applyProposal(s, { offers: [{ target: "dep_01", amount: 0.05, lock_rounds: 4 }], disclose_terms_to: "all" });
 * const [o] = s.m1!.offers;
 * if (o.id !== "m1_dep_01" || o.lockUntil !== 6) throw new Error("binds rounds 3, 4, 5 and 6");
 * ```
 */
export function applyProposal(s: BankRunState, report: Record<string, unknown>): EventBody[] {
  const offers = (report.offers ?? []) as RetentionOffer[];
  const converted: OfferProposal[] = offers.map((o) => ({
    target: o.target,
    amount: o.amount,
    lock_until: lastBindingRound(s.round, o.lock_rounds),
  }));
  return applyCentralProposal(s, { ...report, offers: converted }, {
    round: s.round,
    central: BANK_ID,
    eligible: activeDepositors(s),
    ids: "plain",
  });
}

/**
 * The last round an M1 offer made in `round` binds when it locks for
 * `lockRounds` rounds (the offer's round is the first).
 *
 * @example
 * ```ts
 * import { lastBindingRound } from "./mechanism_steps.ts";
 * if (lastBindingRound(3, 4) !== 6) throw new Error("rounds 3, 4, 5 and 6");
 * ```
 */
export function lastBindingRound(round: number, lockRounds: number): number {
  return round + lockRounds - 1;
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
  const byId = new Map(s.depositors.map((d) => [d.id, d]));
  return applyParticipantResponses(s, reports, {
    round: s.round,
    order: s.depositors.map((d) => d.id),
    position: (id) => byId.get(id)!.balance,
    positionName: "deposit",
    ids: "plain",
  });
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
  // Only a mechanism certifies anything (M0 delivers nothing).
  if (!(s.m1 || s.m2 || s.m3)) return [];
  return deliverCertified(s, s.inbox, {
    round: s.round,
    central: BANK_ID,
    active: activeDepositors(s),
    committedTotal: () => committedAmount(s, s.round),
    participantKey: "depositor",
    compensationKind: "outstanding_compensation",
  });
}

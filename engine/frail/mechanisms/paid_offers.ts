/**
 * M1, compensated commitments: the central player offers target-specific
 * compensation for a commitment lasting until `lock_until` (inclusive).
 * Acceptance binds at once and cannot be revoked; the compensation is a
 * liability of the central player, paid only on successful settlement.
 *
 * @module
 */

import { type IdStyle, offerId } from "./ids.ts";

/** One offer and what became of it. */
export interface Offer {
  /** Offer id, e.g. `"m1_t1_crd_03"` (or `"m1_dep_03"` without the round, see `ids.ts`). */
  id: string;
  /** The participant it is addressed to. */
  target: string;
  /** Compensation promised on acceptance. */
  amount: number;
  /** Last round the commitment binds (inclusive). */
  lockUntil: number;
  /** Round the offer was made. */
  round: number;
  /** `pending` until answered; unanswered offers expire at the end of their round. */
  status: "pending" | "accepted" | "declined" | "expired";
}

/** M1 state. */
export interface PaidOffersState {
  /** Every offer made, in order. */
  offers: Offer[];
}

/** A proposed offer as reported by the central player. */
export interface OfferProposal {
  /** Target id. */
  target: string;
  /** Compensation. */
  amount: number;
  /** Last binding round. */
  lock_until: number;
}

/** Options of {@linkcode makeOffers}. */
export interface MakeOffersOptions {
  /** Current round. */
  round: number;
  /** Who may receive an offer (the environment decides). */
  eligible: (id: string) => boolean;
  /** How offer ids are written (`ids.ts`). Default `"round"`. */
  ids?: IdStyle;
}

/** Why a proposal was refused, or the offer made. */
export type OfferResult = { ok: true; offer: Offer } | { ok: false; reason: string };

/**
 * Records the offers of a round. A target must be eligible (the environment
 * decides who), must not be locked already, and gets at most one offer per round.
 *
 * @example
 * ```ts
 * import { makeOffers } from "./paid_offers.ts";
 * const st = { offers: [] };
 * const res = makeOffers(st, [{ target: "dep_01", amount: 0.05, lock_until: 12 }], {
 *   round: 1, eligible: (id) => id === "dep_01",
 * });
 * if (!res[0].ok || st.offers.length !== 1) throw new Error();
 * ```
 */
export function makeOffers(
  state: PaidOffersState,
  proposals: readonly OfferProposal[],
  options: MakeOffersOptions,
): OfferResult[] {
  const { round, eligible } = options;
  const offered = new Set<string>();
  return proposals.map((p) => {
    if (!eligible(p.target)) return { ok: false, reason: `${p.target} cannot receive an offer` };
    if (isLocked(state, p.target, round)) {
      return { ok: false, reason: `${p.target} is already committed` };
    }
    if (offered.has(p.target)) return { ok: false, reason: `${p.target} already has an offer` };
    if (!(p.amount > 0)) return { ok: false, reason: "compensation must be positive" };
    if (p.lock_until < round) return { ok: false, reason: "lock_until is in the past" };
    offered.add(p.target);
    const offer: Offer = {
      id: offerId(options.ids ?? "round", { round, target: p.target }),
      target: p.target,
      amount: p.amount,
      lockUntil: p.lock_until,
      round,
      status: "pending",
    };
    state.offers.push(offer);
    return { ok: true, offer };
  });
}

/**
 * Answers a pending offer. Returns the offer changed, or `undefined` when the
 * id names no pending offer to this participant.
 *
 * @example
 * ```ts
 * import { answerOffer, makeOffers } from "./paid_offers.ts";
 * const st = { offers: [] };
 * makeOffers(st, [{ target: "a", amount: 0.1, lock_until: 3 }], { round: 1, eligible: () => true });
 * if (answerOffer(st, "a", "m1_t1_a", true)?.status !== "accepted") throw new Error();
 * ```
 */
export function answerOffer(
  state: PaidOffersState,
  agent: string,
  offerId: string,
  accept: boolean,
): Offer | undefined {
  const offer = state.offers.find((o) =>
    o.id === offerId && o.target === agent && o.status === "pending"
  );
  if (offer) offer.status = accept ? "accepted" : "declined";
  return offer;
}

/**
 * Expires the offers still pending (at the end of the round they were made).
 *
 * @example
 * ```ts
 * import { expireOffers } from "./paid_offers.ts";
 * import type { PaidOffersState } from "./paid_offers.ts";
 * const st: PaidOffersState = { offers: [{ id: "x", target: "a", amount: 1, lockUntil: 2, round: 1, status: "pending" }] };
 * if (expireOffers(st).length !== 1 || st.offers[0].status !== "expired") throw new Error();
 * ```
 */
export function expireOffers(state: PaidOffersState): Offer[] {
  const expired = state.offers.filter((o) => o.status === "pending");
  for (const o of expired) o.status = "expired";
  return expired;
}

/**
 * Whether a participant is bound in a round by an accepted offer.
 *
 * @example
 * ```ts
 * import { isLocked } from "./paid_offers.ts";
 * const st = { offers: [{ id: "x", target: "a", amount: 1, lockUntil: 2, round: 1, status: "accepted" as const }] };
 * if (!isLocked(st, "a", 2) || isLocked(st, "a", 3)) throw new Error();
 * ```
 */
export function isLocked(state: PaidOffersState, agent: string, round: number): boolean {
  return state.offers.some((o) =>
    o.target === agent && o.status === "accepted" && o.round <= round && round <= o.lockUntil
  );
}

/**
 * Outstanding compensation: the sum of accepted offers, a liability until
 * paid on success (void on failure).
 *
 * @example
 * ```ts
 * import { outstandingCompensation } from "./paid_offers.ts";
 * const st = { offers: [{ id: "x", target: "a", amount: 0.25, lockUntil: 2, round: 1, status: "accepted" as const }] };
 * if (outstandingCompensation(st) !== 0.25) throw new Error();
 * ```
 */
export function outstandingCompensation(state: PaidOffersState): number {
  return state.offers.reduce((s, o) => s + (o.status === "accepted" ? o.amount : 0), 0);
}

/**
 * Compensation owed to each participant on success.
 *
 * @example
 * ```ts
 * import { compensationByAgent } from "./paid_offers.ts";
 * const st = { offers: [{ id: "x", target: "a", amount: 0.25, lockUntil: 2, round: 1, status: "accepted" as const }] };
 * if (compensationByAgent(st).get("a") !== 0.25) throw new Error();
 * ```
 */
export function compensationByAgent(state: PaidOffersState): Map<string, number> {
  const out = new Map<string, number>();
  for (const o of state.offers) {
    if (o.status === "accepted") out.set(o.target, (out.get(o.target) ?? 0) + o.amount);
  }
  return out;
}

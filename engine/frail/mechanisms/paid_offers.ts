/**
 * M1, compensated commitments: the central player offers target-specific
 * compensation for a commitment lasting until `lock_until` (inclusive).
 * Acceptance binds at once and cannot be revoked; the compensation is a
 * liability of the central player, paid only on successful settlement.
 *
 * The lock checks, answers and views ask about one participant's offers many
 * times a round, so the offers are indexed by target (`offersTo`) beside the
 * state, never in it: the state and its JSON stay exactly what they were. The
 * index relies on what this module does to the list: offers are only appended
 * and an offer's target never changes (its status does, and is read live); a
 * list that shrank or whose last offer changed is indexed again.
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

/** The offers of one list by target, built as far as `indexed`. */
interface OfferIndex {
  /** How many offers of the list are indexed (its first ones). */
  indexed: number;
  /** The last offer indexed, to notice a list changed other than by appending. */
  last: Offer | undefined;
  /** Each target's offers, in the order made. */
  byTarget: Map<string, Offer[]>;
}

/** The index of each offer list, held weakly: it goes with its list. */
const INDEXES = new WeakMap<readonly Offer[], OfferIndex>();

/** The list last indexed and its index (held strongly until another list is asked about). */
let lastList: readonly Offer[] | undefined;
let lastIndex: OfferIndex | undefined;

/** A target's offers from the index (`undefined` when it has none): the hot paths' lookup. */
function indexedOffers(state: PaidOffersState, target: string): readonly Offer[] | undefined {
  const offers = state.offers;
  // The list asked about last is nearly always the one asked about next.
  let index = offers === lastList ? lastIndex : INDEXES.get(offers);
  if (
    index === undefined || index.indexed > offers.length ||
    (index.indexed > 0 && offers[index.indexed - 1] !== index.last)
  ) {
    index = { indexed: 0, last: undefined, byTarget: new Map() };
    INDEXES.set(offers, index);
  }
  lastList = offers;
  lastIndex = index;
  if (index.indexed < offers.length) {
    const byTarget = index.byTarget;
    for (let i = index.indexed; i < offers.length; i++) {
      const o = offers[i];
      const list = byTarget.get(o.target);
      if (list === undefined) byTarget.set(o.target, [o]);
      else list.push(o);
    }
    index.indexed = offers.length;
    index.last = offers[offers.length - 1];
  }
  return index.byTarget.get(target);
}

/**
 * The offers addressed to one participant, in the order made, whatever their
 * status: the same offers as filtering `state.offers` by target, from an index
 * kept beside the list (see the module doc).
 *
 * @param state The M1 state.
 * @param target The participant.
 * @returns A new array of its offers (empty when it has none).
 *
 * @example
 * ```ts
 * import { makeOffers, offersTo } from "./paid_offers.ts";
 * const st = { offers: [] };
 * makeOffers(st, [{ target: "a", amount: 0.1, lock_until: 3 }, { target: "b", amount: 0.2, lock_until: 3 }], {
 *   round: 1, eligible: () => true,
 * });
 * makeOffers(st, [{ target: "a", amount: 0.3, lock_until: 4 }], { round: 2, eligible: () => true });
 * if (offersTo(st, "a").map((o) => o.amount).join() !== "0.1,0.3" || offersTo(st, "c").length !== 0) {
 *   throw new Error();
 * }
 * ```
 */
export function offersTo(state: PaidOffersState, target: string): Offer[] {
  return [...(indexedOffers(state, target) ?? [])];
}

/**
 * A participant's offers in one status, in the order made (what filtering the
 * whole list by target and status gives), from the index.
 *
 * @param state The M1 state.
 * @param target The participant.
 * @param status The status asked for.
 * @returns A new array.
 *
 * @example
 * ```ts
 * import { makeOffers, offersWithStatus } from "./paid_offers.ts";
 * const st = { offers: [] };
 * makeOffers(st, [{ target: "a", amount: 0.1, lock_until: 3 }], { round: 1, eligible: () => true });
 * if (offersWithStatus(st, "a", "pending").length !== 1 || offersWithStatus(st, "a", "accepted").length !== 0) {
 *   throw new Error();
 * }
 * ```
 */
export function offersWithStatus(
  state: PaidOffersState,
  target: string,
  status: Offer["status"],
): Offer[] {
  const out: Offer[] = [];
  const list = indexedOffers(state, target);
  if (list === undefined) return out;
  for (let i = 0; i < list.length; i++) if (list[i].status === status) out.push(list[i]);
  return out;
}

/**
 * Whether a participant has an offer still pending (one made this round and not answered).
 *
 * @param state The M1 state.
 * @param target The participant.
 * @returns `true` when one of its offers is pending.
 *
 * @example
 * ```ts
 * import { hasPendingOffer, makeOffers } from "./paid_offers.ts";
 * const st = { offers: [] };
 * makeOffers(st, [{ target: "a", amount: 0.1, lock_until: 3 }], { round: 1, eligible: () => true });
 * if (!hasPendingOffer(st, "a") || hasPendingOffer(st, "b")) throw new Error();
 * ```
 */
export function hasPendingOffer(state: PaidOffersState, target: string): boolean {
  const list = indexedOffers(state, target);
  if (list === undefined) return false;
  for (let i = 0; i < list.length; i++) if (list[i].status === "pending") return true;
  return false;
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
  const list = indexedOffers(state, agent);
  if (list === undefined) return undefined;
  for (let i = 0; i < list.length; i++) {
    const offer = list[i];
    if (offer.id === offerId && offer.status === "pending") {
      offer.status = accept ? "accepted" : "declined";
      return offer;
    }
  }
  return undefined;
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
  const list = indexedOffers(state, agent);
  if (list === undefined) return false;
  for (let i = 0; i < list.length; i++) {
    const o = list[i];
    if (o.status === "accepted" && o.round <= round && round <= o.lockUntil) return true;
  }
  return false;
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
  // The accepted amounts added in the order made (what a reduce adding 0 for the others gives).
  let total = 0;
  for (const o of state.offers) if (o.status === "accepted") total += o.amount;
  return total;
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

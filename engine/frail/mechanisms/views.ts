/**
 * Pieces of the authorized views that read the shared mechanism profile the
 * same way in every environment: the proposals awaiting a participant, its
 * accepted offers and exit notice, whether it may join the coalition, what a
 * coalition member sees, and the central player's record of accepted offers
 * and signers. Each environment names and shapes the fields of its own views
 * (`retention_offer` or `rollover_offer`, `balance` or `claim`, ...); these
 * helpers only select.
 *
 * @module
 */
import { signerOf } from "./agreement.ts";
import { type CoalitionState, coalitionTotal, isMember } from "./coalition.ts";
import { type IdStyle, solicitationId } from "./ids.ts";
import { type Offer, offersWithStatus } from "./paid_offers.ts";
import { type CoalitionProfile, isCommittedUnder, type MechanismProfile } from "./profile.ts";

/** What awaits a participant's answer this round. */
export interface OpenProposals {
  /** M1 offers addressed to it and still pending, in the order made. */
  offers: Offer[];
  /** Id of the M2 solicitation it may sign (`m2_t<round>`, see `ids.ts`), or `null`. */
  solicitation: string | null;
}

/** Options of {@linkcode openProposals}. */
export interface OpenProposalsOptions {
  /** Current round. */
  round: number;
  /** How the solicitation id is written (`ids.ts`). Default `"round"`. */
  ids?: IdStyle;
}

/**
 * The proposals awaiting a participant's answer: pending M1 offers to it, and
 * this round's M2 solicitation when it was solicited and is not committed.
 *
 * @example
 * ```ts
 * import { openProposals } from "./views.ts";
 * import { emptyProfile } from "./profile.ts";
 * const p = emptyProfile("M2");
 * p.m2!.solicited = ["a"];
 * const open = openProposals(p, "a", { round: 3 });
 * if (open.solicitation !== "m2_t3" || open.offers.length !== 0) throw new Error();
 * ```
 */
export function openProposals(
  profile: MechanismProfile<CoalitionState>,
  id: string,
  options: OpenProposalsOptions,
): OpenProposals {
  const { round } = options;
  return {
    offers: profile.m1 ? offersWithStatus(profile.m1, id, "pending") : [],
    solicitation: profile.m2?.solicited.includes(id) && !isCommittedUnder(profile, id, round)
      ? solicitationId(options.ids ?? "round", round)
      : null,
  };
}

/**
 * A participant's accepted M1 offers, the latest lock first (ties in the order made).
 *
 * @example
 * ```ts
 * import { acceptedOffersTo } from "./views.ts";
 * import { emptyProfile } from "./profile.ts";
 * const p = emptyProfile("M1");
 * p.m1!.offers.push(
 *   { id: "x", target: "a", amount: 0.1, lockUntil: 3, round: 1, status: "accepted" },
 *   { id: "y", target: "a", amount: 0.2, lockUntil: 8, round: 4, status: "accepted" },
 * );
 * if (acceptedOffersTo(p, "a")[0].id !== "y") throw new Error();
 * ```
 */
export function acceptedOffersTo(profile: MechanismProfile<CoalitionState>, id: string): Offer[] {
  if (!profile.m1) return [];
  return offersWithStatus(profile.m1, id, "accepted").sort((a, b) => b.lockUntil - a.lockUntil);
}

/**
 * Whether an M2 signer has declared its exit (false for a non-signer).
 *
 * @example
 * ```ts
 * import { hasDeclaredExit } from "./views.ts";
 * import { emptyProfile } from "./profile.ts";
 * const p = emptyProfile("M2");
 * p.m2!.signers.push({ id: "a", since: 1, exitDeclared: 2 });
 * if (!hasDeclaredExit(p, "a") || hasDeclaredExit(p, "b")) throw new Error();
 * ```
 */
export function hasDeclaredExit(profile: MechanismProfile<CoalitionState>, id: string): boolean {
  const signer = profile.m2 ? signerOf(profile.m2, id) : undefined;
  return signer !== undefined && signer.exitDeclared !== null;
}

/**
 * Whether a participant may join the coalition: there is one, the participant
 * is not a member, and it never left.
 *
 * @example
 * ```ts
 * import { mayJoin } from "./views.ts";
 * import { emptyCoalition } from "./coalition.ts";
 * const c = emptyCoalition();
 * c.exited.push("b");
 * if (!mayJoin(c, "a") || mayJoin(c, "b") || mayJoin(null, "a")) throw new Error();
 * ```
 */
export function mayJoin(coalition: CoalitionState | null, id: string): boolean {
  return coalition ? !isMember(coalition, id) && !coalition.exited.includes(id) : false;
}

/** An announcement vote awaiting the members' ballots. */
export interface PendingVoteView {
  /** Vote id. */
  id: string;
  /** Member who proposed it. */
  proposer: string;
  /** Who would be told the coalition total. */
  announceTo: "all" | string[];
}

/** What a coalition member sees of its coalition; `M` describes one member. */
export interface CoalitionMemberView<M> {
  /** Every member, in order of joining. */
  members: M[];
  /** The coalition's committed total. */
  total: number;
  /** The exit ritual in progress, or `null`. */
  exitRitual: { wave: number; list: string[] } | null;
  /** Open announcement votes. */
  pendingVotes: PendingVoteView[];
}

/**
 * A coalition member's view of the coalition (with the exit ritual); `describe`
 * gives what the environment shows of each member.
 *
 * @example
 * ```ts
 * import { coalitionMemberView } from "./views.ts";
 * const m3 = { members: [{ id: "a", since: 1, amount: 2 }], exited: [], votes: [], ritual: null };
 * const v = coalitionMemberView(m3, (id) => ({ id }));
 * if (v.total !== 2 || v.members[0].id !== "a" || v.exitRitual !== null) throw new Error();
 * ```
 */
export function coalitionMemberView<M>(
  m3: CoalitionProfile,
  describe: (id: string) => M,
): CoalitionMemberView<M> {
  return {
    members: m3.members.map((m) => describe(m.id)),
    total: coalitionTotal(m3),
    exitRitual: m3.ritual ? { wave: m3.ritual.wave, list: [...m3.ritual.list] } : null,
    pendingVotes: m3.votes.filter((v) => v.status === "open").map((v) => ({
      id: v.id,
      proposer: v.proposer,
      announceTo: v.announceTo,
    })),
  };
}

/** The central player's record of its M1 and M2 commitments. */
export interface CentralMechanismView {
  /** M1 offers accepted so far. */
  acceptedOffers: { target: string; amount: number; lockUntil: number }[];
  /** M2 signers, and whether each declared its exit. */
  signers: { id: string; exitDeclared: boolean }[];
}

/**
 * The accepted M1 offers and the M2 signers, as the central player sees them
 * (both empty under the other mechanisms).
 *
 * @example
 * ```ts
 * import { centralMechanismView } from "./views.ts";
 * import { emptyProfile } from "./profile.ts";
 * const p = emptyProfile("M2");
 * p.m2!.signers.push({ id: "a", since: 1, exitDeclared: null });
 * const v = centralMechanismView(p);
 * if (v.acceptedOffers.length !== 0 || v.signers[0].exitDeclared !== false) throw new Error();
 * ```
 */
export function centralMechanismView(
  profile: MechanismProfile<CoalitionState>,
): CentralMechanismView {
  return {
    acceptedOffers: (profile.m1?.offers ?? []).filter((o) => o.status === "accepted").map((o) => ({
      target: o.target,
      amount: o.amount,
      lockUntil: o.lockUntil,
    })),
    signers: (profile.m2?.signers ?? []).map((x) => ({
      id: x.id,
      exitDeclared: x.exitDeclared !== null,
    })),
  };
}

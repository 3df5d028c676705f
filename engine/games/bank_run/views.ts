/**
 * Authorized views. A depositor sees its own account and decisions, the
 * balance sheet disclosed at the end of last round, the mechanism messages
 * addressed to it, and (as a coalition member) member-only information; it is
 * told neither the round number nor the horizon. Neither is the bank
 * (Appendix F: "bank-run agents are told neither the round number nor the
 * horizon"): it sees its own books as of the end of last round and its
 * mechanism's state, with every lock as the rounds it still binds. Mechanism
 * ids carry no round either (`../mechanisms/ids.ts`).
 *
 * @module
 */
import { EMPTY_LIST, SharedPart } from "../../core/view_parts.ts";
import { isMember } from "../../frail/mechanisms/coalition.ts";
import { isCommittedUnder, promisedTotal } from "../../frail/mechanisms/profile.ts";
import {
  acceptedOffersTo,
  centralMechanismView,
  coalitionMemberView,
  hasDeclaredExit,
  mayJoin,
  openProposals,
} from "../../frail/mechanisms/views.ts";
import type { MechanismId, Message, ParticipantViewHead } from "../../frail/types.ts";
import { committedAmount } from "./commitments.ts";
import type { BankRunParams } from "./params.ts";
import type { BankRunDisclosure, BankRunState } from "./state.ts";

/**
 * Game parameters a depositor is told: these fields of the bank run's
 * parameters (no horizon, no balance sheet, no deposit split).
 */
export type DepositorParameters = Pick<
  BankRunParams,
  | "depositors"
  | "totalDeposits"
  | "depositYield"
  | "assetReturn"
  | "earlySalePrice"
  | "capacity"
  | "capacityRule"
>;

/** A depositor's commitment as shown to it. */
export type CommitmentView =
  | { kind: "retention_offer"; compensation: number; lockRoundsRemaining: number }
  | { kind: "protection_agreement"; exitDeclared: boolean }
  | { kind: "coalition_member"; onExitList: boolean };

/** What a depositor sees. */
export interface DepositorView extends ParticipantViewHead<"depositor"> {
  /** Game parameters (no horizon). */
  parameters: DepositorParameters;
  /** Own deposit still at the bank. */
  balance: number;
  /** Own earlier reports and whether a withdrawal was paid, oldest first (no round numbers; each entry frozen). */
  previousDecisions: { readonly reported: number; readonly withdrew: boolean }[];
  /** Own commitment, if any. */
  commitment: CommitmentView | null;
  /** Balance sheet as of the end of last round. */
  institution: { cash: number; assets: number; depositsRemaining: number };
  /** Share of deposits redeemed last round. */
  fractionRedeemedLastRound: number;
  /** Outstanding compensation in aggregate (M1 only; public). */
  outstandingCompensation: number | null;
  /** Proposals awaiting this depositor's answer. */
  proposals: { id: string; kind: string; amount?: number; lockRoundsRemaining?: number }[];
  /** Certified messages delivered to this depositor this round. */
  announcements: Message[];
  /** M3: whether the depositor may still join (not a member, never exited). */
  canJoin: boolean;
  /** M3 member-only information. */
  coalition: {
    members: { id: string; balance: number }[];
    total: number;
    exitRitual: { wave: number; list: string[] } | null;
    pendingVotes: { id: string; proposer: string; announceTo: "all" | string[] }[];
  } | null;
}

/** An accepted M1 offer as the bank sees it. */
export interface BankAcceptedOffer {
  /** The depositor who accepted. */
  target: string;
  /** Compensation promised. */
  amount: number;
  /** Rounds the lock still binds, this round included (0 once it has ended). */
  lockRoundsRemaining: number;
}

/** What the bank sees (no round number, no horizon). */
export interface BankView {
  /** Always `"bank"`. */
  role: "bank";
  /** Mechanism in force. */
  mechanism: MechanismId;
  /** Game parameters. */
  parameters: DepositorParameters;
  /** Own books as of the end of last round. */
  institution: BankRunDisclosure;
  /** Depositors with money at the bank. */
  depositors: { id: string; balance: number; committed: boolean }[];
  /** Promised M1 compensation outstanding. */
  outstandingCompensation: number;
  /** Deposits committed under the mechanism. */
  committedTotal: number;
  /** M1 offers accepted so far. */
  acceptedOffers: BankAcceptedOffer[];
  /** M2 signers. */
  signers: { id: string; exitDeclared: boolean }[];
}

// Parts every view of a round shows alike, shared (frozen) rather than copied
// per view (`../../core/view_parts.ts`).
const PARAMETERS = new SharedPart<BankRunParams, DepositorParameters>(
  (p) => ({
    depositors: p.depositors,
    totalDeposits: p.totalDeposits,
    depositYield: p.depositYield,
    assetReturn: p.assetReturn,
    earlySalePrice: p.earlySalePrice,
    capacity: p.capacity,
    capacityRule: p.capacityRule,
  }),
  (v, p) =>
    v.depositors === p.depositors && v.totalDeposits === p.totalDeposits &&
    v.depositYield === p.depositYield && v.assetReturn === p.assetReturn &&
    v.earlySalePrice === p.earlySalePrice && v.capacity === p.capacity &&
    v.capacityRule === p.capacityRule,
);
const INSTITUTION = new SharedPart<BankRunDisclosure, DepositorView["institution"]>(
  (d) => ({ cash: d.cash, assets: d.assets, depositsRemaining: d.depositsRemaining }),
  (v, d) =>
    v.cash === d.cash && v.assets === d.assets && v.depositsRemaining === d.depositsRemaining,
);

function parameters(s: BankRunState): DepositorParameters {
  return PARAMETERS.of(s.params);
}

/**
 * Builds a depositor's authorized view. The view is the depositor's own
 * object, but what it shares with the state or with other views is frozen:
 * the parameters and books of the round, its messages, and the entries of
 * its earlier decisions (one frozen entry per value, shared by every view).
 *
 * @example
 * ```ts
 * import { depositorView } from "./views.ts";
 * import { initialBankRunState } from "./state.ts";
 * import { parseBankRunParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * const s = initialBankRunState(parseBankRunParams({}), "M0",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * const v = depositorView(s, "dep_01");
 * if ("round" in v || v.institution.cash !== 1.125) throw new Error();
 * ```
 */
export function depositorView(s: BankRunState, id: string): DepositorView {
  const i = DEPOSITORS.indexOf(s.depositors, id);
  if (i < 0) throw new RangeError(`Unknown depositor "${id}"`);
  const d = s.depositors[i];
  return {
    role: "depositor",
    id,
    mechanism: s.mechanism,
    parameters: parameters(s),
    balance: d.balance,
    previousDecisions: decisions(d.history),
    commitment: commitmentView(s, id),
    institution: INSTITUTION.of(s.disclosed),
    fractionRedeemedLastRound: s.disclosed.fractionRedeemed,
    outstandingCompensation: s.m1 ? s.disclosed.outstandingCompensation : null,
    proposals: s.m1 || s.m2 ? proposals(s, id) : EMPTY_LIST,
    announcements: announcements(s.inbox[id]),
    canJoin: mayJoin(s.m3, id),
    coalition: s.m3 && isMember(s.m3, id)
      ? coalitionMemberView(s.m3, (member) => ({
        id: member,
        balance: s.depositors[DEPOSITORS.indexOf(s.depositors, member)].balance,
      }))
      : null,
  };
}

/**
 * A depositor's messages of the round, frozen in place (the list and every
 * message in it) the first time they are shown: one message object is
 * delivered to several inboxes and recorded in its event, so an agent must
 * not be able to change it. Delivery fills the inboxes before any view shows
 * them, and the next round starts new ones.
 */
function announcements(list: Message[] | undefined): Message[] {
  if (list === undefined) return EMPTY_LIST;
  if (!Object.isFrozen(list)) {
    for (const m of list) deepFreeze(m);
    Object.freeze(list);
  }
  return list;
}

function deepFreeze(value: unknown): void {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  // A message is JSON data (plain objects and lists): its own keys are what
  // `for...in` would give, and a list's items are read by index, not as keys.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) deepFreeze(value[i]);
    return;
  }
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    deepFreeze((value as Record<string, unknown>)[keys[i]]);
  }
}

type Decision = DepositorView["previousDecisions"][number];
type HistoryEntry = BankRunState["depositors"][number]["history"][number];

/**
 * Where each depositor of the last list seen sits, found from where the last
 * one was (the engine asks its depositors in roster order), so a view costs
 * no search; any other id (a coalition member shown in a view) is looked up
 * in a map of the list's positions, made once per list and checked against
 * the list on every use (a position that no longer holds the id makes the map
 * again). A state's depositor ids are unique (`participantIds`), so the
 * position found is the one a search from the start would find.
 */
class DepositorIndex {
  #list: readonly { id: string }[] | undefined;
  #hint = -1;
  #at: Map<string, number> | undefined;

  /** Where `id` sits in `list`, or -1. */
  indexOf(list: readonly { id: string }[], id: string): number {
    if (list !== this.#list) {
      this.#list = list;
      this.#hint = -1;
      this.#at = undefined;
    }
    const next = this.#hint + 1;
    if (next < list.length && list[next].id === id) return this.#hint = next;
    let at = this.#at?.get(id);
    if (at === undefined || at >= list.length || list[at].id !== id) {
      this.#at = positions(list);
      at = this.#at.get(id);
      if (at === undefined) return -1;
    }
    return this.#hint = at;
  }
}

/** Each id's first position in `list`. */
function positions(list: readonly { id: string }[]): Map<string, number> {
  const at = new Map<string, number>();
  for (let i = 0; i < list.length; i++) if (!at.has(list[i].id)) at.set(list[i].id, i);
  return at;
}

/**
 * A depositor's earlier decisions as shown: a new list for each view (an
 * agent changing its own list changes nothing else) of frozen entries shared
 * by every view, one per value (a report is an integer 0-100, so there are
 * 202 of them; any other value gets its own frozen entry). Freezing an entry
 * per view or per round cost more than building it.
 */
function decisions(history: readonly HistoryEntry[]): Decision[] {
  const shown: Decision[] = [];
  for (let k = 0; k < history.length; k++) {
    const h = history[k];
    shown.push(decisionEntry(h.reported, h.processed > 0));
  }
  return shown;
}

const ENTRIES: Decision[] = [];
for (let r = 0; r <= 100; r++) {
  ENTRIES.push(Object.freeze({ reported: r, withdrew: false }));
  ENTRIES.push(Object.freeze({ reported: r, withdrew: true }));
}

function decisionEntry(reported: number, withdrew: boolean): Decision {
  if (Number.isInteger(reported) && reported >= 0 && reported <= 100) {
    return ENTRIES[reported * 2 + (withdrew ? 1 : 0)];
  }
  return Object.freeze({ reported, withdrew });
}

const DEPOSITORS = new DepositorIndex();

/** The M1 offers and the M2 solicitation awaiting a depositor's answer. */
function proposals(s: BankRunState, id: string): DepositorView["proposals"] {
  const round = s.round;
  const open = openProposals(s, id, { round, ids: "plain" });
  // One list, filled in place (the offers, then the solicitation), not spread from copies.
  const shown: DepositorView["proposals"] = [];
  for (const o of open.offers) {
    shown.push({
      id: o.id,
      kind: "retention_offer",
      amount: o.amount,
      lockRoundsRemaining: roundsLeft(o.lockUntil, round),
    });
  }
  if (open.solicitation) shown.push({ id: open.solicitation, kind: "protection_agreement" });
  return shown;
}

function commitmentView(s: BankRunState, id: string): CommitmentView | null {
  if (!(s.m1 || s.m2 || s.m3) || !isCommittedUnder(s, id, s.round)) return null;
  if (s.m1) {
    const o = acceptedOffersTo(s, id)[0];
    return {
      kind: "retention_offer",
      compensation: o.amount,
      lockRoundsRemaining: roundsLeft(o.lockUntil, s.round),
    };
  }
  if (s.m2) return { kind: "protection_agreement", exitDeclared: hasDeclaredExit(s, id) };
  return { kind: "coalition_member", onExitList: s.m3?.ritual?.list.includes(id) ?? false };
}

/**
 * Builds the bank's authorized view.
 *
 * @example
 * ```ts
 * import { bankView } from "./views.ts";
 * import { initialBankRunState } from "./state.ts";
 * import { parseBankRunParams } from "./params.ts";
 * import { openStream } from "../../core/rng.ts";
 * const s = initialBankRunState(parseBankRunParams({}), "M1",
 *   openStream({ seed: 1, round: 0, agent: "engine", purpose: "deposit_split" }));
 * const v = bankView(s);
 * if (v.depositors.length !== 15 || "round" in v) throw new Error();
 * ```
 */
export function bankView(s: BankRunState): BankView {
  const central = centralMechanismView(s);
  return {
    role: "bank",
    mechanism: s.mechanism,
    parameters: parameters(s),
    institution: { ...s.disclosed },
    depositors: s.depositors.filter((d) => d.balance > 0).map((d) => ({
      id: d.id,
      balance: d.balance,
      committed: isCommittedUnder(s, d.id, s.round),
    })),
    outstandingCompensation: promisedTotal(s),
    committedTotal: committedAmount(s, s.round),
    acceptedOffers: central.acceptedOffers.map((o) => ({
      target: o.target,
      amount: o.amount,
      lockRoundsRemaining: roundsLeft(o.lockUntil, s.round),
    })),
    signers: central.signers,
  };
}

/** Rounds a lock ending with `lockUntil` still binds in `round`, that round included. */
function roundsLeft(lockUntil: number, round: number): number {
  return Math.max(0, lockUntil - round + 1);
}

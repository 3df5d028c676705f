/**
 * The parts of the FRAIL mocks' mechanism replies that read the same in every
 * environment: a participant's `proposal_actions` (answers to an M1 paid
 * offer or an M2 agreement, an M2 exit declaration, an M3 join, and a
 * defensive coalition member's M3 actions, in that order), and the central
 * player's replies (its M1 offers and its M2 solicitation).
 *
 * Every proposal a participant's view lists is either its environment's
 * paid offer or its agreement, so every proposal that is not the paid offer
 * is answered as the agreement.
 *
 * @module
 */
import { trustReplies } from "../../core/_trusted_replies.ts";
import type { CallRequest } from "../../core/environment.ts";
import type { Agent } from "../../core/agent.ts";

/** One entry of a participant's `proposal_actions` reply. */
export type MechanismAction = Record<string, unknown>;

/** How {@linkcode mechanismActions} answers; see there. */
export interface MechanismRule<P> {
  /** Kind of the M1 paid offer (`"retention_offer"`, ...); any other kind is the agreement. */
  offerKind: string;
  /** Whether to accept a paid offer. */
  accept: (proposal: P) => boolean;
  /** Whether to sign the agreement. */
  sign: boolean;
  /** Declare an exit from the signed M2 agreement. @default {false} */
  exit?: boolean;
  /** Join the M3 coalition if the view says it may. @default {false} */
  join?: boolean;
  /** As an M3 coalition member: its coalition, id and wish to leave. @default {not a member} */
  member?: (MemberActionOptions & { coalition: MemberCoalitionView }) | null;
}

/**
 * A participant's `proposal_actions`: one `accept`/`decline` per paid offer
 * or `sign`/`decline` per agreement, in the order listed; then `exit`; then
 * `join` (if the view's `canJoin`); then a member's actions: the lowest-id
 * member proposes one announcement vote to all when none is open and it is
 * not alone, every member supports the open votes of others, and a member
 * that wants out requests an exit unless it is already on the exit list.
 *
 * @param view The participant's proposals and whether it may join.
 * @param rule Which kind is the paid offer, and the answers.
 * @returns The actions.
 *
 * @example
 * ```ts
 * import { mechanismActions } from "./_mechanism_replies.ts";
 * const view = {
 *   canJoin: false,
 *   proposals: [{ id: "o1", kind: "retention_offer", amount: 0.01 }, { id: "m2_t1", kind: "protection_agreement" }],
 * };
 * const coalition = {
 *   members: [{ id: "dep_02" }, { id: "dep_01" }],
 *   pendingVotes: [{ id: "v2_dep_02", proposer: "dep_02" }],
 *   exitRitual: null,
 * };
 * const actions = mechanismActions(view, {
 *   offerKind: "retention_offer",
 *   accept: (p) => (p.amount ?? 0) >= 0.02,
 *   sign: true,
 *   member: { coalition, self: "dep_01", wantsExit: true },
 * });
 * if (actions.map((a) => a.action).join() !== "decline,sign,vote,exit_request") throw new Error();
 * ```
 */
export function mechanismActions<P extends { id: string; kind: string }>(
  view: { proposals: readonly P[]; canJoin: boolean },
  rule: MechanismRule<P>,
): MechanismAction[] {
  const actions: MechanismAction[] = view.proposals.map((p) => ({
    action: p.kind === rule.offerKind
      ? (rule.accept(p) ? "accept" : "decline")
      : (rule.sign ? "sign" : "decline"),
    proposal_id: p.id,
  }));
  if (rule.exit) actions.push({ action: "exit" });
  if (view.canJoin && rule.join) actions.push({ action: "join" });
  if (rule.member) actions.push(...memberActions(rule.member.coalition, rule.member));
  return actions;
}

/** What a coalition member sees of its coalition, as far as the mocks read it. */
export interface MemberCoalitionView {
  /** Every member. */
  members: readonly { id: string }[];
  /** Open announcement votes. */
  pendingVotes: readonly { id: string; proposer: string }[];
  /** The exit ritual in progress, or `null`. */
  exitRitual: { list: readonly string[] } | null;
}

/** Who a coalition member is and whether it wants out. */
export interface MemberActionOptions {
  /** The member's id. */
  self: string;
  /** Whether the member wants to leave. */
  wantsExit: boolean;
}

/**
 * The member id that sorts first (`Array.prototype.sort`'s default order, by
 * UTF-16 code units, which is `<` on strings), found in one pass instead of
 * sorting a copy for every member every round.
 */
function lowestId(members: readonly { readonly id: string }[]): string | undefined {
  let lowest = members[0]?.id;
  for (let i = 1; i < members.length; i++) if (members[i].id < lowest!) lowest = members[i].id;
  return lowest;
}

/**
 * The member who proposes an announcement vote (to all) in a round: the
 * lowest-id member, when no vote is open and the member is not alone;
 * `undefined` when nobody does. What a defensive member's actions and the
 * bank run's batched path read.
 *
 * @param coalition The members and open votes a member's view shows.
 * @returns The proposer's id, or `undefined`.
 *
 * @example
 * ```ts
 * import { announcementProposer } from "./_mechanism_replies.ts";
 * const members = [{ id: "dep_03" }, { id: "dep_02" }];
 * if (announcementProposer({ members, pendingVotes: [] }) !== "dep_02") throw new Error();
 * if (announcementProposer({ members: [{ id: "dep_03" }], pendingVotes: [] }) !== undefined) {
 *   throw new Error("alone");
 * }
 * ```
 */
export function announcementProposer(
  coalition: Pick<MemberCoalitionView, "members" | "pendingVotes">,
): string | undefined {
  if (coalition.pendingVotes.length !== 0 || coalition.members.length <= 1) return undefined;
  return lowestId(coalition.members);
}

function memberActions(
  coalition: MemberCoalitionView,
  options: MemberActionOptions,
): MechanismAction[] {
  const { self, wantsExit } = options;
  const actions: MechanismAction[] = [];
  if (self === announcementProposer(coalition)) {
    actions.push({ action: "propose_announcement_vote", announce_to: "all" });
  }
  for (const vote of coalition.pendingVotes) {
    if (vote.proposer !== self) actions.push({ action: "vote", vote_id: vote.id, support: true });
  }
  if (wantsExit && !(coalition.exitRitual?.list.includes(self))) {
    actions.push({ action: "exit_request" });
  }
  return actions;
}

/** The central player's reply to an M2 solicitation call. */
export interface SolicitationReply {
  /** Whom it solicits. */
  solicit: string[];
  /** Whether it discloses the signed aggregate. */
  disclose_aggregate: boolean;
  /** Its stated reason. */
  reasoning: string;
}

/**
 * An `active` central player solicits everyone and discloses the aggregate;
 * a `passive` one does nothing.
 *
 * @param policy The central player's policy.
 * @param whom Who "everyone" is in the reasoning, e.g. `"every creditor"`.
 * @returns The reply.
 *
 * @example
 * ```ts
 * import { solicitationReply } from "./_mechanism_replies.ts";
 * const r = solicitationReply("active", "everyone");
 * if (r.reasoning !== "Soliciting everyone and disclosing the aggregate.") throw new Error();
 * if (solicitationReply("passive", "everyone").solicit.length !== 0) throw new Error();
 * ```
 */
export function solicitationReply(
  policy: "active" | "passive",
  whom: string,
): SolicitationReply {
  return policy === "passive"
    ? { solicit: [], disclose_aggregate: false, reasoning: "Nothing." }
    : {
      solicit: ["all"],
      disclose_aggregate: true,
      reasoning: `Soliciting ${whom} and disclosing the aggregate.`,
    };
}

/** Options of {@linkcode centralPlayer}. */
export interface CentralPlayerOptions<V> {
  /** The role in the policy name `mock:<policy>_<role>`, e.g. `"bank"`. */
  role: string;
  /** The M1 offer call; every other call is the M2 solicitation. */
  offerCall: string;
  /** The active player's reply to the offer call, from its view. */
  offers: (view: V) => Record<string, unknown>;
  /** Who "everyone" is in the M2 reasoning (see {@linkcode solicitationReply}). */
  whom: string;
}

/**
 * A central player (bank, borrower) whose M1 offers are `options.offers` when
 * `active` and none when `passive`, and whose M2 reply is
 * {@linkcode solicitationReply}.
 *
 * @param policy Active or passive.
 * @param options Its role, offer call, offers and solicitation wording.
 * @returns The agent.
 *
 * @example
 * ```ts
 * import { centralPlayer } from "./_mechanism_replies.ts";
 * const bank = centralPlayer("passive", {
 *   role: "bank",
 *   offerCall: "retention_offer",
 *   offers: () => ({ offers: [{ target: "dep_01", amount: 0.03, lock_until: 12 }] }),
 *   whom: "everyone",
 * });
 * const r = await bank.decide({ call: "retention_offer" } as never) as { offers: unknown[] };
 * if (bank.policy !== "mock:passive_bank" || r.offers.length !== 0) throw new Error();
 * ```
 */
export function centralPlayer<V>(
  policy: "active" | "passive",
  options: CentralPlayerOptions<V>,
): Agent {
  return trustReplies({
    policy: `mock:${policy}_${options.role}`,
    decide(req: CallRequest) {
      if (req.call !== options.offerCall) {
        return solicitationReply(policy, options.whom);
      }
      if (policy === "passive") return { offers: [], reasoning: "No offers." };
      return options.offers(req.view as V);
    },
  });
}

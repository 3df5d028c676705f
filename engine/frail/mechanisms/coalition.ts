/**
 * M3, participant-led coalition: membership (which creates the environment's
 * financial commitment), no re-entry after an exit, and announcement votes
 * that pass with strictly more than half of the members in support. How an
 * exit completes is environment-specific (see `exit_ritual.ts`).
 *
 * @module
 */
import { type IdStyle, voteId } from "./ids.ts";

/** One member. */
export interface Member {
  /** Participant id. */
  id: string;
  /** Round joined. */
  since: number;
  /** Amount committed (disclosed to members only). */
  amount: number;
}

/** An announcement vote. */
export interface Vote {
  /** Vote id, e.g. `"v2_crd_04"` (or `"v_dep_04"` without the round, see `ids.ts`). */
  id: string;
  /** Member who proposed it (counted as supporting). */
  proposer: string;
  /** Who would receive the announcement. */
  announceTo: "all" | string[];
  /** Round proposed; members vote in the next round. */
  round: number;
  /** Members in support. */
  supporters: string[];
  /** Members against. */
  opponents: string[];
  /** `open` until tallied. */
  status: "open" | "passed" | "failed";
}

/** M3 state. */
export interface CoalitionState {
  /** Current members. */
  members: Member[];
  /** Participants who completed an exit (they may never rejoin). */
  exited: string[];
  /** All votes, in order. */
  votes: Vote[];
}

/**
 * An empty coalition (it exists from round 1).
 *
 * @example
 * ```ts
 * import { emptyCoalition } from "./coalition.ts";
 * if (emptyCoalition().members.length !== 0) throw new Error();
 * ```
 */
export function emptyCoalition(): CoalitionState {
  return { members: [], exited: [], votes: [] };
}

/**
 * Adds a member; refuses members, and participants who exited before.
 *
 * @example
 * ```ts
 * import { emptyCoalition, join } from "./coalition.ts";
 * const c = emptyCoalition();
 * if (join(c, { id: "a", since: 1, amount: 1 }) !== undefined) throw new Error();
 * if (join(c, { id: "a", since: 1, amount: 1 }) === undefined) throw new Error("double join");
 * ```
 */
export function join(state: CoalitionState, member: Member): string | undefined {
  if (state.exited.includes(member.id)) return `${member.id} left the coalition and cannot rejoin`;
  if (isMember(state, member.id)) return `${member.id} is already a member`;
  state.members.push(member);
  return undefined;
}

/**
 * Removes members whose exit completed; they can never rejoin.
 *
 * @example
 * ```ts
 * import { completeExit, emptyCoalition, join } from "./coalition.ts";
 * const c = emptyCoalition();
 * join(c, { id: "a", since: 1, amount: 1 });
 * completeExit(c, ["a"]);
 * if (c.members.length !== 0 || c.exited[0] !== "a") throw new Error();
 * ```
 */
export function completeExit(state: CoalitionState, ids: readonly string[]): void {
  state.members = state.members.filter((m) => !ids.includes(m.id));
  for (const id of ids) if (!state.exited.includes(id)) state.exited.push(id);
}

/**
 * Whether a participant is a member.
 *
 * @example
 * ```ts
 * import { emptyCoalition, isMember } from "./coalition.ts";
 * if (isMember(emptyCoalition(), "a")) throw new Error();
 * ```
 */
export function isMember(state: CoalitionState, id: string): boolean {
  // A plain loop: it runs for every participant in every lock check and view.
  const members = state.members;
  for (let i = 0; i < members.length; i++) if (members[i].id === id) return true;
  return false;
}

/**
 * The coalition's committed total.
 *
 * @example
 * ```ts
 * import { coalitionTotal } from "./coalition.ts";
 * if (coalitionTotal({ members: [{ id: "a", since: 1, amount: 0.5 }], exited: [], votes: [] }) !== 0.5) throw new Error();
 * ```
 */
export function coalitionTotal(state: CoalitionState): number {
  return state.members.reduce((s, m) => s + m.amount, 0);
}

/**
 * Opens an announcement vote proposed by a member; at most one open vote at a time.
 *
 * @example
 * ```ts
 * import { emptyCoalition, join, proposeVote } from "./coalition.ts";
 * const c = emptyCoalition();
 * join(c, { id: "a", since: 1, amount: 1 });
 * if (typeof proposeVote(c, { proposer: "a", announceTo: "all", round: 1 }) === "string") throw new Error();
 * ```
 */
export function proposeVote(
  state: CoalitionState,
  proposal: { proposer: string; announceTo: "all" | string[]; round: number; ids?: IdStyle },
): Vote | string {
  if (!isMember(state, proposal.proposer)) return `${proposal.proposer} is not a member`;
  if (state.votes.some((v) => v.status === "open")) return "another vote is open";
  const vote: Vote = {
    id: voteId(proposal.ids ?? "round", proposal),
    proposer: proposal.proposer,
    announceTo: proposal.announceTo,
    round: proposal.round,
    supporters: [proposal.proposer],
    opponents: [],
    status: "open",
  };
  state.votes.push(vote);
  return vote;
}

/**
 * Records a member's vote on an open vote proposed in an earlier round.
 *
 * @example
 * ```ts
 * import { castVote, emptyCoalition, join, proposeVote } from "./coalition.ts";
 * const c = emptyCoalition();
 * join(c, { id: "a", since: 1, amount: 1 });
 * join(c, { id: "b", since: 1, amount: 1 });
 * proposeVote(c, { proposer: "a", announceTo: "all", round: 1 });
 * if (castVote(c, { voter: "b", voteId: "v1_a", support: true, round: 2 }) !== undefined) throw new Error();
 * ```
 */
export function castVote(
  state: CoalitionState,
  ballot: { voter: string; voteId: string; support: boolean; round: number },
): string | undefined {
  if (!isMember(state, ballot.voter)) return `${ballot.voter} is not a member`;
  const vote = state.votes.find((v) => v.id === ballot.voteId && v.status === "open");
  if (!vote) return `no open vote ${ballot.voteId}`;
  if (vote.round >= ballot.round) return "votes open the round after the proposal";
  if (ballot.voter === vote.proposer) return undefined;
  vote.supporters = vote.supporters.filter((x) => x !== ballot.voter);
  vote.opponents = vote.opponents.filter((x) => x !== ballot.voter);
  (ballot.support ? vote.supporters : vote.opponents).push(ballot.voter);
  return undefined;
}

/**
 * Tallies the open vote proposed before `round`: it passes when the supporters
 * who are still members are strictly more than half of the current members.
 *
 * @example
 * ```ts
 * import { tallyVotes } from "./coalition.ts";
 * const c = {
 *   members: ["a", "b", "c", "d"].map((id) => ({ id, since: 1, amount: 1 })),
 *   exited: [],
 *   votes: [{ id: "v1_a", proposer: "a", announceTo: "all" as const, round: 1, supporters: ["a", "b"], opponents: [], status: "open" as const }],
 * };
 * if (tallyVotes(c, 2)[0].status !== "failed") throw new Error("2 of 4 is not a strict majority");
 * ```
 */
export function tallyVotes(state: CoalitionState, round: number): Vote[] {
  const ids = new Set(state.members.map((m) => m.id));
  const done: Vote[] = [];
  for (const v of state.votes) {
    if (v.status !== "open" || v.round >= round) continue;
    const support = v.supporters.filter((x) => ids.has(x)).length;
    v.status = support * 2 > ids.size ? "passed" : "failed";
    done.push(v);
  }
  return done;
}

/**
 * Reward crowdfunding's prompt blocks (FRAIL Appendix G), shared by the
 * backer's and the founder's templates. The backer's [ROLE], [GAME
 * PARAMETERS], [AS OF THE END OF LAST ROUND], [YOUR POSITION] and pledge
 * [OUTPUT] are the paper's G.2 text; the M3 coalition bullet, the
 * member-only block and the coalition [OUTPUT] are G.3's. Blocks follow each
 * other without blank lines, as printed.
 *
 * Choices where the paper is open:
 * - The withdrawal-capacity bullet is G.2's under the default
 *   `capacityRule: "expire"`; under the non-default `"partial"` it says what
 *   the engine then does (the crossing request is withdrawn in part).
 * - M1 and M2 add one [GAME PARAMETERS] bullet each, as G.3 does for M3,
 *   describing the engine's rules (every commitment pledges one unit at once
 *   if the backer is not pledged; an M2 exit binds through its declaration round).
 * - A pledged backer gets the withdrawal call with the same blocks and a
 *   withdrawal [OUTPUT]; M1-M2 proposals are answered in a mechanism-phase
 *   call with [OFFER] or [LETTER OF INTENT] blocks; certified messages are
 *   listed in a [MESSAGES] block.
 * - The M3 exit-confirmation hands are separate calls naming the hand.
 * - Previous decisions are listed with their round, call, reported
 *   probability and whether anything was pledged or withdrawn.
 *
 * @module
 */
import type { Message } from "../../../frail/types.ts";
import type { BackerView, CrowdfundingParameters, FounderView } from "../views.ts";
import { num3, wrap } from "../../../agents/llm/prompts/template.ts";
import {
  acceptedOffersList,
  acceptedTermsList,
  joinEligibility,
  messagesBlock,
  proposalsBlock,
  signersList,
  unknownMessageLine,
} from "../../../agents/llm/prompts/_shared_blocks.ts";

const py = (b: boolean) => (b ? "True" : "False");

/**
 * The backer's [ROLE] block (G.2).
 *
 * @example
 * ```ts
 * import { backerRole } from "./blocks.ts";
 * if (!backerRole({ lastDecisionRound: 9 } as never).includes("a round-9 pledge")) throw new Error();
 * ```
 */
export function backerRole(p: CrowdfundingParameters): string {
  const last = p.lastDecisionRound;
  return `[ROLE]
You are one backer in a one-shot reward crowdfunding campaign.
Idle cash sits in a bank and earns a constant risk-free rate each round.
Money you pledge into the campaign does not earn interest while it is locked.
If the campaign launches, you receive a reward next round. If it never launches
by the end of round ${last}, pledged funds are refunded after that round's interest
is applied, so a round-${last} pledge still misses round-${last} interest.`;
}

/**
 * The founder's [ROLE] block.
 *
 * @example
 * ```ts
 * import { founderRole } from "./blocks.ts";
 * if (!founderRole({ lastDecisionRound: 9 } as never).includes("by the end of round 9")) throw new Error();
 * ```
 */
export function founderRole(p: CrowdfundingParameters): string {
  return `[ROLE]
You are the founder of a one-shot reward crowdfunding campaign. Backers pledge
units into the pool P; once P >= G you may launch: the pool settles, you earn
the founder margin on every pledged unit, and backers receive their reward the
round after. If you do not launch by the end of round ${p.lastDecisionRound}, the campaign fails
and pledges are refunded.`;
}

const MECHANISM_BULLETS: Record<string, (p: CrowdfundingParameters) => string> = {
  M1: (p) =>
    `- The founder may offer you a paid pledge agreement: a bonus paid with the
  reward if the campaign launches. Accepting pledges face ${num3(p.unitPledge)} if you are not
  already pledged and locks your pledge through round lock_until; it cannot be
  revoked. An unanswered offer expires at the end of the round. Bonuses are
  void if the campaign fails, and launching with promised bonuses above
  (1 - ${num3(p.margin)}) x P fails the campaign. Outstanding bonuses are disclosed to all.`,
  M2: (p) =>
    `- The founder may ask you to sign a letter of intent. There is no bonus.
  Signing pledges face ${num3(p.unitPledge)} if you are not already pledged and locks your
  pledge at once. A signer may declare an exit: the letter still binds in the
  round of the declaration and ends at the start of the next round. Signers
  are told the certified total committed under the letter each round; the
  founder may disclose it to non-signers.`,
  M3: (p) =>
    `- A backer coalition exists from round 1, initially empty. Joining pledges face
  ${num3(p.unitPledge)} if you are not already pledged and locks you until launch. Exit
  requires three in-round confirmation hands; you stay locked this round and
  may withdraw from next round, and you cannot rejoin. Members may vote to
  publish only the coalition locked total (strict majority of remaining
  members). There is no bonus.`,
};

/**
 * The withdrawal-capacity bullet of [GAME PARAMETERS]: G.2's words under the
 * paper's `"expire"` rule, and the engine's partial withdrawal under `"partial"`.
 *
 * @example
 * ```ts
 * import { withdrawalCapacityBullet } from "./blocks.ts";
 * const b = withdrawalCapacityBullet({ withdrawalCapacity: 3.75, capacityRule: "expire" });
 * if (b !== "- Withdrawals: at most 3.750 face per round; excess requests stay pledged this\n  round.") throw new Error(b);
 * ```
 */
export function withdrawalCapacityBullet(
  p: Pick<CrowdfundingParameters, "withdrawalCapacity" | "capacityRule">,
): string {
  const cap = num3(p.withdrawalCapacity);
  if (p.capacityRule === "partial") {
    return `- Withdrawals: at most ${cap} face per round; the request that crosses it is
  withdrawn in part, and the rest of it and every later request stay pledged
  this round.`;
  }
  return `- Withdrawals: at most ${cap} face per round; excess requests stay pledged this
  round.`;
}

/**
 * The [GAME PARAMETERS] block (G.2) with the mechanism's bullet (G.3 for M3).
 *
 * @example
 * ```ts
 * import { gameParameters } from "./blocks.ts";
 * const b = gameParameters({ backers: 15, unitPledge: 1, goal: 14, reward: 1.15, margin: 0.05, riskFree: 0.03,
 *   withdrawalCapacity: 3.75, capacityRule: "expire", horizon: 10, lastDecisionRound: 9 }, "M0");
 * if (!b.includes("- Goal G = 14.000. Rounds 1-9 are decision rounds; round 10 is settlement only.")) throw new Error(String(b));
 * ```
 */
export function gameParameters(p: CrowdfundingParameters, mechanism: string): string {
  const last = p.lastDecisionRound;
  const lines = [
    `[GAME PARAMETERS]
- ${p.backers} backers, unit pledge ${num3(p.unitPledge)}.
- Goal G = ${
      num3(p.goal)
    }. Rounds 1-${last} are decision rounds; round ${p.horizon} is settlement only.
- Reward v = ${num3(p.reward)} paid the round after launch. Founder margin ${num3(p.margin)} per
  pledged unit.
- Risk-free rate r_f = ${num3(p.riskFree)} per round on idle bank balances.
${withdrawalCapacityBullet(p)}
- Launch is the founder's choice when P >= G. Not launching by the end of
  round ${last} fails the campaign even if P >= G.`,
  ];
  const extra = MECHANISM_BULLETS[mechanism];
  if (extra) lines.push(extra(p));
  return lines.join("\n");
}

/**
 * The [AS OF THE END OF LAST ROUND] block (G.2), with outstanding bonuses under M1.
 *
 * @example
 * ```ts
 * import { endOfLastRound } from "./blocks.ts";
 * const b = endOfLastRound({ pool: 0, newPledges: 0, withdrawals: 0, open: true, launched: false }, null);
 * if (b !== "[AS OF THE END OF LAST ROUND]\nP = 0.000. New pledges: 0; withdrawals: 0. Campaign open: True. Already\nlaunched: False.") throw new Error(String(b));
 * ```
 */
export function endOfLastRound(
  c: { pool: number; newPledges: number; withdrawals: number; open: boolean; launched: boolean },
  bonuses: number | null,
): string {
  const lines = [
    "[AS OF THE END OF LAST ROUND]",
    `P = ${num3(c.pool)}. New pledges: ${c.newPledges}; withdrawals: ${c.withdrawals}. ` +
    `Campaign open: ${py(c.open)}. Already`,
    `launched: ${py(c.launched)}.`,
  ];
  if (bonuses !== null) lines.push(`Outstanding bonuses (all backers): ${num3(bonuses)}.`);
  return lines.join("\n");
}

/**
 * A backer's system prompt: [ROLE] and [GAME PARAMETERS] with its mechanism's bullet.
 *
 * @example
 * ```ts
 * import { backerSystem } from "./blocks.ts";
 * import { backerView } from "../views.ts";
 * import { initialCrowdfundingState } from "../state.ts";
 * import { parseCrowdfundingParams } from "../params.ts";
 * const [role, params] = backerSystem(backerView(initialCrowdfundingState(parseCrowdfundingParams({}), "M0"), "bkr_01"));
 * if (!role.startsWith("[ROLE]") || !params.startsWith("[GAME PARAMETERS]")) throw new Error();
 * ```
 */
export function backerSystem(v: BackerView): string[] {
  return [backerRole(v.parameters), gameParameters(v.parameters, v.mechanism)];
}

/**
 * A backer's [AS OF THE END OF LAST ROUND] block, with the public outstanding bonuses (M1).
 *
 * @example
 * ```ts
 * import { backerLastRound } from "./blocks.ts";
 * const b = backerLastRound({ campaign: { pool: 0, newPledges: 0, withdrawals: 0, open: true, launched: false },
 *   outstandingBonuses: 0.5 } as never);
 * if (!b.endsWith("Outstanding bonuses (all backers): 0.500.")) throw new Error(b);
 * ```
 */
export function backerLastRound(v: BackerView): string {
  return endOfLastRound(v.campaign, v.outstandingBonuses);
}

function decisions(v: BackerView): string {
  if (v.previousDecisions.length === 0) return "none yet";
  return v.previousDecisions.map((d) =>
    `round ${d.round}: ${d.call} probability ${d.reported}, ${
      d.acted ? (d.call === "pledge" ? "pledged" : "withdrew") : "no change"
    }`
  ).join("; ");
}

function commitmentLine(v: BackerView): string | null {
  const c = v.commitment;
  if (c === null) return null;
  switch (c.kind) {
    case "paid_pledge":
      return `Commitment: paid pledge agreement, bonus ${
        num3(c.bonus)
      }, locked through round ${c.lockUntil}.`;
    case "letter_of_intent":
      return c.exitDeclared
        ? "Commitment: letter of intent; exit declared, it ends at the start of next round."
        : "Commitment: letter of intent (signed, locked).";
    case "coalition_member":
      return `Commitment: backer coalition member${
        c.exitRequested ? " (exit requested this round)" : ""
      }.`;
  }
}

/**
 * The backer's [YOUR POSITION] block for a financial call (G.2), with its commitment.
 *
 * @example
 * ```ts
 * import { backerPosition } from "./blocks.ts";
 * const b = backerPosition({ id: "bkr_01", pledged: 0, bank: 1, round: 1, horizon: 10,
 *   previousDecisions: [], commitment: null } as never);
 * if (b !== "[YOUR POSITION]\nYou are bkr_01. Pledged: False. Bank balance 1.000.\nThis is round 1 of 10.\nYour previous decisions: none yet.") throw new Error(String(b));
 * ```
 */
export function backerPosition(v: BackerView): string {
  const lines = [
    "[YOUR POSITION]",
    `You are ${v.id}. Pledged: ${py(v.pledged > 0)}. Bank balance ${num3(v.bank)}.`,
    `This is round ${v.round} of ${v.horizon}.`,
    `Your previous decisions: ${decisions(v)}.`,
  ];
  const c = commitmentLine(v);
  if (c) lines.push(c);
  return lines.join("\n");
}

/**
 * The backer's [YOUR POSITION] block for a mechanism-phase call (G.3).
 *
 * @example
 * ```ts
 * import { mechanismPosition } from "./blocks.ts";
 * const b = mechanismPosition({ id: "bkr_01", pledged: 0, bank: 1, round: 2, horizon: 10, mechanism: "M3",
 *   coalition: { members: [] }, previousDecisions: [], commitment: null } as never);
 * if (!b.startsWith("[YOUR POSITION]\nYou are id=bkr_01. Pledged: False. Member: True.\n")) throw new Error(String(b));
 * ```
 */
export function mechanismPosition(v: BackerView): string {
  const lines = [
    "[YOUR POSITION]",
    `You are id=${v.id}. Pledged: ${py(v.pledged > 0)}.` +
    (v.mechanism === "M3" ? ` Member: ${py(v.coalition !== null)}.` : ""),
    `Bank balance ${num3(v.bank)}. This is round ${v.round} of ${v.horizon}.`,
    `Your previous decisions: ${decisions(v)}.`,
  ];
  const c = commitmentLine(v);
  if (c) lines.push(c);
  lines.push("This is the mechanism phase. Do not output pledge_probability here.");
  return lines.join("\n");
}

const SENDERS: Record<string, string> = {
  founder: "the founder",
  coalition: "the backer coalition",
};

/**
 * One certified message as a line of the [MESSAGES] block.
 *
 * @example
 * ```ts
 * import { messageLine } from "./blocks.ts";
 * const line = messageLine({ from: "coalition", kind: "coalition_locked_total", content: { total: 6 } });
 * if (line !== "- from the backer coalition (after a member vote): coalition locked total 6.000") throw new Error(line);
 * ```
 */
export function messageLine(m: Message): string {
  const from = `- from ${SENDERS[m.from] ?? m.from}`;
  const c = m.content;
  switch (m.kind) {
    case "outstanding_bonuses":
      return `${from}: total outstanding bonuses ${num3(c.total as number)}`;
    case "accepted_terms":
      return `${from}: accepted pledge terms: ${
        acceptedTermsList(c, { party: "backer", unit: "bonus" })
      }`;
    // §3.2 discloses a certified aggregate only: the signers' count is not printed.
    case "aggregate_committed":
      return `${from}: pledges committed under the letter of intent ${num3(c.total as number)}`;
    case "coalition_locked_total":
      return `${from} (after a member vote): coalition locked total ${num3(c.total as number)}`;
    default:
      return unknownMessageLine(from, m);
  }
}

/**
 * The [MESSAGES] block: certified messages delivered this round; `null` under M0.
 *
 * @example
 * ```ts
 * import { messages } from "./blocks.ts";
 * if (messages({ mechanism: "M1", announcements: [] } as never) !== "[MESSAGES]\nNone this round.") throw new Error();
 * ```
 */
export function messages(v: BackerView): string | null {
  return messagesBlock(v, messageLine);
}

/**
 * The M3 coalition block (G.3 for members); `null` under M0-M2.
 *
 * @example
 * ```ts
 * import { coalition } from "./blocks.ts";
 * const b = coalition({ mechanism: "M3", canJoin: false, coalition: { members: [{ id: "bkr_01", face: 1 }],
 *   lockedTotal: 1, exitsThisRound: [] } } as never);
 * if (b !== "[COALITION -- members only]\n- id=bkr_01. face=1.000.\nCoalition locked total = 1.000.") throw new Error(String(b));
 * ```
 */
export function coalition(v: BackerView): string | null {
  if (v.mechanism !== "M3") return null;
  const c = v.coalition;
  if (c === null) {
    return `[COALITION]\nYou are not a member; ${joinEligibility(v.canJoin)}.`;
  }
  const lines = [
    "[COALITION -- members only]",
    ...c.members.map((m) => `- id=${m.id}. face=${num3(m.face)}.`),
    `Coalition locked total = ${num3(c.lockedTotal)}.`,
  ];
  if (c.exitsThisRound.length) {
    lines.push(
      "Exit requests this round: " + c.exitsThisRound.map((e) =>
        `${e.member} (${e.confirmations} of 3 hands confirmed, ${e.status})`
      ).join(", ") + ".",
    );
  }
  return lines.join("\n");
}

/**
 * The [OFFER] (M1) or [LETTER OF INTENT] (M2) block of proposals awaiting an answer.
 *
 * @example
 * ```ts
 * import { proposals } from "./blocks.ts";
 * const b = proposals({ mechanism: "M1", proposals: [{ id: "m1_t1_bkr_01", kind: "paid_pledge", bonus: 0.03, lockUntil: 9 }] } as never);
 * if (b !== "[OFFER]\n- m1_t1_bkr_01: bonus 0.030, lock_until 9") throw new Error(String(b));
 * ```
 */
export function proposals(v: BackerView): string | null {
  if (v.mechanism === "M1") {
    return proposalsBlock(
      "[OFFER]",
      v.proposals.filter((p) => p.kind === "paid_pledge"),
      (o) => `- ${o.id}: bonus ${num3(o.bonus ?? 0)}, lock_until ${o.lockUntil}`,
    );
  }
  if (v.mechanism === "M2") {
    return proposalsBlock(
      "[LETTER OF INTENT]",
      v.proposals.filter((p) => p.kind === "letter_of_intent"),
      (a) => `- ${a.id}: letter of intent (no bonus); signing locks a pledge from this round`,
    );
  }
  return null;
}

const FOUNDER_RULES: Record<string, (p: CrowdfundingParameters) => string> = {
  M1: (p) =>
    `- You may offer paid pledge agreements to individual backers: a bonus and a
  lock_until round. A backer who accepts pledges one unit if not already
  pledged and is locked through round lock_until; it cannot revoke. Unanswered
  offers expire at the end of the round; backers already locked cannot receive
  a new offer. Bonuses are paid with the rewards only if you launch and are
  void otherwise; launching with promised bonuses B above (1 - ${num3(p.margin)}) x P fails
  the campaign. Outstanding bonuses are disclosed to all backers each round,
  and you may disclose certified accepted terms to nobody, to all, or to
  backers you name.`,
  M2: () =>
    `- You may ask backers to sign a letter of intent. There is no bonus. A
  solicited backer who signs pledges one unit if not already pledged and is
  locked at once; a signer may declare an exit, which still binds in the round
  of the declaration and ends at the start of the next round. Signers are told
  the certified total committed under the letter each round; you may choose to
  disclose the same total to all non-signers this round.`,
  M3: () =>
    `- Backers may form a coalition whose members are locked until launch; you
  do not see it unless its members vote to disclose its locked total.`,
};

/**
 * The founder's [GAME PARAMETERS] block: the backers' bullets (G.2) and the
 * mechanism's rules from the founder's side.
 *
 * @example
 * ```ts
 * import { founderParameters } from "./blocks.ts";
 * const b = founderParameters({ backers: 15, unitPledge: 1, goal: 14, reward: 1.15, margin: 0.05, riskFree: 0.03,
 *   withdrawalCapacity: 3.75, capacityRule: "expire", horizon: 10, lastDecisionRound: 9 }, "M1");
 * if (!b.includes("(1 - 0.050) x P fails")) throw new Error(String(b));
 * ```
 */
export function founderParameters(p: CrowdfundingParameters, mechanism: string): string {
  const rules = FOUNDER_RULES[mechanism];
  return [gameParameters(p, "M0"), ...(rules ? [rules(p)] : [])].join("\n");
}

/**
 * The founder's state blocks: the campaign as of the end of last round, the
 * round and the pool now, and what the founder's mechanism certifies to it
 * (§3.2): under M1-M2 the backers it may address and its agreements, under M3
 * the certified messages (a locked total the coalition voted to disclose).
 * Under M0 and M3 no backer is named.
 *
 * @example
 * ```ts
 * import { founderState } from "./blocks.ts";
 * const v = { mechanism: "M2", round: 3, horizon: 10, pool: 14, launchAllowed: true,
 *   campaign: { pool: 12, newPledges: 2, withdrawals: 0, open: true, launched: false, outstandingBonuses: 0 },
 *   backers: ["bkr_01", "bkr_02"], outstandingBonuses: 0, bonusLimit: 13.3, committedTotal: 1,
 *   acceptedOffers: [], signers: [{ id: "bkr_01", exitDeclared: false }], announcements: [] };
 * const text = founderState(v as never).join("\n");
 * if (!text.includes("Pool P = 14.000 now. Launch allowed: True.")) throw new Error(text);
 * if (!text.includes("[BACKERS]\nIds: bkr_01, bkr_02.\n[COMMITMENTS]\nSigners: bkr_01.")) throw new Error(text);
 * ```
 */
export function founderState(v: FounderView): string[] {
  const now = [
    "[NOW]",
    `This is round ${v.round} of ${v.horizon}.`,
    `Pool P = ${num3(v.pool)} now. Launch allowed: ${py(v.launchAllowed)}.`,
  ];
  if (v.mechanism === "M1") {
    now.push(
      `Outstanding bonuses B = ${num3(v.outstandingBonuses)}; limit (1 - margin) x P = ${
        num3(v.bonusLimit)
      }.`,
    );
  }
  const blocks = [
    endOfLastRound(v.campaign, v.mechanism === "M1" ? v.campaign.outstandingBonuses : null),
    now.join("\n"),
  ];
  if (v.backers.length) blocks.push(`[BACKERS]\n${wrap(`Ids: ${v.backers.join(", ")}.`)}`);
  if (v.mechanism === "M1" || v.mechanism === "M2") {
    const commitments = ["[COMMITMENTS]"];
    if (v.mechanism === "M1") {
      commitments.push(
        `Accepted pledge agreements: ${acceptedOffersList(v.acceptedOffers, "bonus")}.`,
      );
    } else commitments.push(`Signers: ${signersList(v.signers)}.`);
    commitments.push(`Committed pledges: ${num3(v.committedTotal ?? 0)}.`);
    blocks.push(commitments.join("\n"));
  }
  if (v.mechanism === "M3") blocks.push(messagesBlock(v, messageLine)!);
  return blocks;
}

/**
 * The user-prompt blocks a backer's pledge and withdrawal calls share, in
 * order: last round, [YOUR POSITION], (M1-M3) [MESSAGES] and (M3) the coalition.
 *
 * @example
 * ```ts
 * import { backerDecisionState } from "./blocks.ts";
 * import { backerView } from "../views.ts";
 * import { initialCrowdfundingState } from "../state.ts";
 * import { parseCrowdfundingParams } from "../params.ts";
 * const s = initialCrowdfundingState(parseCrowdfundingParams({}), "M0");
 * const blocks = backerDecisionState(backerView(s, "bkr_01"));
 * if (blocks.length !== 4 || blocks[2] !== null || !blocks[1]!.startsWith("[YOUR POSITION]")) throw new Error();
 * ```
 */
export function backerDecisionState(v: BackerView): (string | null)[] {
  return [backerLastRound(v), backerPosition(v), messages(v), coalition(v)];
}

/**
 * The bank run's prompt blocks (FRAIL Appendix G), shared by the depositor's
 * and the bank's templates. The [ROLE], [GAME PARAMETERS], both [COMMITMENT
 * SEMANTICS] variants, the M3 [MECHANISM RULES] and the depositor's state
 * blocks are the paper's text (G.2, G.3) with ASCII quotes; everything the
 * paper does not print is written in the same style.
 *
 * Choices where the paper is open:
 * - The capacity bullet is G.2's under the default `capacityRule: "expire"`;
 *   under the non-default `"partial"` it says what the engine then does (the
 *   request that crosses the capacity is paid in part).
 * - M1 and M2 [MECHANISM RULES] describe the engine's rules (offers expire at
 *   the end of their round; an M2 exit binds through its declaration round).
 * - Neither depositors nor the bank are told the round number or the horizon
 *   (Appendix F), so offers and locks show how many rounds they bind, this
 *   round included, and the bank states an offer's lock in rounds
 *   (`lock_rounds`); mechanism ids carry no round.
 * - Previous decisions are listed oldest first as the reported probability and
 *   whether a redemption was paid.
 * - Certified messages are written out by kind ("from the institution: ...").
 * - A non-member's M3 member-only line says only that it is not a member and
 *   whether it may (re)join.
 *
 * @module
 */
import type { Message } from "../../../frail/types.ts";
import type { BankView, DepositorParameters, DepositorView } from "../views.ts";
import { num3 } from "../../../agents/llm/prompts/template.ts";
import {
  acceptedTermsList,
  committedText,
  exitRitualText,
  joinEligibility,
  pendingVotesList,
  signersList,
  unknownMessageLine,
} from "../../../agents/llm/prompts/_shared_blocks.ts";

/**
 * The depositor's [ROLE] block (G.2).
 *
 * @example
 * ```ts
 * import { DEPOSITOR_ROLE } from "./blocks.ts";
 * if (!DEPOSITOR_ROLE.startsWith("[ROLE]\nYou are simulating the behavior of a single depositor")) throw new Error();
 * ```
 */
export const DEPOSITOR_ROLE: string = `[ROLE]
You are simulating the behavior of a single depositor of a financial institution.
Your savings are held at the institution. Each round you decide whether to redeem
(withdraw) your full deposit or to keep it deposited. The game lasts for a number
of rounds; redeemed funds leave the institution. If you keep your deposit until
the end and the institution can pay in full, you receive the promised yield per
unit; otherwise remaining depositors share what the institution's assets are
worth at that point, in proportion to their deposits.`;

/**
 * The bank's [ROLE] block.
 *
 * @example
 * ```ts
 * import { BANK_ROLE } from "./blocks.ts";
 * if (!BANK_ROLE.includes("management of a financial institution")) throw new Error();
 * ```
 */
export const BANK_ROLE: string = `[ROLE]
You are simulating the management of a financial institution that holds the
savings of many depositors. Each round depositors decide whether to redeem
(withdraw) their deposits or keep them deposited. The game lasts for a number
of rounds. If the institution survives to the end, its long-term assets mature
and you keep what remains after paying every remaining depositor the promised
yield and any promised payments; if it fails, you receive nothing while
depositors are still owed money.`;

/** Options for {@linkcode gameParameters} and {@linkcode capacityBullet}. */
export interface GameParametersOptions {
  /**
   * Who reads the block: a depositor gets G.2's words ("Keeping your
   * deposit ..."); the bank, for which the paper prints no prompt, the same
   * facts about depositors' deposits in the third person.
   *
   * @default {"depositor"}
   */
  reader?: "depositor" | "bank";
}

/**
 * The [GAME PARAMETERS] block (G.2): G.2's words for depositors, the same
 * facts in the third person for the bank.
 *
 * @example
 * ```ts
 * import { gameParameters } from "./blocks.ts";
 * const b = gameParameters({ depositors: 15, totalDeposits: 15, depositYield: 1.114,
 *   assetReturn: 1.131, earlySalePrice: 0.85, capacity: 3.75, capacityRule: "expire" });
 * if (!b.includes("- There are 15 depositors; total deposits are 15.000.")) throw new Error();
 * const bank = gameParameters({ depositors: 15, totalDeposits: 15, depositYield: 1.114,
 *   assetReturn: 1.131, earlySalePrice: 0.85, capacity: 3.75, capacityRule: "expire" }, { reader: "bank" });
 * if (bank.includes("your") || !bank.includes("- A deposit kept until the end pays 1.114 per unit")) {
 *   throw new Error(bank);
 * }
 * ```
 */
export function gameParameters(
  p: DepositorParameters,
  options: GameParametersOptions = {},
): string {
  const h = num3(p.earlySalePrice);
  const kept = options.reader === "bank"
    ? "A deposit kept until the end pays"
    : "Keeping your deposit until the end pays";
  return `[GAME PARAMETERS]
- There are ${p.depositors} depositors; total deposits are ${num3(p.totalDeposits)}.
- Redeeming pays 1.000 per unit (face value), if processed.
- ${kept} ${num3(p.depositYield)} per unit, provided the
  institution can pay all remaining depositors in full.
- The institution's long-term assets return ${num3(p.assetReturn)} per unit at maturity;
  sold early, they fetch only ${h} per unit.
${capacityBullet(p, options)}
- Redemptions are paid cash first; any shortfall is covered by selling
  long-term assets early.
- The institution fails immediately if it cannot pay a redemption request
  during processing. In addition, at the end of every round its solvency is
  checked: if its cash plus the maturity value of its remaining long-term
  assets falls short of what it owes remaining depositors (promised yield,
  plus any promised payments), it fails at that point.
- On failure, remaining assets are liquidated at ${h} per unit and shared
  in proportion to deposits.`;
}

/**
 * The capacity bullet of [GAME PARAMETERS]: G.2's words under the paper's
 * `"expire"` rule, and the engine's partial payment under `"partial"`; the
 * bank reads "the deposit" where a depositor reads "your deposit".
 *
 * @example
 * ```ts
 * import { capacityBullet } from "./blocks.ts";
 * const b = capacityBullet({ capacity: 3.75, capacityRule: "expire" });
 * if (!b.endsWith("requests beyond that expire unprocessed (your deposit stays).")) throw new Error(b);
 * if (!capacityBullet({ capacity: 3.75, capacityRule: "partial" }).includes("paid in part")) throw new Error();
 * ```
 */
export function capacityBullet(
  p: Pick<DepositorParameters, "capacity" | "capacityRule">,
  options: GameParametersOptions = {},
): string {
  const cap = num3(p.capacity);
  const whose = options.reader === "bank" ? "the" : "your";
  if (p.capacityRule === "partial") {
    return `- At most ${cap} of redemption requests can be processed each round; the
  request that crosses that limit is paid in part, and the rest of it and every
  request beyond it expire unprocessed (${whose} remaining deposit stays).`;
  }
  return `- At most ${cap} of redemption requests can be processed each round;
  requests beyond that expire unprocessed (${whose} deposit stays).`;
}

/**
 * The [COMMITMENT SEMANTICS] block: inert under M0 (G.2), binding under M1-M3 (G.3).
 *
 * @example
 * ```ts
 * import { commitmentSemantics } from "./blocks.ts";
 * if (!commitmentSemantics("M0").includes("a promise, not a lock")) throw new Error();
 * if (!commitmentSemantics("M3").includes("is binding")) throw new Error();
 * ```
 */
export function commitmentSemantics(mechanism: string): string {
  if (mechanism === "M0") {
    return `[COMMITMENT SEMANTICS]
A commitment you make (by accepting an offer, signing an agreement, or joining
a group) is a promise, not a lock: the system will NEVER override your
redemption output. But redeeming while committed is recorded as a breach, and
the breach is made public to designated recipients at the next round.`;
  }
  return `[COMMITMENT SEMANTICS]
A commitment you make (by accepting an offer, signing an agreement, or joining
a group) is binding: the system locks you in and overrides any positive
redemption probability to 0 for as long as the commitment holds.`;
}

const DEPOSITOR_RULES: Record<string, string> = {
  M1: `[MECHANISM RULES]
At the start of a round the institution may make you a paid retention offer: a
compensation amount for staying locked in for a stated number of rounds. You
may accept or decline in the same round; an unanswered offer expires at the end
of the round. Accepting locks you in (no redemption, see COMMITMENT SEMANTICS)
for the stated rounds and cannot be revoked. Compensation is paid at the end,
on top of your deposit, only if the institution survives; it is void if the
institution fails. Promised compensation is a liability of the institution: it
counts in the end-of-round solvency check, and its outstanding total is
disclosed to all depositors each round. The institution may also disclose
certified accepted terms to the depositors it chooses.`,
  M2: `[MECHANISM RULES]
At the start of a round the institution may ask you to sign a deposit
protection agreement. There is no compensation. Signing locks you in at once
(no redemption, see COMMITMENT SEMANTICS). A signer may declare a unilateral
exit: the commitment still holds in the round of the declaration and ends at
the start of the next round. Signers are told the certified total of deposits
committed under the agreement each round; the institution may choose to
disclose the same certified total to non-signers.`,
  M3: `[MECHANISM RULES]
A mutual statement group exists from round 1 (initially empty). You may join at
the start of a round; joining locks you in (no redemption, see COMMITMENT
SEMANTICS) and discloses your true balance to members only. Member list,
balances, group total and exit rituals are visible to members only;
non-members know nothing about the group. The only way out is the exit ritual:
an exit request triggers a 3-wave ritual over the next 3 rounds during which
other members may join the exit list; at the end of the third wave the exit is
confirmed and you may redeem from the following round. Once you leave you may
never rejoin. Members may propose a vote to announce the group total to
outsiders; it passes with strictly more than 50% support.`,
};

/**
 * A depositor's [MECHANISM RULES] block, or `null` under M0.
 *
 * @example
 * ```ts
 * import { depositorMechanismRules } from "./blocks.ts";
 * if (depositorMechanismRules("M0") !== null) throw new Error();
 * if (!depositorMechanismRules("M3")!.startsWith("[MECHANISM RULES]\nA mutual statement group")) throw new Error();
 * ```
 */
export function depositorMechanismRules(mechanism: string): string | null {
  return DEPOSITOR_RULES[mechanism] ?? null;
}

const BANK_RULES: Record<string, string> = {
  M1: `[MECHANISM RULES]
At the start of each round you may make paid retention offers to individual
depositors: a compensation amount and a lock length in rounds (lock_rounds). A
depositor who accepts is locked in (cannot redeem) for lock_rounds rounds, the
round of acceptance included, and cannot revoke; a lock longer than the game
binds until the end. Unanswered offers expire at the end of the round. At most
one offer per depositor per round; depositors already locked in cannot receive
a new offer. Compensation is paid at the end only if the institution survives
and is void if it fails; while outstanding it is a liability that counts in the
end-of-round solvency check, and its total is disclosed to all depositors each
round. You may also disclose certified accepted terms (depositor, amount,
rounds left) to nobody, to all depositors, or to depositors you name.`,
  M2: `[MECHANISM RULES]
At the start of each round you may ask depositors to sign a deposit protection
agreement. There is no compensation. A solicited depositor who signs is locked
in (cannot redeem) at once; a signer may declare a unilateral exit, which still
binds in the round of the declaration and ends at the start of the next round.
Signers are told the certified total of deposits committed under the agreement
each round; you may choose to disclose the same certified total to all
non-signers this round.`,
};

/**
 * The bank's [MECHANISM RULES] block for M1 or M2.
 *
 * @example
 * ```ts
 * import { bankMechanismRules } from "./blocks.ts";
 * if (!bankMechanismRules("M1").includes("(lock_rounds)")) throw new Error();
 * ```
 * @throws {RangeError} For a mechanism without bank calls.
 */
export function bankMechanismRules(mechanism: string): string {
  const rules = BANK_RULES[mechanism];
  if (!rules) throw new RangeError(`The bank makes no mechanism call under "${mechanism}"`);
  return rules;
}

/**
 * The depositor's [PROFILE] block (G.2).
 *
 * @example
 * ```ts
 * import { profile } from "./blocks.ts";
 * const b = profile({ id: "dep_01", balance: 0.902, previousDecisions: [], commitment: null } as never);
 * if (!b.includes("- Deposit balance: 0.902\n\n- Your previous decisions: none yet")) throw new Error();
 * ```
 */
export function profile(v: DepositorView): string {
  const decisions = v.previousDecisions.length === 0
    ? "none yet"
    : "(oldest first) " + v.previousDecisions.map((d) =>
      `reported ${d.reported}, ${d.withdrew ? "redeemed" : "not redeemed"}`
    ).join("; ");
  return `[PROFILE]
- Depositor ID: ${v.id}
- Deposit balance: ${num3(v.balance)}

- Your previous decisions: ${decisions}

- Commitment status: ${commitmentStatus(v)}`;
}

function commitmentStatus(v: DepositorView): string {
  const c = v.commitment;
  if (c === null) return "none";
  switch (c.kind) {
    case "retention_offer":
      return `accepted a paid retention offer (compensation ${num3(c.compensation)}); ` +
        `locked in for ${rounds(c.lockRoundsRemaining)}, this round included`;
    case "protection_agreement":
      return c.exitDeclared
        ? "signed the deposit protection agreement; exit declared, your commitment ends at the start of next round"
        : "signed the deposit protection agreement (locked in)";
    case "coalition_member":
      return c.onExitList
        ? "member of the mutual statement group (locked in); you are on the exit list"
        : "member of the mutual statement group (locked in)";
  }
}

function rounds(n: number): string {
  return `${n} round${n === 1 ? "" : "s"}`;
}

function institutionLines(
  i: { cash: number; assets: number; depositsRemaining: number },
): string[] {
  return [
    "[INSTITUTION STATE]",
    `- Liquid reserves (as of the end of last round): ${num3(i.cash)}`,
    `- Long-term assets (as of the end of last round): ${num3(i.assets)}`,
    `- Total deposits remaining (as of the end of last round): ${num3(i.depositsRemaining)}`,
  ];
}

/**
 * The [INSTITUTION STATE] block as a depositor sees it (G.2), with the public
 * outstanding compensation under M1.
 *
 * @example
 * ```ts
 * import { depositorInstitutionState } from "./blocks.ts";
 * const b = depositorInstitutionState({ institution: { cash: 1.125, assets: 15.075, depositsRemaining: 15 },
 *   outstandingCompensation: null } as never);
 * if (!b.endsWith("- Total deposits remaining (as of the end of last round): 15.000")) throw new Error();
 * ```
 */
export function depositorInstitutionState(v: DepositorView): string {
  const lines = institutionLines(v.institution);
  if (v.outstandingCompensation !== null) {
    lines.push(
      `- Outstanding promised compensation (as of the end of last round): ${
        num3(v.outstandingCompensation)
      }`,
    );
  }
  return lines.join("\n");
}

/**
 * The [LAST ROUND ACTIVITY] block (G.2).
 *
 * @example
 * ```ts
 * import { lastRoundActivity } from "./blocks.ts";
 * if (!lastRoundActivity(0.25).endsWith("last round: 0.250")) throw new Error();
 * ```
 */
export function lastRoundActivity(fractionRedeemed: number): string {
  return `[LAST ROUND ACTIVITY]
- Fraction of deposits redeemed last round: ${num3(fractionRedeemed)}`;
}

/**
 * The [INTERPRETATION REMINDERS] block (G.2).
 *
 * @example
 * ```ts
 * import { INTERPRETATION_REMINDERS } from "./blocks.ts";
 * if (!INTERPRETATION_REMINDERS.includes("elevated risk")) throw new Error();
 * ```
 */
export const INTERPRETATION_REMINDERS: string = `[INTERPRETATION REMINDERS]
- Heavy redemptions in previous rounds may indicate elevated risk.`;

/**
 * A depositor's system prompt: [ROLE], [GAME PARAMETERS], [COMMITMENT
 * SEMANTICS] and (M1-M3) [MECHANISM RULES].
 *
 * @example
 * ```ts
 * import { depositorSystem } from "./blocks.ts";
 * const blocks = depositorSystem({ mechanism: "M0", parameters: { depositors: 15, totalDeposits: 15,
 *   depositYield: 1.114, assetReturn: 1.131, earlySalePrice: 0.85, capacity: 3.75,
 *   capacityRule: "expire" } } as never);
 * if (blocks.length !== 4 || blocks[3] !== null || !blocks[2]!.includes("a promise, not a lock")) throw new Error();
 * ```
 */
export function depositorSystem(v: DepositorView): (string | null)[] {
  return [
    DEPOSITOR_ROLE,
    gameParameters(v.parameters),
    commitmentSemantics(v.mechanism),
    depositorMechanismRules(v.mechanism),
  ];
}

/**
 * A depositor's state blocks (G.2): [PROFILE], [INSTITUTION STATE], [LAST
 * ROUND ACTIVITY] and [INTERPRETATION REMINDERS].
 *
 * @example
 * ```ts
 * import { depositorState } from "./blocks.ts";
 * const blocks = depositorState({ id: "dep_01", balance: 1, previousDecisions: [], commitment: null,
 *   institution: { cash: 1.125, assets: 15.075, depositsRemaining: 15 }, outstandingCompensation: null,
 *   fractionRedeemedLastRound: 0 } as never);
 * if (blocks.length !== 4 || !blocks[3].startsWith("[INTERPRETATION REMINDERS]")) throw new Error();
 * ```
 */
export function depositorState(v: DepositorView): string[] {
  return [
    profile(v),
    depositorInstitutionState(v),
    lastRoundActivity(v.fractionRedeemedLastRound),
    INTERPRETATION_REMINDERS,
  ];
}

/** Options of {@linkcode thisRoundProposals}. */
export interface ProposalsBlockOptions {
  /** List the proposals awaiting an answer (the mechanism-response call). Default `true`. */
  awaiting?: boolean;
}

/**
 * The [THIS ROUND PROPOSALS] block (G.3): proposals awaiting an answer,
 * certified announcements, and (under M3) member-only information. `null` under M0.
 *
 * @example
 * ```ts
 * import { thisRoundProposals } from "./blocks.ts";
 * const v = { mechanism: "M3", proposals: [], announcements: [], canJoin: false, commitment: null,
 *   id: "dep_01", coalition: { members: [{ id: "dep_01", balance: 0.902 }], total: 0.902,
 *   exitRitual: { wave: 0, list: ["dep_01"] }, pendingVotes: [] } };
 * const b = thisRoundProposals(v as never)!;
 * if (!b.includes("exit ritual: wave 0 of 3, exit list ['dep_01'] (you are on the exit list)")) throw new Error(b);
 * ```
 */
export function thisRoundProposals(
  v: DepositorView,
  options: ProposalsBlockOptions = {},
): string | null {
  if (v.mechanism === "M0") return null;
  const lines = ["[THIS ROUND PROPOSALS]"];
  if (options.awaiting ?? true) {
    lines.push(
      v.proposals.length === 0
        ? "- New proposals awaiting your response: none"
        : "- New proposals awaiting your response:",
    );
    for (const p of v.proposals) lines.push(`  ${proposalLine(p)}`);
  }
  lines.push(
    v.announcements.length === 0
      ? "- Certified announcements this round: none"
      : "- Certified announcements this round:",
  );
  for (const m of v.announcements) lines.push(`  ${announcementLine(m)}`);
  if (v.mechanism === "M3") lines.push(...memberOnly(v));
  return lines.join("\n");
}

function proposalLine(p: DepositorView["proposals"][number]): string {
  if (p.kind === "retention_offer") {
    return `${p.id}: paid retention offer, compensation ${num3(p.amount ?? 0)}; ` +
      `accepting locks you in for ${rounds(p.lockRoundsRemaining ?? 0)}, this round included`;
  }
  if (p.kind === "protection_agreement") {
    return `${p.id}: deposit protection agreement (no compensation); signing locks you in from this round`;
  }
  return `${p.id}: ${p.kind}`;
}

const SENDERS: Record<string, string> = {
  bank: "the institution",
  coalition: "the mutual statement group",
};

/**
 * One certified message as a line of the [THIS ROUND PROPOSALS] block.
 *
 * @example
 * ```ts
 * import { announcementLine } from "./blocks.ts";
 * const line = announcementLine({ from: "bank", kind: "aggregate_committed", content: { total: 5.604, signers: 6 } });
 * if (line !== "from the institution: deposits committed under the protection agreement 5.604") throw new Error(line);
 * ```
 */
export function announcementLine(m: Message): string {
  const from = `from ${SENDERS[m.from] ?? m.from}`;
  const c = m.content;
  switch (m.kind) {
    case "outstanding_compensation":
      return `${from}: total outstanding promised compensation ${num3(c.total as number)}`;
    case "accepted_terms":
      return `${from}: accepted retention terms: ${
        acceptedTermsList(c, { party: "depositor", unit: "compensation", rounds })
      }`;
    // §3.2 discloses aggregates only: the signers' and members' counts the
    // messages carry are not printed.
    case "aggregate_committed":
      return `${from}: deposits committed under the protection agreement ${
        num3(c.total as number)
      }`;
    case "coalition_total":
      return `${from} (after a member vote): group committed total ${num3(c.total as number)}`;
    default:
      return unknownMessageLine(from, m);
  }
}

function memberOnly(v: DepositorView): string[] {
  const c = v.coalition;
  if (c === null) {
    return [
      `- Member-only information: not available (you are not a member; ${
        joinEligibility(v.canJoin)
      })`,
    ];
  }
  const ritual = exitRitualText(c.exitRitual) +
    (c.exitRitual?.list.includes(v.id) ? " (you are on the exit list)" : "");
  return [
    "- Member-only information:",
    `  members and balances: ${c.members.map((m) => `${m.id}=${num3(m.balance)}`).join(", ")}`,
    `  group committed total: ${num3(c.total)}`,
    `  exit ritual: ${ritual}`,
    `  pending announcement votes: ${pendingVotesList(c.pendingVotes)}`,
  ];
}

/**
 * The `offers` field of the bank's M1 call: whom to offer, how much, and how
 * many rounds the lock binds.
 *
 * @example
 * ```ts
 * import { RETENTION_OFFERS_FIELD } from "./blocks.ts";
 * if (!RETENTION_OFFERS_FIELD.endsWith('"lock_rounds": <rounds>}]')) throw new Error();
 * ```
 */
export const RETENTION_OFFERS_FIELD: string =
  '"offers": [{"target": "<depositor id>", "amount": <number>, "lock_rounds": <rounds>}]';

/**
 * The M1 offers accepted so far, as the bank sees them: each lock as the
 * rounds it still binds.
 *
 * @example
 * ```ts
 * import { acceptedRetentionOffers } from "./blocks.ts";
 * const s = acceptedRetentionOffers([{ target: "dep_03", amount: 0.03, lockRoundsRemaining: 1 },
 *   { target: "dep_04", amount: 0.05, lockRoundsRemaining: 0 }]);
 * if (s !== "dep_03 compensation 0.030, locked for 1 round including this one; dep_04 compensation 0.050, lock ended") throw new Error(s);
 * ```
 */
export function acceptedRetentionOffers(offers: BankView["acceptedOffers"]): string {
  if (offers.length === 0) return "none";
  return offers.map((o) =>
    `${o.target} compensation ${num3(o.amount)}, ${
      o.lockRoundsRemaining > 0
        ? `locked for ${rounds(o.lockRoundsRemaining)} including this one`
        : "lock ended"
    }`
  ).join("; ");
}

/**
 * The bank's state blocks: [INSTITUTION STATE], [LAST ROUND ACTIVITY],
 * [DEPOSITORS] and [COMMITMENTS]. Like the depositors, the bank is told
 * neither the round number nor the horizon (Appendix F).
 *
 * @example
 * ```ts
 * import { bankState } from "./blocks.ts";
 * const v = { mechanism: "M2", institution: { cash: 1, assets: 15, depositsRemaining: 15,
 *   fractionRedeemed: 0, outstandingCompensation: 0 }, depositors: [{ id: "dep_01", balance: 1, committed: true }],
 *   outstandingCompensation: 0, committedTotal: 1, acceptedOffers: [], signers: [{ id: "dep_01", exitDeclared: false }] };
 * const blocks = bankState(v as never);
 * if (!blocks[0].startsWith("[INSTITUTION STATE]") || blocks[3] !== "[COMMITMENTS]\n- Signers: dep_01") throw new Error(blocks.join("\n"));
 * ```
 */
export function bankState(v: BankView): string[] {
  const institution = institutionLines(v.institution);
  if (v.mechanism === "M1") {
    institution.push(
      `- Outstanding promised compensation (now): ${num3(v.outstandingCompensation)}`,
    );
  }
  institution.push(`- Deposits committed (now): ${num3(v.committedTotal)}`);
  const depositors = [
    "[DEPOSITORS]",
    ...v.depositors.map((d) =>
      `- ${d.id}: balance ${num3(d.balance)}, ${committedText(d.committed)}`
    ),
  ];
  const commitments = ["[COMMITMENTS]"];
  if (v.mechanism === "M1") {
    commitments.push(
      `- Accepted retention offers: ${acceptedRetentionOffers(v.acceptedOffers)}`,
    );
  } else {
    commitments.push(`- Signers: ${signersList(v.signers)}`);
  }
  return [
    institution.join("\n"),
    lastRoundActivity(v.institution.fractionRedeemed),
    depositors.join("\n"),
    commitments.join("\n"),
  ];
}

/**
 * The debt rollover's prompt blocks (FRAIL Appendix G), shared by the
 * creditor's and the borrower's templates. The creditor's [ROLE], [GAME
 * PARAMETERS], wave assignment, [AS OF THE END OF LAST ROUND], [YOUR
 * POSITION] and [OUTPUT] blocks are the paper's G.2 text (blocks follow each
 * other without blank lines, as printed; long lines with values are wrapped
 * the way the paper prints them); the M1 [OFFER] block follows G.3.
 *
 * Choices where the paper is open:
 * - Offers and solicitations are answered in the mechanism-response call that
 *   precedes the redeem-or-roll call (the environment's order, Appendix F), so
 *   G.3's combined M1 call is split: [OFFER] and `proposal_actions` go to the
 *   response call, `withdraw_probability` stays in the redeem-or-roll call.
 * - Mechanism rules, commitments, certified messages and committee
 *   information are written in the same style as G.2 ([MECHANISM RULES],
 *   [MESSAGES], [COMMITTEE -- members only], after the crowdfunding G.3 excerpt).
 * - Last round's deferred requests (over capacity) are listed only when there were some.
 *
 * @module
 */
import type { Message } from "../../../frail/types.ts";
import type { BorrowerView, CreditorView, RolloverParameters } from "../views.ts";
import { countWord, num3, wrap } from "../../../agents/llm/prompts/template.ts";
import {
  acceptedOffersList,
  acceptedTermsList,
  committedText,
  exitRitualText,
  joinEligibility,
  messagesBlock,
  pendingVotesList,
  proposalsBlock,
  signersList,
  unknownMessageLine,
} from "../../../agents/llm/prompts/_shared_blocks.ts";

/** The creditor's [ROLE] block (G.2). */
export const CREDITOR_ROLE: string = `[ROLE]
You are simulating the behavior of a single short-term creditor of a borrower.
The borrower finances a portfolio of assets that mature on a known schedule.
Your claim pays a contractual interest rate each round. You may act only on
rounds when your claim is due: roll for one more round, or redeem the current
claim in full. If you redeem, the funds leave. If you hold until the final
round and the borrower can pay in full, you receive the accrued contractual
claim. If the borrower fails, remaining creditors share the liquidation value
in proportion to current claims.`;

/** The borrower's [ROLE] block. */
export const BORROWER_ROLE: string = `[ROLE]
You are simulating the management of a borrower that finances a portfolio of
assets maturing on a known schedule with short-term claims held by creditors.
Claims accrue a contractual interest rate each round. When a claim is due its
creditor either rolls it for one more round or redeems it, and redemptions are
paid from cash or by selling assets early at a loss. If you survive to the
final round you pay every remaining claim and keep what is left; if you
default you receive nothing.`;

const bullet = (text: string) => wrap(`- ${text}`, { width: 79, indent: "  " });

function tranches(assets: readonly { round: number; face: number }[]): string {
  return assets.map((a) => `(round ${a.round}, face ${num3(a.face)})`).join(", ");
}

/**
 * The [GAME PARAMETERS] block with the public wave assignment (G.2).
 *
 * @example
 * ```ts
 * import { gameParameters } from "./blocks.ts";
 * const b = gameParameters({ creditors: 2, waves: [{ round: 1, creditors: ["crd_01", "crd_02"] }],
 *   horizon: 3, faceValue: 1, claimRate: 0.02, claimAtHorizon: 1.061, initialCash: 0.2, cashRate: 0.005,
 *   assets: [{ round: 3, face: 3 }], earlySalePrice: 0.7, capacity: 2.5 });
 * if (!b.endsWith("Wave assignment (public):\n  wave 1: crd_01, crd_02")) throw new Error(String(b));
 * ```
 */
export function gameParameters(p: RolloverParameters): string {
  const sizes = new Set(p.waves.map((w) => w.creditors.length));
  const perWave = sizes.size === 1 ? ` (${countWord([...sizes][0])} creditors per wave)` : "";
  return [
    "[GAME PARAMETERS]",
    bullet(
      `There are ${p.creditors} creditors in ${
        countWord(p.waves.length)
      } maturity waves at rounds ${p.waves.map((w) => w.round).join(", ")}${perWave}.`,
    ),
    bullet(`The game lasts T = ${p.horizon} rounds. All events occur at round end.`),
    bullet(`Face value at the start is ${num3(p.faceValue)} per creditor.`),
    bullet(
      `Claims accrue at ${num3(p.claimRate)} per round for every remaining creditor, each round, ` +
        "whether or not that creditor is due. Redeeming at round t pays the then-current claim, " +
        "equal to face times (1+r_d)^t.",
    ),
    bullet(
      `Holding until the end, if the borrower survives, pays ${
        num3(p.claimAtHorizon)
      } per remaining claim.`,
    ),
    bullet(`Cash earns ${num3(p.cashRate)} per round. Initial cash is ${num3(p.initialCash)}.`),
    bullet(
      `Assets mature on the schedule ${tranches(p.assets)}. Sold early, they fetch ${
        num3(p.earlySalePrice)
      } per unit of remaining face.`,
    ),
    bullet(
      `At most ${
        num3(p.capacity)
      } of redemptions can be processed each round; requests beyond that expire ` +
        "unprocessed and the claim rolls one round.",
    ),
    bullet(
      "Redemptions are paid cash first; any shortfall is covered by selling the " +
        "nearest-maturity remaining assets.",
    ),
    bullet(
      "The borrower fails during processing if a redemption cannot be paid even after selling " +
        "all remaining assets (liquidity default).",
    ),
    bullet(
      "At the end of every round, solvency is checked: cash plus the maturity value of remaining " +
        "assets is compared with remaining claims compounded to round T, plus any outstanding " +
        "premiums. If that test fails, the borrower defaults (insolvency).",
    ),
    bullet(
      `On default, remaining assets are liquidated at ${
        num3(p.earlySalePrice)
      } per unit and shared in proportion to current claims.`,
    ),
    "Wave assignment (public):",
    ...p.waves.map((w) => `  wave ${w.round}: ${w.creditors.join(", ")}`),
  ].join("\n");
}

const CREDITOR_RULES: Record<string, string> = {
  M1: `[MECHANISM RULES]
At the start of a round the borrower may offer you a paid rollover agreement:
a premium and a lock_until round. Accepting binds you at once and cannot be
revoked: through round lock_until your claim rolls whenever it is due (the
system overrides any redeem probability to 0). An unanswered offer expires at
the end of the round. The premium is paid at the end only if the borrower
survives and is void on default; outstanding premiums are a liability counted
in the solvency check and disclosed in aggregate each round. The borrower may
disclose certified accepted terms to the creditors it chooses.`,
  M2: `[MECHANISM RULES]
At the start of a round the borrower may ask you to sign a standstill
agreement. There is no premium. Signing binds you at once: while it holds your
claim rolls whenever it is due (the system overrides any redeem probability to
0). A signer may declare a unilateral exit: the agreement still binds in the
round of the declaration and ends at the start of the next round. Signers are
told the certified total of committed claims each round; the borrower may
disclose the same total to non-signers.`,
  M3: `[MECHANISM RULES]
A creditor committee exists from round 1 (initially empty). You may join at
the start of a round while your claim is outstanding; joining binds you (your
claim rolls whenever it is due; the system overrides any redeem probability to
0) and discloses your claim to members only. Member list, claims, committee
total and exit rituals are visible to members only; non-members know nothing
about the committee. The only way out is the exit ritual: an exit request
triggers a 3-wave ritual over the next 3 rounds during which other members may
join the exit list; at the end of the third wave the exit is confirmed and you
may redeem from the following round. Once you leave you may never rejoin.
Members may propose a vote to announce the committee total to outsiders; it
passes with strictly more than 50% support.`,
};

/**
 * A creditor's [MECHANISM RULES] block, or `null` under M0.
 *
 * @example
 * ```ts
 * import { creditorMechanismRules } from "./blocks.ts";
 * if (creditorMechanismRules("M0") !== null || !creditorMechanismRules("M2")!.includes("standstill")) throw new Error();
 * ```
 */
export function creditorMechanismRules(mechanism: string): string | null {
  return CREDITOR_RULES[mechanism] ?? null;
}

const BORROWER_RULES: Record<string, string> = {
  M1: `[MECHANISM RULES]
At the start of each round you may offer paid rollover agreements to
individual creditors: a premium and a lock_until round. A creditor who accepts
is bound at once and cannot revoke: through round lock_until its claim rolls
whenever it is due. Unanswered offers expire at the end of the round. At most
one offer per creditor per round; creditors already bound cannot receive a new
offer. Premiums are paid at the end only if you survive and are void on
default; while outstanding they are a liability counted in the solvency check,
and their total is disclosed to all creditors each round. You may also
disclose certified accepted terms (creditor, premium, rounds left) to nobody,
to all creditors, or to creditors you name.`,
  M2: `[MECHANISM RULES]
At the start of each round you may ask creditors to sign a standstill
agreement. There is no premium. A solicited creditor who signs is bound at
once: while the agreement holds its claim rolls whenever it is due. A signer
may declare a unilateral exit, which still binds in the round of the
declaration and ends at the start of the next round. Signers are told the
certified total of committed claims each round; you may choose to disclose the
same total to all non-signers this round.`,
};

/**
 * The borrower's [MECHANISM RULES] block for M1 or M2.
 *
 * @example
 * ```ts
 * import { borrowerMechanismRules } from "./blocks.ts";
 * if (!borrowerMechanismRules("M1").includes("lock_until")) throw new Error();
 * ```
 * @throws {RangeError} For a mechanism without borrower calls.
 */
export function borrowerMechanismRules(mechanism: string): string {
  const rules = BORROWER_RULES[mechanism];
  if (!rules) throw new RangeError(`The borrower makes no mechanism call under "${mechanism}"`);
  return rules;
}

/**
 * The [AS OF THE END OF LAST ROUND] block (G.2), with the outstanding premiums under M1.
 *
 * @example
 * ```ts
 * import { endOfLastRound } from "./blocks.ts";
 * const b = endOfLastRound({ cash: 0.2, assets: [{ round: 4, face: 2 }] },
 *   { due: 0, rolled: 0, redeemed: 0, paid: 0, deferred: 0, suspended: 0, faceSold: 0 }, null);
 * if (!b.endsWith("Due last round: 0; rolled: 0; redeemed: 0 (paid 0.000); suspended: 0.")) throw new Error(String(b));
 * ```
 */
export function endOfLastRound(
  books: { cash: number; assets: readonly { round: number; face: number }[] },
  last: CreditorView["lastRound"],
  premiums: number | null,
): string {
  const lines = [
    "[AS OF THE END OF LAST ROUND]",
    `Cash L = ${num3(books.cash)}.`,
    wrap(
      `Remaining assets: ${books.assets.length ? tranches(books.assets) : "none"}.`,
      { width: 76 },
    ),
    `Due last round: ${last.due}; rolled: ${last.rolled}; redeemed: ${last.redeemed} (paid ${
      num3(last.paid)
    }); ` + (last.deferred ? `deferred (over capacity): ${last.deferred}; ` : "") +
    `suspended: ${last.suspended}.`,
  ];
  if (premiums !== null) lines.push(`Outstanding premiums (all creditors): ${num3(premiums)}.`);
  return lines.join("\n");
}

/**
 * A creditor's system prompt: [ROLE], [GAME PARAMETERS] and (M1-M3) [MECHANISM RULES].
 *
 * @example
 * ```ts
 * import { creditorSystem } from "./blocks.ts";
 * import { creditorView } from "../views.ts";
 * import { initialDebtRolloverState } from "../state.ts";
 * import { parseDebtRolloverParams } from "../params.ts";
 * const s = initialDebtRolloverState(parseDebtRolloverParams({}), "M0");
 * const blocks = creditorSystem(creditorView(s, "crd_01"));
 * if (!blocks[0]!.startsWith("[ROLE]") || blocks[2] !== null) throw new Error();
 * ```
 */
export function creditorSystem(v: CreditorView): (string | null)[] {
  return [CREDITOR_ROLE, gameParameters(v.parameters), creditorMechanismRules(v.mechanism)];
}

/**
 * A creditor's [AS OF THE END OF LAST ROUND] block, with the public outstanding premiums (M1).
 *
 * @example
 * ```ts
 * import { creditorLastRound } from "./blocks.ts";
 * const b = creditorLastRound({ borrower: { cash: 0.2, assets: [] }, outstandingPremiums: null,
 *   lastRound: { due: 0, rolled: 0, redeemed: 0, paid: 0, deferred: 0, suspended: 0, faceSold: 0 } } as never);
 * if (!b.startsWith("[AS OF THE END OF LAST ROUND]\nCash L = 0.200.")) throw new Error(b);
 * ```
 */
export function creditorLastRound(v: CreditorView): string {
  return endOfLastRound(v.borrower, v.lastRound, v.outstandingPremiums);
}

/**
 * The creditor's [YOUR POSITION] block (G.2), with its commitment under M1-M3.
 *
 * @example
 * ```ts
 * import { creditorPosition } from "./blocks.ts";
 * const b = creditorPosition({ id: "crd_01", round: 1, position: { wave: 1, due: true, claim: 1 },
 *   previousDecisions: [], commitment: null } as never);
 * if (!b.includes("You are crd_01. Your initial wave is 1. You are due this round (1).")) throw new Error(String(b));
 * ```
 */
export function creditorPosition(v: CreditorView): string {
  const p = v.position;
  const due = p.due
    ? `You are due this round (${v.round}).`
    : `You are not due this round (${v.round}); your claim first matures at round ${p.wave}.`;
  const decisions = v.previousDecisions.length === 0
    ? "none yet"
    : v.previousDecisions.map((d) => `round ${d.round}: reported ${d.reported}, ${d.outcome}`)
      .join("; ");
  const lines = [
    "[YOUR POSITION]",
    `You are ${v.id}. Your initial wave is ${p.wave}. ${due}`,
    `Your claim at last settlement is ${num3(p.claim)}. If you redeem this round, payment`,
    "equals that amount times (1+r_d) after this round's accrual.",
    `Your previous decisions: ${decisions}.`,
  ];
  const c = v.commitment;
  if (c?.kind === "rollover_agreement") {
    lines.push(
      `Commitment: rollover agreement, premium ${
        num3(c.premium)
      }, binding through round ${c.lockUntil}.`,
    );
  } else if (c?.kind === "standstill_agreement") {
    lines.push(
      c.exitDeclared
        ? "Commitment: standstill agreement; exit declared, it ends at the start of next round."
        : "Commitment: standstill agreement (signed, binding).",
    );
  } else if (c?.kind === "committee_member") {
    lines.push(
      `Commitment: creditor committee member${c.onExitList ? " (on the exit list)" : ""}.`,
    );
  }
  lines.push("Last disclosed cash and assets are above.");
  return lines.join("\n");
}

const SENDERS: Record<string, string> = {
  borrower: "the borrower",
  coalition: "the creditor committee",
};

/**
 * One certified message as a line of the [MESSAGES] block.
 *
 * @example
 * ```ts
 * import { messageLine } from "./blocks.ts";
 * const line = messageLine({ from: "borrower", kind: "aggregate_committed", content: { total: 4.1, signers: 4 } });
 * if (line !== "- from the borrower: claims committed under the standstill agreement 4.100") throw new Error(line);
 * ```
 */
export function messageLine(m: Message): string {
  const from = `- from ${SENDERS[m.from] ?? m.from}`;
  const c = m.content;
  switch (m.kind) {
    case "outstanding_premiums":
      return `${from}: total outstanding premiums ${num3(c.total as number)}`;
    case "accepted_terms":
      return `${from}: accepted rollover terms: ${
        acceptedTermsList(c, { party: "creditor", unit: "premium" })
      }`;
    // §3.2 discloses aggregates only: the signers' and members' counts the
    // messages carry are not printed.
    case "aggregate_committed":
      return `${from}: claims committed under the standstill agreement ${num3(c.total as number)}`;
    case "coalition_total":
      return `${from} (after a member vote): committee total ${num3(c.total as number)}`;
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
 * if (messages({ mechanism: "M2", announcements: [] } as never) !== "[MESSAGES]\nNone this round.") throw new Error();
 * ```
 */
export function messages(v: CreditorView): string | null {
  return messagesBlock(v, messageLine);
}

/**
 * The M3 committee block: member-only information for members, eligibility
 * for others; `null` under M0-M2.
 *
 * @example
 * ```ts
 * import { committee } from "./blocks.ts";
 * const b = committee({ mechanism: "M3", id: "crd_01", canJoin: true, committee: null } as never);
 * if (b !== "[COMMITTEE]\nYou are not a member; you may join this round.") throw new Error(String(b));
 * ```
 */
export function committee(v: CreditorView): string | null {
  if (v.mechanism !== "M3") return null;
  const c = v.committee;
  if (c === null) {
    return `[COMMITTEE]\nYou are not a member; ${joinEligibility(v.canJoin)}.`;
  }
  return [
    "[COMMITTEE -- members only]",
    ...c.members.map((m) => `- id=${m.id}. claim=${num3(m.claim)}. wave=${m.wave}.`),
    `Committee total = ${num3(c.total)}.`,
    `Exit ritual: ${exitRitualText(c.exitRitual)}.`,
    `Pending announcement votes: ${pendingVotesList(c.pendingVotes)}.`,
  ].join("\n");
}

/**
 * The [OFFER] (M1) or [AGREEMENT] (M2) block of proposals awaiting an answer.
 *
 * @example
 * ```ts
 * import { proposals } from "./blocks.ts";
 * const b = proposals({ mechanism: "M1", proposals: [{ id: "m1_t1_crd_01", kind: "rollover_offer", amount: 0.05, lockUntil: 4 }] } as never);
 * if (b !== "[OFFER]\n- m1_t1_crd_01: amount 0.050, lock_until 4") throw new Error(String(b));
 * ```
 */
export function proposals(v: CreditorView): string | null {
  if (v.mechanism === "M1") {
    return proposalsBlock(
      "[OFFER]",
      v.proposals.filter((p) => p.kind === "rollover_offer"),
      (o) => `- ${o.id}: amount ${num3(o.amount ?? 0)}, lock_until ${o.lockUntil}`,
    );
  }
  if (v.mechanism === "M2") {
    return proposalsBlock(
      "[AGREEMENT]",
      v.proposals.filter((p) => p.kind === "standstill_agreement"),
      (a) => `- ${a.id}: standstill agreement (no premium); signing binds you from this round`,
    );
  }
  return null;
}

/**
 * The borrower's state blocks: books as of the end of last round, the round,
 * its creditors, and its mechanism's commitments.
 *
 * @example
 * ```ts
 * import { borrowerState } from "./blocks.ts";
 * const v = { mechanism: "M2", round: 1, horizon: 7, roundsRemaining: 7, solvencyMargin: 0.511,
 *   books: { cash: 0.2, assets: [], claimsOutstanding: 8, outstandingPremiums: 0,
 *     last: { due: 0, rolled: 0, redeemed: 0, paid: 0, deferred: 0, suspended: 0, faceSold: 0 } },
 *   creditors: [{ id: "crd_01", wave: 1, claim: 1, due: true, committed: false }],
 *   committedTotal: 0, acceptedOffers: [], signers: [] };
 * if (!borrowerState(v as never).join("\n").includes("- crd_01: wave 1, claim 1.000, due this round, not committed")) throw new Error();
 * ```
 */
export function borrowerState(v: BorrowerView): string[] {
  const b = v.books;
  const books = endOfLastRound(b, b.last, v.mechanism === "M1" ? b.outstandingPremiums : null) +
    `\nSolvency margin (cash + remaining face - claims at T - premiums): ${
      num3(v.solvencyMargin)
    }.`;
  const commitments = ["[COMMITMENTS]"];
  if (v.mechanism === "M1") {
    commitments.push(
      `Accepted rollover agreements: ${acceptedOffersList(v.acceptedOffers, "premium")}.`,
    );
  } else {
    commitments.push(`Signers: ${signersList(v.signers)}.`);
  }
  commitments.push(`Committed claims: ${num3(v.committedTotal)}.`);
  return [
    books,
    `[ROUND]\nThis is round ${v.round} of ${v.horizon} (${v.roundsRemaining} rounds remaining).`,
    [
      "[CREDITORS]",
      ...v.creditors.map((c) =>
        `- ${c.id}: wave ${c.wave}, claim ${num3(c.claim)}, ${
          c.due ? "due this round" : "not due"
        }, ${committedText(c.committed)}`
      ),
    ].join("\n"),
    commitments.join("\n"),
  ];
}

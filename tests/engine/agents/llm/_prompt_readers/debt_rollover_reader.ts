// A test oracle: reads a rendered prompt back into the view it was rendered from, so the prompt
// tests can check that the text carries every field of the view. It was the local server's reader
// before the server became a game-agnostic double (the engine no longer parses prompts).
/**
 * Reads a rendered debt-rollover prompt back into the view the mock agents'
 * rules need, from the text alone: the inverse of the debt-rollover templates
 * (`prompts/debt_rollover/`), kept to the lines the mock rules use. Amounts
 * come back with the prompt's three decimals.
 *
 * @module
 */
import type {
  BorrowerView,
  CreditorCommitmentView,
  CreditorView,
} from "../../../../../engine/games/debt_rollover/views.ts";
import type { MechanismId, Message } from "../../../../../engine/frail/types.ts";
import { block, ids, type MessageWords, NUM, num, readMessage } from "./_prompt_text.ts";

/** Which debt-rollover call a prompt is, or `null` for a prompt of another game. */
export type DebtRolloverCall =
  | { role: "creditor"; call: "redeem_or_roll" | "mechanism_response" }
  | { role: "borrower"; call: "rollover_offer" | "standstill_solicitation" };

/** The text with wrapped lines joined again. */
function unwrap(text: string): string {
  return text.replace(/\n {2}(?=\S)/g, " ");
}

/**
 * Recognises a debt-rollover prompt by its [ROLE] and [OUTPUT].
 *
 * @example
 * ```ts
 * import { debtRolloverCall } from "./debt_rollover_reader.ts";
 * const c = debtRolloverCall("[ROLE]\nYou are simulating the behavior of a single short-term creditor of a borrower.",
 *   '{"withdraw_probability": <integer 0 to 100>}');
 * if (c?.call !== "redeem_or_roll") throw new Error();
 * ```
 */
export function debtRolloverCall(system: string, user: string): DebtRolloverCall | null {
  if (system.includes("a single short-term creditor of a borrower")) {
    if (user.includes('"proposal_actions"')) {
      return { role: "creditor", call: "mechanism_response" };
    }
    if (user.includes('"withdraw_probability"')) {
      return { role: "creditor", call: "redeem_or_roll" };
    }
  }
  if (system.includes("the management of a borrower")) {
    if (user.includes('"offers"')) return { role: "borrower", call: "rollover_offer" };
    if (user.includes('"solicit"')) return { role: "borrower", call: "standstill_solicitation" };
  }
  return null;
}

function mechanismOf(system: string): MechanismId {
  if (system.includes("paid rollover agreement")) return "M1";
  if (system.includes("standstill")) return "M2";
  if (system.includes("creditor committee exists")) return "M3";
  return "M0";
}

function assets(system: string): { round: number; face: number }[] {
  const line = unwrap(system).match(/Assets mature on the schedule (.*?)\. Sold early/)?.[1] ?? "";
  return [...line.matchAll(/\(round (\d+), face (\d+(?:\.\d+)?)\)/g)].map((m) => ({
    round: Number(m[1]),
    face: Number(m[2]),
  }));
}

/**
 * Reads a creditor's view from its prompt.
 *
 * @example
 * ```ts
 * import { readCreditorView } from "./debt_rollover_reader.ts";
 * const v = readCreditorView("- There are 8 creditors in four maturity waves\n- Claims accrue at 0.020 per round",
 *   "Cash L = 0.200.\nYou are crd_01. Your initial wave is 1. You are due this round (1).\nYour claim at last settlement is 1.000.");
 * if (v.id !== "crd_01" || !v.position.due || v.position.redemptionValue !== 1.02) throw new Error();
 * ```
 */
export function readCreditorView(system: string, user: string): CreditorView {
  const mechanism = mechanismOf(system);
  const claim = num(user, `Your claim at last settlement is ${NUM}`);
  const rate = num(system, `Claims accrue at ${NUM} per round`);
  const round = num(user, "this round \\((\\d+)\\)");
  const decisions = user.match(/Your previous decisions: (.*)\./)?.[1] ?? "none yet";
  const members = block(user, "COMMITTEE -- members only");
  const committeeText = block(user, "COMMITTEE]").join("\n");
  const ritual = members.find((l) => l.startsWith("Exit ritual:")) ?? "";
  const votes = members.find((l) => l.startsWith("Pending announcement votes:")) ?? "";
  return {
    role: "creditor",
    id: user.match(/You are (\S+)\. Your initial wave/)?.[1] ?? "unknown",
    mechanism,
    round,
    horizon: num(system, "The game lasts T = (\\d+) rounds"),
    roundsRemaining: 0,
    parameters: {
      creditors: num(system, "There are (\\d+) creditors"),
      waves: [],
      horizon: num(system, "The game lasts T = (\\d+) rounds"),
      faceValue: num(system, `Face value at the start is ${NUM}`),
      claimRate: rate,
      claimAtHorizon: num(unwrap(system), `survives, pays ${NUM} per remaining`),
      initialCash: num(system, `Initial cash is ${NUM}`),
      cashRate: num(system, `Cash earns ${NUM} per round`),
      assets: assets(system),
      earlySalePrice: num(unwrap(system), `they fetch ${NUM} per unit`),
      capacity: num(system, `At most ${NUM} of redemptions`),
    },
    position: {
      wave: num(user, "Your initial wave is (\\d+)"),
      due: user.includes("You are due this round"),
      outstanding: true,
      claim,
      redemptionValue: Math.round(claim * (1 + rate) * 1e9) / 1e9,
    },
    previousDecisions: decisions === "none yet" ? [] : decisions.split("; ").map((d) => ({
      round: num(d, "round (\\d+)"),
      reported: num(d, "reported (\\d+)"),
      outcome: d.slice(
        d.lastIndexOf(", ") + 2,
      ) as CreditorView["previousDecisions"][number]["outcome"],
    })),
    commitment: commitmentOf(user.match(/Commitment: (.*)/)?.[1] ?? ""),
    borrower: {
      cash: num(user, `Cash L = ${NUM}\\.`),
      assets: [],
      claimsOutstanding: 0,
    },
    lastRound: {
      due: num(user, "Due last round: (\\d+)"),
      rolled: num(user, "rolled: (\\d+)"),
      redeemed: num(user, "redeemed: (\\d+) \\(paid"),
      paid: num(user, `\\(paid ${NUM}\\)`),
      deferred: num(user, "deferred \\(over capacity\\): (\\d+)"),
      suspended: num(user, "suspended: (\\d+)"),
      faceSold: 0,
    },
    outstandingPremiums: mechanism === "M1"
      ? num(user, `Outstanding premiums \\(all creditors\\): ${NUM}`)
      : null,
    proposals: [...block(user, "OFFER"), ...block(user, "AGREEMENT")].filter((l) => l !== "- none")
      .map((l) => {
        const id = l.slice(2, l.indexOf(":"));
        return l.includes("standstill agreement") ? { id, kind: "standstill_agreement" } : {
          id,
          kind: "rollover_offer",
          amount: num(l, `amount ${NUM}`),
          lockUntil: num(l, "lock_until (\\d+)"),
        };
      }),
    announcements: block(user, "MESSAGES").filter((l) => l.startsWith("- from")).map(messageOf),
    canJoin: mechanism === "M3" && committeeText.includes("you may join this round"),
    committee: members.length === 0 ? null : {
      members: members.filter((l) => l.startsWith("- id=")).map((l) => ({
        id: l.match(/id=([^.\s]+)/)![1],
        claim: num(l, `claim=${NUM}`),
        wave: num(l, "wave=(\\d+)"),
      })),
      total: num(members.join("\n"), `Committee total = ${NUM}`),
      exitRitual: ritual.includes("wave ")
        ? { wave: num(ritual, "wave (\\d+) of"), list: ids(ritual) }
        : null,
      pendingVotes: [
        ...votes.matchAll(/(\S+) \(proposed by (\S+), announce to (all|\[[^\]]*\])\)/g),
      ]
        .map((m) => ({
          id: m[1],
          proposer: m[2],
          announceTo: m[3] === "all" ? "all" as const : ids(m[3]),
        })),
    },
  };
}

function commitmentOf(status: string): CreditorCommitmentView | null {
  if (status.startsWith("rollover agreement")) {
    return {
      kind: "rollover_agreement",
      premium: num(status, `premium ${NUM}`),
      lockUntil: num(status, "through round (\\d+)"),
    };
  }
  if (status.startsWith("standstill agreement")) {
    return { kind: "standstill_agreement", exitDeclared: status.includes("exit declared") };
  }
  if (status.startsWith("creditor committee member")) {
    return { kind: "committee_member", onExitList: status.includes("on the exit list") };
  }
  return null;
}

const WORDS: MessageWords = {
  principal: { prefix: "- from the borrower", id: "borrower" },
  outstanding: {
    marker: "total outstanding premiums",
    kind: "outstanding_premiums",
    total: `premiums ${NUM}`,
  },
  terms: {
    marker: "accepted rollover terms:",
    party: "creditor",
    each: /(\S+) premium (\d+(?:\.\d+)?) \((\d+) rounds left\)/g,
  },
  agreement: { marker: "committed under the standstill agreement", total: `agreement ${NUM}` },
  coalition: {
    marker: "committee total",
    kind: "coalition_total",
    total: `committee total ${NUM}`,
  },
};

const messageOf = (line: string): Message => readMessage(line, WORDS);

/**
 * Reads the borrower's view from its prompt.
 *
 * @example
 * ```ts
 * import { readBorrowerView } from "./debt_rollover_reader.ts";
 * const v = readBorrowerView("- Assets mature on the schedule (round 4, face 2.000). Sold early",
 *   "Solvency margin (cash + remaining face - claims at T - premiums): -0.250.\nThis is round 2 of 7 (6 rounds remaining).\n- crd_01: wave 1, claim 1.020, due this round, committed");
 * if (v.round !== 2 || v.solvencyMargin !== -0.25 || !v.creditors[0].committed || v.parameters.assets[0].round !== 4) throw new Error();
 * ```
 */
export function readBorrowerView(system: string, user: string): BorrowerView {
  const mechanism = mechanismOf(system);
  const creditor = readCreditorView(system, "");
  return {
    role: "borrower",
    mechanism: mechanism === "M0" ? (user.includes('"solicit"') ? "M2" : "M1") : mechanism,
    round: num(user, "This is round (\\d+) of"),
    horizon: num(user, "This is round \\d+ of (\\d+)"),
    roundsRemaining: num(user, "\\((\\d+) rounds remaining\\)"),
    parameters: creditor.parameters,
    books: {
      cash: num(user, `Cash L = ${NUM}\\.`),
      assets: [],
      claimsOutstanding: 0,
      last: creditor.lastRound,
      outstandingPremiums: 0,
    },
    solvencyMargin: num(
      user,
      `Solvency margin \\(cash \\+ remaining face - claims at T - premiums\\): ${NUM}`,
    ),
    creditors: [
      ...user.matchAll(
        /^- (\S+): wave (\d+), claim (\d+(?:\.\d+)?), (due this round|not due), (committed|not committed)$/gm,
      ),
    ].map((m) => ({
      id: m[1],
      wave: Number(m[2]),
      claim: Number(m[3]),
      due: m[4] === "due this round",
      committed: m[5] === "committed",
    })),
    committedTotal: num(user, `Committed claims: ${NUM}`),
    acceptedOffers: [],
    signers: [],
  };
}

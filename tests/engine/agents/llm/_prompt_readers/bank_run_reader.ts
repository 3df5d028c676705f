// A test oracle: reads a rendered prompt back into the view it was rendered from, so the prompt
// tests can check that the text carries every field of the view. It was the local server's reader
// before the server became a game-agnostic double (the engine no longer parses prompts).
/**
 * Reads a rendered bank-run prompt back into the view the mock agents'
 * rules need, the way a model reads it: from the text alone. This is the
 * inverse of the bank-run templates (`prompts/bank_run/`), kept to the lines
 * the mock rules use; a template change that breaks it fails the server tests.
 * Amounts come back with the prompt's three decimals.
 *
 * @module
 */
import type {
  BankView,
  CommitmentView,
  DepositorView,
} from "../../../../../engine/games/bank_run/views.ts";
import type { MechanismId, Message } from "../../../../../engine/frail/types.ts";
import { ids, type MessageWords, num, readMessage } from "./_prompt_text.ts";

/** Which bank-run call a prompt is, or `null` for a prompt of another game. */
export type BankRunCall =
  | { role: "depositor"; call: "withdrawal" | "mechanism_response" }
  | { role: "bank"; call: "retention_offer" | "protection_solicitation" };

/**
 * Recognises a bank-run prompt by its [ROLE] and [OUTPUT CONTRACT].
 *
 * @example
 * ```ts
 * import { bankRunCall } from "./bank_run_reader.ts";
 * const c = bankRunCall("[ROLE]\nYou are simulating the behavior of a single depositor of a financial institution.",
 *   '[OUTPUT CONTRACT]\n{"withdraw_probability": <int 0-100>}');
 * if (c?.call !== "withdrawal") throw new Error();
 * ```
 */
export function bankRunCall(system: string, user: string): BankRunCall | null {
  if (system.includes("a single depositor of a financial institution")) {
    if (user.includes('"proposal_actions"')) {
      return { role: "depositor", call: "mechanism_response" };
    }
    if (user.includes('"withdraw_probability"')) return { role: "depositor", call: "withdrawal" };
  }
  if (system.includes("the management of a financial institution")) {
    if (user.includes('"offers"')) return { role: "bank", call: "retention_offer" };
    if (user.includes('"solicit"')) return { role: "bank", call: "protection_solicitation" };
  }
  return null;
}

function mechanismOf(system: string): MechanismId {
  if (system.includes("paid retention offer")) return "M1";
  if (system.includes("deposit protection agreement")) return "M2";
  if (system.includes("mutual statement group exists")) return "M3";
  return "M0";
}

/** The institution's balance sheet at the end of last round, as both roles' prompts show it. */
function institutionOf(user: string): DepositorView["institution"] {
  return {
    cash: num(user, /- Liquid reserves \(as of the end of last round\): (\d+(?:\.\d+)?)/),
    assets: num(user, /- Long-term assets \(as of the end of last round\): (\d+(?:\.\d+)?)/),
    depositsRemaining: num(
      user,
      /- Total deposits remaining \(as of the end of last round\): (\d+(?:\.\d+)?)/,
    ),
  };
}

/** The indented lines that follow a `- Heading:` line. */
function itemsAfter(user: string, heading: string): string[] {
  const lines = user.split("\n");
  const i = lines.findIndex((l) => l.startsWith(`- ${heading}:`));
  if (i < 0) return [];
  const out: string[] = [];
  for (const l of lines.slice(i + 1)) {
    if (!l.startsWith("  ")) break;
    out.push(l.trim());
  }
  return out;
}

/**
 * Reads a depositor's view from its prompt.
 *
 * @example
 * ```ts
 * import { readDepositorView } from "./bank_run_reader.ts";
 * const v = readDepositorView("- There are 15 depositors; total deposits are 15.000.",
 *   "- Depositor ID: dep_03\n- Deposit balance: 1.000\n- Fraction of deposits redeemed last round: 0.200");
 * if (v.id !== "dep_03" || v.fractionRedeemedLastRound !== 0.2 || v.parameters.depositors !== 15) throw new Error();
 * ```
 */
export function readDepositorView(system: string, user: string): DepositorView {
  const mechanism = mechanismOf(system);
  const decisions = user.match(/- Your previous decisions: \(oldest first\) (.*)/)?.[1];
  const status = user.match(/- Commitment status: (.*)/)?.[1] ?? "none";
  const memberLine = user.match(/- Member-only information:(.*)/)?.[1] ?? "";
  const members = itemsAfter(user, "Member-only information");
  const field = (name: string) =>
    members.find((l) => l.startsWith(`${name}:`))?.slice(name.length + 1).trim() ?? "";
  const ritual = field("exit ritual");
  const votes = field("pending announcement votes");
  return {
    role: "depositor",
    id: user.match(/- Depositor ID: (\S+)/)?.[1] ?? "unknown",
    mechanism,
    parameters: {
      depositors: num(system, /There are (\d+) depositors/),
      totalDeposits: num(system, /total deposits are (\d+(?:\.\d+)?)/),
      depositYield: num(system, /end pays (\d+(?:\.\d+)?) per unit/),
      assetReturn: num(system, /assets return (\d+(?:\.\d+)?) per unit/),
      earlySalePrice: num(system, /fetch only (\d+(?:\.\d+)?) per unit/),
      capacity: num(system, /At most (\d+(?:\.\d+)?) of redemption/),
      capacityRule: system.includes("paid in part") ? "partial" : "expire",
    },
    balance: num(user, /- Deposit balance: (\d+(?:\.\d+)?)/),
    previousDecisions: decisions
      ? decisions.split("; ").map((d) => ({
        reported: num(d, /reported (\d+)/),
        withdrew: !d.includes("not redeemed"),
      }))
      : [],
    commitment: commitmentOf(status),
    institution: institutionOf(user),
    fractionRedeemedLastRound: num(
      user,
      /Fraction of deposits redeemed last round: (\d+(?:\.\d+)?)/,
    ),
    outstandingCompensation: mechanism === "M1"
      ? num(
        user,
        /Outstanding promised compensation \(as of the end of last round\): (\d+(?:\.\d+)?)/,
      )
      : null,
    proposals: itemsAfter(user, "New proposals awaiting your response").map((l) => {
      const id = l.slice(0, l.indexOf(":"));
      if (l.includes("paid retention offer")) {
        return {
          id,
          kind: "retention_offer",
          amount: num(l, /compensation (\d+(?:\.\d+)?)/),
          lockRoundsRemaining: num(l, /locks you in for (\d+) round/),
        };
      }
      return {
        id,
        kind: l.includes("deposit protection agreement") ? "protection_agreement" : "other",
      };
    }),
    announcements: itemsAfter(user, "Certified announcements this round").map(messageOf),
    canJoin: mechanism === "M3" && memberLine.includes("you may join this round"),
    coalition: members.length === 0 ? null : {
      members: field("members and balances").split(", ").filter(Boolean).map((x) => {
        const [id, balance] = x.split("=");
        return { id, balance: Number(balance) };
      }),
      total: Number(field("group committed total")),
      exitRitual: ritual === "none" || ritual === "" ? null : {
        wave: num(ritual, /wave (\d+) of/),
        list: ids(ritual.match(/exit list (\[[^\]]*\])/)?.[1] ?? ""),
      },
      pendingVotes: votes === "none" || votes === "" ? [] : [
        ...votes.matchAll(/(\S+) \(proposed by (\S+), announce to (all|\[[^\]]*\])\)/g),
      ].map((m) => ({
        id: m[1],
        proposer: m[2],
        announceTo: m[3] === "all" ? "all" as const : ids(m[3]),
      })),
    },
  };
}

function commitmentOf(status: string): CommitmentView | null {
  if (status.startsWith("accepted a paid retention offer")) {
    return {
      kind: "retention_offer",
      compensation: num(status, /compensation (\d+(?:\.\d+)?)/),
      lockRoundsRemaining: num(status, /locked in for (\d+) round/),
    };
  }
  if (status.startsWith("signed the deposit protection agreement")) {
    return { kind: "protection_agreement", exitDeclared: status.includes("exit declared") };
  }
  if (status.startsWith("member of the mutual statement group")) {
    return { kind: "coalition_member", onExitList: status.includes("on the exit list") };
  }
  return null;
}

const WORDS: MessageWords = {
  principal: { prefix: "from the institution", id: "bank" },
  outstanding: {
    marker: "total outstanding promised compensation",
    kind: "outstanding_compensation",
    total: /compensation (\d+(?:\.\d+)?)/,
  },
  terms: {
    marker: "accepted retention terms:",
    party: "depositor",
    each: /(\S+) compensation (\d+(?:\.\d+)?) \((\d+) rounds? left\)/g,
  },
  agreement: {
    marker: "committed under the protection agreement",
    total: /agreement (\d+(?:\.\d+)?)/,
  },
  coalition: {
    marker: "group committed total",
    kind: "coalition_total",
    total: /group committed total (\d+(?:\.\d+)?)/,
  },
};

const messageOf = (line: string): Message => readMessage(line, WORDS);

/**
 * Reads the bank's view from its prompt.
 *
 * @example
 * ```ts
 * import { readBankView } from "./bank_run_reader.ts";
 * const v = readBankView("", "[DEPOSITORS]\n- dep_01: balance 1.000, committed");
 * if (!v.depositors[0].committed || v.depositors[0].balance !== 1) throw new Error();
 * ```
 */
export function readBankView(system: string, user: string): BankView {
  const mechanism = mechanismOf(system);
  return {
    role: "bank",
    mechanism: mechanism === "M0" ? (user.includes('"solicit"') ? "M2" : "M1") : mechanism,
    parameters: readDepositorView(system, "").parameters,
    institution: {
      ...institutionOf(user),
      fractionRedeemed: num(user, /Fraction of deposits redeemed last round: (\d+(?:\.\d+)?)/),
      outstandingCompensation: num(
        user,
        /Outstanding promised compensation \(now\): (\d+(?:\.\d+)?)/,
      ),
    },
    depositors: [
      ...user.matchAll(/^- (\S+): balance (\d+(?:\.\d+)?), (committed|not committed)$/gm),
    ].map((m) => ({
      id: m[1],
      balance: Number(m[2]),
      committed: m[3] === "committed",
    })),
    outstandingCompensation: num(
      user,
      /Outstanding promised compensation \(now\): (\d+(?:\.\d+)?)/,
    ),
    committedTotal: num(user, /- Deposits committed \(now\): (\d+(?:\.\d+)?)/),
    acceptedOffers: [],
    signers: [],
  };
}

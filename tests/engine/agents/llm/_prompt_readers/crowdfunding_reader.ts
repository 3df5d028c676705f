// A test oracle: reads a rendered prompt back into the view it was rendered from, so the prompt
// tests can check that the text carries every field of the view. It was the local server's reader
// before the server became a game-agnostic double (the engine no longer parses prompts).
/**
 * Reads a rendered crowdfunding prompt back into the view the mock agents'
 * rules need, from the text alone: the inverse of the crowdfunding templates
 * (`prompts/crowdfunding/`), kept to the lines the mock rules use. Amounts
 * come back with the prompt's three decimals.
 *
 * @module
 */
import type {
  BackerCommitmentView,
  BackerView,
  FounderView,
} from "../../../../../engine/games/crowdfunding/views.ts";
import type { MechanismId, Message } from "../../../../../engine/frail/types.ts";
import { block, type MessageWords, NUM, num, readMessage } from "./_prompt_text.ts";

/** Which crowdfunding call a prompt is, or `null` for a prompt of another game. */
export type CrowdfundingCall =
  | {
    role: "backer";
    call:
      | "pledge"
      | "withdrawal"
      | "mechanism_response"
      | "coalition_response"
      | "exit_confirmation";
  }
  | { role: "founder"; call: "pledge_offer" | "intent_solicitation" | "launch_decision" };

/**
 * Recognises a crowdfunding prompt by its [ROLE] and [OUTPUT].
 *
 * @example
 * ```ts
 * import { crowdfundingCall } from "./crowdfunding_reader.ts";
 * const c = crowdfundingCall("You are one backer in a one-shot reward crowdfunding campaign.",
 *   '{"pledge_probability": <integer 0 to 100>}');
 * if (c?.call !== "pledge") throw new Error();
 * ```
 */
export function crowdfundingCall(system: string, user: string): CrowdfundingCall | null {
  if (system.includes("You are one backer in a one-shot reward crowdfunding campaign")) {
    if (user.includes('{"confirm"')) return { role: "backer", call: "exit_confirmation" };
    if (user.includes('{"join"')) return { role: "backer", call: "coalition_response" };
    if (user.includes('"proposal_actions"')) return { role: "backer", call: "mechanism_response" };
    if (user.includes('"pledge_probability"')) return { role: "backer", call: "pledge" };
    if (user.includes('"withdraw_probability"')) return { role: "backer", call: "withdrawal" };
  }
  if (system.includes("You are the founder of a one-shot reward crowdfunding campaign")) {
    if (user.includes('{"launch"')) return { role: "founder", call: "launch_decision" };
    if (user.includes('"offers"')) return { role: "founder", call: "pledge_offer" };
    if (user.includes('"solicit"')) return { role: "founder", call: "intent_solicitation" };
  }
  return null;
}

function mechanismOf(system: string): MechanismId {
  if (system.includes("paid pledge agreement")) return "M1";
  if (system.includes("letter of intent")) return "M2";
  if (system.includes("coalition")) return "M3";
  return "M0";
}

function parameters(system: string): BackerView["parameters"] {
  const horizon = num(system, "round (\\d+) is settlement only");
  return {
    backers: num(system, "- (\\d+) backers, unit pledge"),
    unitPledge: num(system, `unit pledge ${NUM}\\.`),
    goal: num(system, `Goal G = ${NUM}\\.`),
    reward: num(system, `Reward v = ${NUM}`),
    margin: num(system, `Founder margin ${NUM}`),
    riskFree: num(system, `r_f = ${NUM}`),
    withdrawalCapacity: num(system, `at most ${NUM} face per round`),
    capacityRule: system.includes("withdrawn in part") ? "partial" : "expire",
    horizon,
    lastDecisionRound: num(system, "Rounds 1-(\\d+) are decision rounds"),
  };
}

function campaign(user: string): BackerView["campaign"] {
  return {
    pool: num(user, `P = ${NUM}\\. New pledges`),
    newPledges: num(user, "New pledges: (\\d+)"),
    withdrawals: num(user, "withdrawals: (\\d+)\\."),
    withdrawnFace: 0,
    open: user.includes("Campaign open: True"),
    launched: user.includes("launched: True"),
  };
}

/**
 * Reads a backer's view from its prompt.
 *
 * @example
 * ```ts
 * import { readBackerView } from "./crowdfunding_reader.ts";
 * const v = readBackerView("- 15 backers, unit pledge 1.000.\n- Goal G = 14.000. Rounds 1-9 are decision rounds; round 10 is settlement only.",
 *   "P = 3.000. New pledges: 3; withdrawals: 0. Campaign open: True. Already\nYou are bkr_02. Pledged: False. Bank balance 1.000.\nThis is round 2 of 10.");
 * if (v.id !== "bkr_02" || v.campaign.pool !== 3 || v.parameters.goal !== 14 || v.round !== 2) throw new Error();
 * ```
 */
export function readBackerView(system: string, user: string): BackerView {
  const mechanism = mechanismOf(system);
  const p = parameters(system);
  const round = num(user, "This is round (\\d+) of");
  const decisions = user.match(/Your previous decisions: (.*)\./)?.[1] ?? "none yet";
  const members = block(user, "COALITION -- members only");
  const coalitionText = block(user, "COALITION]").join("\n");
  const hand = user.match(/confirmation hand (\d+) of (\d+)/);
  return {
    role: "backer",
    id: user.match(/You are (?:id=)?([^\s.]+)\. Pledged/)?.[1] ?? "unknown",
    mechanism,
    round,
    horizon: p.horizon,
    roundsRemaining: p.horizon - round,
    parameters: p,
    bank: num(user, `Bank balance ${NUM}`),
    pledged: user.includes("Pledged: True") ? p.unitPledge : 0,
    previousDecisions: decisions === "none yet" ? [] : decisions.split("; ").map((d) => ({
      round: num(d, "round (\\d+)"),
      call: d.includes(": pledge") ? "pledge" as const : "withdrawal" as const,
      reported: num(d, "probability (\\d+)"),
      acted: !d.endsWith("no change"),
    })),
    commitment: commitmentOf(user.match(/Commitment: (.*)/)?.[1] ?? ""),
    campaign: campaign(user),
    outstandingBonuses: mechanism === "M1"
      ? num(user, `Outstanding bonuses \\(all backers\\): ${NUM}`)
      : null,
    proposals: [...block(user, "OFFER"), ...block(user, "LETTER OF INTENT")]
      .filter((l) => l.startsWith("- ") && l !== "- none")
      .map((l) => {
        const id = l.slice(2, l.indexOf(":"));
        return l.includes("letter of intent") ? { id, kind: "letter_of_intent" as const } : {
          id,
          kind: "paid_pledge" as const,
          bonus: num(l, `bonus ${NUM}`),
          lockUntil: num(l, "lock_until (\\d+)"),
        };
      }),
    announcements: block(user, "MESSAGES").filter((l) => l.startsWith("- from")).map(messageOf),
    canJoin: mechanism === "M3" && coalitionText.includes("you may join this round"),
    coalition: members.length === 0 ? null : {
      members: members.filter((l) => l.startsWith("- id=")).map((l) => ({
        id: l.match(/id=([^.\s]+)/)![1],
        face: num(l, `face=${NUM}`),
      })),
      lockedTotal: num(members.join("\n"), `Coalition locked total = ${NUM}`),
      exitsThisRound: [],
    },
    ...(hand ? { exitConfirmation: { hand: Number(hand[1]), of: Number(hand[2]) } } : {}),
  };
}

function commitmentOf(status: string): BackerCommitmentView | null {
  if (status.startsWith("paid pledge agreement")) {
    return {
      kind: "paid_pledge",
      bonus: num(status, `bonus ${NUM}`),
      lockUntil: num(status, "through round (\\d+)"),
    };
  }
  if (status.startsWith("letter of intent")) {
    return { kind: "letter_of_intent", exitDeclared: status.includes("exit declared") };
  }
  if (status.startsWith("backer coalition member")) {
    return { kind: "coalition_member", exitRequested: status.includes("exit requested") };
  }
  return null;
}

const WORDS: MessageWords = {
  principal: { prefix: "- from the founder", id: "founder" },
  outstanding: {
    marker: "total outstanding bonuses",
    kind: "outstanding_bonuses",
    total: `bonuses ${NUM}`,
  },
  terms: {
    marker: "accepted pledge terms:",
    party: "backer",
    each: /(\S+) bonus (\d+(?:\.\d+)?) \((\d+) rounds left\)/g,
  },
  agreement: { marker: "committed under the letter of intent", total: `intent ${NUM}` },
  coalition: {
    marker: "coalition locked total",
    kind: "coalition_locked_total",
    total: `locked total ${NUM}`,
  },
};

const messageOf = (line: string): Message => readMessage(line, WORDS);

/**
 * Reads the founder's view from its prompt.
 *
 * @example
 * ```ts
 * import { readFounderView } from "./crowdfunding_reader.ts";
 * const v = readFounderView("- Goal G = 14.000. Rounds 1-9 are decision rounds; round 10 is settlement only.",
 *   "This is round 3 of 10.\nPool P = 14.000 now. Launch allowed: True.\n[BACKERS]\nIds: bkr_01, bkr_02.");
 * if (!v.launchAllowed || v.round !== 3 || v.backers[1] !== "bkr_02" || v.parameters.lastDecisionRound !== 9) throw new Error();
 * ```
 */
export function readFounderView(system: string, user: string): FounderView {
  const p = parameters(system);
  const round = num(user, "This is round (\\d+) of");
  const pool = num(user, `Pool P = ${NUM} now`);
  return {
    role: "founder",
    mechanism: mechanismOf(system),
    round,
    horizon: p.horizon,
    roundsRemaining: p.horizon - round,
    parameters: p,
    campaign: { ...campaign(user), outstandingBonuses: 0 },
    pool,
    launchAllowed: user.includes("Launch allowed: True"),
    backers: [...block(user, "BACKERS").join(" ").matchAll(/[\w-]+(?=[,.])/g)].map((m) => m[0]),
    outstandingBonuses: num(user, `Outstanding bonuses B = ${NUM}`),
    bonusLimit: (1 - p.margin) * pool,
    committedTotal: user.includes("Committed pledges:")
      ? num(user, `Committed pledges: ${NUM}`)
      : null,
    acceptedOffers: [...user.matchAll(/(\S+) bonus (\d+(?:\.\d+)?) through round (\d+)/g)]
      .map((m) => ({ target: m[1], amount: Number(m[2]), lockUntil: Number(m[3]) })),
    signers: [],
    announcements: block(user, "MESSAGES").filter((l) => l.startsWith("- from")).map(messageOf),
  };
}

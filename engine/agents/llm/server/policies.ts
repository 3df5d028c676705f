/**
 * The local server's "models": rule-based policies that read the prompt and
 * answer with the mock agents' rules (`engine/agents/mock/`), so an episode
 * played through HTTP behaves like one played with mock agents. Each served
 * model name picks the mock policies; a prompt the server does not recognise
 * gets a reply without the contract's fields (which the engine repairs).
 *
 * @module
 */
import {
  type BankPolicy,
  type DepositorPolicy,
  mockBank,
  mockDepositor,
} from "../../../games/bank_run/mock.ts";
import {
  type BorrowerPolicy,
  type CreditorPolicy,
  mockBorrower,
  mockCreditor,
} from "../../../games/debt_rollover/mock.ts";
import {
  type BackerPolicy,
  type FounderPolicy,
  mockBacker,
  mockFounder,
} from "../../../games/crowdfunding/mock.ts";
import { mockStagHuntPlayers, type StagHuntMockPolicy } from "../../../games/staghunt/mock.ts";
import type { CallRequest } from "../../../core/environment.ts";
import type { Agent } from "../../../core/agent.ts";
import { bankRunCall, readBankView, readDepositorView } from "./bank_run_reader.ts";
import { debtRolloverCall, readBorrowerView, readCreditorView } from "./debt_rollover_reader.ts";
import { crowdfundingCall, readBackerView, readFounderView } from "./crowdfunding_reader.ts";
import { readStagHuntView, stagHuntCall } from "./staghunt_reader.ts";

/** The mock policies behind one served model name. */
export interface ServedPolicy {
  /** Bank-run depositors. */
  depositors: DepositorPolicy;
  /** The bank. */
  bank: BankPolicy;
  /** Debt-rollover creditors. */
  creditors: CreditorPolicy;
  /** The borrower. */
  borrower: BorrowerPolicy;
  /** Crowdfunding backers. */
  backers: BackerPolicy;
  /** The founder. */
  founder: FounderPolicy;
  /** Stag Hunt players. */
  players: StagHuntMockPolicy;
}

/**
 * The models the local server serves by default.
 *
 * @example
 * ```ts
 * import { LOCAL_MODELS } from "./policies.ts";
 * if (LOCAL_MODELS["coordlab-defensive"].depositors !== "defensive") throw new Error();
 * ```
 */
export const LOCAL_MODELS: Readonly<Record<string, ServedPolicy>> = {
  "coordlab-defensive": {
    depositors: "defensive",
    bank: "active",
    creditors: "defensive",
    borrower: "active",
    backers: "hesitant",
    founder: "active",
    players: "threshold",
  },
  "coordlab-stay": {
    depositors: "always_stay",
    bank: "active",
    creditors: "always_roll",
    borrower: "active",
    backers: "always_pledge",
    founder: "active",
    players: "always_stag",
  },
  "coordlab-run": {
    depositors: "always_run",
    bank: "passive",
    creditors: "always_redeem",
    borrower: "passive",
    backers: "never_pledge",
    founder: "passive",
    players: "always_hare",
  },
};

/** A policy's answer: the reply text and a short reasoning trace. */
export interface PolicyAnswer {
  /** Reply text (one JSON object). */
  content: string;
  /** Reasoning text returned beside it. */
  reasoning: string;
}

/**
 * Answers a prompt with the mock rules of a served policy; `seed` seeds the
 * mock agents' traits.
 *
 * @example
 * ```ts
 * import { answerPrompt, LOCAL_MODELS } from "./policies.ts";
 * const a = await answerPrompt(LOCAL_MODELS["coordlab-run"], [
 *   { role: "system", content: "You are simulating the behavior of a single depositor of a financial institution." },
 *   { role: "user", content: '- Depositor ID: dep_01\n{"withdraw_probability": <int 0-100>}' },
 * ], 0);
 * if (JSON.parse(a.content).withdraw_probability !== 100) throw new Error();
 * ```
 */
export function answerPrompt(
  policy: ServedPolicy,
  messages: readonly { role: string; content: string }[],
  seed: number,
): Promise<PolicyAnswer> {
  const system = messages.filter((m) => m.role === "system").map((m) => m.content).join("\n");
  const user = messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");
  const answer = (agent: Agent, call: string, view: unknown, who: string) =>
    Promise.resolve(agent.decide({ call, view } as CallRequest)).then((reply) => ({
      content: JSON.stringify(reply),
      reasoning: `Rule-based ${agent.policy.replace(/^mock:/, "")} ${who} read the prompt.`,
    }));
  const bank = bankRunCall(system, user);
  if (bank?.role === "depositor") {
    const view = readDepositorView(system, user);
    return answer(
      mockDepositor(policy.depositors, { seed, id: view.id }),
      bank.call,
      view,
      view.id,
    );
  }
  if (bank?.role === "bank") {
    return answer(mockBank(policy.bank), bank.call, readBankView(system, user), "bank");
  }
  const debt = debtRolloverCall(system, user);
  if (debt?.role === "creditor") {
    const view = readCreditorView(system, user);
    return answer(mockCreditor(policy.creditors, { seed, id: view.id }), debt.call, view, view.id);
  }
  if (debt?.role === "borrower") {
    return answer(
      mockBorrower(policy.borrower),
      debt.call,
      readBorrowerView(system, user),
      "borrower",
    );
  }
  const crowd = crowdfundingCall(system, user);
  if (crowd?.role === "backer") {
    const view = readBackerView(system, user);
    return answer(mockBacker(policy.backers, { seed, id: view.id }), crowd.call, view, view.id);
  }
  if (crowd?.role === "founder") {
    return answer(
      mockFounder(policy.founder),
      crowd.call,
      readFounderView(system, user),
      "founder",
    );
  }
  const hunt = stagHuntCall(system, user);
  if (hunt) {
    const view = readStagHuntView(system, user);
    const player = mockStagHuntPlayers({ players: policy.players, seed })({
      id: view.you,
      role: "player",
    });
    return answer(player, hunt.call, view, view.you);
  }
  return Promise.resolve({
    content: JSON.stringify({ reasoning: "The local server does not recognise this prompt." }),
    reasoning: "No rule-based policy matches this prompt.",
  });
}

/**
 * Crowdfunding reply contracts (Table 7, Appendices G.2-G.3): the backer's
 * pledge and withdrawal calls, the backer's mechanism response (M1-M2 list of
 * actions, M3 coalition fields of Appendix G.3), the coalition exit's
 * confirmation hand, and the founder's M1 offer, M2 solicitation and launch
 * calls. The withdrawal, M1-M2 response, offer and solicitation contracts
 * reuse the bank run's fields unchanged.
 *
 * @module
 */
import { z } from "zod";
import { type Contract, defineContract } from "../../core/contract.ts";
import {
  mechanismResponseContract as bankRunMechanismResponse,
  type ParticipantAction,
  protectionSolicitationContract,
  retentionOfferContract,
  withdrawalContract as bankRunWithdrawal,
} from "../bank_run/contracts.ts";

/** An M3 disclosure ballot: `null`, or whom to tell the locked total. */
export const CoalitionVoteSchema: z.ZodType<{ announce_to: "all" | string[] } | null> = z.union([
  z.null(),
  z.object({ announce_to: z.union([z.literal("all"), z.array(z.string())]) }),
]);

/** Pledge call (unpledged backers): `{ pledge_probability: 0-100, reasoning }`. */
export const pledgeContract: Contract<{ pledge_probability: number; reasoning: string }> =
  defineContract("pledge", {
    pledge_probability: { kind: "probability" },
    reasoning: { kind: "text" },
  });

/** Withdrawal call (pledged backers): `{ withdraw_probability: 0-100, reasoning }`. */
export const withdrawalContract: Contract<{ withdraw_probability: number; reasoning: string }> =
  bankRunWithdrawal;

/**
 * M1-M2 mechanism response: the bank run's `{ proposal_actions: [...], reasoning }`
 * (accept or decline an offer, sign or decline a letter of intent, exit it);
 * coalition actions are refused outside M3, where the backer coalition has its
 * own call.
 */
export const mechanismResponseContract: Contract<
  { proposal_actions: ParticipantAction[]; reasoning: string }
> = bankRunMechanismResponse;

/** M3 coalition response (Appendix G.3): `{ join, exit_request, vote, reasoning }`. */
export const coalitionResponseContract: Contract<{
  join: boolean;
  exit_request: boolean;
  vote: { announce_to: "all" | string[] } | null;
  reasoning: string;
}> = defineContract("coalition_response", {
  join: { kind: "boolean", default: false },
  exit_request: { kind: "boolean", default: false },
  vote: { kind: "value", schema: CoalitionVoteSchema, default: null },
  reasoning: { kind: "text" },
});

/** M3 exit confirmation hand: `{ confirm, reasoning }`; a missing answer cancels the exit. */
export const exitConfirmationContract: Contract<{ confirm: boolean; reasoning: string }> =
  defineContract("exit_confirmation", {
    confirm: { kind: "boolean", default: false },
    reasoning: { kind: "text" },
  });

/** M1 founder call: `{ offers: [{target, amount, lock_until}], disclose_terms_to, reasoning }`; `amount` is the bonus. */
export const pledgeOfferContract: Contract<{
  offers: { target: string; amount: number; lock_until: number }[];
  disclose_terms_to: "none" | "all" | string[];
  reasoning: string;
}> = defineContract("pledge_offer", retentionOfferContract.fields);

/** M2 founder call: `{ solicit: ids | ["all"], disclose_aggregate, reasoning }`. */
export const intentSolicitationContract: Contract<{
  solicit: string[];
  disclose_aggregate: boolean;
  reasoning: string;
}> = defineContract("intent_solicitation", protectionSolicitationContract.fields);

/** Founder launch call (when P >= G): `{ launch, reasoning }`; a missing answer does not launch. */
export const launchDecisionContract: Contract<{ launch: boolean; reasoning: string }> =
  defineContract("launch_decision", {
    launch: { kind: "boolean", default: false },
    reasoning: { kind: "text" },
  });

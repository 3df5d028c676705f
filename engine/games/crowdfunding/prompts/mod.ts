/**
 * Reward crowdfunding's prompt templates: the backer's pledge, withdrawal,
 * M1-M2 mechanism-response, M3 coalition-response and exit-confirmation
 * calls; the founder's M1 offer, M2 solicitation and launch-decision calls.
 *
 * @module
 */
import type { PromptSet } from "../../../agents/llm/prompts/template.ts";
import { backerCoalitionResponsePrompt } from "./backer_coalition_response.ts";
import { backerExitConfirmationPrompt } from "./backer_exit_confirmation.ts";
import { backerMechanismResponsePrompt } from "./backer_mechanism_response.ts";
import { backerPledgePrompt } from "./backer_pledge.ts";
import { backerWithdrawalPrompt } from "./backer_withdrawal.ts";
import { founderIntentSolicitationPrompt } from "./founder_intent_solicitation.ts";
import { founderLaunchDecisionPrompt } from "./founder_launch_decision.ts";
import { founderPledgeOfferPrompt } from "./founder_pledge_offer.ts";

/**
 * Every crowdfunding template.
 *
 * @example
 * ```ts
 * import { crowdfundingPrompts } from "./mod.ts";
 * if (crowdfundingPrompts.length !== 8) throw new Error();
 * ```
 */
export const crowdfundingPrompts: PromptSet = [
  backerPledgePrompt,
  backerWithdrawalPrompt,
  backerMechanismResponsePrompt,
  backerCoalitionResponsePrompt,
  backerExitConfirmationPrompt,
  founderPledgeOfferPrompt,
  founderIntentSolicitationPrompt,
  founderLaunchDecisionPrompt,
];

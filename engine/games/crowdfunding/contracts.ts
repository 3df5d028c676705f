/**
 * Crowdfunding reply contracts (Table 7, Appendices G.2-G.3): the backer's
 * pledge and withdrawal calls, the backer coalition's response (M3 fields of
 * Appendix G.3), the coalition exit's confirmation hand, and the founder's M1
 * offer, M2 solicitation and launch calls. The offer and solicitation calls
 * are the shared contracts of `../mechanisms/contracts.ts` under the
 * founder's call names (`amount` is the bonus). Under M1-M2 the backers answer
 * with the shared `mechanismResponseContract` (accept or decline an offer,
 * sign or decline a letter of intent, exit it; coalition actions are refused
 * there); under M3 they answer with {@linkcode coalitionResponseContract}.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { type Contract, defineContract } from "../../core/contract.ts";
import { checkStringArray, INVALID, isObjectInput, withCheck } from "../../core/value_check.ts";
import { probabilityContract } from "../../frail/financial_decision.ts";
import {
  offerContract,
  type OfferReport,
  solicitationContract,
  type SolicitationReport,
} from "../../frail/mechanisms/contracts.ts";

/**
 * An M3 disclosure ballot: `null`, or whom to tell the locked total.
 *
 * @example
 * ```ts
 * import { CoalitionVoteSchema } from "./contracts.ts";
 * if (!CoalitionVoteSchema.safeParse(null).success || CoalitionVoteSchema.safeParse({}).success) throw new Error();
 * ```
 */
export const CoalitionVoteSchema: z.ZodType<{ announce_to: "all" | string[] } | null> = withCheck(
  z.union([
    z.null(),
    z.object({ announce_to: z.union([z.literal("all"), z.array(z.string())]) }),
  ]),
  (v) => {
    if (v === null) return null;
    if (!isObjectInput(v)) return INVALID;
    const to = v.announce_to === "all" ? "all" : checkStringArray(v.announce_to);
    return to === INVALID ? INVALID : { announce_to: to };
  },
);

/**
 * Pledge call (unpledged backers): `{ pledge_probability: 0-100, reasoning }`.
 *
 * @example
 * ```ts
 * import { pledgeContract } from "./contracts.ts";
 * if (pledgeContract.parse({ pledge_probability: 60 }).value.pledge_probability !== 60) throw new Error();
 * ```
 */
export const pledgeContract: Contract<{ pledge_probability: number; reasoning: string }> =
  probabilityContract("pledge", "pledge_probability");

/**
 * Withdrawal call (pledged backers): `{ withdraw_probability: 0-100, reasoning }`.
 *
 * @example
 * ```ts
 * import { withdrawalContract } from "./contracts.ts";
 * if (withdrawalContract.parse({ withdraw_probability: "5" }).value.withdraw_probability !== 5) throw new Error();
 * ```
 */
export const withdrawalContract: Contract<{ withdraw_probability: number; reasoning: string }> =
  probabilityContract("withdrawal", "withdraw_probability");

/**
 * M3 coalition response (Appendix G.3): `{ join, exit_request, vote, reasoning }`.
 *
 * @example
 * ```ts
 * import { coalitionResponseContract } from "./contracts.ts";
 * const { value } = coalitionResponseContract.parse({ join: "true" });
 * if (value.join !== true || value.exit_request !== false || value.vote !== null) throw new Error();
 * ```
 */
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

/**
 * M3 exit confirmation hand: `{ confirm, reasoning }`; a missing answer cancels the exit.
 *
 * @example
 * ```ts
 * import { exitConfirmationContract } from "./contracts.ts";
 * if (exitConfirmationContract.parse("no json").value.confirm !== false) throw new Error();
 * ```
 */
export const exitConfirmationContract: Contract<{ confirm: boolean; reasoning: string }> =
  defineContract("exit_confirmation", {
    confirm: { kind: "boolean", default: false },
    reasoning: { kind: "text" },
  });

/**
 * M1 founder call: `{ offers: [{target, amount, lock_until}], disclose_terms_to, reasoning }`; `amount` is the bonus.
 *
 * @example
 * ```ts
 * import { pledgeOfferContract } from "./contracts.ts";
 * if (pledgeOfferContract.call !== "pledge_offer") throw new Error();
 * ```
 */
export const pledgeOfferContract: Contract<OfferReport> = offerContract("pledge_offer");

/**
 * M2 founder call: `{ solicit: ids | ["all"], disclose_aggregate, reasoning }`.
 *
 * @example
 * ```ts
 * import { intentSolicitationContract } from "./contracts.ts";
 * if (intentSolicitationContract.call !== "intent_solicitation") throw new Error();
 * ```
 */
export const intentSolicitationContract: Contract<SolicitationReport> = solicitationContract(
  "intent_solicitation",
);

/**
 * Founder launch call (when P >= G): `{ launch, reasoning }`; a missing answer does not launch.
 *
 * @example
 * ```ts
 * import { launchDecisionContract } from "./contracts.ts";
 * if (launchDecisionContract.parse({}).value.launch !== false) throw new Error();
 * ```
 */
export const launchDecisionContract: Contract<{ launch: boolean; reasoning: string }> =
  defineContract("launch_decision", {
    launch: { kind: "boolean", default: false },
    reasoning: { kind: "text" },
  });

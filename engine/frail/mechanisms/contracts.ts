/**
 * Reply contracts of the shared mechanism calls (Appendix G), used by every
 * FRAIL environment whose central player proposes and whose participants
 * answer with a list of actions: the participants' mechanism response, the
 * central player's M1 offer call and its M2 solicitation call. Each
 * environment names its own offer and solicitation calls (the bank's
 * `retention_offer`, the borrower's `rollover_offer`, ...); the fields are the
 * same everywhere.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { type Contract, defineContract } from "../../core/contract.ts";
import type { OfferProposal } from "./paid_offers.ts";
import type { TermsRecipients } from "./profile.ts";

/**
 * Recipients of a disclosure: nobody, everybody, or a list of ids.
 *
 * @example
 * ```ts
 * import { RecipientsSchema } from "./contracts.ts";
 * if (!RecipientsSchema.safeParse(["dep_01"]).success || RecipientsSchema.safeParse(3).success) throw new Error();
 * ```
 */
export const RecipientsSchema: z.ZodType<TermsRecipients> = z.union([
  z.literal("none"),
  z.literal("all"),
  z.array(z.string()),
]);

/** A participant's mechanism action, one item of `proposal_actions`. */
export type ParticipantAction =
  | { action: "accept"; proposal_id: string }
  | { action: "decline"; proposal_id?: string }
  | { action: "sign"; proposal_id?: string }
  | { action: "exit" }
  | { action: "join" }
  | { action: "exit_request" }
  | { action: "propose_announcement_vote"; announce_to: "all" | string[] }
  | { action: "vote"; vote_id: string; support: boolean };

/**
 * Schema of one {@linkcode ParticipantAction}; `announce_to` defaults to `"all"`.
 *
 * @example
 * ```ts
 * import { ParticipantActionSchema } from "./contracts.ts";
 * const a = ParticipantActionSchema.parse({ action: "propose_announcement_vote" });
 * if (a.action !== "propose_announcement_vote" || a.announce_to !== "all") throw new Error();
 * ```
 */
export const ParticipantActionSchema: z.ZodType<ParticipantAction> = z.discriminatedUnion(
  "action",
  [
    z.object({ action: z.literal("accept"), proposal_id: z.string() }),
    z.object({ action: z.literal("decline"), proposal_id: z.string().optional() }),
    z.object({ action: z.literal("sign"), proposal_id: z.string().optional() }),
    z.object({ action: z.literal("exit") }),
    z.object({ action: z.literal("join") }),
    z.object({ action: z.literal("exit_request") }),
    z.object({
      action: z.literal("propose_announcement_vote"),
      announce_to: z.union([z.literal("all"), z.array(z.string())]).default("all"),
    }),
    z.object({ action: z.literal("vote"), vote_id: z.string(), support: z.boolean() }),
  ],
);

/**
 * Schema of one M1 offer as the central player reports it.
 *
 * @example
 * ```ts
 * import { OfferItemSchema } from "./contracts.ts";
 * if (OfferItemSchema.safeParse({ target: "a", amount: 0, lock_until: 3 }).success) throw new Error("amount must be positive");
 * ```
 */
export const OfferItemSchema: z.ZodType<OfferProposal> = z.object({
  target: z.string(),
  amount: z.number().positive(),
  lock_until: z.number().int().min(1),
});

/** A participant's mechanism response (a type, not an interface, so it is a `Record<string, unknown>`). */
export type MechanismResponse = {
  /** Actions, applied in order. */
  proposal_actions: ParticipantAction[];
  /** Free-text reasoning. */
  reasoning: string;
};

/**
 * Mechanism response: `{ proposal_actions: [...], reasoning }`; invalid items are dropped.
 *
 * @example
 * ```ts
 * import { mechanismResponseContract } from "./contracts.ts";
 * const { value } = mechanismResponseContract.parse({ proposal_actions: [{ action: "join" }, { action: "fly" }] });
 * if (value.proposal_actions.length !== 1) throw new Error();
 * ```
 */
export const mechanismResponseContract: Contract<MechanismResponse> = defineContract(
  "mechanism_response",
  {
    proposal_actions: { kind: "list", item: ParticipantActionSchema },
    reasoning: { kind: "text" },
  },
);

/** The central player's M1 report; `I` is one offer as reported (default: with `lock_until`). */
export type OfferReport<I = OfferProposal> = {
  /** Offers to make this round. */
  offers: I[];
  /** Who sees the certified accepted terms. */
  disclose_terms_to: TermsRecipients;
  /** Free-text reasoning. */
  reasoning: string;
};

/**
 * The central player's M1 call named `call`:
 * `{ offers: [{target, amount, lock_until}], disclose_terms_to, reasoning }`
 * (`disclose_terms_to` defaults to `"none"`). `item` replaces the schema of
 * one offer (the bank states its lock in rounds, `lock_rounds`).
 *
 * @example
 * ```ts
 * import { offerContract } from "./contracts.ts";
 * const { value } = offerContract("retention_offer").parse({ offers: [{ target: "dep_01", amount: 0.05, lock_until: 12 }] });
 * if (value.offers.length !== 1 || value.disclose_terms_to !== "none") throw new Error();
 * ```
 */
export function offerContract<I = OfferProposal>(
  call: string,
  item: z.ZodType<I> = OfferItemSchema as z.ZodType<I>,
): Contract<OfferReport<I>> {
  return defineContract(call, {
    offers: { kind: "list", item },
    disclose_terms_to: { kind: "value", schema: RecipientsSchema, default: "none" },
    reasoning: { kind: "text" },
  });
}

/** The central player's M2 report. */
export type SolicitationReport = {
  /** Participant ids to solicit, or `["all"]`. */
  solicit: string[];
  /** Whether non-signers also see the certified committed aggregate. */
  disclose_aggregate: boolean;
  /** Free-text reasoning. */
  reasoning: string;
};

/**
 * The central player's M2 call named `call`:
 * `{ solicit: ids | ["all"], disclose_aggregate, reasoning }`
 * (`disclose_aggregate` defaults to `false`).
 *
 * @example
 * ```ts
 * import { solicitationContract } from "./contracts.ts";
 * const { value } = solicitationContract("protection_solicitation").parse({ solicit: ["all"] });
 * if (value.solicit[0] !== "all" || value.disclose_aggregate !== false) throw new Error();
 * ```
 */
export function solicitationContract(call: string): Contract<SolicitationReport> {
  return defineContract(call, {
    solicit: { kind: "list", item: z.string() },
    disclose_aggregate: { kind: "boolean", default: false },
    reasoning: { kind: "text" },
  });
}

/**
 * Bank-run reply contracts (Appendix G): the depositor's withdrawal call, the
 * depositor's mechanism response, and the bank's M1 offer and M2 solicitation calls.
 *
 * @module
 */
import { z } from "zod";
import { type Contract, defineContract } from "../../core/contract.ts";

/** Recipients of a disclosure: nobody, everybody, or a list of ids. */
export const RecipientsSchema: z.ZodType<"none" | "all" | string[]> = z.union([
  z.literal("none"),
  z.literal("all"),
  z.array(z.string()),
]);

/** One mechanism action of a participant. */
export const ParticipantActionSchema = z.discriminatedUnion("action", [
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
]);

/** A participant's mechanism action. */
export type ParticipantAction = z.infer<typeof ParticipantActionSchema>;

/** One M1 offer as the bank reports it. */
export const OfferItemSchema = z.object({
  target: z.string(),
  amount: z.number().positive(),
  lock_until: z.number().int().min(1),
});

/** Withdrawal call: `{ withdraw_probability: 0-100, reasoning }`. */
export const withdrawalContract: Contract<{ withdraw_probability: number; reasoning: string }> =
  defineContract("withdrawal", {
    withdraw_probability: { kind: "probability" },
    reasoning: { kind: "text" },
  });

/** Mechanism response: `{ proposal_actions: [...], reasoning }`. */
export const mechanismResponseContract: Contract<
  { proposal_actions: ParticipantAction[]; reasoning: string }
> = defineContract("mechanism_response", {
  proposal_actions: { kind: "list", item: ParticipantActionSchema },
  reasoning: { kind: "text" },
});

/** M1 bank call: `{ offers: [{target, amount, lock_until}], disclose_terms_to, reasoning }`. */
export const retentionOfferContract: Contract<{
  offers: z.infer<typeof OfferItemSchema>[];
  disclose_terms_to: "none" | "all" | string[];
  reasoning: string;
}> = defineContract("retention_offer", {
  offers: { kind: "list", item: OfferItemSchema },
  disclose_terms_to: { kind: "value", schema: RecipientsSchema, default: "none" },
  reasoning: { kind: "text" },
});

/** M2 bank call: `{ solicit: ids | ["all"], disclose_aggregate, reasoning }`. */
export const protectionSolicitationContract: Contract<{
  solicit: string[];
  disclose_aggregate: boolean;
  reasoning: string;
}> = defineContract("protection_solicitation", {
  solicit: { kind: "list", item: z.string() },
  disclose_aggregate: { kind: "boolean", default: false },
  reasoning: { kind: "text" },
});

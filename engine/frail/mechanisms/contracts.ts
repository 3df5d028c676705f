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
import {
  checkString,
  checkStringArray,
  INVALID,
  isFiniteNumber,
  isObjectInput,
  withCheck,
} from "../../core/value_check.ts";
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
export const RecipientsSchema: z.ZodType<TermsRecipients> = withCheck(
  z.union([z.literal("none"), z.literal("all"), z.array(z.string())]),
  (v) => (v === "none" || v === "all" ? v : checkStringArray(v)),
);

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
export const ParticipantActionSchema: z.ZodType<ParticipantAction> = withCheck(
  z.discriminatedUnion(
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
  ),
  checkParticipantAction,
);

/** The hand-written check of {@linkcode ParticipantActionSchema} (see `../../core/value_check.ts`). */
function checkParticipantAction(v: unknown): unknown {
  if (!isObjectInput(v)) return INVALID;
  const action = v.action;
  switch (action) {
    case "accept":
      return typeof v.proposal_id === "string" ? { action, proposal_id: v.proposal_id } : INVALID;
    case "decline":
    case "sign": {
      if (!("proposal_id" in v)) return { action };
      const id = v.proposal_id;
      return id === undefined || typeof id === "string" ? { action, proposal_id: id } : INVALID;
    }
    case "exit":
    case "join":
    case "exit_request":
      return { action };
    case "propose_announcement_vote": {
      const to = v.announce_to;
      if (to === undefined || to === "all") return { action, announce_to: "all" };
      const list = checkStringArray(to);
      return list === INVALID ? INVALID : { action, announce_to: list };
    }
    case "vote":
      return typeof v.vote_id === "string" && typeof v.support === "boolean"
        ? { action, vote_id: v.vote_id, support: v.support }
        : INVALID;
    default:
      return INVALID;
  }
}

/**
 * Schema of one M1 offer as the central player reports it.
 *
 * @example
 * ```ts
 * import { OfferItemSchema } from "./contracts.ts";
 * if (OfferItemSchema.safeParse({ target: "a", amount: 0, lock_until: 3 }).success) throw new Error("amount must be positive");
 * ```
 */
export const OfferItemSchema: z.ZodType<OfferProposal> = offerItemSchema("lock_until");

/**
 * The schema of one offer, `{ target, amount, <lock>: integer >= 1 }` with the
 * lock under the key given (`lock_until`, or the bank's `lock_rounds`), and
 * its hand-written check (`../../core/value_check.ts`).
 *
 * @example
 * ```ts
 * import { offerItemSchema } from "./contracts.ts";
 * const s = offerItemSchema("lock_rounds");
 * if (s.parse({ lock_rounds: 2, amount: 0.1, target: "a", x: 1 }).lock_rounds !== 2) throw new Error();
 * ```
 */
export function offerItemSchema<K extends string>(
  lock: K,
): z.ZodType<{ target: string; amount: number } & Record<K, number>> {
  const schema = z.object({
    target: z.string(),
    amount: z.number().positive(),
    [lock]: z.number().int().min(1),
  }) as unknown as z.ZodType<{ target: string; amount: number } & Record<K, number>>;
  return withCheck(
    schema,
    (v) =>
      isObjectInput(v) && typeof v.target === "string" && isFiniteNumber(v.amount) &&
        v.amount > 0 && isCount(v[lock])
        ? { target: v.target, amount: v.amount, [lock]: v[lock] }
        : INVALID,
  );
}

/**
 * Whether a value passes `z.number().int().min(1)`: a safe integer of at least 1.
 *
 * @example
 * ```ts
 * import { isCount } from "./contracts.ts";
 * if (!isCount(3) || isCount(0) || isCount(1.5) || isCount(2 ** 53)) throw new Error();
 * ```
 */
export function isCount(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 1;
}

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
    solicit: { kind: "list", item: withCheck(z.string(), checkString) },
    disclose_aggregate: { kind: "boolean", default: false },
    reasoning: { kind: "text" },
  });
}

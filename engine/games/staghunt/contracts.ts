/**
 * Stag Hunt reply contracts (Section 4.2): a turn reply is
 * `{ action: "Stag" | "Hare", confidence: [0, 1], justification }`; the
 * rejustify reply is `{ justification }`.
 *
 * Reading choices: the action is read case-insensitively with surrounding
 * spaces ignored (`"stag"`, `" STAG "` are Stag); anything else becomes
 * Hare, the risk-dominant action, with a logged correction. A confidence
 * outside [0, 1] or not a number becomes 0.5 with a logged correction.
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { type Contract, defineContract } from "../../core/contract.ts";
import { INVALID, isFiniteNumber, withCheck } from "../../core/value_check.ts";
import type { StagHuntAction } from "./payoffs.ts";

/** Call kind of a turn. */
export const TURN_CALL = "stag_hunt_turn";

/** Call kind of the rejustify call. */
export const REJUSTIFY_CALL = "rejustify";

/** An action as a reply may spell it. */
export const ActionSchema: z.ZodType<StagHuntAction> = withCheck(
  z.preprocess(
    (v) => {
      if (typeof v !== "string") return v;
      const t = v.trim().toLowerCase();
      return t === "stag" ? "Stag" : t === "hare" ? "Hare" : v;
    },
    z.enum(["Stag", "Hare"]),
  ) as z.ZodType<StagHuntAction>,
  (v) => {
    if (v === "Stag" || v === "Hare") return v;
    if (typeof v !== "string") return INVALID;
    const t = v.trim().toLowerCase();
    return t === "stag" ? "Stag" : t === "hare" ? "Hare" : INVALID;
  },
);

/** A confidence: a number in [0, 1]. */
const ConfidenceSchema = withCheck(
  z.number().min(0).max(1),
  (v) => (isFiniteNumber(v) && v >= 0 && v <= 1 ? v : INVALID),
);

/** A turn reply after validation. */
export type TurnReply = {
  /** Original action. */
  action: StagHuntAction;
  /** Confidence in [0, 1]. */
  confidence: number;
  /** One-sentence justification. */
  justification: string;
};

/** Turn call: `{ action, confidence, justification }`. */
export const turnContract: Contract<TurnReply> = defineContract(TURN_CALL, {
  action: { kind: "value", schema: ActionSchema, default: "Hare", required: true },
  confidence: {
    kind: "value",
    schema: ConfidenceSchema,
    default: 0.5,
    required: true,
  },
  justification: { kind: "text" },
});

/** Rejustify call: `{ justification }` for the changed public action. */
export const rejustifyContract: Contract<{ justification: string }> = defineContract(
  REJUSTIFY_CALL,
  { justification: { kind: "text" } },
);

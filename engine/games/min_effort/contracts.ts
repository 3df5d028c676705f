/**
 * The minimum-effort game's one reply contract: every round each player
 * replies `{ effort, reasoning }`.
 *
 * How a player reports: a direct choice of one effort, as the paper's
 * subjects wrote down a number from 1 to 7 (not the FRAIL style of a
 * reported probability that the engine samples from). A choice among seven
 * actions would need seven probabilities and a rule to repair ones that do
 * not sum to 100; the choice keeps the reply and its repairs small, and a
 * mock player's randomness (noise, a uniform draw) comes from its own
 * seeded stream, so episodes stay reproducible and replay exactly.
 *
 * Reading choices: the effort is an integer, or a string of one ("5",
 * " 5 ", read as the number without a correction, as the Stag Hunt reads
 * "stag"); anything else (4.5, "five", 0, a missing field) becomes effort 1,
 * the secure choice, with a logged correction. The contract is the same for
 * every game (contracts do not see parameters), so it accepts 1 to
 * `MAX_EFFORTS`; an effort above the game's highest is replaced by 1 in the
 * round's step, with an `override` event (see `environment.ts`).
 *
 * @module
 */
import { z } from "npm:zod@4.6.7";
import { type Contract, defineContract } from "../../core/contract.ts";
import { INVALID, withCheck } from "../../core/value_check.ts";
import { MAX_EFFORTS } from "./params.ts";

/** Call kind of a player's effort choice. */
export const EFFORT_CALL = "effort_choice";

/** The effort a reply gets when it gives none that can be read: 1, the secure choice. */
export const DEFAULT_EFFORT = 1;

function readEffort(v: unknown): unknown {
  const n = typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  return typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= MAX_EFFORTS ? n : INVALID;
}

/** An effort as a reply may write it: an integer 1..`MAX_EFFORTS`, or a string of one. */
export const EffortSchema: z.ZodType<number> = withCheck(
  z.preprocess(
    (v) => (typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.number().int().min(1).max(MAX_EFFORTS),
  ) as z.ZodType<number>,
  readEffort,
);

/** An effort-choice reply after validation. */
export type EffortReply = {
  /** The effort chosen, 1..`MAX_EFFORTS` (the step checks the game's highest). */
  effort: number;
  /** The player's reasoning, free text. */
  reasoning: string;
};

/**
 * Effort call: `{ effort, reasoning }`.
 *
 * @example
 * ```ts
 * import { effortContract } from "./contracts.ts";
 * const ok = effortContract.parse({ effort: " 6 ", reasoning: "Match the minimum." });
 * if (ok.value.effort !== 6 || ok.corrections.length !== 0) throw new Error();
 * const bad = effortContract.parse({ effort: 4.5, reasoning: "" });
 * if (bad.value.effort !== 1 || bad.corrections[0].field !== "effort") throw new Error();
 * ```
 */
export const effortContract: Contract<EffortReply> = defineContract(EFFORT_CALL, {
  effort: { kind: "value", schema: EffortSchema, default: DEFAULT_EFFORT, required: true },
  reasoning: { kind: "text" },
});
